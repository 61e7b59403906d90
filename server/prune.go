package server

import (
	"net/http"

	"github.com/labstack/echo/v4"

	"kith/server/input"
)

// handlePrune deletes every person of the caller's account with all that
// is theirs; it takes no parameters, and any user of the account may.
func (s *Server) handlePrune(c echo.Context) error {
	if err := s.store.Prune(c.Request().Context(), input.Account(c)); err != nil {
		return err
	}
	return c.NoContent(http.StatusNoContent)
}
