package web

import (
	"strings"
	"testing"
	"unicode/utf8"
)

// TestClipFlash: a long report is shortened to what the cookie holds,
// keeping whole characters; a short one is kept as it is.
func TestClipFlash(t *testing.T) {
	for _, msg := range []string{"short", strings.Repeat("é", 101), strings.Repeat("😀", 60) + " added.", strings.Repeat("x", 201)} {
		got := clipFlash(msg)
		if len(got) > maxFlash || !utf8.ValidString(got) || len(msg) <= maxFlash && got != msg {
			t.Errorf("clipFlash(%q) = %q", msg, got)
		}
	}
}
