package transfer

import (
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"kith/server/input"
	"kith/store"
)

// The importing user's day in the CSV tests.
var csvToday = time.Date(2026, 11, 28, 0, 0, 0, 0, time.UTC)

func csvOpts(format string, mapping CSVMapping) CSVOptions {
	return CSVOptions{Format: format, Mapping: mapping, Today: csvToday}
}

func csvFixture(t testing.TB, name string) []byte {
	t.Helper()
	b, err := os.ReadFile(filepath.Join("testdata", "csv", name))
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// readAllCSV reads every record of file, or the first refusal.
func readAllCSV(file []byte, opts CSVOptions) (*CSVReader, []CSVRecord, error) {
	r, err := NewCSVReader(file, opts)
	if err != nil {
		return nil, nil, err
	}
	var recs []CSVRecord
	for {
		rec, err := r.Next()
		if errors.Is(err, io.EOF) {
			return r, recs, nil
		}
		if err != nil {
			return r, recs, err
		}
		recs = append(recs, *rec)
	}
}

func mustReadCSV(t *testing.T, file []byte, opts CSVOptions) (*CSVReader, []CSVRecord) {
	t.Helper()
	r, recs, err := readAllCSV(file, opts)
	if err != nil {
		t.Fatalf("reading the file: %v", err)
	}
	return r, recs
}

// fileErrors are the messages of a refusal under key, as the answer's
// errors object shows them.
func fileErrors(t *testing.T, err error, key string) []string {
	t.Helper()
	var ve *input.ValidationError
	if !errors.As(err, &ve) {
		t.Fatalf("want a validation error of %s, got %v", key, err)
	}
	return ve.ByField()[key]
}

// describe writes a person's record out, one field a line, so that a test
// compares every field it sets and a failure shows which.
func describe(p *store.PersonRecord) []string {
	var out []string
	add := func(format string, args ...any) { out = append(out, fmt.Sprintf(format, args...)) }
	add("first_name %q", p.FirstName)
	for _, f := range []struct {
		name string
		v    *string
	}{{"middle_name", p.MiddleName}, {"last_name", p.LastName}, {"nickname", p.Nickname}, {"maiden_name", p.MaidenName},
		{"prefix", p.Prefix}, {"suffix", p.Suffix}, {"how_we_met", p.HowWeMet}} {
		if f.v != nil {
			add("%s %q", f.name, *f.v)
		}
	}
	if p.Age.Type != nil {
		add("age %s %d-%02d-%02d remind=%v", *p.Age.Type, orZero(p.Age.Year), orZero(p.Age.Month), orZero(p.Age.Day),
			p.Age.YearlyReminder != nil && *p.Age.YearlyReminder)
	}
	if p.Tags != nil {
		add("tags %q", p.Tags)
	}
	for _, d := range p.ContactDetails {
		label := "-"
		if d.Label != nil {
			label = *d.Label
		}
		if d.Kind == "address" {
			add("address %d [%s] street=%q city=%q region=%q postal_code=%q country=%q", d.Position, label,
				orZero(d.Street), orZero(d.City), orZero(d.Region), orZero(d.PostalCode), orZero(d.Country))
		} else {
			add("%s %d [%s] %q", d.Kind, d.Position, label, orZero(d.Value))
		}
	}
	for _, d := range p.ImportantDates {
		year := "--"
		if d.Year != nil {
			year = fmt.Sprintf("%04d", *d.Year)
		}
		add("date [%s] %s-%02d-%02d remind=%v", d.Label, year, d.Month, d.Day, d.RemindYearly)
	}
	for _, n := range p.Notes {
		add("note %q", n.Content)
	}
	for _, w := range p.WorkHistory {
		add("work %q at %q active=%v", w.JobTitle, orZero(w.CompanyName), w.Active)
	}
	return out
}

func orZero[T any](p *T) T {
	var zero T
	if p == nil {
		return zero
	}
	return *p
}

// checkPerson compares a record's person with want, line by line.
func checkPerson(t *testing.T, rec CSVRecord, want ...string) {
	t.Helper()
	if rec.Person == nil {
		t.Errorf("line %d: skipped (%s), want a person", rec.Line, rec.Skipped)
		return
	}
	got := describe(rec.Person)
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("line %d %q:\n got:\n\t%s\nwant:\n\t%s", rec.Line, rec.Name, strings.Join(got, "\n\t"),
			strings.Join(want, "\n\t"))
	}
}

// checkProblems compares a record's problems with want, "column: reason".
func checkProblems(t *testing.T, rec CSVRecord, want ...string) {
	t.Helper()
	var got []string
	for _, p := range rec.Problems {
		got = append(got, p.Column+": "+p.Reason)
	}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("line %d %q problems:\n got:\n\t%s\nwant:\n\t%s", rec.Line, rec.Name, strings.Join(got, "\n\t"),
			strings.Join(want, "\n\t"))
	}
}

func checkStrings(t *testing.T, what string, got, want []string) {
	t.Helper()
	if strings.Join(got, "|") != strings.Join(want, "|") {
		t.Errorf("%s:\n got %q\nwant %q", what, got, want)
	}
}
