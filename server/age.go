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
	age, _ := a.YearsOld(today, loc)
	switch *a.Type {
	case "exact":
		return map[string]any{"age_type": "exact", "age": age,
			"birth_year": *a.Year, "birth_month": a.Month, "birth_day": a.Day,
			"yearly_reminder": a.YearlyReminder != nil && *a.YearlyReminder}
	case "estimated":
		return map[string]any{"age_type": "estimated", "age": age, "estimated_at": *a.EstimatedAt}
	}
	return map[string]any{"age_type": "bracket", "age": nil, "age_bracket": a.Bracket}
}
