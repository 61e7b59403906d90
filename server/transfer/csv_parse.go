package transfer

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"io"
	"unicode/utf8"

	"golang.org/x/text/encoding/charmap"
	"golang.org/x/text/encoding/unicode"
	"golang.org/x/text/transform"
)

// csvText is the file's text as UTF-8, read as it goes: a file that is
// not UTF-8 is decoded a piece at a time, so that the text is never held
// whole beside the file. A UTF-16 file says so by its byte order mark
// (Excel's "Unicode text"); a file that is neither UTF-16 nor valid UTF-8
// is Windows-1252, which Outlook and Excel on Windows write, and where
// 0x80–0x9F are € ‚ … – — rather than C1 controls (ISO 8859-1's).
func csvText(file []byte) io.Reader {
	switch {
	case bytes.HasPrefix(file, []byte{0xFF, 0xFE}):
		return transform.NewReader(bytes.NewReader(file), unicode.UTF16(unicode.LittleEndian, unicode.ExpectBOM).NewDecoder())
	case bytes.HasPrefix(file, []byte{0xFE, 0xFF}):
		return transform.NewReader(bytes.NewReader(file), unicode.UTF16(unicode.BigEndian, unicode.ExpectBOM).NewDecoder())
	}
	file = bytes.TrimPrefix(file, []byte("\uFEFF"))
	if utf8.Valid(file) {
		return bytes.NewReader(file)
	}
	return transform.NewReader(bytes.NewReader(file), charmap.Windows1252.NewDecoder())
}

// csvSyntaxError is a file that is not CSV, at the line where its broken
// record starts.
type csvSyntaxError struct {
	line int
	msg  string
}

func (e *csvSyntaxError) Error() string { return fmt.Sprintf("line %d: %s", e.line, e.msg) }

// The ways a record breaks RFC 4180, worded for the person who will open
// the file and mend it.
const (
	msgNotClosed  = "a quoted field is not closed."
	msgStrayQuote = "a field holds a quote but does not start with one: put the whole field in quotes and double the quotes inside it."
	msgAfterQuote = "a quoted field goes on after its closing quote: put the whole field in quotes and double the quotes inside it."
)

// csvParser reads RFC 4180 records: fields separated by sep, records
// ending in CRLF, LF or a lone CR (old Macs), quoted fields holding
// separators, line breaks (kept as LF) and doubled quotes. encoding/csv
// would do most of it, but words its errors its own way and names the
// line of the fault, not that of the record, which the person mending
// the file looks for.
type csvParser struct {
	r      *bufio.Reader
	sep    byte
	line   int // the line of the next byte, from 1
	field  []byte
	fields []string
}

// csvPeek is how much of the file's start the separator is chosen from:
// a header longer than this is judged by its start.
const csvPeek = 64 << 10

func newCSVParser(text io.Reader) *csvParser {
	r := bufio.NewReaderSize(text, csvPeek)
	return &csvParser{r: r, sep: headerSeparator(r), line: 1}
}

// headerSeparator is ; when the header line holds more of them than of
// commas (Excel where the decimal mark is a comma), else the comma.
func headerSeparator(r *bufio.Reader) byte {
	head, _ := r.Peek(csvPeek) // as much as there is
	if i := bytes.IndexAny(head, "\r\n"); i >= 0 {
		head = head[:i]
	}
	if bytes.Count(head, []byte{';'}) > bytes.Count(head, []byte{','}) {
		return ';'
	}
	return ','
}

// How a field ends.
const (
	endField = iota
	endRecord
	endFile
)

// record reads the next record and the line where it starts; io.EOF when
// the file has no more. The fields are valid until the next call.
func (p *csvParser) record() ([]string, int, error) {
	start := p.line
	p.fields = p.fields[:0]
	if _, err := p.r.Peek(1); err != nil {
		return nil, start, err
	}
	for {
		end, err := p.next(start)
		if err != nil {
			return nil, start, err
		}
		p.fields = append(p.fields, string(p.field))
		if end != endField {
			return p.fields, start, nil
		}
	}
}

// next reads one field into p.field and says how it ended.
func (p *csvParser) next(start int) (int, error) {
	p.field = p.field[:0]
	c, err := p.r.ReadByte()
	if err != nil {
		return endFile, ignoreEOF(err)
	}
	if c == '"' {
		return p.quoted(start)
	}
	for {
		switch c {
		case p.sep:
			return endField, nil
		case '\n', '\r':
			p.lineBreak(c)
			return endRecord, nil
		case '"':
			return 0, &csvSyntaxError{start, msgStrayQuote}
		}
		p.field = append(p.field, c)
		if c, err = p.r.ReadByte(); err != nil {
			return endFile, ignoreEOF(err)
		}
	}
}

// quoted reads a quoted field whose opening quote was read. A quote
// that is never closed usually shows as one that closes lines later, at
// the next quote of the file, followed by text: a field that spans lines
// and breaks so is said to be the one not closed, where it starts.
func (p *csvParser) quoted(start int) (int, error) {
	spans := false
	for {
		c, err := p.r.ReadByte()
		if errors.Is(err, io.EOF) {
			return 0, &csvSyntaxError{start, msgNotClosed}
		}
		if err != nil {
			return 0, err
		}
		switch c {
		case '"':
			c, err = p.r.ReadByte()
			switch {
			case err != nil:
				return endFile, ignoreEOF(err)
			case c == '"':
				p.field = append(p.field, '"')
			case c == p.sep:
				return endField, nil
			case c == '\n' || c == '\r':
				p.lineBreak(c)
				return endRecord, nil
			case spans:
				return 0, &csvSyntaxError{start, msgNotClosed}
			default:
				return 0, &csvSyntaxError{start, msgAfterQuote}
			}
		case '\n', '\r':
			p.lineBreak(c)
			spans = true
			p.field = append(p.field, '\n')
		default:
			p.field = append(p.field, c)
		}
	}
}

// lineBreak counts the line break that c starts, reading the LF of a CRLF.
func (p *csvParser) lineBreak(c byte) {
	p.line++
	if c == '\r' {
		if next, err := p.r.Peek(1); err == nil && next[0] == '\n' {
			p.r.ReadByte()
		}
	}
}

func ignoreEOF(err error) error {
	if errors.Is(err, io.EOF) {
		return nil
	}
	return err
}
