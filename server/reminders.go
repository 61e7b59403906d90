package server

import (
	"net/http"
	"regexp"

	"github.com/labstack/echo/v4"

	"kith/server/remind"
	"kith/store"
)

// clockTime is "HH:MM" on a 24-hour clock.
var clockTime = regexp.MustCompile(`^([01][0-9]|2[0-3]):[0-5][0-9]$`)

// ValidSendAt reports whether s is a time of day digests can go out at.
func ValidSendAt(s string) bool { return clockTime.MatchString(s) }

type reminderSettingsJSON struct {
	Object string `json:"object"`
	// SendAt is the user's own hour, or the server's when they have none.
	SendAt        string `json:"send_at"`
	SendAtDefault bool   `json:"send_at_is_default"`
	Days          int64  `json:"days"`
	Timezone      string `json:"timezone"`
}

func (s *Server) reminderSettingsResponse(c echo.Context, rs store.ReminderSettings) error {
	sess, _ := session(c)
	out := reminderSettingsJSON{Object: "reminder_settings", SendAt: s.sendAt, SendAtDefault: rs.SendAt == nil,
		Days: rs.Days, Timezone: sess.Timezone}
	if rs.SendAt != nil {
		out.SendAt = *rs.SendAt
	}
	return c.JSON(http.StatusOK, dataBody[reminderSettingsJSON]{out})
}

func (s *Server) handleReminderSettingsShow(c echo.Context) error {
	sess, _ := session(c)
	rs, err := s.store.ReminderSettings(c.Request().Context(), sess.UserID)
	if err != nil {
		return err
	}
	return s.reminderSettingsResponse(c, rs)
}

// handleReminderSettingsUpdate replaces the settings: send_at left out
// (or empty) follows the server's reminders.send_at, days left out is 7.
func (s *Server) handleReminderSettingsUpdate(c echo.Context) error {
	sess, _ := session(c)
	p, err := readParams(c)
	if err != nil {
		return err
	}
	rs := reminderSettingsInput(p)
	if err := p.err(); err != nil {
		return err
	}
	if err := s.store.SetReminderSettings(c.Request().Context(), sess.UserID, rs); err != nil {
		return err
	}
	return s.reminderSettingsResponse(c, rs)
}

// reminderSettingsInput reads the settings, which replace the last:
// send_at left out (or empty) follows the server's hour, days left out
// is 7.
func reminderSettingsInput(p *params) store.ReminderSettings {
	rs := store.ReminderSettings{SendAt: p.text("send_at", 5), Days: store.DefaultReminderDays}
	if rs.SendAt != nil && !ValidSendAt(*rs.SendAt) {
		p.fail("send_at", "The send at field must match the format H:i.")
	}
	if d := p.between("days", 0, 365); d != nil {
		rs.Days = *d
	}
	return rs
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
	p, err := readParams(c)
	if err != nil {
		return err
	}
	days := int64(30)
	if d := p.between("days", 0, 365); d != nil {
		days = *d
	}
	if err := p.err(); err != nil {
		return err
	}
	today, loc := s.userDay(c)
	src, err := s.reminderSource(c.Request().Context(), account(c), today, int(days), loc)
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
