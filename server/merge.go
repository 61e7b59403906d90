package server

import (
	"net/http"

	"github.com/labstack/echo/v4"

	"kith/server/input"
	"kith/store"
)

// handlePersonMerge merges the person of person_id into the person of the
// path, which is kept (Kith's own: PeopleOS cannot merge duplicates).
func (s *Server) handlePersonMerge(c echo.Context) error {
	ctx, acct := c.Request().Context(), input.Account(c)
	keptID, err := input.PathID(c, "person", store.ErrPersonNotFound)
	if err != nil {
		return err
	}
	p, err := input.ReadParams(c)
	if err != nil {
		return err
	}
	otherID := input.MergeTarget(p, keptID)
	if err := input.Validated(p, s.personExists(ctx, acct, keptID)); err != nil {
		return err
	}
	merged, err := s.store.MergePersons(ctx, acct, keptID, otherID)
	if err != nil {
		return input.MergeError(err)
	}
	return s.personResponse(c, http.StatusOK, merged)
}
