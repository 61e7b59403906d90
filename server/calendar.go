package server

import (
	_ "embed"
	"time"

	"github.com/labstack/echo/v4"

	"kith/server/input"
)

// The caller's calendar: ages and "today" are counted in the user's own
// time zone, by persons, ages and the profile alike.

// userDay returns the requesting user's time zone and today's date in it.
func (s *Server) userDay(c echo.Context) (time.Time, *time.Location) {
	sess, _ := input.Session(c)
	loc := input.UserZone(sess.Timezone)
	return input.DateOf(s.store.Now().In(loc)), loc
}
