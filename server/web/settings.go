package web

import (
	"net/http"

	"github.com/labstack/echo/v4"

	"kith/server/input"
)

// The settings are a menu and a page for each of its sections, each at
// its own address under /settings/. A form of a section posts to its own
// address and answers with its section's page: the section again with
// the form's errors, or a redirect to it.

// section is one page of the settings, as the menu lists it.
type section struct {
	Slug, Title, Blurb string
}

// sections are the settings' pages, in the menu's order.
var sections = []section{
	{"profile", "Profile", "Your name, email, birthday, time zone and password."},
	{"reminders", "Reminders", "When the daily digest goes out, and the channels it goes to."},
	{"phone", "Phone and calendar", "Sync your phone's contacts over CardDAV; subscribe to a calendar feed."},
	{"data", "Data", "Export everything; import from Monica, a CSV file or a vCard file; restore a Kith export; log emails as interactions."},
	{"lists", "Lists", "Task categories, genders and relationship types."},
	{"security", "Security", "Two-factor authentication, passkeys, where you are signed in, and API keys for scripts, apps and phones."},
	{"users", "Users", "Who shares this account, and inviting someone."},
}

// menuItem is a section's link in the settings menu.
type menuItem struct {
	section
	Href    string
	Current bool
}

// settingsView is a settings page: the menu, and the section's own data,
// which its fill function sets.
type settingsView struct {
	// Section is the page's slug, empty on the menu's own page.
	Section string
	Menu    []menuItem
	// Open names the form that failed, drawn open with its errors.
	Open string
	profileView
	remindersView
	phoneView
	dataView
	mailInView
	listsView
	securityView
	usersView
}

// settingsState is what a form's answer adds to its page: a form that
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
	// refusedOf is the user whom a new invitation was just refused, with
	// refusal.
	refusedOf int64
	refusal   string
	twoFactor twoFactorState
	// problems are an import's that name a place in the file rather
	// than a field.
	problems []string
}

// shown is a secret shown this once, and the id of its element, which
// its Copy button names.
type shown struct{ ID, Value string }

// fillers draw each section's part of the view.
var fillers = map[string]func(a *App, c echo.Context, v *settingsView, st settingsState) error{
	"profile": (*App).fillProfile, "reminders": (*App).fillReminders, "phone": (*App).fillPhone,
	"data": (*App).fillData, "lists": (*App).fillLists, "security": (*App).fillSecurity, "users": (*App).fillUsers,
}

// handleSettings is the menu: a line for each section.
func (a *App) handleSettings(c echo.Context) error {
	return a.settingsPage(c, http.StatusOK, "", settingsState{})
}

// settingsSection serves the page of a section.
func (a *App) settingsSection(slug string) echo.HandlerFunc {
	return func(c echo.Context) error { return a.settingsPage(c, http.StatusOK, slug, settingsState{}) }
}

// settingsPage draws a section's page (the menu's, for "") with st's
// failed form or secrets.
func (a *App) settingsPage(c echo.Context, status int, slug string, st settingsState) error {
	v := settingsView{Section: slug, Open: st.form}
	title := "Settings"
	for _, s := range sections {
		v.Menu = append(v.Menu, menuItem{section: s, Href: "/settings/" + s.Slug, Current: s.Slug == slug})
		if s.Slug == slug {
			title = s.Title + " · Settings"
		}
	}
	if fill, ok := fillers[slug]; ok {
		if err := fill(a, c, &v, st); err != nil {
			return err
		}
	}
	return a.render(c, status, "settings", Page{Title: title, Nav: "settings", Data: v})
}

// failedForm is the state of a form whose input err refused, with the
// values it sent.
func failedForm(c echo.Context, form string, err error) settingsState {
	return settingsState{failed: failed{form: form, values: c.Request().PostForm, errs: input.FieldErrors(err)}}
}

// settingsHome is the page that holds the settings form posting to the
// path's segments (settings, then the form's own): its address opened
// again from the address bar goes there.
func settingsHome(seg []string) string {
	if len(seg) < 2 {
		return "/settings"
	}
	switch seg[1] {
	case "profile", "timezone", "password":
		return "/settings/profile"
	case "reminders", "channels":
		return "/settings/reminders"
	case "calendar":
		return "/settings/phone"
	case "import", "export.json", "export.vcf", "mail-in":
		return "/settings/data"
	case "categories", "genders", "relationship-types":
		return "/settings/lists"
	case "keys", "two-factor", "security":
		return "/settings/security"
	case "sessions":
		return "/settings/security"
	case "users":
		return "/settings/users"
	}
	return "/settings"
}

// settingsEditView is an edit page of the settings: one form, and the
// way back to its section.
type settingsEditView struct {
	Form Form
	Back string
}

// settingsEdit draws the edit page of one of the settings' rows.
func (a *App) settingsEdit(c echo.Context, status int, title, back string, f Form) error {
	return a.render(c, status, "settings_edit", Page{Title: title, Nav: "settings",
		Data: settingsEditView{Form: f, Back: back}})
}
