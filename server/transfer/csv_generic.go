package transfer

import "strings"

// genericRows reads the rows of a file whose columns are Kith's fields,
// by their headers or a mapping (§5.4).
type genericRows struct {
	fields []string // by column; "" for a column not read
}

// genericNames are the fields that are one of the person's names, by
// csvPerson.field's names.
var genericNames = map[string]string{
	"first_name": "first", "middle_name": "middle", "last_name": "last", "nickname": "nickname",
	"maiden_name": "maiden", "prefix": "prefix", "suffix": "suffix", "how_we_met": "how_we_met",
	"company": "company", "job_title": "title",
}

func genericPlan(header []string, mapping CSVMapping) (csvPlan, []string, error) {
	fields, err := mapping.fields(header)
	if err != nil {
		return nil, nil, err
	}
	var ignored []string
	for i, f := range fields {
		if f == "" || f == "ignore" {
			fields[i] = ""
			ignored = append(ignored, header[i])
		}
	}
	return &genericRows{fields: fields}, ignored, nil
}

func (g *genericRows) row(fields, header []string) csvPerson {
	var p csvPerson
	var addr csvAddress
	addrCol := ""
	for i, f := range g.fields {
		c := csvCell{header[i], fields[i]}
		if f == "" || strings.TrimSpace(c.v) == "" {
			continue
		}
		switch f {
		case "email", "phone", "website":
			p.details = append(p.details, csvDetail{kind: f, col: c.col, value: c.v})
		case "street", "city", "region", "postal_code", "country":
			if addrCol == "" {
				addrCol = c.col
			}
			addr.setField(f, c.v)
		case "birthday":
			if p.birthday.v == "" {
				p.birthday = csvDate{c, "birthday", true}
			}
		case "notes":
			p.notes = append(p.notes, c)
		case "tags":
			for _, name := range strings.FieldsFunc(c.v, func(r rune) bool { return r == ',' || r == ';' }) {
				if name = strings.TrimSpace(name); name != "" {
					p.tags = append(p.tags, csvCell{c.col, name})
				}
			}
		default:
			// A name given by several columns is the first one's.
			if to := p.field(genericNames[f]); to.v == "" {
				*to = c
			}
		}
	}
	if !addr.empty() {
		p.details = append(p.details, csvDetail{kind: "address", col: addrCol, addr: addr})
	}
	p.fallbacks = []csvFallback{{csvCell: p.nickname}, {csvCell: p.last, moves: true}, {csvCell: p.company}}
	return p
}

// setField puts a generic column's value in the address: several streets
// make several lines, and of the other parts the first one counts.
func (a *csvAddress) setField(field, v string) {
	v = strings.TrimSpace(v)
	at := map[string]*string{"city": &a.city, "region": &a.region, "postal_code": &a.postalCode, "country": &a.country}
	if field == "street" {
		a.street = joinNonEmpty("\n", a.street, v)
	} else if to := at[field]; *to == "" {
		*to = v
	}
}
