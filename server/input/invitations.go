package input

import "kith/store"

// Invitee reads who is invited, for the API and the Users page alike.
func Invitee(p *Params) store.Invitee {
	return store.Invitee{
		Email:     p.Email("email", 255),
		FirstName: p.RequiredText("first_name", 255),
		LastName:  p.RequiredText("last_name", 255),
	}
}
