package web

import (
	"errors"
	"net/http"

	"github.com/labstack/echo/v4"

	"kith/server/input"
	"kith/store"
)

// usersView is the Users page: who shares the account, and the
// invitation's form.
type usersView struct {
	Users  []userRow
	Invite Form
}

// userRow is a user of the account as the Users page lists them.
type userRow struct {
	Name, Email string
	// Joined says whether they have chosen a password; You, whether they
	// are the one reading.
	Joined, You bool
}

func inviteForm(csrf string) Form {
	return Form{ID: "invite", Action: "/settings/users", Submit: "Invite", CSRF: csrf, Fields: []Field{
		{Name: "email", Label: "Email", Type: "email", Required: true, Auto: "off"},
		{Name: "first_name", Label: "First name", Type: "text", Required: true, Auto: "off"},
		{Name: "last_name", Label: "Last name", Type: "text", Required: true, Auto: "off"},
	}}
}

func (a *App) fillUsers(c echo.Context, v *settingsView, st settingsState) error {
	sess, _ := input.Session(c)
	users, err := a.store.AccountUsers(c.Request().Context(), sess.AccountID)
	if err != nil {
		return err
	}
	for _, u := range users {
		v.Users = append(v.Users, userRow{Name: store.FullName(u.FirstName, &u.LastName), Email: u.Email,
			Joined: u.Joined(), You: u.ID == sess.UserID})
	}
	v.Invite = inviteForm(csrf(c)).Fill(formOr(st.failed, "invite", nil))
	return nil
}

// handleInvite invites someone into the account as the API does, under
// the same daily budget; its refusals, in the API's words, are the Email
// field's.
func (a *App) handleInvite(c echo.Context) error {
	sess, _ := input.Session(c)
	p := input.FormParams(c)
	in := input.Invitee(p)
	status, err := http.StatusUnprocessableEntity, p.Err()
	if err == nil {
		_, err = a.o.Invite(c, sess.UserID, in)
	}
	var ae *input.Error
	if errors.As(err, &ae) {
		status, err = ae.Status, input.Invalid("email", ae.Message)
	}
	if input.FieldErrors(err) != nil {
		return a.settingsPage(c, status, "users", failedForm(c, "invite", err))
	}
	if err != nil {
		return err
	}
	return a.seeOther(c, "/settings/users", "Invitation sent to "+in.Email+". The link works once, for 72 hours.")
}
