package server

import (
	"sync"
	"time"

	"github.com/labstack/echo/v4"
)

// The caller's calendar: ages and "today" are counted in the user's own
// time zone, by persons, ages and the profile alike.

// zones caches loaded time zones: time.LoadLocation reads and parses a
// file on every call.
var zones sync.Map

// zone returns the IANA time zone name. "Local" names the host's own zone,
// not a place, so it is refused.
func zone(name string) (*time.Location, bool) {
	if loc, ok := zones.Load(name); ok {
		return loc.(*time.Location), true
	}
	if name == "" || name == "Local" {
		return nil, false
	}
	loc, err := time.LoadLocation(name)
	if err != nil {
		return nil, false
	}
	zones.Store(name, loc)
	return loc, true
}

// dateOf is the calendar date of t where t is, as midnight UTC, so that
// dates from any zone compare with each other and with parsed dates.
func dateOf(t time.Time) time.Time {
	y, m, d := t.Date()
	return time.Date(y, m, d, 0, 0, 0, 0, time.UTC)
}

// userDay returns the requesting user's time zone and today's date in it.
func (s *Server) userDay(c echo.Context) (time.Time, *time.Location) {
	sess, _ := session(c)
	loc, ok := zone(sess.Timezone)
	if !ok {
		loc = time.UTC
	}
	return dateOf(s.store.Now().In(loc)), loc
}
