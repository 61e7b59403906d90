package input

import (
	"errors"
	"net/http"

	"kith/store"
)

func Person(p *Params) store.PersonInput {
	in := store.PersonInput{
		FirstName:     p.RequiredText("first_name", 255),
		LastName:      p.Text("last_name", 255),
		MiddleName:    p.Text("middle_name", 255),
		Nickname:      p.Text("nickname", 255),
		MaidenName:    p.Text("maiden_name", 255),
		Prefix:        p.Text("prefix", 255),
		Suffix:        p.Text("suffix", 255),
		HowWeMet:      p.longText("how_we_met", 255),
		MaritalStatus: p.OneOf("marital_status", MaritalStatuses, "unknown"),
		KidsStatus:    p.OneOf("kids_status", KidsStatuses, "unknown"),
		GenderID:      p.Integer("gender_id"),
		CanBeDeleted:  true,
		IsListed:      true,
	}
	if in.GenderID != nil && *in.GenderID <= 0 {
		p.Fail("gender_id", MsgUnknownGender)
	}
	if b := p.Boolean("can_be_deleted"); b != nil {
		in.CanBeDeleted = *b
	}
	if b := p.Boolean("is_listed"); b != nil {
		in.IsListed = *b
	}
	return in
}

// Appearance reads the appearance fields sent; one sent empty is
// cleared, one not sent stays.
func Appearance(p *Params) map[string]*string {
	changes := make(map[string]*string)
	for _, f := range store.AppearanceFields {
		if p.Sent(f) {
			changes[f] = p.Text(f, 255)
		}
	}
	return changes
}

var (
	MaritalStatuses = []string{"unknown", "single", "couple"}
	KidsStatuses    = []string{"unknown", "no_kids", "maybe_kids", "has_kids"}
)

// PersonError turns an unknown gender into the 422 a client can act on.
func PersonError(err error) error {
	if errors.Is(err, store.ErrUnknownGender) {
		return Invalid("gender_id", MsgUnknownGender)
	}
	return err
}

var ErrPersonProtected = &Error{Status: http.StatusForbidden, Message: "This person cannot be deleted."}
