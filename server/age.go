package server

import (
	"net/http"
	"regexp"
	"strconv"
	"time"

	"github.com/labstack/echo/v4"

	"kith/store"
)

var ageBracket = regexp.MustCompile(`^(\d{1,3})-(\d{1,3})$`)

// handleAgeUpdate sets one kind of age (contract §8). The parameters of the
// other kinds are ignored, and what the old kind stored is cleared.
func (s *Server) handleAgeUpdate(c echo.Context) error {
	ctx, acct := c.Request().Context(), account(c)
	id, err := pathID(c, "person", store.ErrPersonNotFound)
	if err != nil {
		return err
	}
	p, err := readParams(c)
	if err != nil {
		return err
	}
	today, _ := s.userDay(c)
	age := ageInput(p, today, s.store.Now().Unix())
	if err := validated(p, s.personExists(ctx, acct, id)); err != nil {
		return err
	}
	per, err := s.store.SetAge(ctx, acct, id, age)
	if err != nil {
		return err
	}
	return s.personResponse(c, http.StatusOK, per)
}

// ageInput reads one kind of age; today is the user's date, now the
// Unix time an estimate is made at.
func ageInput(p *params, today time.Time, now int64) store.Age {
	kind := p.oneOf("age_type", []string{"exact", "estimated", "bracket"}, "")
	if kind == "" && !p.failed("age_type") {
		p.fail("age_type", "The age type field is required.")
	}
	age := store.Age{Type: &kind}
	switch kind {
	case "exact":
		age.Year, age.Month, age.Day = exactAge(p, today)
	case "estimated":
		age.Estimated = p.between("estimated_age", 0, 150)
		requiredWhen(p, "estimated_age", age.Estimated, kind)
		age.EstimatedAt = &now
	case "bracket":
		age.Bracket = bracket(p)
		requiredWhen(p, "age_bracket", age.Bracket, kind)
	}
	age.YearlyReminder = p.boolean("add_yearly_reminder")
	if age.YearlyReminder == nil && !p.failed("add_yearly_reminder") {
		p.fail("add_yearly_reminder", "The add yearly reminder field is required.")
	}
	return age
}

// requiredWhen records that key, required for this age type, is missing.
func requiredWhen[T any](p *params, key string, v *T, kind string) {
	if v == nil && !p.failed(key) {
		p.fail(key, "The "+attr(key)+" field is required when age type is "+kind+".")
	}
}

// exactAge reads a birth date: a year from 1900 to this year, and an
// optional month and day that must make a real date.
func exactAge(p *params, today time.Time) (year, month, day *int64) {
	year = p.between("age_year", 1900, int64(today.Year()))
	requiredWhen(p, "age_year", year, "exact")
	month = p.between("age_month", 1, 12)
	day = p.between("age_day", 1, 31)
	if day != nil && year != nil {
		m := time.January
		if month != nil {
			m = time.Month(*month)
		}
		if !realDay(int(*year), m, int(*day)) {
			p.fail("age_day", "The age day field must be a valid day of the month.")
			day = nil
		}
	}
	return year, month, day
}

func realDay(year int, month time.Month, day int) bool {
	return time.Date(year, month, day, 0, 0, 0, 0, time.UTC).Day() == day
}

// bracket reads "N-M" with 0 <= N <= M <= 150.
func bracket(p *params) *string {
	s := p.text("age_bracket", 7)
	if s == nil {
		return nil
	}
	m := ageBracket.FindStringSubmatch(*s)
	if m != nil {
		lo, _ := strconv.Atoi(m[1])
		hi, _ := strconv.Atoi(m[2])
		if lo <= hi && hi <= 150 {
			norm := strconv.Itoa(lo) + "-" + strconv.Itoa(hi)
			return &norm
		}
	}
	p.fail("age_bracket", "The age bracket field format is invalid.")
	return nil
}

// ageOut shapes a person's age as of today, the requesting user's date.
func ageOut(a store.Age, today time.Time, loc *time.Location) map[string]any {
	if a.Type == nil {
		return map[string]any{"age_type": nil, "age": nil}
	}
	switch *a.Type {
	case "exact":
		month, day := time.January, 1 // a missing month or day counts as the first
		if a.Month != nil {
			month = time.Month(*a.Month)
		}
		if a.Day != nil {
			day = int(*a.Day)
		}
		born := time.Date(int(*a.Year), month, day, 0, 0, 0, 0, time.UTC)
		return map[string]any{"age_type": "exact", "age": wholeYears(born, today),
			"birth_year": *a.Year, "birth_month": a.Month, "birth_day": a.Day,
			"yearly_reminder": a.YearlyReminder != nil && *a.YearlyReminder}
	case "estimated":
		set := dateOf(time.Unix(*a.EstimatedAt, 0).In(loc))
		return map[string]any{"age_type": "estimated", "age": *a.Estimated + int64(wholeYears(set, today)),
			"estimated_at": *a.EstimatedAt}
	}
	return map[string]any{"age_type": "bracket", "age": nil, "age_bracket": a.Bracket}
}

// wholeYears counts the birthdays from from to today, never below zero.
// Comparing (month, day) pairs makes someone born on 29 February a year
// older on 1 March in a common year.
func wholeYears(from, today time.Time) int {
	years := today.Year() - from.Year()
	if today.Month() < from.Month() || (today.Month() == from.Month() && today.Day() < from.Day()) {
		years--
	}
	return max(0, years)
}
