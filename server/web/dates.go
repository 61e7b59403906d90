package web

import (
	"strconv"
	"strings"
	"time"

	"github.com/labstack/echo/v4"

	"kith/server/remind"
)

// dates shows dates as the user reads them: in their time zone, and in
// the order of their browser's language (month first for US English, day
// first for everyone else), since a user has no format setting of their
// own.
type dates struct {
	loc        *time.Location
	today      time.Time // midnight UTC of the user's date
	monthFirst bool
}

func (a *App) datesOf(c echo.Context) dates {
	today, loc := a.userDay(c)
	lang := strings.ToLower(c.Request().Header.Get("Accept-Language"))
	return dates{loc: loc, today: today, monthFirst: strings.HasPrefix(lang, "en-us")}
}

// day writes a date: "Wed 25 Nov 2026", or "Wed, Nov 25, 2026".
func (d dates) day(t time.Time) string {
	if d.monthFirst {
		return t.Format("Mon, Jan 2, 2006")
	}
	return t.Format("Mon 2 Jan 2006")
}

// unixDay writes the date of a Unix time: its date in the user's zone, or
// for a midnight UTC (a date given alone) that date.
func (d dates) unixDay(unix int64) string { return d.day(remind.DayOf(unix, d.loc)) }

// iso is a Unix time's date as a date field wants it, YYYY-MM-DD.
func (d dates) iso(unix int64) string { return remind.DayOf(unix, d.loc).Format(time.DateOnly) }

// moment writes a Unix time with its time of day, in the user's zone.
func (d dates) moment(unix int64) string {
	t := time.Unix(unix, 0).In(d.loc)
	if d.monthFirst {
		return t.Format("Jan 2, 2006, 3:04 PM")
	}
	return t.Format("2 Jan 2006, 15:04")
}

// relative says how far a date is from today: "today", "tomorrow", "in 3
// days", "2 days ago".
func (d dates) relative(t time.Time) string {
	n := int(t.Sub(d.today).Hours() / 24)
	switch {
	case n == 0:
		return "today"
	case n == 1:
		return "tomorrow"
	case n == -1:
		return "yesterday"
	case n > 1:
		return "in " + strconv.Itoa(n) + " days"
	default:
		return strconv.Itoa(-n) + " days ago"
	}
}

// monthDay writes a date without its year: "25 November", or "November 25".
func (d dates) monthDay(month, day int64) string {
	t := time.Date(2000, time.Month(month), int(day), 0, 0, 0, 0, time.UTC)
	if d.monthFirst {
		return t.Format("January 2")
	}
	return t.Format("2 January")
}

func dateOfYMD(y, m, d int64) time.Time {
	return time.Date(int(y), time.Month(m), int(d), 0, 0, 0, 0, time.UTC)
}

func parseDate(s string) (time.Time, error) { return time.Parse(time.DateOnly, s) }
