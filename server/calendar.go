package server

import (
	_ "embed"
	"kith/server/input"
	"time"

	"github.com/labstack/echo/v4"
)

// The caller's calendar: ages and "today" are counted in the user's own
// time zone, by persons, ages and the profile alike.

// userDay returns the requesting user's time zone and today's date in it.
func (s *Server) userDay(c echo.Context) (time.Time, *time.Location) {
	return input.Today(c, s.store.Now())
}

// today is the caller's date, without its zone.
func (s *Server) today(c echo.Context) time.Time {
	t, _ := s.userDay(c)
	return t
}
