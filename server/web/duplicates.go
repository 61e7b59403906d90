package web

import (
	"net/http"
	"strconv"

	"github.com/labstack/echo/v4"

	"kith/server/input"
	"kith/store"
)

type duplicatesView struct {
	Pairs      []duplicatePair
	Prev, Next string
}

type duplicatePair struct {
	Reason        string
	First, Second store.DuplicatePerson
}

// handleDuplicates lists the account's possible duplicates, each pair with
// a Merge button that keeps the first person: the API's pairs, 50 a page.
func (a *App) handleDuplicates(c echo.Context) error {
	page, _ := strconv.ParseInt(c.QueryParam("page"), 10, 64)
	page = max(page, 1)
	offset := input.PageOffset(page, webPerPage)
	pairs, total, err := a.store.Duplicates(c.Request().Context(), input.Account(c), webPerPage, offset)
	if err != nil {
		return err
	}
	v := duplicatesView{Pairs: make([]duplicatePair, len(pairs))}
	for i, d := range pairs {
		v.Pairs[i] = duplicatePair{Reason: d.Reason, First: d.First, Second: d.Second}
	}
	if page > 1 {
		v.Prev = "/people/duplicates?page=" + strconv.FormatInt(page-1, 10)
	}
	if len(pairs) > 0 && offset+int64(len(pairs)) < total {
		v.Next = "/people/duplicates?page=" + strconv.FormatInt(page+1, 10)
	}
	return a.render(c, http.StatusOK, "duplicates", Page{Title: "Possible duplicates", Nav: "people", Data: v})
}

// handleMerge merges the person of person_id into the page's person, by
// the API's rules, and shows the kept person.
func (a *App) handleMerge(c echo.Context) error {
	ctx, acct := c.Request().Context(), input.Account(c)
	keptID, err := input.PathID(c, "person", store.ErrPersonNotFound)
	if err != nil {
		return err
	}
	p := input.FormParams(c)
	otherID := input.MergeTarget(p, keptID)
	if err := input.Validated(p, func() error {
		_, err := a.store.Person(ctx, acct, keptID)
		return err
	}); err != nil {
		return err
	}
	kept, err := a.store.MergePersons(ctx, acct, keptID, otherID)
	if err != nil {
		return input.MergeError(err)
	}
	return a.seeOther(c, "/people/"+strconv.FormatInt(kept.ID, 10), "Merged into "+store.FullName(kept.FirstName, kept.LastName)+".")
}
