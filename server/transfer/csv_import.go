package transfer

import (
	"context"
	"errors"
	"io"

	"kith/server/input"
	"kith/store"
)

// CSVAnswer is the answer of a CSV import (import-formats.md §2).
type CSVAnswer struct {
	PeopleAnswer
	Format         string    `json:"format"`
	Rows           int       `json:"rows"`
	IgnoredColumns []string  `json:"ignored_columns"`
	Problems       []Problem `json:"problems"`
}

// ImportCSV imports a CSV file, doc of size bytes, into the account
// (import-formats.md §5): read into memory once (at most MaxCSVBytes),
// checked whole first, so that a broken line or a row too many refuses
// the file before anything is written, then read again a record at a time
// as the people import writes, so that the persons are never all in
// memory. tz is the user's time zone, whose today bounds a birth year.
// The refusals are *input.ValidationError (file, format, mapping),
// ErrCSVTooManyRows and input.ErrBodyTooLarge.
func ImportCSV(ctx context.Context, st *store.Store, accountID int64, tz string, doc io.ReaderAt, size int64, opts CSVOptions, dryRun bool) (*CSVAnswer, error) {
	if size > MaxCSVBytes {
		return nil, input.ErrBodyTooLarge
	}
	file, err := input.ReadAll(io.NewSectionReader(doc, 0, size), size)
	if err != nil {
		return nil, err
	}
	opts.Today = input.DateOf(st.Now().In(input.UserZone(tz)))
	if err := CheckCSV(file, opts); err != nil {
		return nil, err
	}
	out := &CSVAnswer{PeopleAnswer: PeopleAnswer{Object: "csv_import", DryRun: dryRun}}
	var problems Problems
	res, err := st.ImportPeople(ctx, accountID, store.PeopleImport{Source: store.SourceCSV, DryRun: dryRun,
		Persons: func(add func(*store.IncomingPerson) error) error {
			// Again from the start on a retried transaction.
			out.Skipped, problems = []Skip{}, Problems{}
			r, err := NewCSVReader(file, opts)
			if err != nil {
				return err
			}
			out.Format, out.IgnoredColumns = r.Format(), r.IgnoredColumns()
			for {
				rec, err := r.Next()
				if errors.Is(err, io.EOF) {
					out.Rows = r.Rows()
					return nil
				}
				if err != nil {
					return err
				}
				place := Place{CSVPlace: &CSVPlace{Line: rec.Line}}
				for _, p := range rec.Problems {
					problems.Add(Problem{Place: place, Name: rec.Name, Column: p.Column, Reason: p.Reason})
				}
				if rec.Person == nil {
					out.Skipped = append(out.Skipped, Skip{Place: place, Name: rec.Name, Reason: rec.Skipped})
					continue
				}
				if err := add(&store.IncomingPerson{PersonRecord: *rec.Person, Place: place}); err != nil {
					return err
				}
			}
		},
		Problem: func(p *store.IncomingPerson, field, reason string) {
			problems.Add(Problem{Place: p.Place.(Place), Name: personName(&p.PersonRecord), Column: field, Reason: reason})
		},
	})
	if err != nil {
		return nil, err
	}
	out.Result(res)
	out.Problems = problems.List
	if out.Problems == nil {
		out.Problems = []Problem{}
	}
	if out.IgnoredColumns == nil {
		out.IgnoredColumns = []string{}
	}
	return out, nil
}
