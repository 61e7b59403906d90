// Package vcf maps Kith's persons onto vCards (RFC 6350, and 2426 for
// version 3.0) and back, for the vCard export and import and for CardDAV.
// The format itself (parsing, escaping) is github.com/emersion/go-vcard's.
package vcf

import (
	"encoding/base64"
	"strconv"
	"strings"
	"time"

	"github.com/emersion/go-vcard"

	"kith/store"
)

// Versions are the vCard versions Kith writes: 4.0 by default, 3.0 for
// older phones and Outlook.
const (
	Version4 = "4.0"
	Version3 = "3.0"
)

// ProdID names Kith as the card's maker.
const ProdID = "-//Kith//Kith//EN"

// groupPrefix names the property groups Kith writes (kith1.TEL with
// kith1.X-ABLabel), which never clash with the item1… groups of Apple's
// and Google's cards kept in a person's extra properties.
const groupPrefix = "kith"

// encoder builds one card.
type encoder struct {
	card    vcard.Card
	version string
	groups  int
}

// Encode writes the person's card in version (Version4 or Version3).
func Encode(c *store.Card, version string) vcard.Card {
	e := &encoder{card: vcard.Card{}, version: version}
	e.set(vcard.FieldVersion, version)
	e.set(vcard.FieldProductID, ProdID)
	e.set(vcard.FieldUID, c.UID)
	e.set(vcard.FieldFormattedName, formattedName(c))
	e.card.SetName(&vcard.Name{
		FamilyName: structured(c.LastName), GivenName: structured(&c.FirstName),
		AdditionalName: structured(c.MiddleName), HonorificPrefix: structured(c.Prefix),
		HonorificSuffix: structured(c.Suffix),
	})
	if c.Nickname != nil {
		e.set(vcard.FieldNickname, *c.Nickname)
	}
	e.birthday(c)
	e.gender(c)
	e.details(c.Details)
	e.dates(c)
	if len(c.Notes) > 0 {
		e.set(vcard.FieldNote, store.JoinNotes(c.Notes))
	}
	if c.Work != nil {
		if c.Work.CompanyName != nil {
			e.set(vcard.FieldOrganization, structured(c.Work.CompanyName))
		}
		if c.Work.JobTitle != "" {
			e.set(vcard.FieldTitle, c.Work.JobTitle)
		}
	}
	e.photo(c.Photo)
	e.related(c.Related)
	if len(c.Tags) > 0 {
		e.set(vcard.FieldCategories, categoriesValue(c.Tags))
	}
	e.extra(c.Extra)
	e.set(vcard.FieldRevision, e.timestamp(Revision(c)))
	return e.card
}

func (e *encoder) set(key, value string) { e.card.Set(key, &vcard.Field{Value: value}) }

func (e *encoder) add(key string, f *vcard.Field) { e.card.Add(key, f) }

// group returns the next group of Kith's own.
func (e *encoder) group() string {
	e.groups++
	return groupPrefix + strconv.Itoa(e.groups)
}

// formattedName is the name as it is written: prefix, first, middle and
// last names, suffix.
func formattedName(c *store.Card) string {
	parts := []string{}
	for _, p := range []*string{c.Prefix, &c.FirstName, c.MiddleName, c.LastName, c.Suffix} {
		if p != nil && *p != "" {
			parts = append(parts, *p)
		}
	}
	return strings.Join(parts, " ")
}

// structured is a component of a structured value (N, ADR, ORG), where
// go-vcard would take a semicolon for the end of the component: it becomes
// a comma.
func structured(s *string) string {
	if s == nil {
		return ""
	}
	return strings.ReplaceAll(*s, ";", ",")
}

// birthday writes BDAY from the exact age, or from a date labelled
// "birthday" when the year is unknown. A birthday whose day is unknown has
// no BDAY in 3.0, which knows only whole dates.
func (e *encoder) birthday(c *store.Card) {
	a := c.Age
	if a.Type != nil && *a.Type == "exact" && a.Year != nil {
		if v := e.date(a.Year, a.Month, a.Day); v != "" {
			e.set(vcard.FieldBirthday, v)
		}
		return
	}
	for _, d := range c.Dates {
		if d.Label == "birthday" {
			e.set(vcard.FieldBirthday, e.date(d.Year, &d.Month, &d.Day))
			return
		}
	}
}

// date writes a day: 4.0's 19640315, --0315 or 1964; 3.0's 1964-03-15 or
// --03-15 (as Google writes a birthday without a year), and "" for what
// 3.0 cannot write.
func (e *encoder) date(year, month, day *int64) string {
	switch {
	case year != nil && month != nil && day != nil:
		if e.version == Version3 {
			return pad(*year, 4) + "-" + pad(*month, 2) + "-" + pad(*day, 2)
		}
		return pad(*year, 4) + pad(*month, 2) + pad(*day, 2)
	case year == nil && month != nil && day != nil:
		if e.version == Version3 {
			return "--" + pad(*month, 2) + "-" + pad(*day, 2)
		}
		return "--" + pad(*month, 2) + pad(*day, 2)
	case e.version == Version3:
		return ""
	case month != nil:
		return pad(*year, 4) + "-" + pad(*month, 2)
	default:
		return pad(*year, 4)
	}
}

func pad(n int64, width int) string {
	s := strconv.FormatInt(n, 10)
	for len(s) < width {
		s = "0" + s
	}
	return s
}

// sexes are the genders every account starts with, as GENDER's sex.
var sexes = map[string]vcard.Sex{"man": vcard.SexMale, "woman": vcard.SexFemale, "other": vcard.SexOther}

// gender writes GENDER (4.0): M or F for Man or Woman, O with the name
// for any other; 3.0 has no GENDER, and takes X-GENDER with the name.
func (e *encoder) gender(c *store.Card) {
	if c.Gender == nil {
		return
	}
	name := c.Gender.Name
	if e.version == Version3 {
		e.set("X-GENDER", name)
		return
	}
	sex, ok := sexes[strings.ToLower(name)]
	if !ok {
		sex = vcard.SexOther
	}
	identity := ""
	if !ok || sex == vcard.SexOther {
		identity = name
	}
	e.card.SetGender(sex, identity)
}

// labelTypes are the labels that TYPE says; any other label goes into an
// X-ABLabel beside its property, as Apple and Google write it.
var labelTypes = map[string]map[string]string{
	"email":   {"home": "home", "work": "work", "other": "other"},
	"phone":   {"home": "home", "work": "work", "mobile": "cell", "other": "other"},
	"address": {"home": "home", "work": "work", "other": "other"},
	"website": {"home": "home", "work": "work", "other": "other"},
}

func (e *encoder) details(details []store.ContactDetail) {
	for _, d := range details {
		f := &vcard.Field{Params: vcard.Params{}}
		var key string
		switch d.Kind {
		case "email":
			key, f.Value = vcard.FieldEmail, deref(d.Value)
			if e.version == Version3 {
				f.Params.Add(vcard.ParamType, "internet")
			}
		case "phone":
			key, f.Value = vcard.FieldTelephone, deref(d.Value)
		case "website":
			key, f.Value = vcard.FieldURL, deref(d.Value)
		case "social":
			key, f.Value = "X-SOCIALPROFILE", deref(d.Value)
			if d.Network != nil {
				f.Params.Set(vcard.ParamType, strings.ToLower(*d.Network))
			}
		case "address":
			key = vcard.FieldAddress
			f.Value = strings.Join([]string{"", "", structured(d.Street), structured(d.City), structured(d.Region),
				structured(d.PostalCode), structured(d.Country)}, ";")
		default:
			continue
		}
		if d.Label != nil && *d.Label != "" {
			if t, ok := labelTypes[d.Kind][strings.ToLower(*d.Label)]; ok {
				f.Params.Add(vcard.ParamType, t)
			} else {
				f.Group = e.group()
				e.add("X-ABLABEL", &vcard.Field{Group: f.Group, Value: *d.Label})
			}
		}
		e.add(key, f)
	}
}

// dates writes the important dates: an anniversary as ANNIVERSARY (4.0) or
// X-ANNIVERSARY (3.0, as Evolution and KAddressBook read it), any other as
// X-ABDATE with its label, which Apple's and Google's address books show.
// A date labelled "birthday" is BDAY, unless the exact age is.
func (e *encoder) dates(c *store.Card) {
	anniversary := false
	exact := c.Age.Type != nil && *c.Age.Type == "exact" && c.Age.Year != nil
	birthday := false
	for _, d := range c.Dates {
		value := e.date(d.Year, &d.Month, &d.Day)
		switch {
		case d.Label == "birthday" && !exact && !birthday:
			birthday = true // written by birthday
		case d.Label == "anniversary" && !anniversary:
			anniversary = true
			key := vcard.FieldAnniversary
			if e.version == Version3 {
				key = "X-ANNIVERSARY"
			}
			e.set(key, value)
		default:
			g := e.group()
			e.add("X-ABDATE", &vcard.Field{Group: g, Value: value})
			e.add("X-ABLABEL", &vcard.Field{Group: g, Value: appleLabel(d.Label)})
		}
	}
}

// appleLabel is the label as Apple writes its own ones.
func appleLabel(label string) string {
	if label == "anniversary" {
		return "_$!<Anniversary>!$_"
	}
	return label
}

// photo writes the person's photo: 4.0's PHOTO:data:image/jpeg;base64,…
// (see Encoder for its comma), 3.0's PHOTO;ENCODING=b;TYPE=JPEG:….
func (e *encoder) photo(p *store.Photo) {
	if p == nil {
		return
	}
	data := base64.StdEncoding.EncodeToString(p.JPEG)
	if e.version == Version3 {
		e.add(vcard.FieldPhoto, &vcard.Field{Value: data, Params: vcard.Params{"ENCODING": {"b"}, vcard.ParamType: {"JPEG"}}})
		return
	}
	e.add(vcard.FieldPhoto, &vcard.Field{Value: photoURI + data})
}

// photoURI starts a 4.0 PHOTO's value.
const photoURI = "data:image/jpeg;base64,"

// extra adds the properties kept from an imported card, unless Kith wrote
// the same property itself. A PHOTO kept by an older Kith, and a
// CATEGORIES kept before tags were read from cards, are left out: the
// person's photo and tags are the card's.
func (e *encoder) extra(fragment string) {
	if fragment == "" {
		return
	}
	kept, err := parseExtra(fragment)
	if err != nil {
		return // written by Kith, so never; an export goes on without it
	}
	delete(kept, vcard.FieldCategories)
	delete(kept, vcard.FieldPhoto)
	for key, fields := range kept {
		if _, ours := e.card[key]; ours && !multiple[key] {
			if f := fields[0]; e.stillTrue(key, f) {
				e.card[key] = []*vcard.Field{convertField(key, f, e.version)}
			}
			continue
		}
		for _, f := range fields {
			e.add(key, convertField(key, f, e.version))
		}
	}
}

// stillTrue tells whether a kept FN or ORG, which says more than Kith's
// fields, still agrees with them: an FN with each of the person's names
// in it ("Holly Flax 🌸"), an ORG of the same company with its
// department. One that no longer agrees (the person renamed in Kith)
// gives way to Kith's.
func (e *encoder) stillTrue(key string, f *vcard.Field) bool {
	switch key {
	case vcard.FieldFormattedName:
		n := e.card.Name()
		for _, part := range []string{n.GivenName, n.FamilyName} {
			if !strings.Contains(f.Value, part) {
				return false
			}
		}
		return true
	case vcard.FieldOrganization:
		company, _, _ := strings.Cut(f.Value, ";")
		return company == e.card.Value(vcard.FieldOrganization)
	}
	return false
}

// multiple are the properties a card may have many of, so that those kept
// go beside those Kith writes.
var multiple = map[string]bool{
	vcard.FieldEmail: true, vcard.FieldTelephone: true, vcard.FieldAddress: true, vcard.FieldURL: true,
	"X-SOCIALPROFILE": true, "X-ABDATE": true, "X-ABLABEL": true, vcard.FieldIMPP: true,
	vcard.FieldRelated: true,
}

// convertField turns a kept LOGO (or a PHOTO, which Kith no longer keeps)
// into the form of the version written: 3.0's ENCODING=b;TYPE=JPEG and
// 4.0's data: URI.
func convertField(key string, f *vcard.Field, version string) *vcard.Field {
	if key != vcard.FieldPhoto && key != vcard.FieldLogo {
		return f
	}
	enc := strings.ToLower(f.Params.Get("ENCODING"))
	switch {
	case version == Version4 && (enc == "b" || enc == "base64"):
		media := "image/" + strings.ToLower(firstOr(f.Params.Types(), "jpeg"))
		return &vcard.Field{Group: f.Group, Value: "data:" + media + ";base64," + f.Value}
	case version == Version3 && strings.HasPrefix(f.Value, "data:"):
		head, data, ok := strings.Cut(strings.TrimPrefix(f.Value, "data:"), ",")
		media, isBase64 := strings.CutSuffix(head, ";base64")
		if !ok || !isBase64 {
			return f
		}
		_, sub, _ := strings.Cut(media, "/")
		return &vcard.Field{Group: f.Group, Value: data,
			Params: vcard.Params{"ENCODING": {"b"}, vcard.ParamType: {strings.ToUpper(firstOr([]string{sub}, "jpeg"))}}}
	}
	return f
}

func firstOr(list []string, def string) string {
	if len(list) == 0 || list[0] == "" {
		return def
	}
	return list[0]
}

// Revision is when the card last changed that its rows can tell: the
// latest updated_at of the person and of what the card shows.
func Revision(c *store.Card) int64 {
	rev := c.UpdatedAt
	for _, d := range c.Details {
		rev = max(rev, d.UpdatedAt)
	}
	for _, d := range c.Dates {
		rev = max(rev, d.UpdatedAt)
	}
	for _, n := range c.Notes {
		rev = max(rev, n.UpdatedAt)
	}
	if c.Work != nil {
		rev = max(rev, c.Work.UpdatedAt)
	}
	if c.Photo != nil {
		rev = max(rev, c.Photo.UpdatedAt)
	}
	return rev
}

// timestamp writes REV: 20261125T194300Z in 4.0, 2026-11-25T19:43:00Z in 3.0.
func (e *encoder) timestamp(unix int64) string {
	t := time.Unix(unix, 0).UTC()
	if e.version == Version3 {
		return t.Format("2006-01-02T15:04:05Z")
	}
	return t.Format("20060102T150405Z")
}

func deref(s *string) string {
	if s == nil {
		return ""
	}
	return *s
}
