package server

import (
	"fmt"
	"net/http"
	"regexp"
	"strconv"
	"time"

	"github.com/labstack/echo/v4"

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

// dayPattern is the text of date: YYYY-MM-DD, or --MM-DD.
var dayPattern = regexp.MustCompile(`^(?:(\d{4})|-)-(\d{2})-(\d{2})$`)

// parseDay reads dayPattern into a real date: a year from 1 to 9999, or
// none; with none, the day may be 29 February.
func parseDay(s string) (year *int64, month, day int64, ok bool) {
	m := dayPattern.FindStringSubmatch(s)
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
	return day >= 1 && realDay(y, time.Month(month), int(day))
}

// importantDateInput reads the fields of an important date, the same on
// create and on update, which replaces: what is not sent is cleared.
func importantDateInput(p *params) store.ImportantDateInput {
	in := store.ImportantDateInput{Label: p.requiredText("label", 255)}
	in.Year, in.Month, in.Day = dayOfYear(p)
	if b := p.boolean("remind_yearly"); b != nil {
		in.RemindYearly = *b
	}
	return in
}

// dayOfYear reads the day of an important date, sent either as date
// ("YYYY-MM-DD", or vCard's "--MM-DD" when the year is unknown) or as
// year (optional), month and day. A client may send both, as it read
// them, but they must then name the same day.
func dayOfYear(p *params) (year *int64, month, day int64) {
	y, m, d := p.between("year", 1, 9999), p.between("month", 1, 12), p.between("day", 1, 31)
	if s, isText, present := p.scalar("date"); present {
		var ok bool
		year, month, day, ok = parseDay(s)
		switch {
		case !isText || !ok:
			p.fail("date", "The date field must be a valid date.")
		case y != nil && (year == nil || *y != *year), m != nil && *m != month, d != nil && *d != day:
			p.fail("date", "The date field must name the same day as year, month and day.")
		}
		return year, month, day
	}
	if p.failed("date") {
		return nil, 0, 0
	}
	if y == nil && m == nil && d == nil && !p.failed("year") && !p.failed("month") && !p.failed("day") {
		p.fail("date", "The date field is required.")
		return nil, 0, 0
	}
	for _, f := range []struct {
		key string
		v   *int64
	}{{"month", m}, {"day", d}} {
		if f.v == nil && !p.failed(f.key) {
			p.fail(f.key, "The "+f.key+" field is required when date is not present.")
		}
	}
	if m == nil || d == nil {
		return nil, 0, 0
	}
	if !dayOfMonth(y, *m, *d) {
		p.fail("day", "The day field must be a valid day of the month.")
	}
	return y, *m, *d
}

func (s *Server) handleImportantDateList(c echo.Context) error {
	personID, err := pathID(c, "person", store.ErrPersonNotFound)
	if err != nil {
		return err
	}
	dates, err := s.store.ImportantDates(c.Request().Context(), account(c), personID)
	if err != nil {
		return err
	}
	out := make([]importantDateJSON, len(dates))
	for i := range dates {
		out[i] = importantDateOut(&dates[i])
	}
	return c.JSON(http.StatusOK, dataBody[[]importantDateJSON]{out})
}

// importantDates serves the dates of a person (see child).
var importantDates = child[store.ImportantDate, store.ImportantDateInput]{
	param: "date", notFound: store.ErrImportantDateNotFound,
	input:  func(s *Server, c echo.Context, p *params) store.ImportantDateInput { return importantDateInput(p) },
	out:    func(v *store.ImportantDate) any { return importantDateOut(v) },
	get:    (*store.Store).ImportantDate,
	create: (*store.Store).CreateImportantDate,
	update: (*store.Store).UpdateImportantDate,
	remove: (*store.Store).DeleteImportantDate,
}

func (s *Server) handleImportantDateShow(c echo.Context) error { return importantDates.show(s, c) }
func (s *Server) handleImportantDateCreate(c echo.Context) error {
	return importantDates.doCreate(s, c)
}
func (s *Server) handleImportantDateUpdate(c echo.Context) error { return importantDates.replace(s, c) }
func (s *Server) handleImportantDateDelete(c echo.Context) error { return importantDates.delete(s, c) }
