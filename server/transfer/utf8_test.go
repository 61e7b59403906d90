package transfer

import (
	"errors"
	"io"
	"strings"
	"testing"
	"testing/iotest"
)

// TestUTF8Reader: the document's bytes are checked a piece at a time, a
// character cut between two pieces is whole, and bytes that are not UTF-8
// (anywhere, or a character cut off at the end) are ErrNotJSON.
func TestUTF8Reader(t *testing.T) {
	good := `{"name":"` + strings.Repeat("é€😀", 1000) + `"}`
	for _, c := range []struct {
		name string
		r    io.Reader
		ok   bool
	}{
		{"whole", strings.NewReader(good), true},
		{"a byte at a time", iotest.OneByteReader(strings.NewReader(good)), true},
		{"two bytes at a time", iotest.HalfReader(strings.NewReader(good)), true},
		{"a bad byte in the middle", iotest.OneByteReader(strings.NewReader(good[:101] + "\xff" + good[101:])), false},
		{"a character cut off at the end", strings.NewReader(good + "\xe2\x82"), false},
		{"a lone continuation byte", strings.NewReader("\x80" + good), false},
	} {
		_, err := io.ReadAll(&utf8Reader{r: c.r})
		if c.ok && err != nil || !c.ok && !errors.Is(err, ErrNotJSON) {
			t.Errorf("%s: %v", c.name, err)
		}
	}
}
