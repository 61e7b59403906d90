package vcf

import (
	"errors"
	"io"
	"strings"
	"testing"
	"testing/iotest"

	"github.com/emersion/go-vcard"
)

func TestUnfold(t *testing.T) {
	for in, want := range map[string]string{
		"NOTE:one\r\n  two\r\nEND":     "NOTE:one two\r\nEND", // one space goes, the next is text
		"NOTE:a\r\n\tb\n c\r\nX:y\r\n": "NOTE:abc\r\nX:y\r\n",
		"A:1\r\nB:2\r\n":               "A:1\r\nB:2\r\n",
		"A:1\r\r\n b":                  "A:1\rb",
		"A:1\r":                        "A:1\r",
		"A:1\r\n":                      "A:1\r\n",
		"A:1\n":                        "A:1\n",
		"":                             "",
	} {
		for name, r := range map[string]io.Reader{
			"whole": strings.NewReader(in), "a byte at a time": iotest.OneByteReader(strings.NewReader(in)),
		} {
			got, err := io.ReadAll(Unfold(r))
			if err != nil || string(got) != want {
				t.Errorf("%q (%s): %q, %v; want %q", in, name, got, err, want)
			}
		}
	}
}

// TestUnfoldAsGoVCard: a card unfolded first decodes as go-vcard decodes
// it folded.
func TestUnfoldAsGoVCard(t *testing.T) {
	long := strings.Repeat("QUJD", 5000)
	var folded strings.Builder
	for line := "PHOTO;ENCODING=b;TYPE=JPEG:" + long; line != ""; {
		n := min(75, len(line))
		folded.WriteString(line[:n] + "\r\n ")
		line = line[n:]
	}
	text := "BEGIN:VCARD\r\nVERSION:3.0\r\nFN:Jim\r\n" + strings.TrimSuffix(folded.String(), " ") +
		"NOTE:a long\r\n  note\r\nEND:VCARD\r\n"
	want, err := vcard.NewDecoder(strings.NewReader(text)).Decode()
	if err != nil {
		t.Fatal(err)
	}
	got, err := vcard.NewDecoder(Unfold(strings.NewReader(text))).Decode()
	if err != nil {
		t.Fatal(err)
	}
	if got.Value("PHOTO") != long || got.Value("PHOTO") != want.Value("PHOTO") || got.Value("NOTE") != want.Value("NOTE") {
		t.Errorf("unfolded first: %.40q %q; go-vcard: %.40q %q", got.Value("PHOTO"), got.Value("NOTE"), want.Value("PHOTO"), want.Value("NOTE"))
	}
}

// TestUnfoldKeepsTheError: an error of the reader (a body over its limit)
// comes after the bytes read before it, and again.
func TestUnfoldKeepsTheError(t *testing.T) {
	boom := errors.New("boom")
	u := Unfold(io.MultiReader(strings.NewReader("A:1\r\n"), iotest.ErrReader(boom)))
	got, err := io.ReadAll(u)
	if string(got) != "A:1\r\n" || !errors.Is(err, boom) {
		t.Errorf("%q %v", got, err)
	}
	if _, err := u.Read(make([]byte, 4)); !errors.Is(err, boom) {
		t.Errorf("again: %v", err)
	}
}
