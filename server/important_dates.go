package server

import (
	"fmt"

	"github.com/labstack/echo/v4"

	"kith/server/input"
	"kith/store"
)

type importantDateJSON struct {
	ID           int64  `json:"id"`
	Object       string `json:"object"`
	Label        string `json:"label"`
	Date         string `json:"date"`
	Year         *int64 `json:"year"`
	Month        int64  `json:"month"`
	Day          int64  `json:"day"`
	RemindYearly bool   `json:"remind_yearly"`
	CreatedAt    int64  `json:"created_at"`
	UpdatedAt    int64  `json:"updated_at"`
}

func importantDateOut(d *store.ImportantDate) importantDateJSON {
	return importantDateJSON{
		ID: d.ID, Object: "important_date", Label: d.Label, Date: dayString(d.Year, d.Month, d.Day),
		Year: d.Year, Month: d.Month, Day: d.Day, RemindYearly: d.RemindYearly,
		CreatedAt: d.CreatedAt, UpdatedAt: d.UpdatedAt,
	}
}

// dayString writes a day as YYYY-MM-DD, or as vCard's --MM-DD when the
// year is unknown.
func dayString(year *int64, month, day int64) string {
	if year == nil {
		return fmt.Sprintf("--%02d-%02d", month, day)
	}
	return fmt.Sprintf("%04d-%02d-%02d", *year, month, day)
}

func (s *Server) handleImportantDateList(c echo.Context) error {
	return importantDates.listAll(c, func(c echo.Context, acct, person int64) ([]store.ImportantDate, error) {
		return s.store.ImportantDates(c.Request().Context(), acct, person)
	})
}

// importantDates serves the dates of a person (see child).
var importantDates = child[store.ImportantDate, store.ImportantDateInput]{input.ImportantDates, func(v *store.ImportantDate) any { return importantDateOut(v) }}

func (s *Server) handleImportantDateShow(c echo.Context) error { return importantDates.show(s, c) }
func (s *Server) handleImportantDateCreate(c echo.Context) error {
	return importantDates.doCreate(s, c)
}
func (s *Server) handleImportantDateUpdate(c echo.Context) error { return importantDates.replace(s, c) }
func (s *Server) handleImportantDateDelete(c echo.Context) error { return importantDates.delete(s, c) }
