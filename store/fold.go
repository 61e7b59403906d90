package store

import (
	"strings"
	"unicode"
	"unicode/utf8"
)

// foldCase is s with every letter in one case, so that two texts equal
// under Unicode's simple case folding fold to the same string: σ, ς and Σ
// alike, and K, k and the Kelvin sign. Each rune becomes the lower case of
// the least member of its fold orbit (unicode.SimpleFold), which every
// member of the orbit shares; strings.ToLower alone leaves ς and σ apart.
// It maps rune to rune, so a substring of s folds to a substring of
// foldCase(s): what a LIKE over folded text needs.
func foldCase(s string) string {
	ascii := true
	for i := 0; i < len(s); i++ {
		if s[i] >= utf8.RuneSelf {
			ascii = false
			break
		}
	}
	if ascii {
		return strings.ToLower(s)
	}
	return strings.Map(foldRuneCase, s)
}

// foldRuneCase is the lower case of the least rune of r's fold orbit.
func foldRuneCase(r rune) rune {
	least := r
	for f := unicode.SimpleFold(r); f != r; f = unicode.SimpleFold(f) {
		least = min(least, f)
	}
	return unicode.ToLower(least)
}
