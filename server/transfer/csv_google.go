package transfer

import (
	"regexp"
	"strings"
	"sync"
)

// googleSeparator joins the values of one cell, in every Google export:
// two emails of one label, the labels of a contact.
const googleSeparator = " ::: "

// googleColumns are the columns of a Google file that are read, by name:
// the current export's and the older one's (§5.2), which say the same
// with other words.
var googleColumns = map[string]string{
	"first name": "first", "given name": "first",
	"middle name": "middle", "additional name": "middle",
	"last name": "last", "family name": "last",
	"name":     "name",
	"nickname": "nickname", "name prefix": "prefix", "name suffix": "suffix", "maiden name": "maiden",
	"file as":           "file as",
	"organization name": "company", "organization title": "title",
	"birthday": "birthday", "notes": "notes",
	"labels": "tags", "group membership": "tags",
}

// googleGroupColumn is a column of a numbered group: "E-mail 2 - Value".
var googleGroupColumn = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`^(e-mail|phone|address|website|event|organization) (\d+) - (.+)$`)
})

// googleKinds are the kinds of detail of the groups that hold one.
var googleKinds = map[string]string{"e-mail": "email", "phone": "phone", "address": "address", "website": "website"}

// googleGroupParts are the parts of a group that are read: "type" is the
// older format's "label".
var googleGroupParts = map[string]bool{
	"label": true, "type": true, "value": true, "formatted": true, "street": true, "city": true, "po box": true,
	"region": true, "postal code": true, "country": true, "extended address": true,
}

// googleGroup is one numbered group of columns, by part.
type googleGroup struct {
	kind  string
	parts map[string]int
}

// googleRows reads the rows of a Google file.
type googleRows struct {
	cols   map[string]int // the single columns, by what they give
	groups []*googleGroup // in the header's order
}

// googlePlan reads a Google header: what each column gives, and the
// columns it does not read.
func googlePlan(header []string) (csvPlan, []string) {
	g := &googleRows{cols: map[string]int{}}
	groups := map[string]*googleGroup{}
	var ignored []string
	for i, h := range header {
		k := csvKey(h)
		if what, ok := googleColumns[k]; ok {
			g.cols[what] = i
			if what == "file as" {
				ignored = append(ignored, h) // read only for a row without a name
			}
			continue
		}
		m := googleGroupColumn().FindStringSubmatch(k)
		switch {
		case m == nil, !googleGroupParts[m[3]] && m[1] != "organization":
			ignored = append(ignored, h)
			continue
		case m[1] == "organization":
			// The older format's job: its first organization only.
			if m[2] != "1" || (m[3] != "name" && m[3] != "title") {
				ignored = append(ignored, h)
			} else if m[3] == "name" {
				g.cols["company"] = i
			} else {
				g.cols["title"] = i
			}
			continue
		}
		group := groups[m[1]+" "+m[2]]
		if group == nil {
			group = &googleGroup{kind: m[1], parts: map[string]int{}}
			groups[m[1]+" "+m[2]] = group
			g.groups = append(g.groups, group)
		}
		part := m[3]
		if part == "type" {
			part = "label"
		}
		group.parts[part] = i
	}
	return g, ignored
}

// cell is the row's value of a single column, with its column's name.
func (g *googleRows) cell(fields, header []string, what string) csvCell {
	if i, ok := g.cols[what]; ok {
		return csvCell{header[i], fields[i]}
	}
	return csvCell{}
}

func (g *googleRows) row(fields []string, header []string) csvPerson {
	c := func(what string) csvCell { return g.cell(fields, header, what) }
	// The older format's Name names a row whose name columns are empty.
	p := csvPerson{first: c("first"), middle: c("middle"), last: c("last"), nickname: c("nickname"),
		prefix: c("prefix"), suffix: c("suffix"), maiden: c("maiden"), company: c("company"), title: c("title"),
		birthday: csvDate{csvCell: c("birthday"), label: "birthday", remind: true}}
	if strings.TrimSpace(p.first.v+p.middle.v+p.last.v) == "" {
		p.first = c("name")
	}
	p.fallbacks = []csvFallback{{csvCell: p.nickname}, {csvCell: c("file as")}, {csvCell: p.last, moves: true},
		{csvCell: p.company}}
	if notes := c("notes"); notes.v != "" {
		p.notes = []csvCell{notes}
	}
	tags := c("tags")
	for _, name := range splitValues(tags.v, googleSeparator) {
		name = strings.TrimSpace(strings.TrimPrefix(name, "* "))
		if !strings.EqualFold(name, "myContacts") && !strings.EqualFold(name, "My Contacts") {
			p.tags = append(p.tags, csvCell{tags.col, name})
		}
	}
	for _, group := range g.groups {
		g.group(&p, group, fields, header)
	}
	return p
}

// group reads a numbered group's details or dates. One cell may hold
// several values of the group's label, separated by " ::: ".
func (g *googleRows) group(p *csvPerson, group *googleGroup, fields, header []string) {
	part := func(name string) csvCell {
		if i, ok := group.parts[name]; ok {
			return csvCell{header[i], fields[i]}
		}
		return csvCell{}
	}
	label, primary := googleLabel(part("label").v)
	switch group.kind {
	case "event":
		value := part("value")
		label, remind := eventLabel(part("label").v)
		for _, v := range splitValues(value.v, googleSeparator) {
			p.dates = append(p.dates, csvDate{csvCell{value.col, v}, label, remind})
		}
	case "address":
		p.details = append(p.details, googleAddresses(part, label, primary)...)
	default:
		value := part("value")
		for _, v := range splitValues(value.v, googleSeparator) {
			p.details = append(p.details, csvDetail{kind: googleKinds[group.kind], col: value.col, label: label,
				value: v, primary: primary})
		}
	}
}

// googleAddresses reads an address group, whose every part may hold
// several values: the nth of each make the nth address. The extended
// address and the post office box go on further lines of the street;
// the formatted address is the street only when nothing else is there.
func googleAddresses(part func(string) csvCell, label string, primary bool) []csvDetail {
	names := []string{"street", "extended address", "po box", "city", "region", "postal code", "country", "formatted"}
	values := make(map[string][]string, len(names))
	n, col := 0, ""
	for _, name := range names {
		c := part(name)
		values[name] = strings.Split(c.v, googleSeparator)
		if strings.TrimSpace(c.v) != "" {
			n = max(n, len(values[name]))
			if col == "" {
				col = c.col
			}
		}
	}
	var out []csvDetail
	for i := range n {
		at := func(name string) string {
			if i < len(values[name]) {
				return strings.TrimSpace(values[name][i])
			}
			return ""
		}
		a := csvAddress{street: joinNonEmpty("\n", at("street"), at("extended address"), at("po box")),
			city: at("city"), region: at("region"), postalCode: at("postal code"), country: at("country")}
		if a.empty() {
			a.street = at("formatted")
		}
		if !a.empty() {
			out = append(out, csvDetail{kind: "address", col: col, label: label, primary: primary, addr: a})
		}
	}
	return out
}

// googleLabel reads a group's label: Google's "* " (the primary one) is
// taken off and said by primary, and its own labels are Kith's.
func googleLabel(s string) (label string, primary bool) {
	s = strings.TrimSpace(s)
	if rest, ok := strings.CutPrefix(s, "* "); ok {
		s, primary = strings.TrimSpace(rest), true
	}
	for _, own := range []string{"home", "work", "mobile", "other"} {
		if strings.EqualFold(s, own) {
			return own, primary
		}
	}
	return s, primary
}

// eventLabel is the label of an event's date: an anniversary is reminded
// yearly; an event without a label is "other".
func eventLabel(s string) (label string, remind bool) {
	s = strings.TrimSpace(strings.TrimPrefix(strings.TrimSpace(s), "* "))
	switch {
	case strings.EqualFold(s, "anniversary"):
		return "anniversary", true
	case s == "":
		return "other", false
	}
	return s, false
}
