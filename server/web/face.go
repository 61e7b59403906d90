package web

import (
	"unicode"
	"unicode/utf8"

	"kith/store"
)

// face is how a person is pictured beside their name: their photo, or
// else their initials.
type face struct {
	// Photo is the address of the person's photo, "" when they have none.
	Photo    string
	Initials string
}

func faceOf(p store.Person) face {
	f := face{Initials: initials(p.FirstName, deref(p.LastName))}
	if p.HasPhoto {
		f.Photo = "/people/" + itoa64(p.ID) + "/photo"
	}
	return f
}

// initials are the first letters of the first and last names, in upper
// case: "AY" for Ada Young, "G" for Grace alone.
func initials(first, last string) string {
	return firstLetter(first) + firstLetter(last)
}

// firstLetter is the first letter or digit of a name, skipping what is
// neither ("(Bob)" is "B"); for a name of neither, its first character.
func firstLetter(name string) string {
	for _, r := range name {
		if unicode.IsLetter(r) || unicode.IsDigit(r) {
			return string(unicode.ToUpper(r))
		}
	}
	if r, size := utf8.DecodeRuneInString(name); size > 0 {
		return string(r)
	}
	return ""
}
