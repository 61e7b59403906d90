package input

import (
	"time"

	"kith/store"
)

// maxInteractionNote is the longest note an interaction takes.
const maxInteractionNote = 2000

// Interaction reads the fields of an interaction, the same on create
// and on update, which replaces. happened_on may be as late as tomorrow in
// the user's time zone (today somewhere else), not later: an interaction
// yet to come would put off the day the person is due.
func Interaction(p *Params, today time.Time) store.InteractionInput {
	in := store.InteractionInput{
		Kind: p.OneOf("kind", store.InteractionKinds, ""),
		Note: p.longText("note", maxInteractionNote),
	}
	if in.Kind == "" && !p.Failed("kind") {
		p.Fail("kind", "The kind field is required.")
	}
	on := p.Date("happened_on")
	switch {
	case on == nil && !p.Failed("happened_on"):
		p.Fail("happened_on", "The happened on field is required.")
	case on == nil:
	case on.Year() < 1:
		p.Fail("happened_on", "The happened on field must be a date after or equal to 0001-01-01.")
	case on.After(today.AddDate(0, 0, 1)):
		p.Fail("happened_on", "The happened on field must be a date before or equal to tomorrow.")
	default:
		in.HappenedOn = on.Format(time.DateOnly)
	}
	return in
}
