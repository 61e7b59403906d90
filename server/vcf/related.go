package vcf

import (
	"bytes"
	"strings"
	"unicode/utf8"

	"github.com/emersion/go-vcard"

	"kith/store"
)

// kithType is the RELATED parameter that names a relationship type of
// Kith's when no TYPE word of RFC 6350 fits it.
const kithType = "X-KITH-TYPE"

// relatedWords are the TYPE words of RFC 6350 §6.6.6 for RELATED.
var relatedWords = map[string]bool{
	vcard.TypeContact: true, vcard.TypeAcquaintance: true, vcard.TypeFriend: true, vcard.TypeMet: true,
	vcard.TypeCoWorker: true, vcard.TypeColleague: true, vcard.TypeCoResident: true, vcard.TypeNeighbor: true,
	vcard.TypeChild: true, vcard.TypeParent: true, vcard.TypeSibling: true, vcard.TypeSpouse: true,
	vcard.TypeKin: true, vcard.TypeMuse: true, vcard.TypeCrush: true, vcard.TypeDate: true,
	vcard.TypeSweetheart: true, vcard.TypeMe: true, vcard.TypeAgent: true, vcard.TypeEmergency: true,
}

// uuidURN is the scheme of the URI by which a RELATED names a card.
const uuidURN = "urn:uuid:"

// related writes each relationship of the person as RELATED (4.0; 3.0 has
// no RELATED): the other card's UID as a urn:uuid: URI, and the type's
// name as seen from this person as a TYPE word when RFC 6350 has that
// word (spouse, child, parent, sibling, friend, colleague…), else as
// X-KITH-TYPE.
func (e *encoder) related(rs []store.CardRelation) {
	if e.version != Version4 {
		return
	}
	for _, r := range rs {
		f := &vcard.Field{Value: relatedURI(r.UID), Params: vcard.Params{}}
		if word := strings.ToLower(r.Name); relatedWords[word] {
			f.Params.Set(vcard.ParamType, word)
		} else {
			f.Params.Set(kithType, caretEscaper.Replace(r.Name))
		}
		e.add(vcard.FieldRelated, f)
	}
}

// relatedURI is the urn:uuid: URI of a card's UID, which may be one.
func relatedURI(uid string) string {
	if _, ok := cutPrefixFold(uid, uuidURN); ok {
		return uid
	}
	return uuidURN + uid
}

func cutPrefixFold(s, prefix string) (string, bool) {
	if len(s) < len(prefix) || !strings.EqualFold(s[:len(prefix)], prefix) {
		return s, false
	}
	return s[len(prefix):], true
}

// RFC 6868's escapes of a parameter value: ^^ for ^, ^n for a line break,
// ^' for a double quote, which a parameter cannot otherwise hold.
var (
	caretEscaper   = strings.NewReplacer("^", "^^", "\n", "^n", `"`, "^'")
	caretUnescaper = strings.NewReplacer("^^", "^", "^n", "\n", "^N", "\n", "^'", `"`)
)

// related reads each RELATED that names a card by urn:uuid: and says what
// it is (X-KITH-TYPE, or TYPE words): the relationships the card asks for.
// Each is kept on its own (Kept) rather than in Extra, so that the store
// can drop it once it is a relationship; any other RELATED stays in Extra.
func (d *decoder) related() {
	for _, f := range d.card[vcard.FieldRelated] {
		if kt := f.Params[kithType]; len(kt) > 1 {
			// go-vcard splits a quoted value at its commas: one name.
			f.Params[kithType] = []string{strings.Join(kt, ",")}
		}
		uid, ok := cutPrefixFold(strings.TrimSpace(unescape(f.Value)), uuidURN)
		if !ok || uid == "" || len(uid) > maxUID || strings.ContainsAny(uid, "\r\n") {
			continue
		}
		names := relatedNames(f)
		if len(names) == 0 {
			continue
		}
		d.used[f] = true
		d.relatedFields = append(d.relatedFields, f)
		d.in.Related = append(d.in.Related, store.CardRelated{UID: uid, Names: names})
	}
}

// relatedNames are the names a RELATED gives its type, in the order to
// try them: its X-KITH-TYPE, then its TYPE words.
func relatedNames(f *vcard.Field) []string {
	var names []string
	if kt := f.Params.Get(kithType); kt != "" {
		name := strings.TrimSpace(strings.Map(func(r rune) rune {
			if r == '\n' || r == '\r' || r == '\t' {
				return ' '
			}
			return r
		}, caretUnescaper.Replace(kt)))
		if name != "" && utf8.RuneCountInString(name) <= maxName {
			names = append(names, name)
		}
	}
	for _, t := range f.Params.Types() {
		for _, w := range strings.Split(t, ",") {
			if w = strings.TrimSpace(w); w != "" {
				names = append(names, w)
			}
		}
	}
	return names
}

// keepRelated writes each RELATED read as a relationship as a fragment
// of its own, in the card's version.
func (d *decoder) keepRelated() error {
	version := firstOr([]string{d.card.Value(vcard.FieldVersion)}, Version4)
	for i, f := range d.relatedFields {
		var buf bytes.Buffer
		card := vcard.Card{vcard.FieldVersion: {{Value: version}}, vcard.FieldRelated: {f}}
		if err := NewEncoder(&buf).Encode(card); err != nil {
			return err
		}
		d.in.Related[i].Kept = buf.String()
	}
	return nil
}
