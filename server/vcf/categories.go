package vcf

import (
	"bufio"
	"bytes"
	"io"
	"strings"

	"github.com/emersion/go-vcard"
)

// A card's CATEGORIES (RFC 6350 §6.7.1) is a list of names in one value:
// separated by commas, each comma, backslash and semicolon inside a name
// escaped. go-vcard knows a value only as text: it escapes every comma it
// writes and unescapes every one it reads, so that a list it writes is
// one name ("myContacts\,Office") and a list it reads cannot tell a
// name's comma from a separator. So in the cards of this package
// CATEGORIES holds its text as written, escapes and all: Encode puts the
// person's tags so, Encoder (write.go) writes it as it is, and Decoder reads it as it
// is for Decode to split.

// categoriesEscaper escapes what a name of a list may not hold bare.
var categoriesEscaper = strings.NewReplacer(`\`, `\\`, `,`, `\,`, `;`, `\;`, "\r\n", `\n`, "\n", `\n`, "\r", `\n`)

// categoriesValue is names as one CATEGORIES value.
func categoriesValue(names []string) string {
	escaped := make([]string, len(names))
	for i, n := range names {
		escaped[i] = categoriesEscaper.Replace(n)
	}
	return strings.Join(escaped, ",")
}

// splitCategories is the names of a CATEGORIES value as written: split at
// the commas that are not escaped, and unescaped (\n is a line break; a
// backslash before any other character is that character).
func splitCategories(v string) []string {
	var names []string
	var name strings.Builder
	for i := 0; i < len(v); i++ {
		switch c := v[i]; {
		case c == '\\' && i+1 < len(v):
			i++
			if v[i] == 'n' || v[i] == 'N' {
				name.WriteByte('\n')
			} else {
				name.WriteByte(v[i])
			}
		case c == ',':
			names = append(names, name.String())
			name.Reset()
		default:
			name.WriteByte(c)
		}
	}
	return append(names, name.String())
}

// lineBreaks are what must not end a line inside a value written as it
// is.
var lineBreaks = strings.NewReplacer("\r\n", `\n`, "\n", `\n`, "\r", `\n`)

// Decoder reads cards as go-vcard's Decoder does, but keeps the value of
// each CATEGORIES as it is written, for Decode to split.
type Decoder struct{ dec *vcard.Decoder }

// NewDecoder returns a Decoder that reads from r, its folded lines joined
// first (see Unfold).
func NewDecoder(r io.Reader) *Decoder {
	return &Decoder{dec: vcard.NewDecoder(&listsAsWritten{r: bufio.NewReader(Unfold(r))})}
}

// Decode reads the next card; its errors are go-vcard's.
func (d *Decoder) Decode() (vcard.Card, error) { return d.dec.Decode() }

// listsAsWritten passes a vCard file through, but for each CATEGORIES
// line, which it unfolds and whose value's backslashes it doubles: what
// go-vcard then unescapes (\\ to \, \, to , and \n to a line break) gives
// back the value as it was written.
type listsAsWritten struct {
	r   *bufio.Reader
	out []byte
	err error
}

func (l *listsAsWritten) Read(p []byte) (int, error) {
	for len(l.out) == 0 && l.err == nil {
		l.next()
	}
	if len(l.out) == 0 {
		return 0, l.err
	}
	n := copy(p, l.out)
	l.out = l.out[n:]
	return n, nil
}

// next reads one line, and its folded continuation when it is a
// CATEGORIES line.
func (l *listsAsWritten) next() {
	line, err := l.r.ReadBytes('\n')
	start, ok := listValue(line)
	if !ok {
		l.out, l.err = line, err
		return
	}
	logical := bytes.TrimRight(line, "\r\n")
	for err == nil {
		peek, perr := l.r.Peek(1)
		if perr != nil || (peek[0] != ' ' && peek[0] != '\t') {
			break
		}
		var more []byte
		more, err = l.r.ReadBytes('\n')
		logical = append(logical, bytes.TrimRight(more[1:], "\r\n")...)
	}
	value := bytes.ReplaceAll(logical[start:], []byte(`\`), []byte(`\\`))
	l.out = append(append(logical[:start:start], value...), '\r', '\n')
	l.err = err
}

// listValue tells whether line is a CATEGORIES property (with a group or
// parameters or not), and where its value starts: after the first colon
// outside a quoted parameter value.
func listValue(line []byte) (int, bool) {
	end := bytes.IndexAny(line, ";:")
	if end < 0 {
		return 0, false
	}
	name := line[:end]
	if dot := bytes.IndexByte(name, '.'); dot >= 0 {
		name = name[dot+1:]
	}
	if !strings.EqualFold(string(name), vcard.FieldCategories) {
		return 0, false
	}
	quoted := false
	for i := end; i < len(line); i++ {
		switch line[i] {
		case '"':
			quoted = !quoted
		case ':':
			if !quoted {
				return i + 1, true
			}
		}
	}
	return 0, false
}
