package input

import (
	"time"

	"kith/store"
)

// Profile reads a profile, as PUT /api/me and the settings page
// take it; today, the user's date, is the latest birth date.
func Profile(p *Params, today time.Time) store.Profile {
	prof := store.Profile{
		FirstName: p.RequiredText("first_name", 255),
		LastName:  p.RequiredText("last_name", 255),
		Nickname:  p.Text("nickname", 255),
		Email:     p.Email("email", 255),
	}
	if born := p.Date("born_at"); born != nil {
		if born.After(today) {
			p.Fail("born_at", "The born at field must be a date before or equal to today.")
		}
		unix := born.Unix()
		prof.BornAt = &unix
	}
	return prof
}

// Timezone reads a time zone, an IANA name, as PUT /api/me/timezone
// and the settings page take it.
func Timezone(p *Params) string {
	tz := p.RequiredText("timezone", 255)
	if _, ok := Zone(tz); tz != "" && !ok {
		p.Fail("timezone", "The timezone field must be a valid timezone.")
	}
	return tz
}
