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
	ID          int64
	Name, Email string
	// Joined says whether they have chosen a password; You, whether they
	// are the one reading.
	Joined, You bool
	// Refused is why a new link for them was just refused.
	Refused string
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
		row := userRow{ID: u.ID, Name: store.FullName(u.FirstName, &u.LastName), Email: u.Email,
			Joined: u.Joined(), You: u.ID == sess.UserID}
		if u.ID == st.refusedOf {
			row.Refused = st.refusal
		}
		v.Users = append(v.Users, row)
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

// handleReinvite sends an invited user of the account a new link, as the
// API's resend does, voiding the last; a refusal is shown beside them.
func (a *App) handleReinvite(c echo.Context) error {
	id, err := input.PathID(c, "user", store.ErrUserNotFound)
	if err != nil {
		return err
	}
	u, err := a.o.Reinvite(c, id)
	var ae *input.Error
	if errors.As(err, &ae) {
		return a.settingsPage(c, ae.Status, "users", settingsState{refusedOf: id, refusal: ae.Message})
	}
	if err != nil {
		return err
	}
	return a.seeOther(c, "/settings/users", "A new invitation is on its way to "+u.Email+": the last link no longer works.")
}
