package server

import (
	"net/http"

	"github.com/labstack/echo/v4"

	"kith/server/input"
)

type duplicateJSON struct {
	Object  string                 `json:"object"`
	Reason  string                 `json:"reason"`
	Persons [2]duplicatePersonJSON `json:"persons"`
}

type duplicatePersonJSON struct {
	ID   int64  `json:"id"`
	Name string `json:"name"`
}

// handleDuplicateList answers a page of the account's pairs of persons
// that may be one: the same name, email or phone number.
func (s *Server) handleDuplicateList(c echo.Context) error {
	p, err := input.ReadParams(c)
	if err != nil {
		return err
	}
	page, perPage := readPage(p)
	if err := p.Err(); err != nil {
		return err
	}
	pairs, total, err := s.store.Duplicates(c.Request().Context(), input.Account(c), perPage, input.PageOffset(page, perPage))
	if err != nil {
		return err
	}
	out := make([]duplicateJSON, len(pairs))
	for i, d := range pairs {
		out[i] = duplicateJSON{Object: "duplicate", Reason: d.Reason, Persons: [2]duplicatePersonJSON{
			{ID: d.First.ID, Name: d.First.Name}, {ID: d.Second.ID, Name: d.Second.Name}}}
	}
	return c.JSON(http.StatusOK, pageOf(s.base(c)+"/api/persons/duplicates", out, page, perPage, total, p.Sent("per_page")))
}
