package input

// Category reads name and color, both required on create and update.
func Category(p *Params) (name, color string) {
	return p.RequiredText("name", 255), p.RequiredText("color", 30)
}
