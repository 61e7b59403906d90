package transfer

import (
	"errors"
	"io"
	"net/http"
	"strconv"
	"strings"
	"time"

	"kith/server/input"
	"kith/store"
)

// The limits of a CSV file (import-formats.md §1).
const (
	MaxCSVBytes = 20 << 20
	MaxCSVRows  = 20000
)

// The CSV formats Kith reads, by the names of the format option.
const (
	CSVGoogle  = "google"
	CSVOutlook = "outlook"
	CSVGeneric = "generic"
)

// The refusals of a CSV file that are not about one field.
var (
	ErrCSVTooManyRows = &input.Error{Status: http.StatusRequestEntityTooLarge,
		Message: "The file has more than " + strconv.Itoa(MaxCSVRows) + " rows."}
)

// errCSVNoFile refuses a file without a header, a new error each time: a
// validation error takes more messages.
func errCSVNoFile() error { return input.Invalid("file", "The file field is required.") }

// CSVOptions are what a CSV import is told beside its file.
type CSVOptions struct {
	// Format is CSVGoogle, CSVOutlook or CSVGeneric; "" or "auto" has it
	// found from the header.
	Format string
	// Mapping names the fields of the columns whose headers are not
	// Kith's field names; nil when none was sent.
	Mapping CSVMapping
	// Today is the importing user's date: a birth year after its year is
	// no age. The zero time is the machine's today.
	Today time.Time
}

// CSVRecord is one data record of the file: a person, or a row that makes
// none.
type CSVRecord struct {
	// Line is the file's line where the record starts, the header's
	// being 1.
	Line int
	// Name is the person's name as written, "" when the row has none.
	Name string
	// Skipped says why the row makes no person; "" when it makes one.
	Skipped string
	// Person is what the row makes, nil when skipped. Its contact
	// details, dates, notes and work are in the file's order, but for
	// Google's primary details, first of their kind; each kind of detail
	// is positioned from 1. Its times are 0: the import's own.
	Person *store.PersonRecord
	// Problems are the parts of the row left out, since Kith's rules
	// refuse them.
	Problems []CSVProblem
}

// CSVProblem is a value of a row that Kith's rules refuse, by its column.
type CSVProblem struct {
	Column, Reason string
}

// CSVReader reads a CSV file a record at a time, so that the persons of
// a large file are never in memory together.
type CSVReader struct {
	p       *csvParser
	opts    CSVOptions
	format  string
	header  []string
	ignored []string
	plan    csvPlan
	rows    int
	start   int // the line of the record last read
}

// csvPlan turns one record's fields, by the header's columns, into a
// person.
type csvPlan interface {
	row(fields, header []string) csvPerson
}

// NewCSVReader reads the file's header and finds its format. Its
// refusals are *input.ValidationError (the file, the format, the
// mapping: a 422), and input.ErrBodyTooLarge for a file over
// MaxCSVBytes.
func NewCSVReader(file []byte, opts CSVOptions) (*CSVReader, error) {
	switch opts.Format {
	case "auto":
		opts.Format = ""
	case "", CSVGoogle, CSVOutlook, CSVGeneric:
	default:
		return nil, input.Invalid("format", "The selected format is invalid.")
	}
	if len(file) > MaxCSVBytes {
		return nil, input.ErrBodyTooLarge
	}
	if opts.Today.IsZero() {
		opts.Today = time.Now()
	}
	r := &CSVReader{p: newCSVParser(csvText(file)), opts: opts}
	header, err := r.record()
	if errors.Is(err, io.EOF) {
		return nil, errCSVNoFile()
	}
	if err != nil {
		return nil, err
	}
	r.header = make([]string, len(header))
	for i, h := range header {
		r.header[i] = strings.TrimSpace(h)
	}
	if r.format = opts.Format; r.format == "" {
		r.format = detectCSVFormat(r.header, opts.Mapping != nil)
	}
	switch r.format {
	case CSVGoogle:
		r.plan, r.ignored = googlePlan(r.header)
	case CSVOutlook:
		r.plan, r.ignored = outlookPlan(r.header)
	case CSVGeneric:
		r.plan, r.ignored, err = genericPlan(r.header, opts.Mapping)
	default:
		err = unrecognized(r.header)
	}
	if err != nil {
		return nil, err
	}
	return r, nil
}

// Format is the file's format: the one asked for, or the one found.
func (r *CSVReader) Format() string { return r.format }

// IgnoredColumns are the header's columns that are not read, in the
// file's order.
func (r *CSVReader) IgnoredColumns() []string { return r.ignored }

// Rows is how many data records have been read, blank ones left out.
func (r *CSVReader) Rows() int { return r.rows }

// Next reads the next data record; io.EOF after the last. A broken
// record is an *input.ValidationError naming its line, a record past
// MaxCSVRows ErrCSVTooManyRows.
func (r *CSVReader) Next() (*CSVRecord, error) {
	fields, err := r.fields()
	if err != nil {
		return nil, err
	}
	person := r.plan.row(fields, r.header)
	rec := person.finish(r.opts)
	rec.Line = r.start
	return &rec, nil
}

// CheckCSV reads the whole file as NewCSVReader and Next would, and
// answers their first refusal, without making the persons: a broken line
// or one row too many is found before an import starts writing.
func CheckCSV(file []byte, opts CSVOptions) error {
	r, err := NewCSVReader(file, opts)
	if err != nil {
		return err
	}
	for {
		if _, err := r.fields(); errors.Is(err, io.EOF) {
			return nil
		} else if err != nil {
			return err
		}
	}
}

// fields reads the next data record's fields, one for each of the
// header's columns.
func (r *CSVReader) fields() ([]string, error) {
	fields, err := r.record()
	if err != nil {
		return nil, err
	}
	if r.rows++; r.rows > MaxCSVRows {
		return nil, ErrCSVTooManyRows
	}
	if len(fields) > len(r.header) {
		for _, f := range fields[len(r.header):] {
			if strings.TrimSpace(f) != "" {
				return nil, input.Invalid("file", "line "+strconv.Itoa(r.start)+": the record has "+
					strconv.Itoa(len(fields))+" fields, more than the header's "+strconv.Itoa(len(r.header))+".")
			}
		}
		fields = fields[:len(r.header)]
	}
	for len(fields) < len(r.header) {
		fields = append(fields, "")
	}
	return fields, nil
}

// record reads the next record that is not blank (every field empty or
// white space), which a spreadsheet leaves between rows or at the end.
func (r *CSVReader) record() ([]string, error) {
	for {
		fields, start, err := r.p.record()
		var se *csvSyntaxError
		switch {
		case errors.As(err, &se):
			return nil, input.Invalid("file", se.Error())
		case err != nil:
			return nil, err
		}
		for _, f := range fields {
			if strings.TrimSpace(f) != "" {
				r.start = start
				return fields, nil
			}
		}
	}
}
