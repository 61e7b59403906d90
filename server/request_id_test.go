package server

import (
	"regexp"
	"strings"
	"testing"
)

// TestValidRequestIDIsThePattern holds the loop to the pattern it
// replaced, at its edges.
func TestValidRequestIDIsThePattern(t *testing.T) {
	pattern := regexp.MustCompile(`^[A-Za-z0-9._-]{1,64}$`)
	for _, id := range []string{"", "a", "proxy-id.42", "A_z-0.9", strings.Repeat("x", 64), strings.Repeat("x", 65),
		"a b", "a/b", "é", "a\n", "a\x00", "@", "[", "`", "{", ":", "~", "+", "ab\"c"} {
		if got, want := validRequestID(id), pattern.MatchString(id); got != want {
			t.Errorf("validRequestID(%q) = %v, the pattern says %v", id, got, want)
		}
	}
}
