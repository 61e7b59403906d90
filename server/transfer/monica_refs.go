package transfer

import (
	"strconv"
	"strings"
	"sync"
	"unicode"
	"unicode/utf8"

	"kith/store"
)

func itoa(i int) string { return strconv.Itoa(i) }

// The small things of pass 1 that the contacts refer to by uuid.

func (m *monicaReader) gender(path string, v any) {
	if o, ok := m.object(path, v); ok {
		if name := o.props().str("name"); name != nil && o.uuid() != "" {
			m.genders[o.uuid()] = *name
		}
	}
}

func (m *monicaReader) fieldType(path string, v any) {
	if o, ok := m.object(path, v); ok {
		p := o.props()
		t := fieldType{name: text(p.str("name")), protocol: text(p.str("protocol")), kind: text(p.str("type"))}
		if o.uuid() != "" {
			m.fieldTypes[o.uuid()] = t
		}
	}
}

// lifeEventType keeps a type's description: its name, or, for Monica's
// own types, which have none, its translation key in words.
func (m *monicaReader) lifeEventType(path string, v any) {
	o, ok := m.object(path, v)
	if !ok || o.uuid() == "" {
		return
	}
	p := o.props()
	if name := p.str("name"); name != nil {
		m.lifeEventTypes[o.uuid()] = *name
	} else if key := p.str("translation_key"); key != nil {
		words := strings.ReplaceAll(*key, "_", " ")
		r, size := utf8.DecodeRuneInString(words)
		m.lifeEventTypes[o.uuid()] = string(unicode.ToUpper(r)) + words[size:]
	}
}

// photo counts a photo, and keeps the data URL of an avatar's (of every
// photo, while no contact has been read: a file in another order).
func (m *monicaReader) photo(path string, v any) {
	o, ok := m.object(path, v)
	if !ok {
		return
	}
	m.photoCount++
	data := o.props().raw("dataUrl")
	if id := o.uuid(); data != nil && id != "" && (m.avatars[id] || !m.contactsSeen) {
		m.photos[id] = *data
	}
}

// prunePhotos forgets the photos that no avatar is.
func (m *monicaReader) prunePhotos() {
	for id := range m.photos {
		if !m.avatars[id] {
			delete(m.photos, id)
		}
	}
}

func (m *monicaReader) activity(path string, v any) {
	o, ok := m.object(path, v)
	if !ok {
		return
	}
	p := o.props()
	a := activity{summary: text(p.str("summary")), description: text(p.str("description")), on: p.date("happened_at")}
	if o.uuid() != "" {
		m.activities[o.uuid()] = a
	}
}

func (m *monicaReader) relationship(path string, v any) {
	o, ok := m.object(path, v)
	if !ok {
		return
	}
	p := o.props()
	m.rels = append(m.rels, monicaRel{place: o.place(), kind: text(p.str("type")),
		contactIs: text(p.str("contact_is")), ofContact: text(p.str("of_contact"))})
}

func (m *monicaReader) journalEntry(path string, v any) {
	o, ok := m.object(path, v)
	if !ok {
		return
	}
	p := o.props()
	kind := p.str("type")
	if kind == nil || *kind != "entry" {
		return // a day's mood: not imported
	}
	e := monicaEntry{place: o.place(), title: text(p.str("title")), post: text(p.raw("post")), day: p.date("date"),
		created: o.unix("created_at")}
	m.journal = append(m.journal, e)
}

func text(s *string) string {
	if s == nil {
		return ""
	}
	return *s
}

// monicaType is how a Monica relationship type maps (§4.7): the Kith type
// of that name and its reverse and group, and whether Monica's row is the
// reverse of Kith's (child is parent seen from the other side).
type monicaType struct {
	store.RelationshipTypeInput
	reversed bool
}

var monicaTypes = sync.OnceValue(func() map[string]monicaType {
	t := map[string]monicaType{}
	same := func(monica, name, reverse, group string) {
		t[monica] = monicaType{RelationshipTypeInput: store.RelationshipTypeInput{Name: name, NameReverse: reverse, Group: group}}
	}
	pair := func(monica, monicaReverse, name, reverse, group string) {
		same(monica, name, reverse, group)
		t[monicaReverse] = monicaType{RelationshipTypeInput: store.RelationshipTypeInput{Name: name, NameReverse: reverse, Group: group},
			reversed: true}
	}
	for _, k := range [][3]string{{"partner", "partner", "love"}, {"spouse", "spouse", "love"}, {"sibling", "sibling", "family"},
		{"cousin", "cousin", "family"}, {"friend", "friend", "friend"}, {"colleague", "colleague", "work"}} {
		same(k[0], k[0], k[1], k[2])
	}
	pair("mentor", "protege", "mentor", "mentee", "work")
	pair("parent", "child", "parent", "child", "family")
	pair("grandparent", "grandchild", "grandparent", "grandchild", "family")
	pair("uncle", "nephew", "uncle or aunt", "nephew or niece", "family")
	same("bestfriend", "best friend", "best friend", "friend")
	pair("boss", "subordinate", "manager", "report", "work")
	for _, k := range [][2]string{{"date", "date"}, {"lover", "lover"}, {"ex", "ex"}, {"ex_husband", "ex-husband"}} {
		same(k[0], k[1], k[1], "love")
	}
	pair("inlovewith", "lovedby", "in love with", "loved by", "love")
	pair("godfather", "godson", "godfather", "godson", "family")
	pair("stepparent", "stepchild", "stepparent", "stepchild", "family")
	return t
})

// relationships maps the file's relationship rows (§4.7): each to a
// relationship made on one side, so that the two rows of a pair name one;
// a row with a contact skipped or not in the file is a problem.
func (m *monicaReader) relationships() ([]store.IncomingRelationship, []Problem) {
	var out []store.IncomingRelationship
	var problems []Problem
	for _, r := range m.rels {
		if r.kind == "" {
			problems = append(problems, Problem{Place: r.place, Field: "relationship", Reason: "the relationship has no type"})
			continue
		}
		var name string
		bad := ""
		for _, id := range []string{r.contactIs, r.ofContact} {
			c, ok := m.contacts[id]
			switch {
			case !ok:
				bad = "the contact " + id + " is not in the file"
			case c.skipped:
				bad = "the contact " + id + " was skipped"
			case name == "":
				name = store.FullName(c.first, c.last)
			}
			if bad != "" {
				break
			}
		}
		if bad != "" {
			problems = append(problems, Problem{Place: r.place, Name: name, Field: "relationship", Reason: bad})
			continue
		}
		t, ok := monicaTypes()[r.kind]
		if !ok {
			t.Name, t.NameReverse, t.Group = r.kind, r.kind, "other"
		}
		rel := store.IncomingRelationship{FromKey: r.contactIs, ToKey: r.ofContact, Type: t.RelationshipTypeInput}
		if t.reversed {
			rel.FromKey, rel.ToKey = r.ofContact, r.contactIs
		}
		out = append(out, rel)
	}
	return out, problems
}

// maxEntryBody is the longest entry the journal takes.
const maxEntryBody = 100000

// entries maps the journal's entries of type entry: one a date, the
// entries of one date joined by a blank line (§4.6).
func (m *monicaReader) entries() ([]store.Entry, []Problem) {
	var out []store.Entry
	var problems []Problem
	at := map[string]int{}
	for _, e := range m.journal {
		if e.day == "" {
			problems = append(problems, Problem{Place: e.place, Field: "journal_entry", Reason: "the entry has no date"})
			continue
		}
		body := strings.TrimSpace(strings.TrimSpace(e.title) + "\n\n" + strings.TrimSpace(e.post))
		if body == "" {
			continue
		}
		if i, ok := at[e.day]; ok {
			joined := out[i].Body + "\n\n" + body
			if utf8.RuneCountInString(joined) > maxEntryBody {
				problems = append(problems, Problem{Place: e.place, Field: "journal_entry",
					Reason: "The body field must not be greater than 100000 characters."})
				continue
			}
			out[i].Body = joined
			continue
		}
		if utf8.RuneCountInString(body) > maxEntryBody {
			problems = append(problems, Problem{Place: e.place, Field: "journal_entry",
				Reason: "The body field must not be greater than 100000 characters."})
			continue
		}
		y, _ := strconv.Atoi(e.day[:4])
		mo, _ := strconv.Atoi(e.day[5:7])
		d, _ := strconv.Atoi(e.day[8:10])
		at[e.day] = len(out)
		out = append(out, store.Entry{Year: y, Month: mo, Day: d, Body: body, CreatedAt: e.created, UpdatedAt: e.created})
	}
	return out, problems
}
