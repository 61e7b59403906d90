package web

import (
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/labstack/echo/v4"

	"kith/server/input"
	"kith/store"
)

// webEntriesPerPage is how many entries a page of a journal shows.
const webEntriesPerPage = 100

type journalsView struct {
	Journals []journalRow
	Form     Form
}

type journalRow struct {
	ID     int64
	Name   string
	Count  string // "3 entries"; empty for none
	Latest string // the newest entry's date
}

type journalView struct {
	ID         int64
	Name       string
	Count      string // "3 entries"
	Entries    []entryRow
	Prev, Next string
	Showing    string
	OpenForm   Form
	RenameForm Form
	// Renaming opens the rename form: it has errors to show.
	Renaming bool
}

type entryRow struct {
	ID   int64
	Date string
	When string // "today", "2 days ago"; empty beyond a week
	Href string // the day's page
	// Body is the day's text; an entry without one (made by the API, or
	// cleared) shows as not written.
	Body string
}

// entryExcerpt is how much of a day's text a journal's page shows: a
// page of a hundred long days would otherwise run to megabytes.
const entryExcerpt = 1000

// excerpt is s cut to n characters, with "…" where it was cut.
func excerpt(s string, n int) string {
	if utf8.RuneCountInString(s) <= n {
		return s
	}
	return string([]rune(s)[:n]) + "…"
}

// entryCount is "1 entry", "3 entries".
func entryCount(n int64) string {
	if n == 1 {
		return "1 entry"
	}
	return strconv.FormatInt(n, 10) + " entries"
}

// flashName is a name short enough for a flash, which holds 200 bytes.
func flashName(name string) string {
	if utf8.RuneCountInString(name) <= 60 {
		return name
	}
	return string([]rune(name)[:59]) + "…"
}

func journalForm(c echo.Context) Form {
	return Form{ID: "journal", Action: "/journals", Submit: "Add journal", CSRF: csrf(c), Fields: []Field{
		{Name: "name", Label: "Name", Type: "text", Required: true, Auto: "off"},
	}}
}

// journalsPage lists the account's journals, newest first, with the form
// that adds one.
func (a *App) journalsPage(c echo.Context, status int, values url.Values, errs map[string][]string) error {
	ctx, acct := c.Request().Context(), input.Account(c)
	js, err := a.store.Journals(ctx, acct)
	if err != nil {
		return err
	}
	counts, err := a.store.EntryCounts(ctx, acct)
	if err != nil {
		return err
	}
	d := a.datesOf(c)
	v := journalsView{Journals: make([]journalRow, len(js)), Form: journalForm(c).Fill(values, errs)}
	for i, j := range js {
		v.Journals[i] = journalRow{ID: j.ID, Name: j.Name}
		if n, ok := counts[j.ID]; ok && n.Entries > 0 {
			v.Journals[i].Count = entryCount(n.Entries)
			v.Journals[i].Latest = d.day(time.Date(n.Year, time.Month(n.Month), n.Day, 0, 0, 0, 0, time.UTC))
		}
	}
	return a.render(c, status, "journals", Page{Title: "Journals", Nav: "journals", Data: v})
}

func (a *App) handleJournals(c echo.Context) error {
	return a.journalsPage(c, http.StatusOK, nil, nil)
}

func (a *App) handleJournalCreate(c echo.Context) error {
	p := input.FormParams(c)
	name := input.Journal(p)
	err := p.Err()
	var j store.Journal
	if err == nil {
		j, err = a.store.CreateJournal(c.Request().Context(), input.Account(c), name)
	}
	if fe := input.FieldErrors(err); fe != nil {
		return a.journalsPage(c, http.StatusUnprocessableEntity, c.Request().PostForm, fe)
	}
	if err != nil {
		return err
	}
	return a.seeOther(c, "/journals/"+itoa64(j.ID), flashName(j.Name)+" added.")
}

// webJournal is the journal the path names, or the 404 of another
// account's or a missing one.
func (a *App) webJournal(c echo.Context) (store.Journal, error) {
	id, err := input.PathID(c, "journal", store.ErrJournalNotFound)
	if err != nil {
		return store.Journal{}, err
	}
	return a.store.Journal(c.Request().Context(), input.Account(c), id)
}

// journalForms are the journal page's forms as a post left them: the
// values and errors of the one that was sent.
type journalForms struct {
	open, rename       url.Values
	openErrs, nameErrs map[string][]string
}

// journalPage shows a journal: a page of its entries, newest date first,
// and its forms.
func (a *App) journalPage(c echo.Context, status int, j store.Journal, f journalForms) error {
	pg, _ := strconv.ParseInt(c.QueryParam("page"), 10, 64)
	pg = max(pg, 1)
	entries, total, err := a.store.Entries(c.Request().Context(), input.Account(c), j.ID, webEntriesPerPage, input.PageOffset(pg, webEntriesPerPage))
	if err != nil {
		return err
	}
	d := a.datesOf(c)
	base := "/journals/" + itoa64(j.ID)
	v := journalView{ID: j.ID, Name: j.Name, Count: entryCount(total), Entries: make([]entryRow, len(entries))}
	for i, en := range entries {
		t := time.Date(en.Year, time.Month(en.Month), en.Day, 0, 0, 0, 0, time.UTC)
		v.Entries[i] = entryRow{ID: en.ID, Date: d.day(t), Href: entryPath(j.ID, en.Year, en.Month, en.Day), Body: excerpt(en.Body, entryExcerpt)}
		if days := t.Sub(d.today).Hours() / 24; days >= -7 && days <= 7 {
			v.Entries[i].When = d.relative(t)
		}
	}
	link := func(n int64) string { return base + "?page=" + strconv.FormatInt(n, 10) }
	if pg > 1 {
		v.Prev = link(pg - 1)
	}
	if pg < (total+webEntriesPerPage-1)/webEntriesPerPage {
		v.Next = link(pg + 1)
	}
	if len(entries) > 0 && total > webEntriesPerPage {
		first := input.PageOffset(pg, webEntriesPerPage) + 1
		v.Showing = strconv.FormatInt(first, 10) + "–" + strconv.FormatInt(first+int64(len(entries))-1, 10) + " of " + strconv.FormatInt(total, 10)
	}
	open := f.open
	if open == nil {
		open = url.Values{"date": {d.today.Format(time.DateOnly)}}
	}
	v.OpenForm = Form{ID: "open", Action: base + "/entries", Submit: "Open", CSRF: csrf(c), Fields: []Field{
		{Name: "date", Label: "Date", Type: "date", Required: true, Hint: "Its page shows what you wrote that day, and takes more."},
	}}.Fill(open, f.openErrs)
	rename := f.rename
	if rename == nil {
		rename = url.Values{"name": {j.Name}}
	}
	v.RenameForm = Form{ID: "rename", Action: base, Submit: "Rename", CSRF: csrf(c), Fields: []Field{
		{Name: "name", Label: "Name", Type: "text", Required: true, Auto: "off"},
	}}.Fill(rename, f.nameErrs)
	v.Renaming = f.nameErrs != nil
	return a.render(c, status, "journal", Page{Title: j.Name, Nav: "journals", Data: v})
}

func (a *App) handleJournal(c echo.Context) error {
	j, err := a.webJournal(c)
	if err != nil {
		return err
	}
	return a.journalPage(c, http.StatusOK, j, journalForms{})
}

// handleJournalRename renames the journal, by the API's rules.
func (a *App) handleJournalRename(c echo.Context) error {
	j, err := a.webJournal(c)
	if err != nil {
		return err
	}
	p := input.FormParams(c)
	name := input.Journal(p)
	err = p.Err()
	if err == nil {
		j, err = a.store.UpdateJournal(c.Request().Context(), input.Account(c), j.ID, name)
	}
	if fe := input.FieldErrors(err); fe != nil {
		return a.journalPage(c, http.StatusUnprocessableEntity, j, journalForms{rename: c.Request().PostForm, nameErrs: fe})
	}
	if err != nil {
		return err
	}
	return a.seeOther(c, "/journals/"+itoa64(j.ID), "Renamed to "+flashName(j.Name)+".")
}

// handleJournalDelete deletes the journal with its entries.
func (a *App) handleJournalDelete(c echo.Context) error {
	j, err := a.webJournal(c)
	if err != nil {
		return err
	}
	if err := a.store.DeleteJournal(c.Request().Context(), input.Account(c), j.ID); err != nil {
		return err
	}
	return a.seeOther(c, "/journals", flashName(j.Name)+" deleted.")
}

// Messages of a date the open form refuses.
const (
	msgDateFormat  = "The date field must match the format Y-m-d."
	msgDateInvalid = "The date field must be a valid date."
)

// entryDate reads the date of the entry to open: YYYY-MM-DD (leading
// zeros optional, as in the API's path), a real day of years 1–9999.
func entryDate(p *input.Params) (year, month, day int) {
	s, isText, present := p.Scalar("date")
	if !present {
		if !p.Failed("date") {
			p.Fail("date", "The date field is required.")
		}
		return 0, 0, 0
	}
	parts := strings.Split(s, "-")
	if !isText || len(parts) != 3 || !digits(parts[0], 4) || !digits(parts[1], 2) || !digits(parts[2], 2) {
		p.Fail("date", msgDateFormat)
		return 0, 0, 0
	}
	year, month, day = input.DateNumber(parts[0]), input.DateNumber(parts[1]), input.DateNumber(parts[2])
	if !store.ValidDate(year, month, day) {
		p.Fail("date", msgDateInvalid)
		return 0, 0, 0
	}
	return year, month, day
}

// digits reports whether s is 1 to n ASCII digits.
func digits(s string, n int) bool {
	if s == "" || len(s) > n {
		return false
	}
	for _, r := range s {
		if r < '0' || r > '9' {
			return false
		}
	}
	return true
}

// handleEntryOpen leads to the journal's page of a date. Opening makes
// no entry: saving the day's text does, so that a day only looked at is
// not listed as an empty one.
func (a *App) handleEntryOpen(c echo.Context) error {
	j, err := a.webJournal(c)
	if err != nil {
		return err
	}
	p := input.FormParams(c)
	y, m, d := entryDate(p)
	if err := p.Err(); err != nil {
		return a.journalPage(c, http.StatusUnprocessableEntity, j, journalForms{open: c.Request().PostForm, openErrs: input.FieldErrors(err)})
	}
	return c.Redirect(http.StatusSeeOther, entryPath(j.ID, y, m, d))
}
