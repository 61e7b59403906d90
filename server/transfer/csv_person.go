package transfer

import (
	"fmt"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"sync"
	"time"

	"kith/server/input"
	"kith/store"
)

// csvCell is a value of a row and the column it came from.
type csvCell struct{ col, v string }

// csvPerson is what a row says of a person, by Kith's fields, before
// Kith's rules are applied: each format's plan fills it, and finish makes
// the person of it, the same way for every format.
type csvPerson struct {
	first, middle, last, nickname, maiden, prefix, suffix, howWeMet csvCell
	// fallbacks give the first name, in order, to a row without one.
	fallbacks      []csvFallback
	company, title csvCell
	birthday       csvDate
	dates          []csvDate
	notes, tags    []csvCell
	details        []csvDetail
	usDates        bool // Outlook's M/D/YYYY is a date too
}

// csvFallback is a value that becomes the first name when there is none;
// moves says it is the last name, which is then left empty.
type csvFallback struct {
	csvCell
	moves bool
}

// csvDetail is a contact detail of a row. An address has its parts in
// addr and its column is that of its first part.
type csvDetail struct {
	kind, col, label, value string
	primary                 bool // Google's "* ": the detail goes first of its kind
	addr                    csvAddress
}

// csvAddress is an address's parts as a row gives them.
type csvAddress struct {
	street, city, region, postalCode, country string
}

// csvDate is an important date of a row; a birthday is an age when its
// year is one.
type csvDate struct {
	csvCell
	label  string
	remind bool
}

// Keys of the API's fields of a person, which input.Person reads.
var csvNameKeys = []string{"first_name", "middle_name", "last_name", "nickname", "maiden_name", "prefix", "suffix", "how_we_met"}

// finish applies Kith's rules to the row: a part they refuse is left out
// with a problem, and a row without a first name is skipped.
func (c *csvPerson) finish(opts CSVOptions) CSVRecord {
	first := c.first
	last := c.last
	if strings.TrimSpace(first.v) == "" {
		for _, f := range c.fallbacks {
			if strings.TrimSpace(f.v) != "" {
				first = f.csvCell
				if f.moves {
					last = csvCell{}
				}
				break
			}
		}
	}
	rec := CSVRecord{Name: joinNonEmpty(" ", strings.TrimSpace(first.v), strings.TrimSpace(last.v))}
	if strings.TrimSpace(first.v) == "" {
		rec.Skipped = "the row has no name"
		return rec
	}
	b := csvBuilder{opts: opts}
	person, ok := b.person([]csvCell{first, c.middle, last, c.nickname, c.maiden, c.prefix, c.suffix, c.howWeMet})
	if !ok {
		rec.Skipped = b.skip
		return rec
	}
	b.rec.Person = person
	b.dates(c)
	b.details(c.details)
	b.notes(c.notes)
	b.tags(c.tags)
	b.work(c.company, c.title)
	rec.Person, rec.Problems = &b.rec, b.problems
	return rec
}

// csvBuilder makes one row's person and collects its problems.
type csvBuilder struct {
	opts     CSVOptions
	rec      store.PersonRecord
	problems []CSVProblem
	skip     string
}

func (b *csvBuilder) problem(col, reason string) {
	b.problems = append(b.problems, CSVProblem{Column: col, Reason: reason})
}

// check reads values through read, as the API's route of their kind
// reads its body, and reports its failures; false when anything failed.
func (b *csvBuilder) check(values map[string]any, cols map[string]string, col string, read func(p *input.Params)) bool {
	p := input.NewParams(values)
	read(p)
	return b.report(p, cols, col)
}

// report makes each failure of p a problem of the column of its field
// (cols, by key; col for the rest); false when there was any.
func (b *csvBuilder) report(p *input.Params, cols map[string]string, col string) bool {
	ve, ok := p.Err().(*input.ValidationError)
	if !ok {
		return true
	}
	for _, f := range ve.Fields() {
		at := col
		if c, ok := cols[f]; ok {
			at = c
		}
		for _, msg := range ve.ByField()[f] {
			b.problem(at, msg)
		}
	}
	return false
}

// person reads the names with the rules of POST /api/persons; a name
// they refuse is left out, but a first name they refuse skips the row.
func (b *csvBuilder) person(names []csvCell) (store.Person, bool) {
	values := map[string]any{}
	cols := map[string]string{}
	for i, c := range names {
		if c.v != "" {
			values[csvNameKeys[i]], cols[csvNameKeys[i]] = c.v, c.col
		}
	}
	p := input.NewParams(values)
	in := input.Person(p)
	if p.Failed("first_name") {
		b.skip = input.FieldErrors(p.Err())["first_name"][0]
		return store.Person{}, false
	}
	b.report(p, cols, "")
	return store.Person{FirstName: in.FirstName, LastName: in.LastName, MiddleName: in.MiddleName,
		Nickname: in.Nickname, MaidenName: in.MaidenName, Prefix: in.Prefix, Suffix: in.Suffix, HowWeMet: in.HowWeMet,
		MaritalStatus: in.MaritalStatus, KidsStatus: in.KidsStatus, CanBeDeleted: in.CanBeDeleted, IsListed: in.IsListed}, true
}

// dates makes the birthday an exact age, reminded yearly, when it has a
// year that an age takes (1900 to this year); otherwise an important date
// labelled birthday. The other dates are important dates.
func (b *csvBuilder) dates(c *csvPerson) {
	if strings.TrimSpace(c.birthday.v) != "" {
		year, month, day, ok := b.day(c.birthday.csvCell, c.usDates)
		switch {
		case !ok:
		case year != nil && *year >= 1900 && *year <= int64(b.opts.Today.Year()):
			exact, remind := "exact", true
			b.rec.Age = store.Age{Type: &exact, Year: year, Month: &month, Day: &day, YearlyReminder: &remind}
		default:
			b.date(csvDate{c.birthday.csvCell, "birthday", true}, year, month, day)
		}
	}
	for _, d := range c.dates {
		if year, month, day, ok := b.day(d.csvCell, c.usDates); ok {
			b.date(d, year, month, day)
		}
	}
}

// day reads a date, a problem when it is none; false also for Outlook's
// 0/0/00, which says there is none.
func (b *csvBuilder) day(c csvCell, us bool) (year *int64, month, day int64, ok bool) {
	s := strings.TrimSpace(c.v)
	if s == "" {
		return nil, 0, 0, false
	}
	year, month, day, none, ok := parseCSVDate(s, us)
	if !ok && !none {
		b.problem(c.col, "not a date: "+s)
	}
	return year, month, day, ok
}

func (b *csvBuilder) date(d csvDate, year *int64, month, day int64) {
	date := fmt.Sprintf("--%02d-%02d", month, day)
	if year != nil {
		date = fmt.Sprintf("%04d-%02d-%02d", *year, month, day)
	}
	var in store.ImportantDateInput
	if b.check(map[string]any{"label": d.label, "date": date, "remind_yearly": d.remind}, nil, d.col,
		func(p *input.Params) { in = input.ImportantDate(p) }) {
		b.rec.ImportantDates = append(b.rec.ImportantDates, store.ImportantDate{Label: in.Label, Year: in.Year,
			Month: in.Month, Day: in.Day, RemindYearly: in.RemindYearly})
	}
}

var (
	isoDate = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^(?:(\d{4})|-)-(\d{1,2})-(\d{1,2})$`) })
	usDate  = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^(\d{1,2})/(\d{1,2})/(\d{2}|\d{4})$`) })
)

// parseCSVDate reads YYYY-MM-DD, or --MM-DD for a day without its year,
// and with us Outlook's M/D/YYYY, whose 0/0/00 is no date (none).
func parseCSVDate(s string, us bool) (year *int64, month, day int64, none, ok bool) {
	var y, m, d string
	if match := isoDate().FindStringSubmatch(s); match != nil {
		y, m, d = match[1], match[2], match[3]
	} else if match := usDate().FindStringSubmatch(s); us && match != nil {
		m, d, y = match[1], match[2], match[3]
		if strings.Trim(m+d+y, "0") == "" {
			return nil, 0, 0, true, false
		}
		if len(y) != 4 {
			return nil, 0, 0, false, false
		}
	} else {
		return nil, 0, 0, false, false
	}
	month, _ = strconv.ParseInt(m, 10, 64)
	day, _ = strconv.ParseInt(d, 10, 64)
	leap := 2000 // a day without a year may be 29 February
	if y != "" {
		n, _ := strconv.ParseInt(y, 10, 64)
		year, leap = &n, int(n)
	}
	ok = (year == nil || *year >= 1) && month >= 1 && month <= 12 && day >= 1 && input.RealDay(leap, time.Month(month), int(day))
	return year, month, day, false, ok
}

// details makes the contact details with the rules of POST
// …/contact-details: a detail they refuse is left out. Each kind keeps
// the file's order, but for Google's primary ones, which go first.
func (b *csvBuilder) details(ds []csvDetail) {
	ds = slices.Clone(ds)
	slices.SortStableFunc(ds, func(x, y csvDetail) int {
		switch {
		case x.primary == y.primary:
			return 0
		case x.primary:
			return -1
		}
		return 1
	})
	positions := map[string]int64{}
	for _, d := range ds {
		values := map[string]any{"kind": d.kind}
		if d.label != "" {
			values["label"] = d.label
		}
		if d.kind == "address" {
			d.addr.into(values)
		} else {
			values["value"] = d.value
		}
		var in store.ContactDetailInput
		if !b.check(values, nil, d.col, func(p *input.Params) { in = input.ContactDetail(p) }) {
			continue
		}
		if len(b.rec.ContactDetails) == store.MaxContactDetails {
			b.problem(d.col, input.MsgTooManyContactDetails)
			return
		}
		positions[in.Kind]++
		b.rec.ContactDetails = append(b.rec.ContactDetails, store.ContactDetail{Kind: in.Kind, Label: in.Label,
			Position: positions[in.Kind], Value: in.Value, Network: in.Network, Street: in.Street, City: in.City,
			PostalCode: in.PostalCode, Region: in.Region, Country: in.Country})
	}
}

// into puts the address's parts among an address's fields. A country is
// kept by its ISO code, as the vCard import keeps ADR's; one Kith cannot
// name goes after the region, so that nothing is lost.
func (a csvAddress) into(values map[string]any) {
	region := strings.TrimSpace(a.region)
	if country := strings.TrimSpace(a.country); country != "" {
		if code, ok := store.CountryByName(country); ok {
			values["country"] = code
		} else {
			region = joinNonEmpty(", ", region, country)
		}
	}
	for key, v := range map[string]string{"street": a.street, "city": a.city, "region": region, "postal_code": a.postalCode} {
		if v != "" {
			values[key] = v
		}
	}
}

// empty reports whether the address has no part at all.
func (a csvAddress) empty() bool {
	return strings.TrimSpace(a.street+a.city+a.region+a.postalCode+a.country) == ""
}

func (b *csvBuilder) notes(cells []csvCell) {
	for _, c := range cells {
		if strings.TrimSpace(c.v) == "" {
			continue
		}
		var content string
		if b.check(map[string]any{"content": normalizeBreaks(c.v)}, nil, c.col, func(p *input.Params) { content = input.Note(p) }) {
			b.rec.Notes = append(b.rec.Notes, store.Note{Content: content})
		}
	}
}

// normalizeBreaks makes every line break LF, as the notes route keeps
// them.
func normalizeBreaks(s string) string {
	return strings.ReplaceAll(strings.ReplaceAll(s, "\r\n", "\n"), "\r", "\n")
}

// tags makes the person's tags, each name once ignoring case, with the
// rules of a tag's name.
func (b *csvBuilder) tags(cells []csvCell) {
	seen := map[string]bool{}
	for _, c := range cells {
		var name string
		if !b.check(map[string]any{"name": c.v}, nil, c.col, func(p *input.Params) { name = input.TagName(p) }) {
			continue
		}
		if key := store.FoldTag(name); !seen[key] {
			seen[key] = true
			b.rec.Tags = append(b.rec.Tags, name)
		}
	}
}

// work makes the active job. A job needs its title in Kith: a company
// without one is a problem.
func (b *csvBuilder) work(company, title csvCell) {
	if strings.TrimSpace(company.v) == "" && strings.TrimSpace(title.v) == "" {
		return
	}
	values := map[string]any{"active": true}
	cols := map[string]string{"company_name": company.col, "job_title": company.col}
	if strings.TrimSpace(title.v) != "" {
		values["job_title"], cols["job_title"] = title.v, title.col
	}
	if company.v != "" {
		values["company_name"] = company.v
	}
	var in store.WorkEntryInput
	if b.check(values, cols, "", func(p *input.Params) { in = input.WorkEntry(p) }) {
		b.rec.WorkHistory = append(b.rec.WorkHistory, store.WorkEntry{JobTitle: in.JobTitle, CompanyName: in.CompanyName,
			Active: true})
	}
}

// joinNonEmpty joins the parts that are not empty.
func joinNonEmpty(sep string, parts ...string) string {
	out := parts[:0:0]
	for _, p := range parts {
		if p != "" {
			out = append(out, p)
		}
	}
	return strings.Join(out, sep)
}
