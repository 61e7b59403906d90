package store

import "testing"

func TestFoldCase(t *testing.T) {
	for _, c := range []struct{ a, b string }{
		{"Wedding", "wEDDING"},
		{"Été à Paris", "ÉTÉ À PARIS"},
		{"σίσυφος", "ΣΊΣΥΦΟΣ"}, // final sigma: ToLower alone keeps ς and σ apart
		{"ς", "σ"},
		{"k", "\u212a"}, // the Kelvin sign
		{"ſ", "S"},      // long s
		{"ǅ", "ǆ"},      // title case
		{"Øster", "øSTER"},
	} {
		if foldCase(c.a) != foldCase(c.b) {
			t.Errorf("%q and %q fold to %q and %q", c.a, c.b, foldCase(c.a), foldCase(c.b))
		}
	}
	for _, c := range []struct{ a, b string }{{"a", "b"}, {"é", "e"}, {"ss", "ß"}} {
		if foldCase(c.a) == foldCase(c.b) {
			t.Errorf("%q and %q fold alike", c.a, c.b)
		}
	}
	// Rune for rune: a substring of the text folds to a substring of
	// the folded text, which the search's LIKE relies on.
	if got := foldCase("Ab\u212aσ"); len([]rune(got)) != 4 {
		t.Errorf("%q has %d runes", got, len([]rune(got)))
	}
}
