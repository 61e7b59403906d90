package input

import (
	"strings"
)

// Journal reads a journal's name, the one field of its create and
// rename, by the API and the web app alike.
func Journal(p *Params) string {
	return p.RequiredText("name", 255)
}

// maxEntryBody is the longest text of a journal entry, in characters:
// room for a long day's writing, within the 1 MiB a body may take.
const maxEntryBody = 100000

// EntryBody reads a journal entry's text, by the API and the web app
// alike: optional, trimmed, line breaks kept, as a note's content is
// read; absent or empty is "", which clears the text.
func EntryBody(p *Params) string {
	if s := p.longText("body", maxEntryBody); s != nil {
		return *s
	}
	return ""
}

// DateNumber reads a part of a date from the path: digits only, leading
// zeros allowed. Anything else, or more than a year's four digits, is 0,
// which no date has.
func DateNumber(s string) int {
	digits := strings.TrimLeft(s, "0")
	if s == "" || len(digits) > 4 {
		return 0
	}
	n := 0
	for _, r := range digits {
		if r < '0' || r > '9' {
			return 0
		}
		n = n*10 + int(r-'0')
	}
	return n
}
