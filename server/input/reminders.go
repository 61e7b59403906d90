package input

import (
	"regexp"
	"sync"

	"kith/store"
)

// clockTime is "HH:MM" on a 24-hour clock.
var clockTime = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^([01][0-9]|2[0-3]):[0-5][0-9]$`) })

// ValidSendAt reports whether s is a time of day digests can go out at.
func ValidSendAt(s string) bool { return clockTime().MatchString(s) }

// ReminderSettings reads the settings, which replace the last:
// send_at left out (or empty) follows the server's hour, days left out
// is 7.
func ReminderSettings(p *Params) store.ReminderSettings {
	rs := store.ReminderSettings{SendAt: p.Text("send_at", 5), Days: store.DefaultReminderDays}
	if rs.SendAt != nil && !ValidSendAt(*rs.SendAt) {
		p.Fail("send_at", "The send at field must match the format H:i.")
	}
	if d := p.Between("days", 0, 365); d != nil {
		rs.Days = *d
	}
	return rs
}
