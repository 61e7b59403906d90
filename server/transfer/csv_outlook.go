package transfer

import (
	"strings"
	"sync"
)

// outlookColumn is what one of Outlook's columns gives: a field of the
// person, a detail with its label, or a part of an address.
type outlookColumn struct {
	what  string // a csvPerson field, or "email", "phone", "website", "address"
	label string
	part  string // of an address: street, street 2, street 3, city, state, postal code, country/region
}

// outlookColumns are the columns of an Outlook file that are read (§5.3),
// by name; the rest are ignored.
var outlookColumns = sync.OnceValue(func() map[string]outlookColumn {
	m := map[string]outlookColumn{
		"first name": {what: "first"}, "middle name": {what: "middle"}, "last name": {what: "last"},
		"nickname": {what: "nickname"}, "title": {what: "prefix"}, "suffix": {what: "suffix"},
		"e-mail address": {what: "email"}, "e-mail 2 address": {what: "email"}, "e-mail 3 address": {what: "email"},
		"mobile phone": {what: "phone", label: "mobile"},
		"home phone":   {what: "phone", label: "home"}, "home phone 2": {what: "phone", label: "home"},
		"business phone": {what: "phone", label: "work"}, "business phone 2": {what: "phone", label: "work"},
		"company main phone": {what: "phone", label: "work"},
		"other phone":        {what: "phone", label: "other"}, "primary phone": {what: "phone", label: "other"},
		"car phone": {what: "phone", label: "other"},
		"company":   {what: "company"}, "job title": {what: "title"},
		"web page": {what: "website"}, "personal web page": {what: "website", label: "home"},
		"birthday": {what: "birthday"}, "anniversary": {what: "anniversary"},
		"notes": {what: "notes"}, "categories": {what: "tags"},
	}
	for prefix, label := range map[string]string{"home": "home", "business": "work", "other": "other"} {
		for _, part := range []string{"street", "street 2", "street 3", "city", "state", "postal code", "country/region"} {
			m[prefix+" "+part] = outlookColumn{what: "address", label: label, part: part}
		}
	}
	return m
})

// outlookAddressLabels are the labels of Outlook's three addresses, in
// the order a person's addresses take.
var outlookAddressLabels = []string{"home", "work", "other"}

// outlookRows reads the rows of an Outlook file.
type outlookRows struct {
	cols []outlookColumn // by column; what "" for a column not read
}

func outlookPlan(header []string) (csvPlan, []string) {
	o := &outlookRows{cols: make([]outlookColumn, len(header))}
	var ignored []string
	for i, h := range header {
		if col, ok := outlookColumns()[csvKey(h)]; ok {
			o.cols[i] = col
		} else {
			ignored = append(ignored, h)
		}
	}
	return o, ignored
}

func (o *outlookRows) row(fields, header []string) csvPerson {
	p := csvPerson{usDates: true}
	addrs := map[string]*csvAddress{}
	addrCols := map[string]string{}
	for i, col := range o.cols {
		c := csvCell{header[i], fields[i]}
		if col.what == "" || strings.TrimSpace(c.v) == "" {
			continue
		}
		switch col.what {
		case "email", "phone", "website":
			p.details = append(p.details, csvDetail{kind: col.what, col: c.col, label: col.label, value: c.v})
		case "address":
			a := addrs[col.label]
			if a == nil {
				a, addrCols[col.label] = &csvAddress{}, c.col
				addrs[col.label] = a
			}
			a.set(col.part, c.v)
		case "birthday":
			p.birthday = csvDate{c, "birthday", true}
		case "anniversary":
			p.dates = append(p.dates, csvDate{c, "anniversary", true})
		case "notes":
			p.notes = append(p.notes, c)
		case "tags":
			for _, name := range splitValues(c.v, ";") {
				p.tags = append(p.tags, csvCell{c.col, name})
			}
		default:
			*p.field(col.what) = c
		}
	}
	for _, label := range outlookAddressLabels {
		if a := addrs[label]; a != nil {
			p.details = append(p.details, csvDetail{kind: "address", col: addrCols[label], label: label, addr: *a})
		}
	}
	p.fallbacks = []csvFallback{{csvCell: p.nickname}, {csvCell: p.last, moves: true}, {csvCell: p.company}}
	return p
}

// set puts a part of Outlook's address in its place: the second and third
// streets on further lines of the street.
func (a *csvAddress) set(part, v string) {
	v = strings.TrimSpace(v)
	switch part {
	case "street", "street 2", "street 3":
		a.street = joinNonEmpty("\n", a.street, v)
	case "city":
		a.city = v
	case "state":
		a.region = v
	case "postal code":
		a.postalCode = v
	case "country/region":
		a.country = v
	}
}

// field is the name field that what names.
func (p *csvPerson) field(what string) *csvCell {
	switch what {
	case "first":
		return &p.first
	case "middle":
		return &p.middle
	case "last":
		return &p.last
	case "nickname":
		return &p.nickname
	case "maiden":
		return &p.maiden
	case "prefix":
		return &p.prefix
	case "suffix":
		return &p.suffix
	case "how_we_met":
		return &p.howWeMet
	case "company":
		return &p.company
	case "title":
		return &p.title
	}
	panic("transfer: no field " + what)
}
