package web

import (
	"errors"
	"net/http"
	"net/url"
	"strconv"
	"strings"

	"github.com/labstack/echo/v4"

	"kith/server/input"
	"kith/store"
)

// settingsView is the settings page: a section for each setting.
type settingsView struct {
	// Open names the form that failed, drawn open with its errors.
	Open string
	// The forms, each in its section.
	Profile, Timezone, Reminders, Password, Key, Channel, Category, Gender, RelationshipType, Feed, Import, VCard Form
	// Name and Email are the user's, as the profile has them.
	Name, Email string
	Keys        []keyRow
	// Token is a key just made, shown this once; TokenName its label.
	Token, TokenName string
	Channels         []channelRow
	// Categories and Genders are the account's lists.
	Categories []store.TaskCategory
	Genders    []store.Gender
	Types      []typeRow
	// Secret is the signing key Kith just made for a webhook, shown once.
	Secret string
	// HasFeed says whether the user has a calendar feed, made FeedMade;
	// FeedURL is a feed's address just made, shown this once.
	HasFeed           bool
	FeedMade, FeedURL string
	// DAV is the CardDAV server's address, Book the account's address
	// book's, UserName what a client signs in as.
	DAV, Book, UserName string
}

// settingsState is what a form's answer adds to the page: a form that
// failed, or a secret to show once.
type settingsState struct {
	failed
	token, tokenName string
	secret           string
	feedURL          string
	// testOf is the channel whose test failed, with testErr.
	testOf  int64
	testErr string
	// inUseOf is the relationship type that a relationship kept from
	// being deleted, with inUseErr.
	inUseOf  int64
	inUseErr string
	// problems are an import's that name a place in the file rather
	// than a field.
	problems []string
}

// zoneOptions are the time zones the select offers: every name zone
// takes, in order.
var zoneOptions = Choices(strings.Fields(input.ZoneList)...)

func (a *App) handleSettings(c echo.Context) error {
	return a.settingsPage(c, http.StatusOK, settingsState{})
}

// settingsPage draws the settings page with st's failed form or secrets.
func (a *App) settingsPage(c echo.Context, status int, st settingsState) error {
	ctx, d := c.Request().Context(), a.datesOf(c)
	sess, _ := input.Session(c)
	u, err := a.store.User(ctx, sess.UserID)
	if err != nil {
		return err
	}
	tok := csrf(c)
	v := settingsView{Open: st.form, Name: store.FullName(u.FirstName, &u.LastName), Email: u.Email,
		Token: st.token, TokenName: st.tokenName, Secret: st.secret, FeedURL: st.feedURL,
		DAV: a.base(c) + "/dav/", Book: a.base(c) + "/dav/" + itoa64(u.ID) + "/addressbooks/contacts/", UserName: u.Email}

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

	zones := zoneOptions
	if _, ok := input.Zone(u.Timezone); !ok {
		zones = append([]Option{{Value: "", Label: "Choose a time zone"}}, zones...)
	}
	v.Timezone = Form{ID: "timezone", Action: "/settings/timezone", Submit: "Save time zone", CSRF: tok, Fields: []Field{
		{Name: "timezone", Label: "Time zone", Type: "select", Options: zones, Required: true,
			Hint: "Dates, reminders and the daily digest follow it."},
	}}.Fill(formOr(st.failed, "timezone", url.Values{"timezone": {u.Timezone}}))

	rs, err := a.store.ReminderSettings(ctx, sess.UserID)
	if err != nil {
		return err
	}
	reminders := url.Values{"days": {strconv.FormatInt(rs.Days, 10)}}
	if rs.SendAt != nil {
		reminders.Set("send_at", *rs.SendAt)
	}
	v.Reminders = Form{ID: "reminders", Action: "/settings/reminders", Submit: "Save reminders", CSRF: tok, Fields: []Field{
		{Name: "send_at", Label: "Send the digest at", Type: "time", Hint: "HH:MM in your time zone; empty: the server's hour, " + a.o.SendAt + "."},
		{Name: "days", Label: "Days ahead", Type: "number", Hint: "How far ahead the digest looks, 0 to 365."},
	}}.Fill(formOr(st.failed, "reminders", reminders))

	v.Password = Form{ID: "password", Action: "/settings/password", Submit: "Change password", CSRF: tok, Fields: []Field{
		{Name: "current_password", Label: "Current password", Type: "password", Required: true, Auto: "current-password"},
		{Name: "new_password", Label: "New password", Type: "password", Required: true, Auto: "new-password",
			Hint: "8 to 72 characters. Your other browsers are signed out; your API keys and phones keep working."},
	}}.Fill(formOr(st.failed, "password", nil))

	if v.Keys, err = a.keyRows(c, d); err != nil {
		return err
	}
	v.Key = keyForm(tok).Fill(formOr(st.failed, "key", nil))

	if v.Channels, err = a.channelRows(c, d, st); err != nil {
		return err
	}
	v.Channel = channelForm(tok).Fill(formOr(st.failed, "channel", url.Values{"enabled": {"1"}}))

	if v.Categories, err = a.store.TaskCategories(ctx, input.Account(c)); err != nil {
		return err
	}
	v.Category = categoryForm(tok, "category", "/settings/categories", "Add category").Fill(formOr(st.failed, "category", nil))
	if v.Genders, err = a.store.Genders(ctx, input.Account(c)); err != nil {
		return err
	}
	v.Gender = genderForm(tok, "gender", "/settings/genders", "Add gender", false).Fill(formOr(st.failed, "gender", nil))
	if v.Types, err = a.typeRows(c, st); err != nil {
		return err
	}
	v.RelationshipType = relationshipTypeForm(tok, "relationship-type", "/settings/relationship-types", "Add relationship type").
		Fill(formOr(st.failed, "relationship-type", url.Values{"group": {"other"}}))

	feed, err := a.store.CalendarFeed(ctx, sess.UserID)
	switch {
	case err == nil:
		v.HasFeed, v.FeedMade = true, d.moment(feed.CreatedAt)
	case !errors.Is(err, store.ErrCalendarFeedNotFound):
		return err
	}

	v.Import = Form{ID: "import", Action: "/settings/import", Submit: "Import", CSRF: tok, Multipart: true, Fields: []Field{
		{Name: "file", Label: "Kith export (JSON)", Type: "file", Required: true,
			Hint: "Restores an export into this account, which must have no people yet."},
	}}.Fill(formOr(st.failed, "import", nil))
	v.VCard = Form{ID: "vcard", Action: "/settings/import/vcard", Submit: "Import contacts", CSRF: tok, Multipart: true, Fields: []Field{
		{Name: "file", Label: "vCard file (.vcf)", Type: "file", Required: true,
			Hint: "Adds a person for each card, or updates the person a card came from."},
	}}.Fill(formOr(st.failed, "vcard", nil))
	switch st.form {
	case "import":
		v.Import.Errors = st.problems
	case "vcard":
		v.VCard.Errors = st.problems
	}
	return a.render(c, status, "settings", Page{Title: "Settings", Nav: "settings", Data: v})
}

// failedForm is the state of a form whose input err refused, with the
// values it sent.
func failedForm(c echo.Context, form string, err error) settingsState {
	return settingsState{failed: failed{form: form, values: c.Request().PostForm, errs: input.FieldErrors(err)}}
}

func (a *App) handleProfile(c echo.Context) error {
	p := input.FormParams(c)
	if status, err := a.emailChangeAllowed(c, p); err != nil {
		if input.FieldErrors(err) != nil {
			return a.settingsPage(c, status, failedForm(c, "profile", err))
		}
		return err
	}
	_, err := a.o.UpdateProfile(c, p)
	if fe := input.FieldErrors(err); fe != nil {
		return a.settingsPage(c, http.StatusUnprocessableEntity, failedForm(c, "profile", err))
	}
	if err != nil {
		return err
	}
	return a.seeOther(c, "/settings", "Profile saved.")
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
		return ae.Status, input.Invalid("current_password", "Too many attempts. Wait a minute, then try again.")
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
		return a.settingsPage(c, status, failedForm(c, "password", err))
	}
	if err != nil {
		return err
	}
	return a.seeOther(c, "/settings#password", "Password changed. Your other browsers are signed out.")
}

// handleReminders sets when the digest goes out and how far it looks.
func (a *App) handleReminders(c echo.Context) error {
	sess, _ := input.Session(c)
	p := input.FormParams(c)
	rs := input.ReminderSettings(p)
	err := p.Err()
	if err == nil {
		err = a.store.SetReminderSettings(c.Request().Context(), sess.UserID, rs)
	}
	if fe := input.FieldErrors(err); fe != nil {
		return a.settingsPage(c, http.StatusUnprocessableEntity, failedForm(c, "reminders", err))
	}
	if err != nil {
		return err
	}
	return a.seeOther(c, "/settings", "Reminders saved.")
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
		return a.settingsPage(c, http.StatusUnprocessableEntity, failedForm(c, "timezone", err))
	}
	if err != nil {
		return err
	}
	// The dashboard's proposal of the browser's zone goes back there.
	if c.FormValue("back") == "dashboard" {
		return a.seeOther(c, "/", "Time zone set to "+tz+".")
	}
	return a.seeOther(c, "/settings", "Time zone set to "+tz+".")
}
