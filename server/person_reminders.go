package server

import (
	"time"

	"github.com/labstack/echo/v4"

	"kith/server/input"
	"kith/store"
)

type reminderJSON struct {
	ID        int64   `json:"id"`
	Object    string  `json:"object"`
	Label     string  `json:"label"`
	StartsOn  string  `json:"starts_on"`
	Frequency string  `json:"frequency"`
	Every     int64   `json:"every"`
	Until     *string `json:"until"`
	NextOn    *string `json:"next_on"`
	SentAt    *int64  `json:"sent_at"`
	CreatedAt int64   `json:"created_at"`
	UpdatedAt int64   `json:"updated_at"`
}

func reminderOut(r *store.Reminder, today time.Time) reminderJSON {
	return reminderJSON{ID: r.ID, Object: "reminder", Label: r.Label, StartsOn: r.StartsOn, Frequency: r.Frequency,
		Every: r.Every, Until: r.Until, NextOn: r.NextOn(today), SentAt: r.SentAt,
		CreatedAt: r.CreatedAt, UpdatedAt: r.UpdatedAt}
}

// reminders serves the reminders of a person (see child); next_on depends
// on the user's today, so each request makes its own.
func (s *Server) personReminders(c echo.Context) child[store.Reminder, store.ReminderInput] {
	today := s.today(c)
	return child[store.Reminder, store.ReminderInput]{input.Reminders, func(r *store.Reminder) any { return reminderOut(r, today) }}
}

func (s *Server) handleReminderList(c echo.Context) error {
	return s.personReminders(c).listAll(c, func(c echo.Context, acct, person int64) ([]store.Reminder, error) {
		return s.store.Reminders(c.Request().Context(), acct, person)
	})
}

func (s *Server) handleReminderShow(c echo.Context) error { return s.personReminders(c).show(s, c) }
func (s *Server) handleReminderCreate(c echo.Context) error {
	return s.personReminders(c).doCreate(s, c)
}
func (s *Server) handleReminderUpdate(c echo.Context) error {
	return s.personReminders(c).replace(s, c)
}
func (s *Server) handleReminderDelete(c echo.Context) error { return s.personReminders(c).delete(s, c) }
