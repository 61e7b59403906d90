package input

// maxNote is the longest note: PeopleOS's web app takes 20 000 characters
// (its API stops at 255, which would refuse what the web app wrote).
const maxNote = 20000

// Note reads the required content, trimmed, line breaks kept.
func Note(p *Params) string {
	return p.require("content", p.longText("content", maxNote))
}
