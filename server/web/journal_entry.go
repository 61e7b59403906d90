package web

import (
	"errors"
	"fmt"
	"net/http"
	"net/url"
	"strings"
	"time"

	"github.com/labstack/echo/v4"

	"kith/server/input"
	"kith/store"
)

// entryView is one day of a journal: its text, and the form that writes
// it.
type entryView struct {
	JournalID int64
	Journal   string
	Date      string
	Body      string
	// Made tells an entry that exists from a day not opened yet.
	Made bool
	Form Form
}

// entryPath is the page of a journal's day.
func entryPath(journal int64, year, month, day int) string {
	return fmt.Sprintf("/journals/%d/%d/%d/%d", journal, year, month, day)
}

// webEntryDay is the journal and the date the path names, or the 404 of
// another account's or a missing journal, then of a date that is none.
func (a *App) webEntryDay(c echo.Context) (j store.Journal, year, month, day int, err error) {
	if j, err = a.webJournal(c); err != nil {
		return j, 0, 0, 0, err
	}
	year, month, day = input.DateNumber(c.Param("year")), input.DateNumber(c.Param("month")), input.DateNumber(c.Param("day"))
	if !store.ValidDate(year, month, day) {
		return j, 0, 0, 0, store.ErrEntryNotFound
	}
	return j, year, month, day, nil
}

// entryPage shows the day's text and its form, filled with values and
// errs when a post was refused.
func (a *App) entryPage(c echo.Context, status int, j store.Journal, year, month, day int, values url.Values, errs map[string][]string) error {
	en, err := a.store.EntryOn(c.Request().Context(), input.Account(c), j.ID, year, month, day)
	made := err == nil
	if err != nil && !errors.Is(err, store.ErrEntryNotFound) {
		return err
	}
	if values == nil {
		values = url.Values{"body": {en.Body}}
	}
	v := entryView{JournalID: j.ID, Journal: j.Name, Body: en.Body, Made: made,
		Date: a.datesOf(c).day(time.Date(year, time.Month(month), day, 0, 0, 0, 0, time.UTC))}
	v.Form = Form{ID: "entry", Action: entryPath(j.ID, year, month, day), Submit: "Save", CSRF: csrf(c), Fields: []Field{
		{Name: "body", Label: "Entry", Type: "textarea", Hint: "Up to 100,000 characters. Saving an empty text clears it."},
	}}.Fill(values, errs)
	return a.render(c, status, "journal_entry", Page{Title: v.Date + " · " + j.Name, Nav: "journals", Data: v})
}

// handleEntry shows a journal's day. Unlike the API's entry by date, a
// look makes no entry: saving does.
func (a *App) handleEntry(c echo.Context) error {
	j, year, month, day, err := a.webEntryDay(c)
	if err != nil {
		return err
	}
	return a.entryPage(c, http.StatusOK, j, year, month, day, nil, nil)
}

// handleEntrySave writes the day's text by the API's rules (its PUT's
// reader and store call), making the entry when the day had none.
func (a *App) handleEntrySave(c echo.Context) error {
	j, year, month, day, err := a.webEntryDay(c)
	if err != nil {
		return err
	}
	p := input.FormParams(c)
	// A browser sends a textarea's line breaks as CRLF; the API's
	// clients read the text with the LF they write.
	body := strings.ReplaceAll(input.EntryBody(p), "\r\n", "\n")
	err = p.Err()
	if err == nil {
		_, _, err = a.store.WriteEntry(c.Request().Context(), input.Account(c), j.ID, year, month, day, body)
	}
	if fe := input.FieldErrors(err); fe != nil {
		return a.entryPage(c, http.StatusUnprocessableEntity, j, year, month, day, c.Request().PostForm, fe)
	}
	if err != nil {
		return err
	}
	return a.seeOther(c, entryPath(j.ID, year, month, day), "Saved.")
}
