package store

import (
	"strings"
	"testing"
	"unicode"
)

// TestCaseFoldIsSimpleFolding: every character folds to one member of its
// case orbit, the same for every member, so that two names have one key
// exactly when strings.EqualFold finds them equal; and the fold is the
// lower case where Unicode's is.
func TestCaseFoldIsSimpleFolding(t *testing.T) {
	for r := rune(0); r <= unicode.MaxRune; r++ {
		f := caseFold(r)
		inOrbit := f == r
		for m := unicode.SimpleFold(r); m != r; m = unicode.SimpleFold(m) {
			inOrbit = inOrbit || m == f
			if caseFold(m) != f {
				t.Fatalf("%U folds to %U, %U of its orbit to %U", r, f, m, caseFold(m))
			}
		}
		if !inOrbit {
			t.Fatalf("%U folds to %U, outside its orbit", r, f)
		}
	}
	for _, c := range []struct{ a, b string }{
		{"Work", "work"}, {"Étude", "étude"}, {"STRASSE", "strasse"}, {"ẞ", "ß"}, {"ΣΊΣΥΦΟΣ", "σίσυφος"},
		{"ς", "σ"}, {"K", "k"}, {"ſ", "s"}, {"ǅ", "ǆ"}, {"Ꭰ", "ꭰ"},
	} {
		if FoldTag(c.a) != FoldTag(c.b) || !strings.EqualFold(c.a, c.b) {
			t.Errorf("%q and %q: keys %q and %q", c.a, c.b, FoldTag(c.a), FoldTag(c.b))
		}
	}
	for _, c := range []struct{ in, want string }{
		{"Book Club", "book club"}, {"Étude", "étude"}, {"ΣΊΣΥΦΟΣ", "σίσυφοσ"}, {"İ", "İ"}, {"ß", "ß"}, {"Straße", "straße"},
	} {
		if got := FoldTag(c.in); got != c.want {
			t.Errorf("FoldTag(%q) = %q, want %q", c.in, got, c.want)
		}
	}
	// Full folding's "ss" is not simple folding's: two tags.
	if FoldTag("ß") == FoldTag("ss") {
		t.Errorf("ß and ss have one key")
	}
}
