package server

import (
	"context"
	"net/http"
	"net/url"
	"strconv"

	"github.com/labstack/echo/v4"

	"kith/server/input"
	"kith/store"
)

type journalJSON struct {
	ID        int64  `json:"id"`
	Object    string `json:"object"`
	Name      string `json:"name"`
	Slug      string `json:"slug"`
	CreatedAt int64  `json:"created_at"`
	UpdatedAt int64  `json:"updated_at"`
}

func journalOut(j *store.Journal) journalJSON {
	return journalJSON{ID: j.ID, Object: "journal", Name: j.Name, Slug: j.Slug, CreatedAt: j.CreatedAt, UpdatedAt: j.UpdatedAt}
}

func journalResponse(c echo.Context, status int, j store.Journal) error {
	return c.JSON(status, dataBody[journalJSON]{journalOut(&j)})
}

func (s *Server) handleJournalList(c echo.Context) error {
	js, err := s.store.Journals(c.Request().Context(), input.Account(c))
	if err != nil {
		return err
	}
	out := make([]journalJSON, len(js))
	for i := range js {
		out[i] = journalOut(&js[i])
	}
	return c.JSON(http.StatusOK, dataBody[[]journalJSON]{out})
}

func (s *Server) handleJournalShow(c echo.Context) error {
	id, err := input.PathID(c, "journal", store.ErrJournalNotFound)
	if err != nil {
		return err
	}
	j, err := s.store.Journal(c.Request().Context(), input.Account(c), id)
	if err != nil {
		return err
	}
	return journalResponse(c, http.StatusOK, j)
}

func (s *Server) handleJournalCreate(c echo.Context) error {
	p, err := input.ReadParams(c)
	if err != nil {
		return err
	}
	name := input.Journal(p)
	if err := p.Err(); err != nil {
		return err
	}
	j, err := s.store.CreateJournal(c.Request().Context(), input.Account(c), name)
	if err != nil {
		return err
	}
	return journalResponse(c, http.StatusCreated, j)
}

func (s *Server) handleJournalUpdate(c echo.Context) error {
	ctx, acct := c.Request().Context(), input.Account(c)
	id, err := input.PathID(c, "journal", store.ErrJournalNotFound)
	if err != nil {
		return err
	}
	p, err := input.ReadParams(c)
	if err != nil {
		return err
	}
	name := input.Journal(p)
	if err := input.Validated(p, func() error { _, err := s.store.Journal(ctx, acct, id); return err }); err != nil {
		return err
	}
	j, err := s.store.UpdateJournal(ctx, acct, id, name)
	if err != nil {
		return err
	}
	return journalResponse(c, http.StatusOK, j)
}

// handleJournalDelete deletes a journal with its entries.
func (s *Server) handleJournalDelete(c echo.Context) error {
	id, err := input.PathID(c, "journal", store.ErrJournalNotFound)
	if err != nil {
		return err
	}
	if err := s.store.DeleteJournal(c.Request().Context(), input.Account(c), id); err != nil {
		return err
	}
	return c.NoContent(http.StatusNoContent)
}

type entryJSON struct {
	ID        int64  `json:"id"`
	Object    string `json:"object"`
	Day       int    `json:"day"`
	Month     int    `json:"month"`
	Year      int    `json:"year"`
	Body      string `json:"body"`
	CreatedAt int64  `json:"created_at"`
	UpdatedAt int64  `json:"updated_at"`
}

func entryOut(en *store.Entry) entryJSON {
	return entryJSON{ID: en.ID, Object: "entry", Day: en.Day, Month: en.Month, Year: en.Year, Body: en.Body,
		CreatedAt: en.CreatedAt, UpdatedAt: en.UpdatedAt}
}

// entryResponse answers an entry: 201 when the request made it.
func entryResponse(c echo.Context, en store.Entry, created bool) error {
	status := http.StatusOK
	if created {
		status = http.StatusCreated
	}
	return c.JSON(status, dataBody[entryJSON]{entryOut(&en)})
}

// entryDate reads the date of an entry's path; a part that is not a
// number is 0, which ValidDate refuses.
func entryDate(c echo.Context) (year, month, day int) {
	return input.DateNumber(c.Param("year")), input.DateNumber(c.Param("month")), input.DateNumber(c.Param("day"))
}

// handleEntryByDate answers the journal's entry for the date of the path,
// made by the first request that asks for it (201), the same entry after
// (200). A date that does not exist is 404, never a validation error: the
// path names no row.
func (s *Server) handleEntryByDate(c echo.Context) error {
	id, err := input.PathID(c, "journal", store.ErrJournalNotFound)
	if err != nil {
		return err
	}
	year, month, day := entryDate(c)
	en, created, err := s.store.JournalEntry(c.Request().Context(), input.Account(c), id, year, month, day)
	if err != nil {
		return err
	}
	return entryResponse(c, en, created)
}

// handleEntryWrite replaces the text of the journal's entry for the date
// of the path, making the entry (201) when the journal had none for it.
func (s *Server) handleEntryWrite(c echo.Context) error {
	ctx, acct := c.Request().Context(), input.Account(c)
	id, err := input.PathID(c, "journal", store.ErrJournalNotFound)
	if err != nil {
		return err
	}
	year, month, day := entryDate(c)
	p, err := input.ReadParams(c)
	if err != nil {
		return err
	}
	body := input.EntryBody(p)
	if err := input.Validated(p, func() error { return s.entryDateExists(ctx, acct, id, year, month, day) }); err != nil {
		return err
	}
	en, created, err := s.store.WriteEntry(ctx, acct, id, year, month, day, body)
	if err != nil {
		return err
	}
	return entryResponse(c, en, created)
}

// entryDateExists is the 404 of a path that names no entry's place: a
// journal that is not the account's, then a date that does not exist.
func (s *Server) entryDateExists(ctx context.Context, acct, journal int64, year, month, day int) error {
	if _, err := s.store.Journal(ctx, acct, journal); err != nil {
		return err
	}
	if !store.ValidDate(year, month, day) {
		return store.ErrEntryNotFound
	}
	return nil
}

// handleEntryList answers a page of the journal's entries, the newest
// date first; q narrows it to the entries whose text holds q.
func (s *Server) handleEntryList(c echo.Context) error {
	ctx, acct := c.Request().Context(), input.Account(c)
	id, err := input.PathID(c, "journal", store.ErrJournalNotFound)
	if err != nil {
		return err
	}
	p, err := input.ReadParams(c)
	if err != nil {
		return err
	}
	page, perPage := readPage(p)
	q := p.Text("q", maxEntrySearch)
	if err := input.Validated(p, func() error { _, err := s.store.Journal(ctx, acct, id); return err }); err != nil {
		return err
	}
	var query url.Values
	search := ""
	if q != nil {
		search, query = *q, url.Values{"q": {*q}}
	}
	entries, total, err := s.store.SearchEntries(ctx, acct, id, search, perPage, input.PageOffset(page, perPage))
	if err != nil {
		return err
	}
	out := make([]entryJSON, len(entries))
	for i := range entries {
		out[i] = entryOut(&entries[i])
	}
	path := s.base(c) + "/api/journals/" + strconv.FormatInt(id, 10) + "/entries"
	return c.JSON(http.StatusOK, pageOfQuery(path, query, out, page, perPage, total, p.Sent("per_page")))
}

// maxEntrySearch is the longest q of an entries list, in characters.
const maxEntrySearch = 255
