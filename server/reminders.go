package server

import (
	"net/http"

	"github.com/labstack/echo/v4"

	"kith/server/input"
	"kith/server/remind"
	"kith/store"
)

type reminderSettingsJSON struct {
	Object string `json:"object"`
	// SendAt is the user's own hour, or the server's when they have none.
	SendAt        string `json:"send_at"`
	SendAtDefault bool   `json:"send_at_is_default"`
	Days          int64  `json:"days"`
	Timezone      string `json:"timezone"`
}

func (s *Server) reminderSettingsResponse(c echo.Context, rs store.ReminderSettings) error {
	sess, _ := input.Session(c)
	out := reminderSettingsJSON{Object: "reminder_settings", SendAt: s.sendAt, SendAtDefault: rs.SendAt == nil,
		Days: rs.Days, Timezone: sess.Timezone}
	if rs.SendAt != nil {
		out.SendAt = *rs.SendAt
	}
	return c.JSON(http.StatusOK, dataBody[reminderSettingsJSON]{out})
}

func (s *Server) handleReminderSettingsShow(c echo.Context) error {
	sess, _ := input.Session(c)
	rs, err := s.store.ReminderSettings(c.Request().Context(), sess.UserID)
	if err != nil {
		return err
	}
	return s.reminderSettingsResponse(c, rs)
}

// handleReminderSettingsUpdate replaces the settings: send_at left out
// (or empty) follows the server's reminders.send_at, days left out is 7.
func (s *Server) handleReminderSettingsUpdate(c echo.Context) error {
	sess, _ := input.Session(c)
	p, err := input.ReadParams(c)
	if err != nil {
		return err
	}
	rs := input.ReminderSettings(p)
	if err := p.Err(); err != nil {
		return err
	}
	if err := s.store.SetReminderSettings(c.Request().Context(), sess.UserID, rs); err != nil {
		return err
	}
	return s.reminderSettingsResponse(c, rs)
}

type upcomingDayJSON struct {
	Object string        `json:"object"`
	Date   string        `json:"date"`
	Items  []remind.Item `json:"items"`
}

// handleRemindersUpcoming lists, day by day in the user's zone, what Kith
// will remind them of: today (with what is overdue) and the next days
// (30 unless ?days= says, up to 365).
func (s *Server) handleRemindersUpcoming(c echo.Context) error {
	p, err := input.ReadParams(c)
	if err != nil {
		return err
	}
	days := int64(30)
	if d := p.Between("days", 0, 365); d != nil {
		days = *d
	}
	if err := p.Err(); err != nil {
		return err
	}
	today, loc := s.userDay(c)
	src, err := remind.ReadSource(c.Request().Context(), s.store, input.Account(c), input.User(c), today, int(days), loc)
	if err != nil {
		return err
	}
	list := remind.Upcoming(src, today, int(days), loc)
	out := make([]upcomingDayJSON, len(list))
	for i, d := range list {
		out[i] = upcomingDayJSON{Object: "reminder_day", Date: d.Date, Items: d.Items}
	}
	return c.JSON(http.StatusOK, dataBody[[]upcomingDayJSON]{out})
}
