package input

import (
	"strings"
	"time"

	"kith/store"
)

// Birthday reads a birth date written YYYY-MM-DD as an exact age, by the
// rules of the API's exact age (a year from 1900 to today's), with its
// yearly reminder on; nil when the field is empty. today is the user's
// date.
func Birthday(p *Params, key string, today time.Time) *store.Age {
	d := p.Date(key)
	if d == nil {
		return nil
	}
	if d.Year() < 1900 || d.After(today) {
		p.Fail(key, "The "+Attr(key)+" field must be a date between 1900-01-01 and today.")
		return nil
	}
	exact, remind := "exact", true
	year, month, day := int64(d.Year()), int64(d.Month()), int64(d.Day())
	return &store.Age{Type: &exact, Year: &year, Month: &month, Day: &day, YearlyReminder: &remind}
}

// DetailOf reads the field key as the value of a contact detail of kind,
// by ContactDetail's rules, with its errors under key; nil when the field
// is empty. It lets one form take a person and their email and phone.
func DetailOf(p *Params, key, kind string) *store.ContactDetailInput {
	if _, _, present := p.Scalar(key); !present {
		return nil
	}
	sub := NewParams(map[string]any{"kind": kind, "value": p.values[key]})
	in := ContactDetail(sub)
	for _, msg := range sub.errs.messages["value"] {
		p.Fail(key, strings.Replace(msg, "The value field", "The "+Attr(key)+" field", 1))
	}
	if sub.Failed("value") {
		return nil
	}
	return &in
}
