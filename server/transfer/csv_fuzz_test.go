package transfer

import (
	"errors"
	"io"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"kith/server/input"
)

// FuzzCSV: whatever the file and options, the reader never panics, and
// gives either records, each a person or a skipped row with its line, or
// one of its refusals: a validation error, or a limit's.
func FuzzCSV(f *testing.F) {
	files, _ := filepath.Glob(filepath.Join("testdata", "csv", "*.csv"))
	for _, name := range files {
		b, err := os.ReadFile(name)
		if err != nil {
			f.Fatal(err)
		}
		f.Add(b, "", "")
	}
	f.Add(brokenFile(`E,Five,"never closed`), "", "")
	f.Add(brokenFile(`E,Fi"ve,x`), "generic", "")
	f.Add([]byte("Prénom;Courriel\nA;a@example.com\n"), "", `{"Prénom": "first_name", "Courriel": "email"}`)
	f.Add([]byte("\xff\xfef\x00i\x00r\x00s\x00t\x00_\x00n\x00a\x00m\x00e\x00\n\x00A\x00"), "auto", "")
	f.Add([]byte("First Name,Birthday,Event 1 - Value\n,0/0/00,--02-29\nX,2024-02-30,\"\"\n"), "outlook", "")
	f.Fuzz(func(t *testing.T, file []byte, format, mapping string) {
		m, err := ParseCSVMapping(mapping)
		if err != nil {
			checkRefusal(t, err)
			return
		}
		r, err := NewCSVReader(file, csvOpts(format, m))
		if err != nil {
			checkRefusal(t, err)
			return
		}
		last := 1
		for {
			rec, err := r.Next()
			if errors.Is(err, io.EOF) {
				return
			}
			if err != nil {
				checkRefusal(t, err)
				return
			}
			if rec.Line <= last {
				t.Fatalf("a record on line %d after one on line %d", rec.Line, last)
			}
			last = rec.Line
			switch {
			case rec.Person == nil && rec.Skipped == "", rec.Person != nil && rec.Skipped != "":
				t.Fatalf("line %d: person %v, skipped %q", rec.Line, rec.Person, rec.Skipped)
			case rec.Person != nil && strings.TrimSpace(rec.Person.FirstName) == "":
				t.Fatalf("line %d: a person without a first name", rec.Line)
			}
		}
	})
}

// checkRefusal fails unless err is one the route answers with a 4xx.
func checkRefusal(t *testing.T, err error) {
	t.Helper()
	var ve *input.ValidationError
	var ae *input.Error
	switch {
	case errors.As(err, &ve):
		for _, msg := range ve.Messages() {
			if msg == "" {
				t.Fatal("an empty message")
			}
		}
	case errors.As(err, &ae) && ae.Status < 500:
	default:
		t.Fatalf("a refusal of no status: %v (%T)", err, err)
	}
	if _, ok := err.(interface{ Error() string }); !ok || strconv.Quote(err.Error()) == `""` {
		t.Fatalf("an error without a message: %v", err)
	}
}
