package web

import (
	"net/http"
	"net/url"
	"strconv"
	"time"

	"github.com/labstack/echo/v4"

	"kith/server/input"
	"kith/store"
)

type personView struct {
	ID        int64
	Name      string
	Protected bool
	// Birthday says when the person's next birthday is, within
	// birthdaySoon days: "turns 40 on 17 Mar, in 2 days".
	Birthday   string
	Facts      []fact
	Appearance []fact
	Age        string
	Touch      string
	// The page's parts, in its order: how to reach them, what needs
	// doing, then the record of them.
	Contact personSection
	Todo    []personSection // important dates, reminders, tasks
	Record  []personSection // notes, interactions, gifts, …
	// Forms of the person's own fields, each in a section of its own.
	AgeForm, LookForm, TouchForm Form
	// Open names the form that failed, drawn open with its errors.
	Open string
	links
}

type fact struct{ Label, Value string }

// personSection is one kind of the person's records, with its form.
type personSection struct {
	Slug, Title, Noun string
	Items             []childItem
	Form              Form
	// Open draws the form open, with its errors.
	Open bool
	// Base is the person's page, CSRF the token of the items' buttons.
	Base, CSRF string
}

// todoKinds are the kinds of what needs doing, drawn after the contact
// details and before the record.
var todoKinds = map[string]bool{"tasks": true, "important-dates": true, "reminders": true}

// failed is a form that came back with errors: which one, with what.
type failed struct {
	form   string
	values url.Values
	errs   map[string][]string
	// choices are the people a name typed in the relationship form may
	// mean, for its select.
	choices []Option
}

func (a *App) handlePerson(c echo.Context) error {
	per, err := a.webPerson(c)
	if err != nil {
		return err
	}
	return a.personPage(c, http.StatusOK, per, failed{})
}

// personPage draws everything Kith knows of the person, with a form for
// each kind of it; f is a form to draw again with its errors.
func (a *App) personPage(c echo.Context, status int, per store.Person, f failed) error {
	ctx, acct, d := c.Request().Context(), input.Account(c), a.datesOf(c)
	base := "/people/" + itoa64(per.ID)
	v := personView{ID: per.ID, Name: store.FullName(per.FirstName, per.LastName), Protected: !per.CanBeDeleted, Open: f.form}
	var err error
	if v.links, err = a.personLinks(c, per, f); err != nil {
		return err
	}
	v.Facts = personFacts(per, d)
	v.Age = ageText(per.Age, d)
	for i, name := range store.AppearanceFields {
		if val := per.Appearance[i]; val != nil {
			v.Appearance = append(v.Appearance, fact{appearanceLabel(name), *val})
		}
	}
	for _, k := range Children {
		items, err := k.list(a, ctx, d, acct, per.ID)
		if err != nil {
			return err
		}
		fields, err := k.fields(a, c)
		if err != nil {
			return err
		}
		form := Form{ID: k.Slug, Action: base + "/" + k.Slug, Submit: "Add " + k.Noun, CSRF: csrf(c), Fields: fields}
		if f.form == k.Slug {
			form = form.Fill(f.values, plainErrors(fields, f.errs))
		}
		sec := personSection{Slug: k.Slug, Title: k.Title, Noun: k.Noun, Items: items, Form: form,
			Open: f.form == k.Slug, Base: base, CSRF: csrf(c)}
		switch {
		case k.Slug == "contact-details":
			v.Contact = sec
		case todoKinds[k.Slug]:
			v.Todo = append(v.Todo, sec)
		default:
			v.Record = append(v.Record, sec)
		}
	}
	birthdays, err := a.store.ImportantDates(ctx, acct, per.ID)
	if err != nil {
		return err
	}
	v.Birthday = nextBirthday(per.Age, birthdays, d)
	touch, err := a.store.StayInTouch(ctx, acct, per.ID)
	if err != nil {
		return err
	}
	v.Touch = touchText(touch, d)
	v.AgeForm = fill(ageForm(base, csrf(c)), f, "age", ageValues(per.Age))
	v.LookForm = fill(lookForm(base, csrf(c)), f, "appearance", lookValues(per))
	touchValues := url.Values{}
	if touch.EveryDays > 0 {
		touchValues.Set("every_days", strconv.FormatInt(touch.EveryDays, 10))
	}
	v.TouchForm = fill(Form{ID: "stay-in-touch", Action: base + "/stay-in-touch", Submit: "Save", CSRF: csrf(c), Fields: []Field{
		{Name: "every_days", Label: "Get in touch every (days)", Type: "number", Hint: "Empty: no reminder."},
	}}, f, "stay-in-touch", touchValues)
	return a.render(c, status, "person", Page{Title: v.Name, Nav: "people", Data: v})
}

// fill fills one of the person's own forms: with the failed form's
// values and errors, worded for the page, if it is form, else values.
func fill(form Form, f failed, name string, values url.Values) Form {
	if f.form == name {
		return form.Fill(f.values, plainErrors(form.Fields, f.errs))
	}
	return form.Fill(values, nil)
}

// appearanceLabel is an appearance field's name as the page shows it.
// The API's field is "tatoos", a misspelling the contract keeps.
func appearanceLabel(name string) string {
	if name == "tatoos" {
		return "Tattoos"
	}
	return words(name)
}

// formOr is the failed form's values and errors if it is form, else values.
func formOr(f failed, form string, values url.Values) (url.Values, map[string][]string) {
	if f.form == form {
		return f.values, f.errs
	}
	return values, nil
}

func personFacts(p store.Person, d dates) []fact {
	var out []fact
	add := func(label string, v *string) {
		if v != nil && *v != "" {
			out = append(out, fact{label, *v})
		}
	}
	add("Nickname", p.Nickname)
	add("Maiden name", p.MaidenName)
	if p.Gender != nil {
		add("Gender", &p.Gender.Name)
	}
	if p.MaritalStatus != "unknown" {
		add("Marital status", ptr(words(p.MaritalStatus)))
	}
	if p.KidsStatus != "unknown" {
		add("Kids", ptr(words(p.KidsStatus)))
	}
	add("How we met", p.HowWeMet)
	return out
}

// ageText says what Kith knows of a person's age, as of today.
func ageText(a store.Age, d dates) string {
	age, _ := a.YearsOld(d.today, d.loc)
	switch deref(a.Type) {
	case "exact":
		born := strconv.FormatInt(*a.Year, 10)
		if a.Month != nil && a.Day != nil {
			born = d.day(dateOfYMD(*a.Year, *a.Month, *a.Day))
		} else if a.Month != nil {
			born = time.Month(*a.Month).String() + " " + born
		}
		return strconv.FormatInt(age, 10) + " (born " + born + ")"
	case "estimated":
		return "about " + strconv.FormatInt(age, 10)
	case "bracket":
		return "between " + deref(a.Bracket) + " years"
	}
	return ""
}

func touchText(t store.Contact, d dates) string {
	if t.EveryDays == 0 {
		return ""
	}
	s := "Every " + strconv.FormatInt(t.EveryDays, 10) + " days"
	if due, ok := t.DueOn(); ok {
		if day, err := parseDate(due); err == nil {
			s += "; due " + d.relative(day)
		}
	}
	return s
}

func ageForm(base, token string) Form {
	return Form{ID: "age", Action: base + "/age", Submit: "Save age", CSRF: token, Fields: []Field{
		{Name: "age_type", Label: "What you know", Type: "select", Fits: true, Options: []Option{
			{Value: "exact", Label: "Their birthday"}, {Value: "estimated", Label: "Their age, roughly"}, {Value: "bracket", Label: "An age range"}}},
		{Name: "age_year", Label: "Birth year", Type: "number", For: "exact"},
		{Name: "age_month", Label: "Birth month", Type: "number", Hint: "1 to 12", For: "exact"},
		{Name: "age_day", Label: "Birth day", Type: "number", Hint: "1 to 31", For: "exact"},
		{Name: "estimated_age", Label: "Estimated age", Type: "number", For: "estimated"},
		{Name: "age_bracket", Label: "Age range", Type: "text", Hint: "30-40", For: "bracket"},
		{Name: "add_yearly_reminder", Label: "Remind me of their birthday", Type: "checkbox", For: "exact"},
	}}
}

func ageValues(a store.Age) url.Values {
	out := url.Values{"add_yearly_reminder": {"1"}}
	if a.Type == nil {
		return out
	}
	out.Set("age_type", *a.Type)
	set := func(k string, n *int64) {
		if n != nil {
			out.Set(k, strconv.FormatInt(*n, 10))
		}
	}
	set("age_year", a.Year)
	set("age_month", a.Month)
	set("age_day", a.Day)
	set("estimated_age", a.Estimated)
	if a.Bracket != nil {
		out.Set("age_bracket", *a.Bracket)
	}
	if a.YearlyReminder != nil && !*a.YearlyReminder {
		out.Set("add_yearly_reminder", "0")
	}
	return out
}

func lookForm(base, token string) Form {
	f := Form{ID: "appearance", Action: base + "/appearance", Submit: "Save appearance", CSRF: token}
	for _, name := range store.AppearanceFields {
		f.Fields = append(f.Fields, Field{Name: name, Label: appearanceLabel(name), Type: "text"})
	}
	return f
}

func lookValues(p store.Person) url.Values {
	out := url.Values{}
	for i, name := range store.AppearanceFields {
		if v := p.Appearance[i]; v != nil {
			out.Set(name, *v)
		}
	}
	return out
}

// handleAge sets the person's age with the API's rules.
func (a *App) handleAge(c echo.Context) error {
	per, err := a.webPerson(c)
	if err != nil {
		return err
	}
	p := input.FormParams(c)
	today, _ := a.userDay(c)
	age := input.Age(p, today, a.store.Now().Unix())
	if err := p.Err(); err != nil {
		return a.personPage(c, http.StatusUnprocessableEntity, per, failed{form: "age", values: c.Request().PostForm, errs: input.FieldErrors(err)})
	}
	if _, err := a.store.SetAge(c.Request().Context(), input.Account(c), per.ID, age); err != nil {
		return err
	}
	return a.seeOther(c, "/people/"+itoa64(per.ID)+"#age", "Age saved.")
}

func (a *App) handleAppearance(c echo.Context) error {
	per, err := a.webPerson(c)
	if err != nil {
		return err
	}
	p := input.FormParams(c)
	changes := input.Appearance(p)
	if err := p.Err(); err != nil {
		return a.personPage(c, http.StatusUnprocessableEntity, per, failed{form: "appearance", values: c.Request().PostForm, errs: input.FieldErrors(err)})
	}
	if _, err := a.store.UpdateAppearance(c.Request().Context(), input.Account(c), per.ID, changes); err != nil {
		return err
	}
	return a.seeOther(c, "/people/"+itoa64(per.ID)+"#appearance", "Appearance saved.")
}

// handleStayInTouch sets how often to get in touch; empty stops it.
func (a *App) handleStayInTouch(c echo.Context) error {
	per, err := a.webPerson(c)
	if err != nil {
		return err
	}
	p := input.FormParams(c)
	every := p.Between("every_days", 1, 3650)
	if err := p.Err(); err != nil {
		return a.personPage(c, http.StatusUnprocessableEntity, per, failed{form: "stay-in-touch", values: c.Request().PostForm, errs: input.FieldErrors(err)})
	}
	today, _ := a.userDay(c)
	if _, err := a.store.SetStayInTouch(c.Request().Context(), input.Account(c), per.ID, every, today.Format(time.DateOnly)); err != nil {
		return err
	}
	return a.seeOther(c, "/people/"+itoa64(per.ID)+"#stay-in-touch", "Saved.")
}
