package transfer

import (
	"encoding/base64"
	"strconv"
	"strings"
	"time"
	"unicode"
	"unicode/utf8"

	"kith/server/input"
	"kith/store"
)

// maxInteractionNote is where an interaction's note is cut (§4.6).
const maxInteractionNote = 2000

// websiteTypes are the contact field types read as websites (§4.5).
var websiteTypes = map[string]bool{"website": true, "web": true, "site": true, "homepage": true, "blog": true, "url": true}

// contactMap is one contact being mapped: the person it makes, and where
// its problems go.
type contactMap struct {
	m     *monicaReader
	rec   *store.IncomingPerson
	dead  bool
	first string // for the conversations' lines
}

// problem records a part of the contact left out, in pass 2.
func (c *contactMap) problem(place Place, field, reason string) {
	if c.m.pass == 2 {
		c.m.problems.Add(Problem{Place: place, Name: personName(&c.rec.PersonRecord), Field: field, Reason: reason})
	}
}

// contact maps a contact (§4.4–§4.6): in pass 1 to check it and keep its
// name, in pass 2 to hand it on.
func (m *monicaReader) contact(path string, v any) {
	o, ok := m.object(path, v)
	if !ok {
		if v == nil {
			m.fail(path, "an object was expected.")
		}
		return
	}
	id, isText := o.v["uuid"].(string)
	if !isText {
		m.fail(o.at("uuid"), "a string was expected.")
		return
	}
	p := o.props()
	rec := &store.IncomingPerson{Key: id, Place: o.place()}
	c := &contactMap{m: m, rec: rec}
	c.names(o, p)
	if m.pass == 1 {
		if _, dup := m.contacts[id]; !dup {
			m.contacts[id] = &contactInfo{first: rec.FirstName, last: rec.LastName, skipped: rec.FirstName == "", path: path}
		}
		if av, ok := p.obj("avatar"); ok {
			if src := av.str("avatar_source"); src != nil && *src == "photo" {
				if ph := av.str("avatar_photo"); ph != nil {
					m.avatars[*ph] = true
				}
			}
		}
	}
	info := m.contacts[id]
	skip := ""
	switch {
	case rec.FirstName == "":
		skip = "the contact has no name"
	case info != nil && info.path != path:
		skip = "another contact of the file has its uuid"
	}
	if skip != "" && m.pass == 2 {
		m.skipped = append(m.skipped, Skip{Place: o.place(), Name: personName(&rec.PersonRecord), Reason: skip})
		return
	}
	// Pass 1 maps a skipped contact too: its keys are checked all the same.
	c.person(o, p)
	c.rows(o)
	if m.pass == 2 && skip == "" {
		if err := m.add(rec); err != nil {
			m.addErr = err
		}
	}
}

// names reads the names, with §4.4's stand-ins for a missing first name.
func (c *contactMap) names(o, p jobj) {
	rec := c.rec
	name := func(key string) *string {
		s := p.str(key)
		if s != nil && utf8.RuneCountInString(*s) > 255 {
			c.problem(o.place(), key, "The "+input.Attr(key)+" field must not be greater than 255 characters.")
			return nil
		}
		return s
	}
	first, middle, last, nick := name("first_name"), name("middle_name"), name("last_name"), name("nickname")
	switch {
	case first != nil:
	case nick != nil:
		first = nick
	case last != nil:
		first, last = last, nil
	}
	if first != nil {
		rec.FirstName = *first
	}
	rec.MiddleName, rec.LastName, rec.Nickname = middle, last, nick
	c.first = rec.FirstName
}

// person reads the contact's own fields.
func (c *contactMap) person(o, p jobj) {
	m, rec := c.m, c.rec
	// The uuid becomes the card's UID, which a phone reads: one that could
	// not be (empty, longer than any UID, or with a line break) leaves Kith
	// to make one.
	if rec.Key != "" && len(rec.Key) <= maxUID && !strings.ContainsFunc(rec.Key, unicode.IsControl) {
		rec.UID = &rec.Key
	}
	rec.Unlisted = p.boolean("is_partial") || !p.flag("is_active", true)
	rec.CreatedAt, rec.UpdatedAt = o.unix("created_at"), o.unix("updated_at")
	if g := p.str("gender"); g != nil && m.pass == 2 {
		if name, ok := m.genders[*g]; ok {
			rec.GenderName = name
		} else {
			c.problem(o.place(), "gender", "the gender "+*g+" is not in the file")
		}
	}
	job, company := p.str("job"), p.str("company")
	if job != nil || company != nil {
		values := map[string]any{"job_title": deref(job), "company_name": deref(company), "active": true}
		if w, ok := checked(c, o.place(), "work_history", values, []string{"company_name"}, func(ps *input.Params) store.WorkEntry {
			in := input.WorkEntry(ps)
			return store.WorkEntry{JobTitle: in.JobTitle, CompanyName: in.CompanyName, Active: true}
		}); ok {
			rec.WorkHistory = append(rec.WorkHistory, w)
		}
	}
	if d := p.str("description"); d != nil {
		c.note(o.place(), *d, 0)
	}
	if f := p.str("food_preferences"); f != nil {
		c.note(o.place(), "Food preferences: "+*f, 0)
	}
	if n := p.number("stay_in_touch_frequency", false); n != "" {
		days, err := strconv.ParseInt(n, 10, 64)
		if err != nil || days < 1 || days > 3650 {
			c.problem(o.place(), "stay_in_touch_frequency", "The every days field must be between 1 and 3650.")
		} else {
			rec.StayInTouch = &store.Cadence{EveryDays: days, SinceOn: m.today.Format(time.DateOnly)}
		}
	}
	if through := p.str("first_met_through"); through != nil && m.pass == 2 {
		switch other, ok := m.contacts[*through]; {
		case !ok:
			c.problem(o.place(), "first_met_through", "the contact "+*through+" is not in the file")
		case other.skipped:
			c.problem(o.place(), "first_met_through", "the contact "+*through+" was skipped")
		default:
			met := "Met through " + store.FullName(other.first, other.last)
			if utf8.RuneCountInString(met) > 255 {
				c.problem(o.place(), "how_we_met", "The how we met field must not be greater than 255 characters.")
			} else {
				rec.HowWeMet = &met
			}
		}
	}
	for i, t := range p.arr("tags") {
		name, ok := t.(string)
		if !ok {
			m.fail(p.at("tags")+"."+itoa(i), "a string was expected.")
			continue
		}
		name = strings.TrimSpace(name)
		if utf8.RuneCountInString(name) > store.MaxTagLength {
			c.problem(o.place(), "tags", "The tags."+itoa(i)+" field must not be greater than 50 characters.")
			continue
		}
		rec.Tags = append(rec.Tags, name)
	}
	c.dead = p.boolean("is_dead")
	c.birthdate(o, p)
	c.deceased(o, p)
	if met, ok := p.obj("first_met_date"); ok {
		if d, ok := c.special(met); ok {
			d.Label = "met"
			rec.ImportantDates = append(rec.ImportantDates, d)
		}
	}
	c.avatar(o, p)
}

// flag is the boolean at key, def when absent.
func (o jobj) flag(key string, def bool) bool {
	if v, ok := o.v[key]; !ok || v == nil {
		return def
	}
	return o.boolean(key)
}

func deref(s *string) any {
	if s == nil {
		return nil
	}
	return *s
}

// special reads a SpecialDate as an important date (without its label),
// its year dropped when Monica says it is unknown.
func (c *contactMap) special(sd jobj) (store.ImportantDate, bool) {
	day := sd.date("date")
	if day == "" {
		return store.ImportantDate{}, false
	}
	t, _ := time.Parse(time.DateOnly, day)
	d := store.ImportantDate{Month: int64(t.Month()), Day: int64(t.Day())}
	if !sd.boolean("is_year_unknown") {
		y := int64(t.Year())
		d.Year = &y
	}
	return d, true
}

// birthdate reads the birthdate (§4.4): an estimated age, a birthday
// without a year, or an exact age.
func (c *contactMap) birthdate(o, p jobj) {
	sd, ok := p.obj("birthdate")
	if !ok {
		return
	}
	day := sd.date("date")
	ageBased, yearUnknown := sd.boolean("is_age_based"), sd.boolean("is_year_unknown")
	if day == "" {
		return
	}
	t, _ := time.Parse(time.DateOnly, day)
	remind := !c.dead
	switch {
	case ageBased:
		age := int64(c.m.exportDate.Year() - t.Year())
		if age < 0 || age > 150 {
			c.problem(sd.place(), "birthdate", "The estimated age field must be between 0 and 150.")
			return
		}
		kind, at, no := "estimated", c.m.exportDate.Unix(), false
		c.rec.Age = store.Age{Type: &kind, Estimated: &age, EstimatedAt: &at, YearlyReminder: &no}
	case yearUnknown:
		c.rec.ImportantDates = append(c.rec.ImportantDates, store.ImportantDate{Label: "birthday",
			Month: int64(t.Month()), Day: int64(t.Day()), RemindYearly: remind})
	default:
		ps := input.NewParams(map[string]any{"age_year": strconv.Itoa(t.Year()), "age_month": strconv.Itoa(int(t.Month())),
			"age_day": strconv.Itoa(t.Day())})
		year, month, dd := input.ExactAge(ps, c.m.today)
		if msg := firstMessage(ps.Err()); msg != "" {
			c.problem(sd.place(), "birthdate", msg)
			return
		}
		kind := "exact"
		c.rec.Age = store.Age{Type: &kind, Year: year, Month: month, Day: dd, YearlyReminder: &remind}
	}
}

// deceased reads the date of death, or a note when there is none.
func (c *contactMap) deceased(o, p jobj) {
	sd, hasDate := p.obj("deceased_date")
	reminder, hasReminder := p.obj("deceased_reminder")
	remind := hasReminder && !reminder.props().boolean("inactive")
	if !c.dead {
		return
	}
	if hasDate {
		if d, ok := c.special(sd); ok {
			d.Label, d.RemindYearly = "deceased", remind
			c.rec.ImportantDates = append(c.rec.ImportantDates, d)
			return
		}
	}
	c.note(o.place(), "Deceased", 0)
}

// avatar decodes the avatar's photo, embedded as a data URL, into the
// JPEG Kith keeps (§4.4); Kith fetches no URL.
func (c *contactMap) avatar(o, p jobj) {
	av, ok := p.obj("avatar")
	if !ok {
		return
	}
	src, id := av.str("avatar_source"), av.str("avatar_photo")
	if c.m.pass != 2 || src == nil || *src != "photo" || id == nil {
		return
	}
	// The avatar has no uuid of its own: its place names the contact's.
	place := Place{MonicaPlace: &MonicaPlace{Item: av.path, UUID: o.uuid()}}
	data, ok := c.m.photos[*id]
	if !ok {
		c.problem(place, "photo", "the photo "+*id+" is not in the file")
		return
	}
	_, b64, found := strings.Cut(data, ";base64,")
	raw, err := base64.StdEncoding.DecodeString(strings.TrimSpace(b64))
	if !found || !strings.HasPrefix(data, "data:") || err != nil {
		c.problem(place, "photo", "The photo field must be an image.")
		return
	}
	jpeg, err := input.PhotoOf(raw)
	if err != nil {
		msg := firstMessage(err)
		if msg == "" {
			msg = "The photo field must be an image."
		}
		c.problem(place, "photo", msg)
		return
	}
	c.rec.Photo = jpeg
	c.m.taken[*id] = true
}

// firstMessage is a validation error's first message, "" for none.
func firstMessage(err error) string {
	ve, ok := err.(*input.ValidationError)
	if !ok {
		return ""
	}
	if msgs := ve.Messages(); len(msgs) > 0 {
		return msgs[0]
	}
	return ""
}

// checked reads a row through the API's own reader: a failure of one of
// optional is a problem, and the row goes without that part; any other is
// a problem, and the row is left out.
func checked[T any](c *contactMap, place Place, field string, values map[string]any, optional []string, read func(*input.Params) T) (T, bool) {
	ps := input.NewParams(values)
	row := read(ps)
	ve, failed := ps.Err().(*input.ValidationError)
	if !failed {
		return row, true
	}
	for _, key := range ve.Fields() {
		c.problem(place, field, ve.ByField()[key][0])
	}
	for _, key := range ve.Fields() {
		if !contains(optional, key) {
			var zero T
			return zero, false
		}
		delete(values, key)
	}
	ps = input.NewParams(values)
	row = read(ps)
	return row, ps.Err() == nil
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}

// note adds a note of text, unless Kith refuses it.
func (c *contactMap) note(place Place, text string, created int64) {
	if n, ok := checked(c, place, "note", map[string]any{"content": text}, nil, func(ps *input.Params) store.Note {
		return store.Note{Content: input.Note(ps)}
	}); ok {
		n.CreatedAt, n.UpdatedAt = created, created
		c.rec.Notes = append(c.rec.Notes, n)
	}
}

// cut is s cut at n characters.
func cut(s string, n int) string {
	if utf8.RuneCountInString(s) <= n {
		return s
	}
	return string([]rune(s)[:n])
}
