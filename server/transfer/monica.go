package transfer

import (
	"context"
	"errors"
	"fmt"
	"io"

	"kith/server/input"
	"kith/store"
)

// MaxMonicaBytes is the largest Monica export POST /api/import/monica
// reads: 64 MiB (import-formats.md §1).
const MaxMonicaBytes = 64 << 20

// maxFileErrors bounds the messages of a refused file.
const maxFileErrors = 100

// MsgNotMonica refuses a file that is not a Monica export (§6).
const MsgNotMonica = "The file is not a Monica JSON export."

var errNotMonica = errors.New("transfer: not a Monica export")

// FileMissing is the refusal of a request without a file, or with an
// empty one.
func FileMissing() error { return input.Invalid("file", "The file field is required.") }

// SyntaxError is a file that is not JSON, at its line and column.
type SyntaxError struct {
	Line, Column int64
	Msg          string
}

func (e *SyntaxError) Error() string {
	return fmt.Sprintf("The file is not valid JSON: line %d, column %d: %s", e.Line, e.Column, e.Msg)
}

// MonicaAnswer is the answer of a Monica import (§2).
type MonicaAnswer struct {
	PeopleAnswer
	Dropped  Dropped   `json:"dropped"`
	Problems []Problem `json:"problems"`
}

// Dropped counts the records Kith has no place for.
type Dropped struct {
	Reminders int `json:"reminders"`
	Documents int `json:"documents"`
	Photos    int `json:"photos"`
}

// ImportMonica imports the Monica export doc, of size bytes, into the
// account (import-formats.md §4): it is read once to be checked whole, and
// again as it is written, one contact at a time, so that the contacts are
// never all in memory. tz is the user's time zone, for the rules that look
// at today. A file Kith refuses is a *SyntaxError or an
// *input.ValidationError of the file field.
func ImportMonica(ctx context.Context, st *store.Store, accountID int64, tz string, doc io.ReaderAt, size int64, dryRun bool) (*MonicaAnswer, error) {
	now := st.Now()
	m := newMonicaReader(input.DateOf(now.In(input.UserZone(tz))), now)
	if err := m.read(doc, size); err != nil {
		return nil, err
	}
	m.prunePhotos()
	// What the first reading knows whole: the contacts' names and which
	// are skipped, so the relationships and the journal's entries.
	rels, relProblems := m.relationships()
	entries, entryProblems := m.entries()
	m.pass = 2
	res, err := st.ImportPeople(ctx, accountID, store.PeopleImport{Source: store.SourceMonica, DryRun: dryRun,
		Persons: func(add func(*store.IncomingPerson) error) error {
			m.startPass(add) // again on a retried transaction
			return m.read(doc, size)
		},
		Relationships: rels, Journal: "Monica", JournalEntries: entries,
		Problem: func(p *store.IncomingPerson, field, reason string) {
			m.problems.Add(Problem{Place: p.Place.(Place), Name: personName(&p.PersonRecord), Field: field, Reason: reason})
		},
	})
	if err != nil {
		return nil, err
	}
	out := &MonicaAnswer{PeopleAnswer: PeopleAnswer{Object: "monica_import", DryRun: dryRun, Skipped: m.skipped},
		Dropped: m.dropped}
	out.Result(res)
	out.Dropped.Photos = m.photoCount - len(m.taken)
	for _, p := range append(relProblems, entryProblems...) {
		m.problems.Add(p)
	}
	out.Problems = m.problems.List
	if out.Problems == nil {
		out.Problems = []Problem{}
	}
	if out.Skipped == nil {
		out.Skipped = []Skip{}
	}
	return out, nil
}

// personName is a person's first and last name, as an answer names them.
func personName(p *store.PersonRecord) string {
	return store.FullName(p.FirstName, p.LastName)
}
