package server

import (
	"net/http"

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
	CreatedAt int64  `json:"created_at"`
	UpdatedAt int64  `json:"updated_at"`
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
	en, created, err := s.store.JournalEntry(c.Request().Context(), input.Account(c), id,
		input.DateNumber(c.Param("year")), input.DateNumber(c.Param("month")), input.DateNumber(c.Param("day")))
	if err != nil {
		return err
	}
	status := http.StatusOK
	if created {
		status = http.StatusCreated
	}
	return c.JSON(status, dataBody[entryJSON]{entryJSON{ID: en.ID, Object: "entry", Day: en.Day, Month: en.Month, Year: en.Year,
		CreatedAt: en.CreatedAt, UpdatedAt: en.UpdatedAt}})
}
