package web

import (
	"errors"
	"net/http"
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
	// Sort is the list's order (store.PersonOrders; "" by name); Sorts
	// are the links that re-sort it.
	Sort    string
	Sorts   []sortLink
	Tags    []string // the account's, for the filter
	Total   int64
	People  []personRow
	Page    int64
	Prev    string
	Next    string
	Showing string
}

type personRow struct {
	ID             int64
	Name, Nickname string
	Face           face
	// Line is the row's second line: the active job's company, else when
	// last in touch; "" for neither.
	Line string
}

// sortLink re-sorts the list, keeping its search and tag.
type sortLink struct {
	Label, Href string
	Current     bool
}

// peopleSorts are the orders the list offers, by their links' words.
var peopleSorts = []struct{ label, sort string }{
	{"First name", ""}, {"Last name", store.OrderByLastName}, {"Last contacted", store.OrderByLastContacted},
}

// handlePeople lists the account's people, or those a search finds (the
// API's search, so any part of a name, nickname or email), or those who
// have a tag (the API's ?tag=), or both; by first name, last name or
// last contact (?sort=).
func (a *App) handlePeople(c echo.Context) error {
	ctx, acct := c.Request().Context(), input.Account(c)
	q, tag := c.QueryParam("q"), c.QueryParam("tag")
	page, _ := strconv.ParseInt(c.QueryParam("page"), 10, 64)
	page = max(page, 1)
	p := input.NewParams(map[string]any{"q": q, "tag": tag, "sort": c.QueryParam("sort")})
	text := p.Text("q", store.MaxSearchLength)
	tagged := input.TagFilter(p)
	sort := p.OneOf("sort", store.PersonOrders, store.OrderByName)
	if sort == store.OrderByName {
		sort = ""
	}
	v := peopleView{Q: q, Tag: deref(tagged), Sort: sort, Clear: "/people" + query("q", q, "sort", sort)}
	tags, err := a.store.Tags(ctx, acct)
	if err != nil {
		return err
	}
	for _, t := range tags {
		v.Tags = append(v.Tags, t.Name)
	}
	for _, s := range peopleSorts {
		v.Sorts = append(v.Sorts, sortLink{s.label, "/people" + query("q", q, "tag", v.Tag, "sort", s.sort), s.sort == sort})
	}
	if err := p.Err(); err != nil {
		return a.render(c, http.StatusUnprocessableEntity, "people", Page{Title: "People", Nav: "people",
			Data: v, Flash: err.Error()})
	}
	offset := input.PageOffset(page, webPerPage)
	persons, total, err := a.store.ListPersons(ctx, acct, store.PersonListQuery{Search: text, Tag: tagged, Order: sort}, webPerPage, offset)
	if err != nil {
		return err
	}
	d := a.datesOf(c)
	v.Total, v.Page, v.People = total, page, make([]personRow, len(persons))
	for i, per := range persons {
		v.People[i] = personRow{ID: per.ID, Name: store.FullName(per.FirstName, per.LastName), Nickname: deref(per.Nickname),
			Face: faceOf(per.Person), Line: personLine(per, d)}
	}
	link := func(n int64) string {
		return "/people" + query("page", strconv.FormatInt(n, 10), "q", q, "tag", v.Tag, "sort", sort)
	}
	if page > 1 {
		v.Prev = link(page - 1)
	}
	// By the rows this page holds, not page*webPerPage, which overflows
	// for a page number no link gives; a page past the end has none.
	if len(persons) > 0 && offset+int64(len(persons)) < total {
		v.Next = link(page + 1)
	}
	if len(persons) > 0 {
		first := offset + 1
		v.Showing = strconv.FormatInt(first, 10) + "–" + strconv.FormatInt(first+int64(len(persons))-1, 10) + " of " + strconv.FormatInt(total, 10)
	}
	return a.render(c, http.StatusOK, "people", Page{Title: "People", Nav: "people", Data: v})
}

// personLine is what a row says under a name: where the person works,
// else when the user was last in touch.
func personLine(p store.ListedPerson, d dates) string {
	if p.Company != nil {
		return *p.Company
	}
	if p.LastContact == nil {
		return ""
	}
	t, err := parseDate(*p.LastContact)
	if err != nil {
		return ""
	}
	if days := d.today.Sub(t).Hours() / 24; days < 0 || days > 30 {
		return "last in touch " + d.day(t)
	}
	return "last in touch " + d.relative(t)
}

func deref(s *string) string {
	if s == nil {
		return ""
	}
	return *s
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
