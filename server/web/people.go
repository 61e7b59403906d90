package web

import (
	"errors"
	"net/http"
	"net/url"
	"strconv"

	"github.com/labstack/echo/v4"

	"kith/server/input"
	"kith/store"
)

// webPerPage is how many people a page of the list shows.
const webPerPage = 50

type peopleView struct {
	Q string
	// Tag is the name of the tag whose people the list shows, "" for
	// everyone; Clear is the list without it.
	Tag, Clear string
	Total      int64
	People     []personRow
	Page       int64
	Prev       string
	Next       string
	Showing    string
}

type personRow struct {
	ID             int64
	Name, Nickname string
	Face           face
}

// handlePeople lists the account's people, or those a search finds (the
// API's search, so any part of a name, nickname or email), or those who
// have a tag (the API's ?tag=), or both.
func (a *App) handlePeople(c echo.Context) error {
	q, tag := c.QueryParam("q"), c.QueryParam("tag")
	page, _ := strconv.ParseInt(c.QueryParam("page"), 10, 64)
	page = max(page, 1)
	p := input.NewParams(map[string]any{"q": q, "tag": tag})
	text := p.Text("q", store.MaxSearchLength)
	tagged := input.TagFilter(p)
	v := peopleView{Q: q, Tag: deref(tagged), Clear: "/people" + query("q", q)}
	if err := p.Err(); err != nil {
		return a.render(c, http.StatusUnprocessableEntity, "people", Page{Title: "People", Nav: "people",
			Data: v, Flash: err.Error()})
	}
	persons, total, err := a.findPeople(c, text, tagged, input.PageOffset(page, webPerPage))
	if err != nil {
		return err
	}
	v.Total, v.Page, v.People = total, page, make([]personRow, len(persons))
	for i, per := range persons {
		v.People[i] = personRow{ID: per.ID, Name: store.FullName(per.FirstName, per.LastName), Nickname: deref(per.Nickname), Face: faceOf(per)}
	}
	link := func(n int64) string {
		return "/people" + query("page", strconv.FormatInt(n, 10), "q", q, "tag", v.Tag)
	}
	if page > 1 {
		v.Prev = link(page - 1)
	}
	// By the rows this page holds, not page*webPerPage, which overflows
	// for a page number no link gives; a page past the end has none.
	offset := input.PageOffset(page, webPerPage)
	if len(persons) > 0 && offset+int64(len(persons)) < total {
		v.Next = link(page + 1)
	}
	if len(persons) > 0 {
		first := offset + 1
		v.Showing = strconv.FormatInt(first, 10) + "–" + strconv.FormatInt(first+int64(len(persons))-1, 10) + " of " + strconv.FormatInt(total, 10)
	}
	return a.render(c, http.StatusOK, "people", Page{Title: "People", Nav: "people", Data: v})
}

// findPeople is a page of the people the list shows: those who have the
// tag (and match the search, if any), those the search finds, or everyone
// by name.
func (a *App) findPeople(c echo.Context, q, tag *string, offset int64) ([]store.Person, int64, error) {
	ctx, acct := c.Request().Context(), input.Account(c)
	switch {
	case tag != nil:
		return a.store.TaggedPersons(ctx, acct, *tag, q, webPerPage, offset)
	case q != nil:
		return a.store.SearchPersons(ctx, acct, *q, webPerPage, offset)
	}
	return a.store.PersonsByName(ctx, acct, webPerPage, offset)
}

func deref(s *string) string {
	if s == nil {
		return ""
	}
	return *s
}

// personFields are the person form's fields; genders fill its select.
func personFields(genders []store.Gender) []Field {
	gs := []Option{{Value: "", Label: "—"}}
	for _, g := range genders {
		gs = append(gs, Option{Value: strconv.FormatInt(g.ID, 10), Label: g.Name})
	}
	return []Field{
		{Name: "first_name", Label: "First name", Type: "text", Required: true, Auto: "off"},
		{Name: "middle_name", Label: "Middle name", Type: "text", Auto: "off"},
		{Name: "last_name", Label: "Last name", Type: "text", Auto: "off"},
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
	f := Form{ID: "person", Action: "/people", Submit: "Add person", CSRF: csrf(c), Fields: personFields(genders)}
	title := "Add a person"
	if per != nil {
		f.Action, f.Submit = "/people/"+itoa64(per.ID), "Save"
		title = "Edit " + store.FullName(per.FirstName, per.LastName)
	}
	return a.render(c, status, "person_form", Page{Title: title, Nav: "people",
		Data: personFormView{Form: f.Fill(values, errs), Person: per}})
}

func (a *App) handlePersonNew(c echo.Context) error {
	return a.personFormPage(c, http.StatusOK, nil, nil, nil)
}

func (a *App) handlePersonCreate(c echo.Context) error {
	p := input.FormParams(c)
	in := input.Person(p)
	err := p.Err()
	var per store.Person
	if err == nil {
		per, err = a.store.CreatePerson(c.Request().Context(), input.Account(c), in)
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

// webPerson is the person the path names, or the 404 of another
// account's or a missing one.
func (a *App) webPerson(c echo.Context) (store.Person, error) {
	id, err := input.PathID(c, "person", store.ErrPersonNotFound)
	if err != nil {
		return store.Person{}, err
	}
	return a.store.Person(c.Request().Context(), input.Account(c), id)
}

func (a *App) handlePersonEdit(c echo.Context) error {
	per, err := a.webPerson(c)
	if err != nil {
		return err
	}
	return a.personFormPage(c, http.StatusOK, &per, personValues(per), nil)
}

// handlePersonUpdate replaces the person's fields, as the API's PUT
// does; whether they are listed and protected, which the form does not
// show, stay as they were.
func (a *App) handlePersonUpdate(c echo.Context) error {
	ctx, acct := c.Request().Context(), input.Account(c)
	per, err := a.webPerson(c)
	if err != nil {
		return err
	}
	p := input.FormParams(c)
	in := input.Person(p)
	in.CanBeDeleted, in.IsListed = per.CanBeDeleted, per.IsListed
	err = p.Err()
	if err == nil {
		_, err = a.store.UpdatePerson(ctx, acct, per.ID, in)
		err = input.PersonError(err)
	}
	if fe := input.FieldErrors(err); fe != nil {
		return a.personFormPage(c, http.StatusUnprocessableEntity, &per, c.Request().PostForm, fe)
	}
	if err != nil {
		return err
	}
	return a.seeOther(c, "/people/"+itoa64(per.ID), "Saved.")
}

func (a *App) handlePersonDelete(c echo.Context) error {
	per, err := a.webPerson(c)
	if err != nil {
		return err
	}
	err = a.store.DeletePerson(c.Request().Context(), input.Account(c), per.ID)
	if errors.Is(err, store.ErrPersonProtected) {
		return input.ErrPersonProtected
	}
	if err != nil {
		return err
	}
	return a.seeOther(c, "/people", store.FullName(per.FirstName, per.LastName)+" deleted.")
}
