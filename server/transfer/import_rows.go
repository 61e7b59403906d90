package transfer

import (
	"math"
	"strconv"
	"time"

	"kith/server/input"
	"kith/server/vcf"
	"kith/store"
)

// The fields that only an import takes.
const (
	// maxUID bounds a card's UID, which phones make (a UUID, or a URN of
	// one): generous, but one line.
	maxUID = 1000
	// maxVCardExtra bounds the properties a card keeps for Kith, a photo
	// among them: a card's limit on every way in (vcf.MaxExtra).
	maxVCardExtra = vcf.MaxExtra
)

// docReader reads the rows of an export document with the API's rules,
// each object through the same params and input functions as the routes
// that make its kind of row, and collects every failure under the place
// of its field in the document.
type docReader struct {
	today time.Time // the importing user's date, for the rules that look at today
	now   int64     // the time of rows that bring none
	errs  input.ValidationError
	count int // the failures in errs
	// categories and genders are the document's ids; refs are the rows
	// that refer to them, each id at its first, checked at the end.
	categories, genders map[int64]bool
	refs                []docRef
	referred            map[docRef]bool // by field and id, where left empty
	uids                map[string]bool
	// accountTypes are the relationship types of a document without its
	// own; rels what its relationships name, checked at the end.
	accountTypes []store.RelationshipType
	rels         docRelationships
}

// docRef is a row's reference to a gender or a task category.
type docRef struct {
	field string // gender_id or task_category_id
	id    int64
	where string
}

// refer records that the row at where refers by field to id.
func (r *docReader) refer(field string, id int64, where string) {
	key := docRef{field: field, id: id}
	if !r.referred[key] {
		r.referred[key] = true
		r.refs = append(r.refs, docRef{field, id, where})
	}
}

func newDocReader(today time.Time, now int64) *docReader {
	return &docReader{today: today, now: now, categories: map[int64]bool{}, genders: map[int64]bool{},
		referred: map[docRef]bool{}, uids: map[string]bool{}, rels: newDocRelationships()}
}

// fail records a failure, unless the document has enough already.
func (r *docReader) fail(key, msg string) {
	if r.full() {
		return
	}
	r.errs.Add(key, msg)
	r.count++
}

func (r *docReader) full() bool { return r.count >= maxImportErrors }

// obj returns the fields of the object v, the row at where; false, and a
// failure, when v is no object.
func (r *docReader) obj(where string, v any) (*input.Params, bool) {
	m, ok := v.(map[string]any)
	if !ok {
		r.fail(where, where+": must be an object.")
		return nil, false
	}
	return input.NewParams(m), true
}

// done moves p's failures, the fields of the row at where, into the
// document's: "persons.3.first_name": "persons.3: The first name field is
// required."
func (r *docReader) done(where string, p *input.Params) {
	ve, ok := p.Err().(*input.ValidationError)
	if !ok {
		return
	}
	for _, f := range ve.Fields() {
		for _, msg := range ve.ByField()[f] {
			r.fail(where+"."+f, where+": "+msg)
		}
	}
}

// docRows reads the array v, at where, a row at a time.
func docRows[T any](r *docReader, where string, v any, row func(where string, p *input.Params) T) []T {
	if v == nil {
		return nil
	}
	list, ok := v.([]any)
	if !ok {
		r.fail(where, where+": must be an array.")
		return nil
	}
	out := make([]T, 0, len(list))
	for i, el := range list {
		w := where + "." + strconv.Itoa(i)
		if p, ok := r.obj(w, el); ok {
			out = append(out, row(w, p))
			r.done(w, p)
		}
	}
	return out
}

// times reads a row's created_at and updated_at, now when absent.
func (r *docReader) times(p *input.Params) (created, updated int64) {
	created, updated = r.now, r.now
	if t := p.Timestamp("created_at"); t != nil {
		created = *t
	}
	if t := p.Timestamp("updated_at"); t != nil {
		updated = *t
	}
	return created, updated
}

// docID reads the id by which the document refers to a row of its own,
// 0 for none; seen holds those of the rows before.
func docID(p *input.Params, seen map[int64]bool) int64 {
	id := p.Integer("id")
	switch {
	case id == nil:
		return 0
	case *id < 1:
		p.Fail("id", "The id field must be at least 1.")
		return 0
	case seen[*id]:
		p.Fail("id", "The id has already been taken.")
		return 0
	}
	seen[*id] = true
	return *id
}

// checkRefs fails each gender or category that a row refers to and the
// document does not have.
func (r *docReader) checkRefs() {
	for _, ref := range r.refs {
		switch {
		case ref.field == "gender_id" && !r.genders[ref.id]:
			r.fail(ref.where+".gender_id", ref.where+": "+input.MsgUnknownGender)
		case ref.field == "task_category_id" && !r.categories[ref.id]:
			r.fail(ref.where+".task_category_id", ref.where+": The selected task category id is invalid.")
		}
	}
}

// settings reads the exporting user's time zone and digest.
func (r *docReader) settings(v any) (string, *store.ReminderSettings) {
	if v == nil {
		return "", nil
	}
	p, ok := r.obj("settings", v)
	if !ok {
		return "", nil
	}
	defer r.done("settings", p)
	tz := p.Text("timezone", 255)
	if _, ok := input.Zone(derefOr(tz, "UTC")); !ok {
		p.Fail("timezone", "The timezone field must be a valid timezone.")
		tz = nil
	}
	if p.Value("reminders") == nil {
		return derefOr(tz, ""), nil
	}
	rp, ok := r.obj("settings.reminders", p.Value("reminders"))
	if !ok {
		return derefOr(tz, ""), nil
	}
	defer r.done("settings.reminders", rp)
	rs := store.ReminderSettings{SendAt: rp.Text("send_at", 5), Days: store.DefaultReminderDays}
	if rs.SendAt != nil && !input.ValidSendAt(*rs.SendAt) {
		rp.Fail("send_at", "The send at field must match the format H:i.")
	}
	if d := rp.Between("days", 0, 365); d != nil {
		rs.Days = *d
	}
	return derefOr(tz, ""), &rs
}

func derefOr(s *string, def string) string {
	if s == nil {
		return def
	}
	return *s
}

func (r *docReader) categoriesOf(v any) []store.TaskCategory {
	return docRows(r, "task_categories", v, func(w string, p *input.Params) store.TaskCategory {
		c := store.TaskCategory{ID: docID(p, r.categories)}
		c.Name, c.Color = input.Category(p)
		c.CreatedAt, _ = r.times(p)
		c.UpdatedAt = p.Timestamp("updated_at") // null for a default never changed
		return c
	})
}

func (r *docReader) gendersOf(v any) []store.Gender {
	last := int64(0)
	return docRows(r, "genders", v, func(w string, p *input.Params) store.Gender {
		g := store.Gender{ID: docID(p, r.genders), Name: p.RequiredText("name", 255)}
		if pos := p.Integer("position"); pos != nil {
			g.Position = *pos
		} else {
			g.Position = last + 1 // after the others, as a new gender goes
		}
		last = max(last, g.Position)
		g.CreatedAt, _ = r.times(p)
		g.UpdatedAt = p.Timestamp("updated_at")
		return g
	})
}

func (r *docReader) journalsOf(v any) []store.JournalRecord {
	return docRows(r, "journals", v, func(w string, p *input.Params) store.JournalRecord {
		j := store.JournalRecord{Journal: store.Journal{Name: p.RequiredText("name", 255)}}
		j.CreatedAt, j.UpdatedAt = r.times(p)
		days := map[[3]int]bool{}
		j.Entries = docRows(r, w+".entries", p.Value("entries"), func(w string, p *input.Params) store.Entry {
			y, m, d := p.Between("year", 1, 9999), p.Between("month", 1, 12), p.Between("day", 1, 31)
			for _, f := range []struct {
				key string
				v   *int64
			}{{"year", y}, {"month", m}, {"day", d}} {
				if f.v == nil && !p.Failed(f.key) {
					p.Fail(f.key, "The "+f.key+" field is required.")
				}
			}
			var en store.Entry
			if y != nil && m != nil && d != nil {
				en.Year, en.Month, en.Day = int(*y), int(*m), int(*d)
				date := [3]int{en.Year, en.Month, en.Day}
				switch {
				case !store.ValidDate(en.Year, en.Month, en.Day):
					p.Fail("day", "The day field must be a valid day of the month.")
				case days[date]:
					p.Fail("day", "The journal has an entry for this date already.")
				}
				days[date] = true
			}
			en.Body = input.EntryBody(p)
			en.CreatedAt, en.UpdatedAt = r.times(p)
			return en
		})
		return j
	})
}

// person reads a person and everything of theirs.
func (r *docReader) person(where string, v any) store.PersonRecord {
	var rec store.PersonRecord
	p, ok := r.obj(where, v)
	if !ok {
		return rec
	}
	in := input.Person(p)
	rec.Person = store.Person{FirstName: in.FirstName, LastName: in.LastName, MiddleName: in.MiddleName,
		Nickname: in.Nickname, MaidenName: in.MaidenName, Prefix: in.Prefix, Suffix: in.Suffix, HowWeMet: in.HowWeMet,
		MaritalStatus: in.MaritalStatus, KidsStatus: in.KidsStatus, CanBeDeleted: in.CanBeDeleted, IsListed: in.IsListed}
	if in.GenderID != nil && *in.GenderID > 0 {
		rec.Gender = &store.GenderRef{ID: *in.GenderID}
		r.refer("gender_id", *in.GenderID, where)
	}
	if rec.UID = p.Text("uid", maxUID); rec.UID != nil {
		if r.uids[*rec.UID] {
			p.Fail("uid", "The uid has already been taken.")
		}
		r.uids[*rec.UID] = true
	}
	rec.VCardExtra = p.Verbatim("vcard_extra", maxVCardExtra) // kept as it is, line breaks and all
	if p.Value("tags") != nil {
		// No bound on their number: a vCard or a merge gives a person more
		// than the hundred a PUT of their tags takes.
		rec.Tags = p.Strings("tags", math.MaxInt, store.MaxTagLength)
	}
	rec.Photo = docPhoto(p)
	rec.CreatedAt, rec.UpdatedAt = r.times(p)
	r.done(where, p)

	rec.Age = r.age(where+".age", p.Value("age"))
	rec.Appearance = r.appearance(where+".physical_appearance", p.Value("physical_appearance"))
	rec.StayInTouch = r.cadence(where+".stay_in_touch", p.Value("stay_in_touch"))
	positions := map[string]int64{} // the last of each kind so far
	rec.ContactDetails = docRows(r, where+".contact_details", p.Value("contact_details"), func(w string, p *input.Params) store.ContactDetail {
		in := input.ContactDetail(p)
		d := store.ContactDetail{Kind: in.Kind, Label: in.Label, Value: in.Value, Network: in.Network, Street: in.Street,
			City: in.City, PostalCode: in.PostalCode, Region: in.Region, Country: in.Country}
		if in.Position != nil {
			d.Position = *in.Position
		} else {
			d.Position = positions[in.Kind] + 1 // last among its kind, as a new one goes
		}
		positions[in.Kind] = max(positions[in.Kind], d.Position)
		d.CreatedAt, d.UpdatedAt = r.times(p)
		return d
	})
	if len(rec.ContactDetails) > store.MaxContactDetails {
		r.fail(where+".contact_details", where+": "+input.MsgTooManyContactDetails)
	}
	rec.ImportantDates = docRows(r, where+".important_dates", p.Value("important_dates"), func(w string, p *input.Params) store.ImportantDate {
		in := input.ImportantDate(p)
		d := store.ImportantDate{Label: in.Label, Year: in.Year, Month: in.Month, Day: in.Day, RemindYearly: in.RemindYearly}
		d.CreatedAt, d.UpdatedAt = r.times(p)
		return d
	})
	rec.Notes = docRows(r, where+".notes", p.Value("notes"), func(w string, p *input.Params) store.Note {
		n := store.Note{Content: input.Note(p)}
		n.CreatedAt, n.UpdatedAt = r.times(p)
		return n
	})
	rec.Gifts = docRows(r, where+".gifts", p.Value("gifts"), func(w string, p *input.Params) store.Gift {
		in := input.Gift(p)
		g := store.Gift{Name: in.Name, Occasion: in.Occasion, URL: in.URL, Status: in.Status, GiftedAt: in.GiftedAt}
		g.CreatedAt, g.UpdatedAt = r.times(p)
		return g
	})
	rec.LifeEvents = docRows(r, where+".life_events", p.Value("life_events"), func(w string, p *input.Params) store.LifeEvent {
		in := input.LifeEvent(p)
		ev := store.LifeEvent{Description: in.Description, Comment: in.Comment, Icon: in.Icon, BgColor: in.BgColor,
			TextColor: in.TextColor, HappenedAt: in.HappenedAt, ShouldBeReminded: in.ShouldBeReminded}
		ev.CreatedAt, ev.UpdatedAt = r.times(p)
		return ev
	})
	active := false
	rec.WorkHistory = docRows(r, where+".work_history", p.Value("work_history"), func(w string, p *input.Params) store.WorkEntry {
		in := input.WorkEntry(p)
		if in.Active && active {
			p.Fail("active", "Only one job of a person may be active.")
		}
		active = active || in.Active
		e := store.WorkEntry{JobTitle: in.JobTitle, CompanyName: in.CompanyName, EstimatedSalary: in.EstimatedSalary,
			Duration: in.Duration, Active: in.Active}
		e.CreatedAt, e.UpdatedAt = r.times(p)
		return e
	})
	rec.Tasks = docRows(r, where+".tasks", p.Value("tasks"), func(w string, p *input.Params) store.Task {
		in := input.Task(p)
		t := store.Task{Name: in.Name, DueAt: in.DueAt, CompletedAt: p.Timestamp("completed_at")}
		if b := p.Boolean("is_completed"); b != nil {
			t.IsCompleted = *b
		}
		if in.CategoryID != nil && *in.CategoryID > 0 {
			t.Category = &store.CategoryRef{ID: *in.CategoryID}
			r.refer("task_category_id", *in.CategoryID, w)
		}
		t.CreatedAt, t.UpdatedAt = r.times(p)
		return t
	})
	rec.Interactions = docRows(r, where+".interactions", p.Value("interactions"), func(w string, p *input.Params) store.Interaction {
		in := input.Interaction(p, r.today)
		i := store.Interaction{HappenedOn: in.HappenedOn, Kind: in.Kind, Note: in.Note}
		i.CreatedAt, i.UpdatedAt = r.times(p)
		return i
	})
	rec.Relationships = r.relationshipsOf(where, rec.UID, p.Value("relationships"))
	return rec
}

// tagsOf reads the account's tags with the rules of a tag's rename; two
// names equal ignoring case are one tag, the first (see store's tagsOf).
func (r *docReader) tagsOf(v any) []store.Tag {
	return docRows(r, "tags", v, func(w string, p *input.Params) store.Tag {
		t := store.Tag{Name: input.TagName(p)}
		t.CreatedAt, t.UpdatedAt = r.times(p)
		return t
	})
}

// age reads a person's age as PATCH …/age takes it, and estimated_at,
// when an estimated age was set (now when absent).
func (r *docReader) age(where string, v any) store.Age {
	if v == nil {
		return store.Age{}
	}
	p, ok := r.obj(where, v)
	if !ok {
		return store.Age{}
	}
	defer r.done(where, p)
	kind := p.OneOf("age_type", []string{"exact", "estimated", "bracket"}, "")
	if kind == "" && !p.Failed("age_type") {
		p.Fail("age_type", "The age type field is required.")
	}
	a := store.Age{Type: &kind}
	switch kind {
	case "":
		return store.Age{}
	case "exact":
		a.Year, a.Month, a.Day = input.ExactAge(p, r.today)
	case "estimated":
		a.Estimated = p.Between("estimated_age", 0, 150)
		input.RequiredWhen(p, "estimated_age", a.Estimated, kind)
		a.EstimatedAt = p.Timestamp("estimated_at")
		if a.EstimatedAt == nil {
			now := r.now
			a.EstimatedAt = &now
		}
	case "bracket":
		a.Bracket = input.Bracket(p)
		input.RequiredWhen(p, "age_bracket", a.Bracket, kind)
	}
	remind := false
	if b := p.Boolean("add_yearly_reminder"); b != nil {
		remind = *b
	}
	a.YearlyReminder = &remind
	return a
}

// appearance reads the appearance fields, by store.AppearanceFields.
func (r *docReader) appearance(where string, v any) []*string {
	out := make([]*string, len(store.AppearanceFields))
	if v == nil {
		return out
	}
	p, ok := r.obj(where, v)
	if !ok {
		return out
	}
	for i, f := range store.AppearanceFields {
		out[i] = p.Text(f, 255)
	}
	r.done(where, p)
	return out
}

// cadence reads a person's stay-in-touch cadence; since_on is today when
// absent, as for a cadence set now.
func (r *docReader) cadence(where string, v any) *store.Cadence {
	if v == nil {
		return nil
	}
	p, ok := r.obj(where, v)
	if !ok {
		return nil
	}
	defer r.done(where, p)
	c := store.Cadence{SinceOn: r.today.Format(time.DateOnly)}
	if every := p.Between("every_days", 1, 3650); every != nil {
		c.EveryDays = *every
	} else if !p.Failed("every_days") {
		p.Fail("every_days", "The every days field is required.")
	}
	if on := p.Date("since_on"); on != nil {
		if on.Year() < 1 {
			p.Fail("since_on", "The since on field must be a date after or equal to 0001-01-01.")
		}
		c.SinceOn = on.Format(time.DateOnly)
	}
	c.CreatedAt, c.UpdatedAt = r.times(p)
	return &c
}
