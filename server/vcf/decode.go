package vcf

import (
	"bytes"
	"crypto/sha256"
	"encoding/base64"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"strconv"
	"strings"
	"time"
	"unicode"
	"unicode/utf8"

	"github.com/emersion/go-vcard"

	"kith/server/photo"
	"kith/store"
)

// MaxExtra is the most a card keeps of the properties Kith has no field
// for, in bytes: 1 MiB, the largest body a CardDAV PUT sends, held on
// every way in (the vCard and JSON imports too), since the card goes out
// whole on every sync. A PHOTO is no longer among them (see photo).
const MaxExtra = 1 << 20

// Limits of what a card may give a field, the API's own.
const (
	maxName  = 255
	maxLabel = 255
	maxValue = 255
	maxPhone = 64
	maxNote  = 20000
	maxUID   = 255
)

// decoder reads one card, and keeps what it does not map.
type decoder struct {
	card vcard.Card
	now  time.Time
	used map[*vcard.Field]bool
	in   store.CardInput
	// relatedFields are the RELATED read into in.Related, in its order.
	relatedFields []*vcard.Field
}

// Decode reads a card, as a Decoder read it, into what Kith keeps of a
// person. The error says why
// the card cannot be a person: no name, or a name too long. A property
// Kith cannot read into a field (an email that is no address, 30
// February) is kept with the others it has no field for, in Extra.
func Decode(card vcard.Card, now time.Time) (store.CardInput, error) {
	if err := cleanCard(card); err != nil {
		return store.CardInput{}, err
	}
	d := &decoder{card: card, now: now, used: map[*vcard.Field]bool{}}
	if err := d.names(); err != nil {
		return store.CardInput{}, err
	}
	d.uid()
	d.birthday()
	d.gender()
	d.details()
	d.dates()
	d.note()
	d.work()
	d.photo()
	d.related()
	d.tags()
	extra, err := d.extra()
	if err == nil {
		err = d.keepRelated()
	}
	if err != nil {
		return store.CardInput{}, err
	}
	d.in.Extra = extra
	if len(store.WithKept(d.in)) > MaxExtra {
		return store.CardInput{}, fmt.Errorf("the card's other properties are larger than 1 MiB")
	}
	return d.in, nil
}

// cleanCard refuses a card with text the API refuses in any field: bytes
// that are not UTF-8, or a control character other than a tab or a line
// break (a NUL, an escape). What Kith keeps must be what every way in
// would take, and what PostgreSQL can hold (no NUL): a card that got round
// the rules broke kith copy and answered 500 there.
func cleanCard(card vcard.Card) error {
	for name, fields := range card {
		for _, f := range fields {
			ok := cleanValue(f.Value) && cleanValue(f.Group)
			for k, vs := range f.Params {
				ok = ok && cleanValue(k)
				for _, v := range vs {
					ok = ok && cleanValue(v)
				}
			}
			if !ok || !cleanValue(name) {
				return fmt.Errorf("the card's %s is not valid text: it holds bytes that are not UTF-8 or a control character", strings.ToUpper(name))
			}
		}
	}
	return nil
}

// cleanValue reports whether s is UTF-8 with no control character but
// tab, CR and LF: the API's rule for text of several lines.
func cleanValue(s string) bool {
	return utf8.ValidString(s) && strings.IndexFunc(s, func(r rune) bool {
		return unicode.IsControl(r) && r != '\t' && r != '\n' && r != '\r'
	}) < 0
}

// take marks the field as read into Kith, with the label of its group.
func (d *decoder) take(f *vcard.Field) {
	d.used[f] = true
	if f.Group == "" {
		return
	}
	for _, l := range d.card["X-ABLABEL"] {
		if strings.EqualFold(l.Group, f.Group) {
			d.used[l] = true
		}
	}
}

// unescape undoes what go-vcard leaves escaped in a single value: \; and
// \: (Google writes https\://) and 4.0's \N.
var unescape = strings.NewReplacer(`\;`, ";", `\:`, ":", `\N`, "\n").Replace

// cleanText is one-line text, trimmed, or "" when there is none.
func cleanText(s string) string { return oneLine(unescape(s)) }

// oneLine is s with its tabs and line breaks made spaces, trimmed.
func oneLine(s string) string {
	return strings.TrimSpace(strings.Map(func(r rune) rune {
		if r == '\n' || r == '\r' || r == '\t' {
			return ' '
		}
		return r
	}, s))
}

func optional(s string) *string {
	if s = cleanText(s); s == "" {
		return nil
	}
	return &s
}

func tooLong(s *string, n int) bool { return s != nil && utf8.RuneCountInString(*s) > n }

// names reads N, or FN when N says nothing: its first word is the first
// name and the rest the last name.
func (d *decoder) names() error {
	fn := d.card.Get(vcard.FieldFormattedName)
	n := d.card.Name()
	if n != nil && n.Field != nil {
		d.in.FirstName = cleanText(n.GivenName)
		d.in.LastName = optional(n.FamilyName)
		d.in.MiddleName = optional(n.AdditionalName)
		d.in.Prefix = optional(n.HonorificPrefix)
		d.in.Suffix = optional(n.HonorificSuffix)
		if d.in.FirstName == "" && d.in.LastName != nil {
			// An organisation, or a name given as one word: it is the first name.
			d.in.FirstName, d.in.LastName = *d.in.LastName, nil
		}
	}
	if d.in.FirstName == "" && fn != nil {
		first, last, _ := strings.Cut(cleanText(fn.Value), " ")
		d.in.FirstName, d.in.LastName = first, optional(last)
	}
	if d.in.FirstName == "" {
		return errors.New("the card has no name (neither FN nor N)")
	}
	for _, s := range []*string{&d.in.FirstName, d.in.LastName, d.in.MiddleName, d.in.Prefix, d.in.Suffix} {
		if tooLong(s, maxName) {
			return fmt.Errorf("a name of the card is longer than %d characters", maxName)
		}
	}
	// An FN that says more than the names (an emoji, a title) is kept
	// too, and written back while it still names the person (the
	// encoder's stillTrue).
	if fn != nil && cleanText(fn.Value) == formattedName(&store.Card{Person: store.Person{FirstName: d.in.FirstName,
		LastName: d.in.LastName, MiddleName: d.in.MiddleName, Prefix: d.in.Prefix, Suffix: d.in.Suffix}}) {
		d.take(fn)
	}
	if n != nil && n.Field != nil {
		d.take(n.Field)
	}
	if f := d.card.Get(vcard.FieldNickname); f != nil {
		nick := cleanText(strings.Split(f.Value, ",")[0])
		if nick != "" && utf8.RuneCountInString(nick) <= maxName {
			d.in.Nickname = &nick
			d.take(f)
		}
	}
	return nil
}

// uid is the card's UID or, for a card without one (Google's exports),
// one made of its name and first email and phone, so that importing the
// same file again finds the same persons.
func (d *decoder) uid() {
	if f := d.card.Get(vcard.FieldUID); f != nil {
		if uid := strings.TrimSpace(unescape(f.Value)); uid != "" && len(uid) <= maxUID && !strings.ContainsAny(uid, "\r\n") {
			d.in.UID = uid
			d.take(f)
			return
		}
	}
	h := sha256.New()
	for _, s := range []string{d.card.Value(vcard.FieldFormattedName), d.card.Value(vcard.FieldName),
		d.card.Value(vcard.FieldEmail), d.card.Value(vcard.FieldTelephone)} {
		h.Write([]byte(s + "\x00"))
	}
	d.in.UID = "kith-" + hex.EncodeToString(h.Sum(nil))[:32]
}

// day is a date read from a card: year nil when unknown.
type day struct {
	year       *int64
	month, day int64
}

// parseDate reads the dates that address books write: 1964-03-15,
// 19640315, --0315, --03-15, a time after a T, and Apple's year 1604 for
// "no year" (X-APPLE-OMIT-YEAR). A date with no day (1964, 1964-03) is
// not one Kith keeps as a day, and false.
func parseDate(f *vcard.Field) (day, bool) {
	v := strings.TrimSpace(f.Value)
	if i := strings.IndexByte(v, 'T'); i >= 0 {
		v = v[:i]
	}
	var y, m, dd string
	switch {
	case strings.HasPrefix(v, "--"):
		rest := strings.ReplaceAll(v[2:], "-", "")
		if len(rest) != 4 {
			return day{}, false
		}
		m, dd = rest[:2], rest[2:]
	default:
		digits := strings.ReplaceAll(v, "-", "")
		if len(digits) != 8 {
			return day{}, false
		}
		y, m, dd = digits[:4], digits[4:6], digits[6:]
	}
	var out day
	month, err1 := strconv.ParseInt(m, 10, 64)
	dayN, err2 := strconv.ParseInt(dd, 10, 64)
	if err1 != nil || err2 != nil {
		return day{}, false
	}
	out.month, out.day = month, dayN
	if y != "" {
		year, err := strconv.ParseInt(y, 10, 64)
		if err != nil {
			return day{}, false
		}
		// Apple writes 1604 (a leap year before any birthday) for none.
		if omit := f.Params.Get("X-APPLE-OMIT-YEAR"); year != 1604 && omit != y {
			out.year = &year
		}
	}
	leap := int64(2000)
	if out.year != nil {
		leap = *out.year
	}
	if out.year != nil && (*out.year < 1 || *out.year > 9999) {
		return day{}, false
	}
	t := time.Date(int(leap), time.Month(out.month), int(out.day), 0, 0, 0, 0, time.UTC)
	if out.month < 1 || out.month > 12 || t.Month() != time.Month(out.month) || t.Day() != int(out.day) {
		return day{}, false
	}
	return out, true
}

// birthday reads BDAY: with a year Kith takes for an age (1900 to this
// year, the API's rule), the exact age; otherwise a date labelled
// "birthday", with its year if it has one.
func (d *decoder) birthday() {
	f := d.card.Get(vcard.FieldBirthday)
	if f == nil {
		return
	}
	b, ok := parseDate(f)
	if !ok {
		return
	}
	d.take(f)
	if b.year != nil && *b.year >= 1900 && *b.year <= int64(d.now.Year()) {
		d.in.Birthday = &store.CardBirthday{Year: *b.year, Month: &b.month, Day: &b.day}
		return
	}
	d.in.Dates = append(d.in.Dates, store.ImportantDateInput{Label: "birthday", Year: b.year, Month: b.month, Day: b.day})
}

// genderNames are GENDER's sexes as the genders every account starts with.
var genderNames = map[string]string{"M": "Man", "F": "Woman", "O": "Other", "MALE": "Man", "FEMALE": "Woman"}

// gender reads GENDER (4.0), or X-GENDER (3.0, as Apple and Monica write
// it), as the name of one of the account's genders.
func (d *decoder) gender() {
	for _, key := range []string{vcard.FieldGender, "X-GENDER"} {
		f := d.card.Get(key)
		if f == nil {
			continue
		}
		sex, identity, _ := strings.Cut(f.Value, ";")
		name := cleanText(identity)
		if name == "" {
			name = genderNames[strings.ToUpper(cleanText(sex))]
		}
		if name != "" && utf8.RuneCountInString(name) <= maxName {
			d.in.Gender = &name
			d.take(f)
		}
		return
	}
}

// label is a property's label: its group's X-ABLabel, or the first TYPE
// that says one.
func (d *decoder) label(f *vcard.Field, kind string) *string {
	if f.Group != "" {
		for _, l := range d.card["X-ABLABEL"] {
			if strings.EqualFold(l.Group, f.Group) {
				if s := fromAppleLabel(l.Value); s != "" && utf8.RuneCountInString(s) <= maxLabel {
					return &s
				}
			}
		}
	}
	for _, t := range f.Params.Types() {
		for _, t := range strings.Split(t, ",") {
			switch strings.ToLower(strings.TrimSpace(t)) {
			case "home":
				return ptr("home")
			case "work":
				return ptr("work")
			case "cell", "mobile", "iphone":
				if kind == "phone" {
					return ptr("mobile")
				}
			case "fax":
				if kind == "phone" {
					return ptr("fax")
				}
			case "other":
				return ptr("other")
			}
		}
	}
	return nil
}

// fromAppleLabel turns Apple's own labels (_$!<Mobile>!$_) into Kith's.
func fromAppleLabel(s string) string {
	inner, ok := strings.CutPrefix(s, "_$!<")
	if !ok {
		return cleanText(s)
	}
	inner, _ = strings.CutSuffix(inner, ">!$_")
	switch strings.ToLower(inner) {
	case "homepage":
		return "home"
	case "mobile", "iphone":
		return "mobile"
	}
	return strings.ToLower(cleanText(inner))
}

func ptr(s string) *string { return &s }

// details reads EMAIL, TEL, ADR, URL, X-SOCIALPROFILE and IMPP. One that
// Kith's rules refuse stays in Extra.
func (d *decoder) details() {
	for _, f := range d.card[vcard.FieldEmail] {
		v := strings.TrimSpace(strings.TrimPrefix(f.Value, "mailto:"))
		if v != "" && len(v) <= maxValue && store.ValidEmail(v) {
			d.detail(f, store.ContactDetailInput{Kind: "email", Label: d.label(f, "email"), Value: &v})
		}
	}
	for _, f := range d.card[vcard.FieldTelephone] {
		v := cleanText(strings.TrimPrefix(f.Value, "tel:"))
		if v != "" && utf8.RuneCountInString(v) <= maxPhone && strings.ContainsFunc(v, unicode.IsDigit) {
			d.detail(f, store.ContactDetailInput{Kind: "phone", Label: d.label(f, "phone"), Value: &v})
		}
	}
	for _, a := range d.card.Addresses() {
		if in, ok := address(a); ok {
			in.Label = d.label(a.Field, "address")
			d.detail(a.Field, in)
		}
	}
	for _, f := range d.card[vcard.FieldURL] {
		v := strings.TrimSpace(unescape(f.Value))
		if store.WebURL(v) && len(v) <= maxValue {
			d.detail(f, store.ContactDetailInput{Kind: "website", Label: d.label(f, "website"), Value: &v})
		}
	}
	for _, key := range []string{"X-SOCIALPROFILE", vcard.FieldIMPP} {
		for _, f := range d.card[key] {
			if in, ok := social(f); ok {
				in.Label = d.label(f, "social")
				d.detail(f, in)
			}
		}
	}
}

func (d *decoder) detail(f *vcard.Field, in store.ContactDetailInput) {
	if tooLong(in.Label, maxLabel) {
		in.Label = nil
	}
	d.in.Details = append(d.in.Details, in)
	d.take(f)
}

// address reads ADR: the post office box and extended address go on the
// street's lines; a country Kith cannot name by its ISO code (a made-up
// name) goes after the region, so that nothing is lost.
func address(a *vcard.Address) (store.ContactDetailInput, bool) {
	in := store.ContactDetailInput{Kind: "address"}
	var street []string
	for _, s := range []string{a.PostOfficeBox, a.ExtendedAddress, a.StreetAddress} {
		if s = strings.TrimSpace(s); s != "" {
			street = append(street, s)
		}
	}
	if len(street) > 0 {
		s := strings.Join(street, "\n")
		in.Street = &s
	}
	in.City, in.Region, in.PostalCode = optional(a.Locality), optional(a.Region), optional(a.PostalCode)
	if country := cleanText(a.Country); country != "" {
		if code, ok := store.CountryByName(country); ok {
			in.Country = &code
		} else if in.Region != nil {
			r := *in.Region + ", " + country
			in.Region = &r
		} else {
			in.Region = &country
		}
	}
	for _, s := range []*string{in.Street, in.City, in.Region, in.PostalCode} {
		if tooLong(s, maxValue) {
			return in, false
		}
	}
	return in, in.Street != nil || in.City != nil || in.Region != nil || in.PostalCode != nil || in.Country != nil
}

// social reads X-SOCIALPROFILE;TYPE=twitter:https://twitter.com/x (with
// Apple's x-user) and IMPP;X-SERVICE-TYPE=Skype:skype:name.
func social(f *vcard.Field) (store.ContactDetailInput, bool) {
	network := firstOr(f.Params.Types(), "")
	if network == "" {
		network = f.Params.Get("X-SERVICE-TYPE")
	}
	value := strings.TrimSpace(f.Value)
	if user := f.Params.Get("X-USER"); user != "" && value == "" {
		value = user
	}
	if network == "" {
		if scheme, rest, ok := strings.Cut(value, ":"); ok && !strings.HasPrefix(rest, "//") {
			network, value = scheme, rest
		}
	}
	network = cleanText(network)
	if network == "" || value == "" || len(network) > 64 || len(value) > maxValue {
		return store.ContactDetailInput{}, false
	}
	network = strings.ToLower(network)
	return store.ContactDetailInput{Kind: "social", Network: &network, Value: &value}, true
}

// dates reads ANNIVERSARY, X-ANNIVERSARY and every X-ABDATE with its label.
func (d *decoder) dates() {
	for _, key := range []string{vcard.FieldAnniversary, "X-ANNIVERSARY"} {
		for _, f := range d.card[key] {
			if v, ok := parseDate(f); ok {
				d.date(f, "anniversary", v)
			}
		}
	}
	for _, f := range d.card["X-ABDATE"] {
		v, ok := parseDate(f)
		if !ok {
			continue
		}
		label := "other"
		if l := d.label(f, "date"); l != nil {
			label = *l
		}
		d.date(f, label, v)
	}
}

func (d *decoder) date(f *vcard.Field, label string, v day) {
	d.in.Dates = append(d.in.Dates, store.ImportantDateInput{Label: label, Year: v.year, Month: v.month, Day: v.day})
	d.take(f)
}

// note reads the NOTEs, joined as an export writes a person's notes.
func (d *decoder) note() {
	var notes []string
	for _, f := range d.card[vcard.FieldNote] {
		if s := strings.TrimSpace(strings.ReplaceAll(unescape(f.Value), "\r\n", "\n")); s != "" {
			notes = append(notes, s)
		}
		d.take(f)
	}
	if len(notes) == 0 {
		return
	}
	note := strings.Join(notes, store.NoteSeparator)
	if utf8.RuneCountInString(note) > maxNote {
		note = string([]rune(note)[:maxNote])
	}
	d.in.Note = &note
}

// work reads TITLE and ORG (its first part, the company) as the active
// job. A company without a title is kept in Extra: a job needs a title.
func (d *decoder) work() {
	title, org := d.card.Get(vcard.FieldTitle), d.card.Get(vcard.FieldOrganization)
	if title == nil || cleanText(title.Value) == "" || utf8.RuneCountInString(cleanText(title.Value)) > maxName {
		return
	}
	w := &store.WorkEntryInput{JobTitle: cleanText(title.Value), Active: true}
	d.take(title)
	if org != nil {
		company, _, _ := strings.Cut(org.Value, ";")
		if w.CompanyName = optional(company); tooLong(w.CompanyName, maxName) {
			w.CompanyName = nil
		} else if !strings.Contains(org.Value, ";") {
			// An ORG with a department is kept whole, and written back
			// while the company is the same (see extra).
			d.take(org)
		}
	}
	d.in.Work = w
}

// tags reads the CATEGORIES as the person's tags: every name of every
// one, trimmed, but for empty ones and those too long for a tag. A card
// with a CATEGORIES gives the person its tags, none when it names none;
// a card without leaves them.
func (d *decoder) tags() {
	lists := d.card[vcard.FieldCategories]
	if len(lists) == 0 {
		return
	}
	d.in.Tags = []string{}
	for _, f := range lists {
		for _, name := range splitCategories(f.Value) {
			if name = oneLine(name); name != "" && utf8.RuneCountInString(name) <= store.MaxTagLength {
				d.in.Tags = append(d.in.Tags, name)
			}
		}
		d.take(f)
	}
}

// photo reads the first PHOTO that holds its image (4.0's data: URI, 3.0's
// ENCODING=b or BASE64, whatever its TYPE) into the JPEG Kith keeps, made
// as for PUT …/photo: one over 10 MiB once decoded, over 40 megapixels or
// no image is dropped, and the card goes in without it. A PHOTO that names
// its image by a URL is never fetched: Kith would reach out wherever a
// card pointed. Every PHOTO is read, so that none stays in Extra: the
// person's photo is the one truth, and an export writes one PHOTO.
func (d *decoder) photo() {
	for _, f := range d.card[vcard.FieldPhoto] {
		d.take(f)
		if d.in.Photo != nil {
			continue
		}
		raw, ok := embeddedImage(f)
		if !ok {
			continue
		}
		if jpeg, err := photo.Process(raw); err == nil {
			d.in.Photo, d.in.PhotoSource = jpeg, store.PhotoSum(raw)
		}
	}
}

// embeddedImage is the image a PHOTO holds, decoded from base64; false
// for a URL, or for more than photo.MaxBytes, which is not decoded.
func embeddedImage(f *vcard.Field) ([]byte, bool) {
	data := strings.TrimSpace(f.Value)
	if scheme, rest, ok := strings.Cut(data, ":"); ok && strings.EqualFold(scheme, "data") {
		head, payload, ok := strings.Cut(rest, ",")
		if !ok || !strings.HasSuffix(strings.ToLower(head), ";base64") {
			return nil, false // a data: URI of text, which no image is
		}
		data = payload
	} else if enc := strings.ToLower(f.Params.Get("ENCODING")); enc != "b" && enc != "base64" {
		return nil, false // a URI, http: or any other
	}
	data = strings.Map(func(r rune) rune {
		if unicode.IsSpace(r) {
			return -1 // a folded or wrapped line
		}
		return r
	}, data)
	if len(data)/4*3 > photo.MaxBytes+3 {
		return nil, false
	}
	enc := base64.StdEncoding
	if len(data)%4 != 0 {
		enc = base64.RawStdEncoding // the padding left out
		data = strings.TrimRight(data, "=")
	}
	raw, err := enc.DecodeString(data)
	if err != nil || len(raw) > photo.MaxBytes {
		return nil, false
	}
	return raw, true
}

// written are the properties each export writes anew.
var written = map[string]bool{vcard.FieldVersion: true, vcard.FieldProductID: true, vcard.FieldRevision: true}

// extra is the card's properties that Kith did not read, as a vCard
// fragment; "" for none.
func (d *decoder) extra() (string, error) {
	rest := vcard.Card{}
	for key, fields := range d.card {
		if written[key] || key == "BEGIN" || key == "END" {
			// A nested BEGIN (or END) line is the card's frame, not a
			// property: kept, it would open a card inside the card.
			continue
		}
		for _, f := range fields {
			if !d.used[f] {
				rest.Add(key, f)
			}
		}
	}
	if len(rest) == 0 {
		return "", nil
	}
	rest.SetValue(vcard.FieldVersion, firstOr([]string{d.card.Value(vcard.FieldVersion)}, Version4))
	var buf bytes.Buffer
	if err := NewEncoder(&buf).Encode(rest); err != nil {
		return "", fmt.Errorf("vcf: keep the card's other properties: %w", err)
	}
	return buf.String(), nil
}

// parseExtra reads what extra wrote, followed by the RELATED that
// keepRelated wrote and the store kept, each a fragment of its own: their
// properties together.
func parseExtra(fragment string) (vcard.Card, error) {
	dec := vcard.NewDecoder(strings.NewReader(fragment))
	all := vcard.Card{}
	for {
		c, err := dec.Decode()
		if errors.Is(err, io.EOF) {
			return all, nil
		}
		if err != nil {
			return nil, err
		}
		delete(c, vcard.FieldVersion)
		for k, fields := range c {
			all[k] = append(all[k], fields...)
		}
	}
}
