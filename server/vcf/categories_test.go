package vcf

import (
	"bytes"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/emersion/go-vcard"
)

// TestCategoriesListRoundTrip: names written as one value are read back
// the same, whatever they hold.
func TestCategoriesListRoundTrip(t *testing.T) {
	for _, names := range [][]string{
		{"Book club", "Smith, Jones & Co"},
		{`back\slash`, `\,`, `trailing\`, ",", ";", `\\,,`, "semi;colon", "two\nlines"},
		{""},
	} {
		if got := splitCategories(categoriesValue(names)); !slices.Equal(got, names) {
			t.Errorf("%q came back %q (written %q)", names, got, categoriesValue(names))
		}
	}
	if got := categoriesValue([]string{"Book club", "Smith, Jones & Co", `a\b;c`}); got != `Book club,Smith\, Jones & Co,a\\b\;c` {
		t.Errorf("written %q", got)
	}
}

// TestDecoderKeepsCategoriesAsWritten: whatever the form of the line
// (a group, parameters, lower case, folded, the last of a file without a
// line break), Decode's cards hold CATEGORIES as written, and every
// other value as go-vcard reads it.
func TestDecoderKeepsCategoriesAsWritten(t *testing.T) {
	file := "BEGIN:VCARD\r\nVERSION:3.0\r\nFN:A\\, B\r\nCATEGORIES:a\\,b,c\\\\\r\n" +
		"item1.categories;X-P=\"x:y\";TYPE=z:d\\;e\r\nCATEGORIES:fo\r\n ld\\\r\n\t,ed\r\nNOTE:n\\,o\r\nEND:VCARD\r\n" +
		"BEGIN:VCARD\r\nVERSION:4.0\r\nFN:C\r\nCATEGORIES:last\\,one\r\nEND:VCARD"
	dec := NewDecoder(strings.NewReader(file))
	first, err := dec.Decode()
	if err != nil {
		t.Fatal(err)
	}
	var values []string
	for _, f := range first[vcard.FieldCategories] {
		values = append(values, f.Value)
	}
	if want := []string{`a\,b,c\\`, `d\;e`, `fold\,ed`}; !slices.Equal(values, want) {
		t.Errorf("CATEGORIES %q, want %q", values, want)
	}
	if first.Value(vcard.FieldFormattedName) != "A, B" || first.Value(vcard.FieldNote) != "n,o" {
		t.Errorf("other values: FN %q NOTE %q", first.Value(vcard.FieldFormattedName), first.Value(vcard.FieldNote))
	}
	if g := first[vcard.FieldCategories][1]; g.Group != "item1" || g.Params.Get("X-P") != "x:y" {
		t.Errorf("the grouped one: %+v", g)
	}
	second, err := dec.Decode()
	if err != nil || second.Value(vcard.FieldCategories) != `last\,one` {
		t.Errorf("the last card: %v %v", second, err)
	}
	in, err := Decode(first, time.Date(2026, 3, 15, 0, 0, 0, 0, time.UTC))
	if err != nil || !slices.Equal(in.Tags, []string{"a,b", `c\`, "d;e", "fold,ed"}) {
		t.Errorf("tags %q %v", in.Tags, err)
	}
}

// TestEncoderWritesCategoriesAsTheyAre: one CATEGORIES line, its commas
// bare, among the lines go-vcard would write.
func TestEncoderWritesCategoriesAsTheyAre(t *testing.T) {
	card := vcard.Card{}
	card.SetValue(vcard.FieldVersion, Version4)
	card.SetValue(vcard.FieldFormattedName, "A, B")
	card.SetValue(vcard.FieldCategories, categoriesValue([]string{"Book club", "Smith, Jones & Co"}))
	var buf bytes.Buffer
	if err := NewEncoder(&buf).Encode(card); err != nil {
		t.Fatal(err)
	}
	want := "BEGIN:VCARD\r\nVERSION:4.0\r\nCATEGORIES:Book club,Smith\\, Jones & Co\r\nFN:A\\, B\r\nEND:VCARD\r\n"
	if buf.String() != want {
		t.Errorf("written\n%q\nwant\n%q", buf.String(), want)
	}
}
