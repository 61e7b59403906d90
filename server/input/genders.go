package input

// MsgUnknownGender answers a person's gender_id that names no gender of
// the account.
const MsgUnknownGender = "The selected gender id is invalid."

// Gender reads a gender: its name, and on update its position,
// required there and any integer; a position sent on create is ignored.
func Gender(p *Params, updating bool) (name string, position int64) {
	name = p.RequiredText("name", 255)
	if !updating {
		return name, 0
	}
	pos := p.Integer("position")
	if pos == nil && !p.Failed("position") {
		p.Fail("position", "The position field is required.")
	}
	if pos != nil {
		position = *pos
	}
	return name, position
}
