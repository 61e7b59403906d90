package server

import (
	"net/http"
	"strconv"

	"github.com/labstack/echo/v4"

	"kith/store"
)

type workEntryJSON struct {
	ID              int64   `json:"id"`
	Object          string  `json:"object"`
	CompanyName     *string `json:"company_name"`
	JobTitle        string  `json:"job_title"`
	EstimatedSalary *string `json:"estimated_salary"`
	Duration        *string `json:"duration"`
	Active          bool    `json:"active"`
	CreatedAt       int64   `json:"created_at"`
	UpdatedAt       int64   `json:"updated_at"`
}

func workEntryOut(w *store.WorkEntry) workEntryJSON {
	return workEntryJSON{
		ID: w.ID, Object: "work_history", CompanyName: w.CompanyName, JobTitle: w.JobTitle,
		EstimatedSalary: w.EstimatedSalary, Duration: w.Duration, Active: w.Active,
		CreatedAt: w.CreatedAt, UpdatedAt: w.UpdatedAt,
	}
}

func workEntryResponse(c echo.Context, status int, w store.WorkEntry) error {
	return c.JSON(status, dataBody[workEntryJSON]{workEntryOut(&w)})
}

// workEntryInput reads the fields of an entry, the same on create and on
// update, which replaces: what is not sent is cleared.
func workEntryInput(p *params) store.WorkEntryInput {
	in := store.WorkEntryInput{
		JobTitle:        p.requiredText("job_title", 255),
		CompanyName:     p.text("company_name", 255),
		EstimatedSalary: p.text("estimated_salary", 255),
		Duration:        p.text("duration", 255),
	}
	if b := p.boolean("active"); b != nil {
		in.Active = *b
	} else if !p.failed("active") {
		p.fail("active", "The active field is required.")
	}
	return in
}

func (s *Server) handleWorkHistoryList(c echo.Context) error {
	ctx, acct := c.Request().Context(), account(c)
	personID, err := pathID(c, "person", store.ErrPersonNotFound)
	if err != nil {
		return err
	}
	p, err := readParams(c)
	if err != nil {
		return err
	}
	page, perPage := readPage(p)
	if err := validated(p, s.personExists(ctx, acct, personID)); err != nil {
		return err
	}
	entries, total, err := s.store.WorkHistory(ctx, acct, personID, perPage, pageOffset(page, perPage))
	if err != nil {
		return err
	}
	out := make([]workEntryJSON, len(entries))
	for i := range entries {
		out[i] = workEntryOut(&entries[i])
	}
	path := s.base(c) + "/api/persons/" + strconv.FormatInt(personID, 10) + "/work-history"
	return c.JSON(http.StatusOK, pageOf(path, out, page, perPage, total, p.sent("per_page")))
}

func (s *Server) handleWorkEntryShow(c echo.Context) error {
	personID, entryID, err := childIDs(c, "entry", store.ErrWorkEntryNotFound)
	if err != nil {
		return err
	}
	w, err := s.store.WorkEntry(c.Request().Context(), account(c), personID, entryID)
	if err != nil {
		return err
	}
	return workEntryResponse(c, http.StatusOK, w)
}

func (s *Server) handleWorkEntryCreate(c echo.Context) error {
	ctx, acct := c.Request().Context(), account(c)
	personID, err := pathID(c, "person", store.ErrPersonNotFound)
	if err != nil {
		return err
	}
	p, err := readParams(c)
	if err != nil {
		return err
	}
	in := workEntryInput(p)
	if err := validated(p, s.personExists(ctx, acct, personID)); err != nil {
		return err
	}
	w, err := s.store.CreateWorkEntry(ctx, acct, personID, in)
	if err != nil {
		return err
	}
	return workEntryResponse(c, http.StatusCreated, w)
}

func (s *Server) handleWorkEntryUpdate(c echo.Context) error {
	ctx, acct := c.Request().Context(), account(c)
	personID, entryID, err := childIDs(c, "entry", store.ErrWorkEntryNotFound)
	if err != nil {
		return err
	}
	p, err := readParams(c)
	if err != nil {
		return err
	}
	in := workEntryInput(p)
	if err := validated(p, func() error { _, err := s.store.WorkEntry(ctx, acct, personID, entryID); return err }); err != nil {
		return err
	}
	w, err := s.store.UpdateWorkEntry(ctx, acct, personID, entryID, in)
	if err != nil {
		return err
	}
	return workEntryResponse(c, http.StatusOK, w)
}

func (s *Server) handleWorkEntryDelete(c echo.Context) error {
	personID, entryID, err := childIDs(c, "entry", store.ErrWorkEntryNotFound)
	if err != nil {
		return err
	}
	if err := s.store.DeleteWorkEntry(c.Request().Context(), account(c), personID, entryID); err != nil {
		return err
	}
	return c.NoContent(http.StatusNoContent)
}
