package web

import (
	"errors"
	"net/http"
	"net/url"
	"strings"
	"sync"

	"github.com/labstack/echo/v4"

	"kith/server/input"
	"kith/store"
)

// profileView is the Profile page: who the user is, their time zone and
// their password.
type profileView struct {
	// Name and Email are the user's, as the profile has them.
	Name, Email                 string
	Profile, Timezone, Password Form
}

// zoneOptions are the time zones the select offers: every name zone
// takes, in order. Made at first use, not at every start.
var zoneOptions = sync.OnceValue(func() []Option { return Choices(strings.Fields(input.ZoneList)...) })

func (a *App) fillProfile(c echo.Context, v *settingsView, st settingsState) error {
	sess, _ := input.Session(c)
	u, err := a.store.User(c.Request().Context(), sess.UserID)
	if err != nil {
		return err
	}
	tok, d := csrf(c), a.datesOf(c)
	v.Name, v.Email = store.FullName(u.FirstName, &u.LastName), u.Email
	profile := url.Values{"first_name": {u.FirstName}, "last_name": {u.LastName}, "nickname": {deref(u.Nickname)}, "email": {u.Email}}
	if u.BornAt != nil {
		profile.Set("born_at", d.iso(*u.BornAt))
	}
	v.Profile = Form{ID: "profile", Action: "/settings/profile", Submit: "Save profile", CSRF: tok, Fields: []Field{
		{Name: "first_name", Label: "First name", Type: "text", Required: true, Auto: "given-name"},
		{Name: "last_name", Label: "Last name", Type: "text", Required: true, Auto: "family-name"},
		{Name: "nickname", Label: "Nickname", Type: "text", Auto: "nickname"},
		{Name: "email", Label: "Email", Type: "email", Required: true, Auto: "email",
			Hint: "A new address gets a link to verify it; until then, Kith mails nothing to it."},
		{Name: "born_at", Label: "Birthday", Type: "date", Auto: "bday"},
		{Name: "current_password", Label: "Current password", Type: "password", Auto: "current-password",
			Hint: "Needed only to change the email."},
	}}.Fill(formOr(st.failed, "profile", profile))

	zones := zoneOptions()
	if _, ok := input.Zone(u.Timezone); !ok {
		zones = append([]Option{{Value: "", Label: "Choose a time zone"}}, zones...)
	}
	v.Timezone = Form{ID: "timezone", Action: "/settings/timezone", Submit: "Save time zone", CSRF: tok, Fields: []Field{
		{Name: "timezone", Label: "Time zone", Type: "select", Options: zones, Required: true,
			Hint: "Dates, reminders and the daily digest follow it."},
	}}.Fill(formOr(st.failed, "timezone", url.Values{"timezone": {u.Timezone}}))

	v.Password = Form{ID: "password", Action: "/settings/password", Submit: "Change password", CSRF: tok, Fields: []Field{
		{Name: "current_password", Label: "Current password", Type: "password", Required: true, Auto: "current-password"},
		{Name: "new_password", Label: "New password", Type: "password", Required: true, Auto: "new-password",
			Hint: "8 to 72 characters. Your other browsers are signed out; your API keys and phones keep working."},
	}}.Fill(formOr(st.failed, "password", nil))
	return nil
}

// profileFailed draws the Profile page again with form's errors.
func (a *App) profileFailed(c echo.Context, status int, form string, err error) error {
	return a.settingsPage(c, status, "profile", failedForm(c, form, err))
}

func (a *App) handleProfile(c echo.Context) error {
	p := input.FormParams(c)
	if status, err := a.emailChangeAllowed(c, p); err != nil {
		if input.FieldErrors(err) != nil {
			return a.profileFailed(c, status, "profile", err)
		}
		return err
	}
	_, err := a.o.UpdateProfile(c, p)
	if fe := input.FieldErrors(err); fe != nil {
		return a.profileFailed(c, http.StatusUnprocessableEntity, "profile", err)
	}
	if err != nil {
		return err
	}
	return a.seeOther(c, "/settings/profile", "Profile saved.")
}

// emailChangeAllowed asks for the current password when the profile form
// changes the email, checked as a sign-in is: a session left open must not
// be enough to move the account to another address (and then reset its
// password there). The API asks only when api.email_change_needs_password
// is on: PeopleOS's clients change the email with a key alone.
func (a *App) emailChangeAllowed(c echo.Context, p *input.Params) (int, error) {
	sess, _ := input.Session(c)
	// No email (the form's own error), or the same one in another case, is
	// no change of address.
	to := strings.TrimSpace(c.Request().PostForm.Get("email"))
	if to == "" || strings.EqualFold(to, sess.Email) {
		return 0, nil
	}
	current := p.Password("current_password", 255)
	if p.Failed("current_password") {
		return http.StatusUnprocessableEntity, input.Invalid("current_password", "The current password is needed to change the email.")
	}
	return a.checkCurrentPassword(c, current)
}

// checkCurrentPassword checks the signed-in user's current password as a
// sign-in is, under the same throttles, for a form that changes what
// signs them in. A refusal is the form's error on current_password, with
// the status to draw it with (422, or 429 while the throttles hold); any
// other error is the server's.
func (a *App) checkCurrentPassword(c echo.Context, current string) (int, error) {
	sess, _ := input.Session(c)
	_, err := a.o.Login(c, sess.Email, current)
	var ae *input.Error
	switch {
	case errors.As(err, &ae) && ae.Status == http.StatusTooManyRequests:
		return ae.Status, input.Invalid("current_password", tooManyWords(c, "Too many attempts."))
	case errors.As(err, &ae):
		return http.StatusUnprocessableEntity, input.Invalid("current_password", "The password is incorrect.")
	}
	return 0, err
}

// handlePassword changes the user's password behind their current one,
// which is checked as a sign-in is, under the same throttles: a session
// left open is not enough to take the account.
func (a *App) handlePassword(c echo.Context) error {
	sess, _ := input.Session(c)
	p := input.FormParams(c)
	current := p.Password("current_password", 255)
	next := p.NewPassword("new_password")
	status, err := http.StatusUnprocessableEntity, p.Err()
	if err == nil {
		status, err = a.checkCurrentPassword(c, current)
	}
	if err == nil {
		err = a.o.ChangePassword(c.Request().Context(), sess.UserID, next, sess.KeyID)
		status = http.StatusTooManyRequests // the one refusal ChangePassword makes: every hashing slot busy
	}
	if input.FieldErrors(err) != nil {
		return a.profileFailed(c, status, "password", err)
	}
	if err != nil {
		return err
	}
	return a.seeOther(c, "/settings/profile#password", "Password changed. Your other browsers are signed out.")
}

func (a *App) handleTimezone(c echo.Context) error {
	sess, _ := input.Session(c)
	p := input.FormParams(c)
	tz := input.Timezone(p)
	err := p.Err()
	if err == nil {
		_, err = a.store.SetTimezone(c.Request().Context(), sess.UserID, tz)
	}
	if fe := input.FieldErrors(err); fe != nil {
		return a.profileFailed(c, http.StatusUnprocessableEntity, "timezone", err)
	}
	if err != nil {
		return err
	}
	// The dashboard's proposal of the browser's zone goes back there.
	if c.FormValue("back") == "dashboard" {
		return a.seeOther(c, "/", "Time zone set to "+tz+".")
	}
	return a.seeOther(c, "/settings/profile", "Time zone set to "+tz+".")
}
