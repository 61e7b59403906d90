package server

import (
	"net/http"
	"time"

	"github.com/labstack/echo/v4"

	"kith/server/input"
	"kith/store"
)

// handleAgeUpdate sets one kind of age (contract §8). The parameters of the
// other kinds are ignored, and what the old kind stored is cleared.
func (s *Server) handleAgeUpdate(c echo.Context) error {
	ctx, acct := c.Request().Context(), input.Account(c)
	id, err := input.PathID(c, "person", store.ErrPersonNotFound)
	if err != nil {
		return err
	}
	p, err := input.ReadParams(c)
	if err != nil {
		return err
	}
	today, _ := s.userDay(c)
	age := input.Age(p, today, s.store.Now().Unix())
	if err := input.Validated(p, s.personExists(ctx, acct, id)); err != nil {
		return err
	}
	per, err := s.store.SetAge(ctx, acct, id, age)
	if err != nil {
		return err
	}
	return s.personResponse(c, http.StatusOK, per)
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
		set := input.DateOf(time.Unix(*a.EstimatedAt, 0).In(loc))
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
