package web

import (
	"net/http"
	"net/url"
	"strconv"

	"github.com/labstack/echo/v4"

	"kith/server/input"
	"kith/store"
)

// personFields are the person form's fields; genders fill its select.
func personFields(genders []store.Gender) []Field {
	gs := []Option{{Value: "", Label: "—"}}
	for _, g := range genders {
		gs = append(gs, Option{Value: strconv.FormatInt(g.ID, 10), Label: g.Name})
	}
	return []Field{
		{Name: "first_name", Label: "First name", Type: "text", Required: true, Auto: "off"},
		{Name: "last_name", Label: "Last name", Type: "text", Auto: "off"},
		{Name: "middle_name", Label: "Middle name", Type: "text", Auto: "off"},
		{Name: "nickname", Label: "Nickname", Type: "text", Auto: "off"},
		{Name: "maiden_name", Label: "Maiden name", Type: "text", Auto: "off"},
		{Name: "prefix", Label: "Prefix", Type: "text", Hint: "Dr, Ms, …", Auto: "off"},
		{Name: "suffix", Label: "Suffix", Type: "text", Hint: "Jr, III, …", Auto: "off"},
		{Name: "gender_id", Label: "Gender", Type: "select", Options: gs},
		{Name: "marital_status", Label: "Marital status", Type: "select", Options: labelled(input.MaritalStatuses)},
		{Name: "kids_status", Label: "Kids", Type: "select", Options: labelled(input.KidsStatuses)},
		{Name: "how_we_met", Label: "How we met", Type: "textarea"},
	}
}

// labelled makes options of API values, shown in words: "no_kids" is
// "No kids".
func labelled(values []string) []Option {
	out := make([]Option, len(values))
	for i, v := range values {
		out[i] = Option{Value: v, Label: words(v)}
	}
	return out
}

// words is an API value as a person reads it.
func words(v string) string {
	b := []byte(input.Attr(v))
	if len(b) > 0 && b[0] >= 'a' && b[0] <= 'z' {
		b[0] -= 'a' - 'A'
	}
	return string(b)
}

// personValues are a person's fields as the form holds them.
func personValues(p store.Person) url.Values {
	v := url.Values{"first_name": {p.FirstName}, "marital_status": {p.MaritalStatus}, "kids_status": {p.KidsStatus}}
	for k, s := range map[string]*string{"middle_name": p.MiddleName, "last_name": p.LastName, "nickname": p.Nickname,
		"maiden_name": p.MaidenName, "prefix": p.Prefix, "suffix": p.Suffix, "how_we_met": p.HowWeMet} {
		v.Set(k, deref(s))
	}
	if p.Gender != nil {
		v.Set("gender_id", strconv.FormatInt(p.Gender.ID, 10))
	}
	return v
}

type personFormView struct {
	Form   Form
	Person *store.Person
}

// personFormPage draws the new-person or edit-person form.
func (a *App) personFormPage(c echo.Context, status int, per *store.Person, values url.Values, errs map[string][]string) error {
	genders, err := a.store.Genders(c.Request().Context(), input.Account(c))
	if err != nil {
		return err
	}
	fields := personFields(genders)
	// Adding, the names come first, then what quick add takes, then the
	// rest behind "More details"; editing shows every field.
	f := Form{ID: "person", Action: "/people", Submit: "Add person", CSRF: csrf(c),
		Fields: append(fields[:2:2], quickFields...), More: fields[2:]}
	title := "Add a person"
	if per != nil {
		f = Form{ID: "person", Action: "/people/" + itoa64(per.ID), Submit: "Save", CSRF: csrf(c), Fields: fields}
		title = "Edit " + store.FullName(per.FirstName, per.LastName)
	}
	return a.render(c, status, "person_form", Page{Title: title, Nav: "people",
		Data: personFormView{Form: f.Fill(values, errs), Person: per}})
}

func (a *App) handlePersonNew(c echo.Context) error {
	return a.personFormPage(c, http.StatusOK, nil, nil, nil)
}

// quickFields are what adding a person takes beyond the person's own
// fields: a birthday, an email and a phone.
var quickFields = []Field{
	{Name: "birthday", Label: "Birthday", Type: "date"},
	{Name: "email", Label: "Email", Type: "email", Auto: "off"},
	{Name: "phone", Label: "Phone", Type: "tel", Auto: "off"},
}

// handlePersonCreate adds a person with, when given, their birthday as
// an exact age, an email and a phone: one store call, so that nothing is
// made when any of it is refused.
func (a *App) handlePersonCreate(c echo.Context) error {
	p := input.FormParams(c)
	in := input.Person(p)
	age := input.Birthday(p, "birthday", a.today(c))
	var details []store.ContactDetailInput
	for _, d := range [][2]string{{"email", "email"}, {"phone", "phone"}} {
		if in := input.DetailOf(p, d[0], d[1]); in != nil {
			details = append(details, *in)
		}
	}
	err := p.Err()
	var per store.Person
	if err == nil {
		per, err = a.store.CreatePersonWith(c.Request().Context(), input.Account(c), in, age, details)
		err = input.PersonError(err)
	}
	if fe := input.FieldErrors(err); fe != nil {
		return a.personFormPage(c, http.StatusUnprocessableEntity, nil, c.Request().PostForm, fe)
	}
	if err != nil {
		return err
	}
	return a.seeOther(c, "/people/"+itoa64(per.ID), store.FullName(per.FirstName, per.LastName)+" added.")
}
