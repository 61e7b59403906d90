package input

import (
	"time"

	"kith/store"
)

// MsgUntilBeforeStart refuses a reminder's until before its starts_on.
const MsgUntilBeforeStart = "The until field must be a date after or equal to starts on."

// msgReminderYears ends the refusal of a reminder's date out of its years.
const msgReminderYears = " between 1900-01-01 and 9999-12-31."

// Reminder reads the fields of a reminder a user sets, the same on create
// and on replace: what is not sent takes its default. every and until are
// not read for a one_time reminder, whatever they hold.
func Reminder(p *Params) store.ReminderInput {
	in := store.ReminderInput{Label: p.RequiredText("label", 255), Every: 1}
	start := reminderDay(p, "starts_on")
	if start == nil && !p.Failed("starts_on") {
		p.Fail("starts_on", "The starts on field is required.")
	}
	if start != nil {
		in.StartsOn = start.Format(time.DateOnly)
	}
	in.Frequency = p.OneOf("frequency", store.Frequencies, "")
	if in.Frequency == "" && !p.Failed("frequency") {
		p.Fail("frequency", "The frequency field is required.")
	}
	if in.Frequency == store.FrequencyOnce {
		return in
	}
	if n := p.Between("every", 1, 1000); n != nil {
		in.Every = *n
	}
	if until := reminderDay(p, "until"); until != nil {
		if start != nil && until.Before(*start) {
			p.Fail("until", MsgUntilBeforeStart)
		}
		s := until.Format(time.DateOnly)
		in.Until = &s
	}
	return in
}

// reminderDay reads a real date of the years 1900 to 9999, or nil.
func reminderDay(p *Params, key string) *time.Time {
	d := p.Date(key)
	if d != nil && (d.Year() < 1900 || d.Year() > 9999) {
		p.Fail(key, "The "+Attr(key)+" field must be a date"+msgReminderYears)
		return nil
	}
	return d
}
