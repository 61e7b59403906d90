package server

import (
	"github.com/labstack/echo/v4"

	"kith/server/input"
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

func (s *Server) handleWorkHistoryList(c echo.Context) error {
	return workEntries.listPage(s, c, "work-history", (*store.Store).WorkHistory)
}

// workEntries serves the work history of a person (see child).
var workEntries = child[store.WorkEntry, store.WorkEntryInput]{input.WorkEntries, func(v *store.WorkEntry) any { return workEntryOut(v) }}

func (s *Server) handleWorkEntryShow(c echo.Context) error   { return workEntries.show(s, c) }
func (s *Server) handleWorkEntryCreate(c echo.Context) error { return workEntries.doCreate(s, c) }
func (s *Server) handleWorkEntryUpdate(c echo.Context) error { return workEntries.replace(s, c) }
func (s *Server) handleWorkEntryDelete(c echo.Context) error { return workEntries.delete(s, c) }
