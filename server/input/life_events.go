package input

import "kith/store"

// LifeEvent reads the fields of a life event, the same on create and
// on update, which replaces: what is not sent is cleared.
func LifeEvent(p *Params) store.LifeEventInput {
	in := store.LifeEventInput{
		Description: p.RequiredText("description", 255),
		Comment:     p.Text("comment", 255),
		Icon:        p.Text("icon", 255),
		BgColor:     p.Text("bg_color", 255),
		TextColor:   p.Text("text_color", 255),
	}
	if at := p.Timestamp("happened_at"); at != nil {
		in.HappenedAt = *at
	} else if !p.Failed("happened_at") {
		p.Fail("happened_at", "The happened at field is required.")
	}
	if b := p.Boolean("should_be_reminded"); b != nil {
		in.ShouldBeReminded = *b
	}
	return in
}
