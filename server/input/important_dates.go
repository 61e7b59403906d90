package input

import (
	"regexp"
	"strconv"
	"sync"
	"time"

	"kith/store"
)

// dayPattern is the text of date: YYYY-MM-DD, or --MM-DD.
var dayPattern = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^(?:(\d{4})|-)-(\d{2})-(\d{2})$`) })

// parseDay reads dayPattern into a real date: a year from 1 to 9999, or
// none; with none, the day may be 29 February.
func parseDay(s string) (year *int64, month, day int64, ok bool) {
	m := dayPattern().FindStringSubmatch(s)
	if m == nil {
		return nil, 0, 0, false
	}
	if m[1] != "" {
		y, _ := strconv.ParseInt(m[1], 10, 64)
		year = &y
	}
	month, _ = strconv.ParseInt(m[2], 10, 64)
	day, _ = strconv.ParseInt(m[3], 10, 64)
	return year, month, day, (year == nil || *year >= 1) && month >= 1 && month <= 12 && dayOfMonth(year, month, day)
}

// dayOfMonth reports whether day is a day of month in year, or in any year
// when year is nil: 29 February is one then.
func dayOfMonth(year *int64, month, day int64) bool {
	y := 2000 // a leap year
	if year != nil {
		y = int(*year)
	}
	return day >= 1 && RealDay(y, time.Month(month), int(day))
}

// ImportantDate reads the fields of an important date, the same on
// create and on update, which replaces: what is not sent is cleared.
func ImportantDate(p *Params) store.ImportantDateInput {
	in := store.ImportantDateInput{Label: p.RequiredText("label", 255)}
	in.Year, in.Month, in.Day = dayOfYear(p)
	if b := p.Boolean("remind_yearly"); b != nil {
		in.RemindYearly = *b
	}
	return in
}

// dayOfYear reads the day of an important date, sent either as date
// ("YYYY-MM-DD", or vCard's "--MM-DD" when the year is unknown) or as
// year (optional), month and day. A client may send both, as it read
// them, but they must then name the same day.
func dayOfYear(p *Params) (year *int64, month, day int64) {
	y, m, d := p.Between("year", 1, 9999), p.Between("month", 1, 12), p.Between("day", 1, 31)
	if s, isText, present := p.Scalar("date"); present {
		var ok bool
		year, month, day, ok = parseDay(s)
		switch {
		case !isText || !ok:
			p.Fail("date", "The date field must be a valid date.")
		case y != nil && (year == nil || *y != *year), m != nil && *m != month, d != nil && *d != day:
			p.Fail("date", "The date field must name the same day as year, month and day.")
		}
		return year, month, day
	}
	if p.Failed("date") {
		return nil, 0, 0
	}
	if y == nil && m == nil && d == nil && !p.Failed("year") && !p.Failed("month") && !p.Failed("day") {
		p.Fail("date", "The date field is required.")
		return nil, 0, 0
	}
	for _, f := range []struct {
		key string
		v   *int64
	}{{"month", m}, {"day", d}} {
		if f.v == nil && !p.Failed(f.key) {
			p.Fail(f.key, "The "+f.key+" field is required when date is not present.")
		}
	}
	if m == nil || d == nil {
		return nil, 0, 0
	}
	if !dayOfMonth(y, *m, *d) {
		p.Fail("day", "The day field must be a valid day of the month.")
	}
	return y, *m, *d
}
