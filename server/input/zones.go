package input

import (
	_ "embed"
	"path"
	"strings"
	"sync"
	"time"

	"github.com/labstack/echo/v4"
)

// ZoneList is every name of the IANA time zone database that Go embeds
// (time/tzdata, built from $GOROOT/lib/time/zoneinfo.zip), one a line,
// spelled as there. Regenerate it with the Go release:
//
//	unzip -Z1 "$(go env GOROOT)/lib/time/zoneinfo.zip" | sort > zonenames.txt
//
//go:embed zonenames.txt
var ZoneList string

// zoneNames is the set of names zone accepts. time.LoadLocation alone is
// too lenient: it opens files, so "Europe//Paris", "Europe/./Paris" and
// endless other spellings of one zone load too, and a host's zoneinfo
// directory holds more (posix/, right/) than the database Kith embeds.
var zoneNames = sync.OnceValue(func() map[string]bool {
	m := make(map[string]bool)
	for _, name := range strings.Fields(ZoneList) {
		m[name] = true
	}
	return m
})

// zones caches loaded time zones: time.LoadLocation reads and parses a
// file on every call. Only names of zoneNames get in, so it holds at most
// len(zoneNames) entries, however many spellings clients try.
var zones sync.Map

// Zone returns the time zone of a canonical IANA name, exactly as the
// database spells it (the contract makes names case-sensitive). "Local"
// names the host's own zone, not a place, and is not in the database.
func Zone(name string) (*time.Location, bool) {
	if loc, ok := zones.Load(name); ok {
		return loc.(*time.Location), true
	}
	if !zoneNames()[name] {
		return nil, false
	}
	loc, err := time.LoadLocation(name)
	if err != nil {
		return nil, false
	}
	zones.Store(name, loc)
	return loc, true
}

// DateOf is the calendar date of t where t is, as midnight UTC, so that
// dates from any zone compare with each other and with parsed dates.
func DateOf(t time.Time) time.Time {
	y, m, d := t.Date()
	return time.Date(y, m, d, 0, 0, 0, 0, time.UTC)
}

// UserZone is the time zone of a user's stored zone name; UTC for one
// that names none.
func UserZone(name string) *time.Location {
	// path.Clean reads a spelling stored before names were checked
	// ("Europe//Paris") as the zone it named then.
	loc, ok := Zone(path.Clean(name))
	if !ok {
		return time.UTC
	}
	return loc
}

// Today is the caller's date in their own time zone, as midnight UTC,
// and that zone: what ages and "due" are counted to, on every surface.
func Today(c echo.Context, now time.Time) (time.Time, *time.Location) {
	sess, _ := Session(c)
	loc := UserZone(sess.Timezone)
	return DateOf(now.In(loc)), loc
}
