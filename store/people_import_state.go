package store

import (
	"context"
	"database/sql"
	"hash/fnv"
	"strconv"
	"strings"
	"time"
	"unicode"
)

// importedPerson is what a people import knows of a person it matched or
// made: which of the fields it may set are set, and a key of each row of
// theirs, so that it adds only what is not there (§3's rules of sameness).
type importedPerson struct {
	id      int64 // 0 until made
	created bool  // made by the import
	added   bool  // a matched person the import added something to
	loaded  bool  // its rows read (or none to read)
	// has are the fields set, by column.
	has       map[string]bool
	rows      map[string]bool // sameness keys, hashed
	positions map[string]int64
	details   int
	tags      map[int64]bool
}

func (p *importedPerson) init() {
	p.has, p.rows, p.positions, p.tags = map[string]bool{}, map[string]bool{}, map[string]int64{}, map[int64]bool{}
}

// release forgets what the person has, to be read again should a later
// incoming person match them.
func (p *importedPerson) release() {
	p.has, p.rows, p.positions, p.tags, p.details = nil, nil, nil, nil, 0
	p.loaded = false
}

// rowKey hashes a row's sameness key: 16 bytes a row, whatever its text.
func rowKey(parts ...string) string {
	h := fnv.New128a()
	for _, s := range parts {
		h.Write([]byte(s))
		h.Write([]byte{0})
	}
	return string(h.Sum(nil))
}

// dayOf is the calendar date of a Unix time, UTC, "" for none.
func dayOf(t *int64) string {
	if t == nil {
		return ""
	}
	return time.Unix(*t, 0).UTC().Format(time.DateOnly)
}

func text(s *string) string {
	if s == nil {
		return ""
	}
	return *s
}

// detailKey is a contact detail's sameness: emails ignoring case, phones
// by their digits, addresses by every field ignoring case.
func detailKey(kind string, value, network, street, city, postal, region, country *string) string {
	switch kind {
	case "email":
		return rowKey("detail", kind, emailKey(text(value)))
	case "phone":
		digits := strings.Map(func(r rune) rune {
			if unicode.IsDigit(r) {
				return r
			}
			return -1
		}, text(value))
		return rowKey("detail", kind, digits)
	case "address":
		f := func(s *string) string { return foldCase(strings.TrimSpace(text(s))) }
		return rowKey("detail", kind, f(street), f(city), f(postal), f(region), f(country))
	default:
		return rowKey("detail", kind, foldCase(strings.TrimSpace(text(network))), strings.TrimSpace(text(value)))
	}
}

func dateKey(label string, year *int64, month, day int64) string {
	y := ""
	if year != nil {
		y = strconv.FormatInt(*year, 10)
	}
	return rowKey("date", foldCase(strings.TrimSpace(label)), y, strconv.FormatInt(month, 10), strconv.FormatInt(day, 10))
}

func noteKey(content string) string { return rowKey("note", content) }
func taskKey(name string, due *int64) string {
	return rowKey("task", name, dayOf(due))
}
func giftKey(name string, at *int64) string     { return rowKey("gift", name, dayOf(at)) }
func lifeEventKey(desc string, at int64) string { return rowKey("life", desc, dayOf(&at)) }
func interactionKey(kind, on string, note *string) string {
	return rowKey("interaction", kind, on, text(note))
}
func workKey(title string, company *string) string { return rowKey("work", title, text(company)) }

// personChunk is how many persons one read names: a fixed number of
// placeholders, so that each read is one prepared statement.
const personChunk = 100

// loadPersons reads the fields and rows of the matched persons ids.
func (pi *peopleImporter) loadPersons(ctx context.Context, ids []int64) error {
	return freshPlans(ctx, pi.tx, func() error {
		for len(ids) > 0 {
			n := min(len(ids), personChunk)
			if err := pi.loadChunk(ctx, ids[:n]); err != nil {
				return err
			}
			ids = ids[n:]
		}
		return nil
	})
}

var personChunkIn = `(?` + strings.Repeat(", ?", personChunk-1) + `)`

// personLoads are the reads of a chunk of matched persons, each with the
// account and the chunk's ids (0 for the places left over), and how to
// take in a row: at finds the row's person by id.
var personLoads = []struct {
	query string
	row   func(at func(int64) *importedPerson, sc scanner) error
}{
	{`SELECT id, last_name, middle_name, nickname, maiden_name, prefix, suffix, how_we_met, gender_id, age_type
		FROM persons WHERE account_id = ? AND id IN ` + personChunkIn, func(at func(int64) *importedPerson, sc scanner) error {
		var id int64
		var v [9]sql.NullString
		if err := sc.Scan(&id, &v[0], &v[1], &v[2], &v[3], &v[4], &v[5], &v[6], &v[7], &v[8]); err != nil {
			return err
		}
		if p := at(id); p != nil {
			for i, col := range personFillable {
				p.has[col] = v[i].Valid && strings.TrimSpace(v[i].String) != ""
			}
		}
		return nil
	}},
	{`SELECT person_id, kind, position, value, network, street, city, postal_code, region, country
		FROM contact_details WHERE account_id = ? AND person_id IN ` + personChunkIn, func(at func(int64) *importedPerson, sc scanner) error {
		var id, pos int64
		var kind string
		var v [7]*string
		if err := sc.Scan(&id, &kind, &pos, &v[0], &v[1], &v[2], &v[3], &v[4], &v[5], &v[6]); err != nil {
			return err
		}
		if p := at(id); p != nil {
			p.rows[detailKey(kind, v[0], v[1], v[2], v[3], v[4], v[5], v[6])] = true
			p.positions[kind] = max(p.positions[kind], pos)
			p.details++
		}
		return nil
	}},
	{`SELECT person_id, label, year, month, day FROM important_dates WHERE account_id = ? AND person_id IN ` + personChunkIn,
		func(at func(int64) *importedPerson, sc scanner) error {
			var id, month, day int64
			var label string
			var year *int64
			err := sc.Scan(&id, &label, &year, &month, &day)
			return keep(at, id, err, dateKey(label, year, month, day))
		}},
	{`SELECT person_id, content FROM notes WHERE account_id = ? AND person_id IN ` + personChunkIn,
		func(at func(int64) *importedPerson, sc scanner) error {
			var id int64
			var content string
			err := sc.Scan(&id, &content)
			return keep(at, id, err, noteKey(content))
		}},
	{`SELECT person_id, name, due_at FROM tasks WHERE account_id = ? AND person_id IN ` + personChunkIn,
		func(at func(int64) *importedPerson, sc scanner) error {
			var id int64
			var name string
			var due *int64
			err := sc.Scan(&id, &name, &due)
			return keep(at, id, err, taskKey(name, due))
		}},
	{`SELECT person_id, name, gifted_at FROM gifts WHERE account_id = ? AND person_id IN ` + personChunkIn,
		func(at func(int64) *importedPerson, sc scanner) error {
			var id int64
			var name string
			var on *int64
			err := sc.Scan(&id, &name, &on)
			return keep(at, id, err, giftKey(name, on))
		}},
	{`SELECT person_id, description, happened_at FROM life_events WHERE account_id = ? AND person_id IN ` + personChunkIn,
		func(at func(int64) *importedPerson, sc scanner) error {
			var id, on int64
			var desc string
			err := sc.Scan(&id, &desc, &on)
			return keep(at, id, err, lifeEventKey(desc, on))
		}},
	{`SELECT person_id, kind, happened_on, note FROM interactions WHERE account_id = ? AND person_id IN ` + personChunkIn,
		func(at func(int64) *importedPerson, sc scanner) error {
			var id int64
			var kind, on string
			var note *string
			err := sc.Scan(&id, &kind, &on, &note)
			return keep(at, id, err, interactionKey(kind, on, note))
		}},
	{`SELECT person_id, job_title, company_name, active FROM work_history WHERE account_id = ? AND person_id IN ` + personChunkIn,
		func(at func(int64) *importedPerson, sc scanner) error {
			var id int64
			var title string
			var company *string
			var active bool
			err := sc.Scan(&id, &title, &company, &active)
			if p := at(id); p != nil && active {
				p.has["active_job"] = true
			}
			return keep(at, id, err, workKey(title, company))
		}},
	{`SELECT person_id, tag_id FROM person_tags WHERE account_id = ? AND person_id IN ` + personChunkIn,
		func(at func(int64) *importedPerson, sc scanner) error {
			var id, tag int64
			err := sc.Scan(&id, &tag)
			if p := at(id); p != nil {
				p.tags[tag] = true
			}
			return err
		}},
	{`SELECT person_id FROM photos WHERE account_id = ? AND person_id IN ` + personChunkIn,
		func(at func(int64) *importedPerson, sc scanner) error {
			var id int64
			err := sc.Scan(&id)
			if p := at(id); p != nil {
				p.has["photo"] = true
			}
			return err
		}},
	{`SELECT person_id FROM stay_in_touch WHERE account_id = ? AND person_id IN ` + personChunkIn,
		func(at func(int64) *importedPerson, sc scanner) error {
			var id int64
			err := sc.Scan(&id)
			if p := at(id); p != nil {
				p.has["stay_in_touch"] = true
			}
			return err
		}},
}

// keep records a row's key on its person.
func keep(at func(int64) *importedPerson, id int64, err error, key string) error {
	if p := at(id); p != nil && err == nil {
		p.rows[key] = true
	}
	return err
}

// personFillable are the columns of persons that a match sets where the
// person has none, in the order personLoads reads them.
var personFillable = []string{"last_name", "middle_name", "nickname", "maiden_name", "prefix", "suffix", "how_we_met",
	"gender_id", "age_type"}

func (pi *peopleImporter) loadChunk(ctx context.Context, ids []int64) error {
	args := make([]any, 1, personChunk+1)
	args[0] = pi.accountID
	for i := range personChunk {
		var id int64
		if i < len(ids) {
			id = ids[i]
		}
		args = append(args, id)
	}
	at := func(id int64) *importedPerson { return pi.touched[id] }
	for _, load := range personLoads {
		st, err := pi.stmt(ctx, load.query)
		if err != nil {
			return err
		}
		rows, err := st.QueryContext(ctx, args...)
		if err != nil {
			return err
		}
		err = func() error {
			defer rows.Close()
			for rows.Next() {
				if err := load.row(at, rows); err != nil {
					return err
				}
			}
			return rows.Err()
		}()
		if err != nil {
			return err
		}
	}
	return nil
}
