package vcf

import (
	"errors"
	"io"
	"sort"
	"strings"

	"github.com/emersion/go-vcard"
)

// Encoder writes cards as go-vcard's Encoder does, but for parameter
// values, CATEGORIES and a PHOTO's data: URI. A parameter value that holds
// a ; : , or " is written between double quotes (RFC 6350 §5), where
// go-vcard would write it bare and end the parameter (or the property's
// name) at its first ; or :; a relationship type's name (X-KITH-TYPE) may
// hold any of them.
// CATEGORIES is written as it is, its list's escapes made already (see
// categoriesValue), where go-vcard would escape its separators too. A
// PHOTO's data: URI (4.0's) keeps its comma, which go-vcard escapes as a
// text's (base64\,), and no client reads as a URI: RFC 6350 escapes none.
type Encoder struct {
	w io.Writer
}

// NewEncoder returns an Encoder that writes to w.
func NewEncoder(w io.Writer) *Encoder { return &Encoder{w: w} }

// Encode writes one card, which must have a VERSION: first, as RFC 6350
// asks, then the other properties by name.
func (e *Encoder) Encode(card vcard.Card) error {
	version := card.Get(vcard.FieldVersion)
	if version == nil {
		return errors.New("vcf: a card without VERSION")
	}
	var b strings.Builder
	b.WriteString("BEGIN:VCARD\r\n")
	writeLine(&b, vcard.FieldVersion, version)
	keys := make([]string, 0, len(card))
	for k := range card {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	for _, k := range keys {
		if strings.EqualFold(k, vcard.FieldVersion) {
			continue
		}
		for _, f := range card[k] {
			writeLine(&b, k, f)
		}
	}
	b.WriteString("END:VCARD\r\n")
	_, err := io.WriteString(e.w, b.String())
	return err
}

// valueEscaper escapes a property's value as go-vcard does (and reads);
// uriEscaper a data: URI's, its comma aside.
var (
	valueEscaper = strings.NewReplacer(`\`, `\\`, "\n", `\n`, ",", `\,`)
	uriEscaper   = strings.NewReplacer(`\`, `\\`, "\n", `\n`)
)

// value is a property's value as written.
func value(key, v string) string {
	if key == vcard.FieldPhoto && strings.HasPrefix(v, "data:") {
		return uriEscaper.Replace(v)
	}
	return valueEscaper.Replace(v)
}

func writeLine(b *strings.Builder, key string, f *vcard.Field) {
	if f.Group != "" {
		b.WriteString(f.Group + ".")
	}
	b.WriteString(key)
	names := make([]string, 0, len(f.Params))
	for k := range f.Params {
		names = append(names, k)
	}
	sort.Strings(names)
	for _, k := range names {
		for _, v := range f.Params[k] {
			b.WriteString(";" + k + "=" + paramValue(v))
		}
	}
	v := value(key, f.Value)
	if strings.EqualFold(key, vcard.FieldCategories) {
		v = lineBreaks.Replace(f.Value)
	}
	b.WriteString(":" + v + "\r\n")
}

// paramValue writes a parameter's value: bare when it can be, else
// quoted. A backslash is doubled and a line break written \n, as go-vcard
// does, which its reader undoes in either form; a " (which RFC 6868 would
// write ^', as vcf does for the names it writes) becomes \", which
// go-vcard's reader reads back.
func paramValue(v string) string {
	v = strings.NewReplacer(`\`, `\\`, "\n", `\n`).Replace(v)
	if !strings.ContainsAny(v, `;:,"`) {
		return v
	}
	return `"` + strings.ReplaceAll(v, `"`, `\"`) + `"`
}
