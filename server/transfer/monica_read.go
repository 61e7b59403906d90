package transfer

import (
	"bufio"
	"encoding/json"
	"errors"
	"io"
	"strconv"
	"time"

	"kith/server/input"
	"kith/store"
)

// monicaReader reads a Monica export, twice: the first reading (pass 1)
// checks every mapped key and keeps the small things the contacts refer
// to (genders, contact field types, activities, the avatars' photos,
// relationships, journal entries, each contact's name); the second (pass
// 2) maps each contact as it comes and hands it to add.
type monicaReader struct {
	today   time.Time // the user's date, for the rules that look at today
	now     time.Time
	pass    int
	errs    []string
	version *string
	// exportDate is the day of the export (today when the file has none).
	exportDate time.Time

	genders        map[string]string // uuid → name
	fieldTypes     map[string]fieldType
	lifeEventTypes map[string]string // uuid → description
	activities     map[string]activity
	contacts       map[string]*contactInfo // by uuid
	avatars        map[string]bool         // photo uuids of the contacts' avatars
	photos         map[string]string       // the avatars' data URLs
	photoCount     int
	documents      int
	contactsSeen   bool
	rels           []monicaRel
	journal        []monicaEntry

	add      func(*store.IncomingPerson) error
	addErr   error // add's, which ends the reading
	skipped  []Skip
	dropped  Dropped
	problems Problems
	taken    map[string]bool // the avatars' photos taken
}

type fieldType struct{ name, protocol, kind string }

type activity struct {
	summary, description, on string
}

// contactInfo is what pass 1 keeps of a contact: its name as imported.
type contactInfo struct {
	first   string
	last    *string
	skipped bool
	path    string // the first contact of its uuid
}

type monicaRel struct {
	place                      Place
	kind, contactIs, ofContact string
}

type monicaEntry struct {
	place            Place
	title, post, day string
	created          int64
}

func newMonicaReader(today, now time.Time) *monicaReader {
	return &monicaReader{today: today, now: now, pass: 1, exportDate: today,
		genders: map[string]string{}, fieldTypes: map[string]fieldType{}, lifeEventTypes: map[string]string{},
		activities: map[string]activity{}, contacts: map[string]*contactInfo{}, avatars: map[string]bool{},
		photos: map[string]string{}}
}

// startPass readies pass 2, from its start.
func (m *monicaReader) startPass(add func(*store.IncomingPerson) error) {
	m.add, m.addErr = add, nil
	m.skipped, m.problems, m.taken = nil, Problems{}, map[string]bool{}
	m.dropped = Dropped{Documents: m.documents}
}

// fail records a refusal of the file at path, in pass 1.
func (m *monicaReader) fail(path, msg string) {
	if m.pass == 1 && len(m.errs) < maxFileErrors {
		m.errs = append(m.errs, path+": "+msg)
	}
}

// read reads the file through, and in pass 1 answers its refusal.
func (m *monicaReader) read(doc io.ReaderAt, size int64) error {
	dec := json.NewDecoder(bufio.NewReaderSize(io.NewSectionReader(doc, 0, size), 64<<10))
	dec.UseNumber()
	err := m.top(dec)
	var syn *json.SyntaxError
	var trail *trailingData
	switch {
	case errors.As(err, &trail):
		return syntaxAt(doc, size, trail.offset, "invalid character after top-level value")
	case errors.As(err, &syn):
		return syntaxAt(doc, size, syn.Offset, syn.Error())
	case errors.Is(err, io.ErrUnexpectedEOF), errors.Is(err, io.EOF):
		return syntaxAt(doc, size, size, "unexpected end of JSON input")
	case errors.Is(err, errNotMonica):
		return input.Invalid("file", MsgNotMonica)
	case err != nil:
		return err
	}
	if m.pass != 1 {
		return nil
	}
	if m.version != nil && !versionOne(*m.version) {
		return input.Invalid("file", "The file is a Monica export of version "+*m.version+", which Kith does not read.")
	}
	if len(m.errs) > 0 {
		ve := &input.ValidationError{}
		for _, e := range m.errs {
			ve.Add("file", e)
		}
		return ve
	}
	return nil
}

func versionOne(v string) bool { return len(v) >= 2 && v[:2] == "1." }

// syntaxAt is the refusal of a file that stops being JSON at offset.
func syntaxAt(doc io.ReaderAt, size, offset int64, msg string) error {
	// The decoder stops after offset bytes: the next one is at fault.
	line, col := int64(1), int64(1)
	r := bufio.NewReader(io.NewSectionReader(doc, 0, min(offset, size)))
	for {
		b, err := r.ReadByte()
		if err != nil {
			break
		}
		if b == '\n' {
			line, col = line+1, 1
		} else if b < 0x80 || b >= 0xC0 { // a character's first byte
			col++
		}
	}
	return &SyntaxError{Line: line, Column: col, Msg: trimJSONMsg(msg)}
}

// trimJSONMsg drops Go's prefix from a decoder's message.
func trimJSONMsg(msg string) string {
	const prefix = "json: "
	if len(msg) > len(prefix) && msg[:len(prefix)] == prefix {
		return msg[len(prefix):]
	}
	return msg
}

// top reads the file's one object.
func (m *monicaReader) top(dec *json.Decoder) error {
	tok, err := dec.Token()
	if err != nil {
		return err
	}
	if tok != json.Delim('{') {
		if err := skipOpened(dec, tok); err != nil {
			return err
		}
		if err := atEOF(dec); err != nil {
			return err
		}
		return errNotMonica
	}
	account := false
	for dec.More() {
		key, err := objectKey(dec)
		if err != nil {
			return err
		}
		switch key {
		case "version", "export_date":
			var v any
			if err := dec.Decode(&v); err != nil {
				return err
			}
			m.head(key, v)
		case "account":
			account = true
			if err := m.account(dec); err != nil {
				return err
			}
		default:
			if err := skipValue(dec); err != nil {
				return err
			}
		}
	}
	if _, err := dec.Token(); err != nil {
		return err
	}
	if err := atEOF(dec); err != nil {
		return err
	}
	if !account {
		return errNotMonica
	}
	return nil
}

func (m *monicaReader) head(key string, v any) {
	if v == nil {
		return
	}
	s, ok := v.(string)
	if !ok {
		m.fail(key, "a string was expected.")
		return
	}
	if key == "version" {
		m.version = &s
		return
	}
	if d, ok := dateOf(s); ok {
		m.exportDate = d
	} else {
		m.fail(key, "a date was expected.")
	}
}

// account reads the object account: its data, properties and instance.
func (m *monicaReader) account(dec *json.Decoder) error {
	tok, err := dec.Token()
	if err != nil {
		return err
	}
	if tok != json.Delim('{') {
		if err := skipOpened(dec, tok); err != nil {
			return err
		}
		return errNotMonica
	}
	data := false
	for dec.More() {
		key, err := objectKey(dec)
		if err != nil {
			return err
		}
		switch key {
		case "data":
			data = true
			err = m.data(dec)
		case "properties":
			err = m.members(dec, "account.properties", func(key string) (func(string, any), bool) {
				if key != "journal_entries" || m.pass != 1 {
					return nil, false
				}
				return m.journalEntry, true
			})
		case "instance":
			err = m.members(dec, "account.instance", func(key string) (func(string, any), bool) {
				if m.pass != 1 {
					return nil, false
				}
				switch key {
				case "genders":
					return m.gender, true
				case "contact_field_types":
					return m.fieldType, true
				case "life_event_types":
					return m.lifeEventType, true
				}
				return nil, false
			})
		default:
			err = skipValue(dec)
		}
		if err != nil {
			return err
		}
	}
	if _, err := dec.Token(); err != nil {
		return err
	}
	if !data {
		return errNotMonica
	}
	return nil
}

// members reads an object whose members the function at picks are arrays
// to read an element at a time; the others are skipped.
func (m *monicaReader) members(dec *json.Decoder, path string, at func(key string) (func(string, any), bool)) error {
	tok, err := dec.Token()
	if err != nil {
		return err
	}
	if tok != json.Delim('{') {
		if tok != nil {
			m.fail(path, "an object was expected.")
		}
		return skipOpened(dec, tok)
	}
	for dec.More() {
		key, err := objectKey(dec)
		if err != nil {
			return err
		}
		each, ok := at(key)
		if !ok {
			if err := skipValue(dec); err != nil {
				return err
			}
			continue
		}
		if err := m.array(dec, path+"."+key, each); err != nil {
			return err
		}
	}
	_, err = dec.Token()
	return err
}

// array reads an array an element at a time; null is an empty one.
func (m *monicaReader) array(dec *json.Decoder, path string, each func(path string, v any)) error {
	tok, err := dec.Token()
	if err != nil {
		return err
	}
	if tok != json.Delim('[') {
		if tok != nil {
			m.fail(path, "an array was expected.")
		}
		return skipOpened(dec, tok)
	}
	for i := 0; dec.More(); i++ {
		var v any
		if err := dec.Decode(&v); err != nil {
			return err
		}
		each(path+"."+strconv.Itoa(i), v)
		if m.addErr != nil {
			return m.addErr
		}
	}
	_, err = dec.Token()
	return err
}

// data reads account.data, a collection at a time.
func (m *monicaReader) data(dec *json.Decoder) error {
	tok, err := dec.Token()
	if err != nil {
		return err
	}
	if tok != json.Delim('[') {
		if err := skipOpened(dec, tok); err != nil {
			return err
		}
		return errNotMonica
	}
	for i := 0; dec.More(); i++ {
		if err := m.collection(dec, "account.data."+strconv.Itoa(i)); err != nil {
			return err
		}
	}
	_, err = dec.Token()
	return err
}

// collection reads {count, type, values}: the values an element at a
// time when type comes first, as Monica writes it.
func (m *monicaReader) collection(dec *json.Decoder, path string) error {
	tok, err := dec.Token()
	if err != nil {
		return err
	}
	if tok != json.Delim('{') {
		m.fail(path, "an object was expected.")
		return skipOpened(dec, tok)
	}
	var kind *string
	var early []any // values that came before the type
	values := false
	for dec.More() {
		key, err := objectKey(dec)
		if err != nil {
			return err
		}
		switch key {
		case "type":
			var v any
			if err := dec.Decode(&v); err != nil {
				return err
			}
			if s, ok := v.(string); ok {
				kind = &s
			}
		case "values":
			values = true
			if kind == nil {
				var v any
				if err := dec.Decode(&v); err != nil {
					return err
				}
				list, ok := v.([]any)
				if !ok && v != nil {
					m.fail(path+".values", "an array was expected.")
				}
				early = list
				continue
			}
			k := *kind
			err = m.array(dec, path+".values", func(p string, v any) { m.item(k, p, v) })
			if err != nil {
				return err
			}
		default:
			if err := skipValue(dec); err != nil {
				return err
			}
		}
	}
	if _, err := dec.Token(); err != nil {
		return err
	}
	if kind == nil {
		m.fail(path+".type", "a string was expected.")
		return nil
	}
	if !values {
		m.fail(path+".values", "an array was expected.")
	}
	for i, v := range early {
		m.item(*kind, path+".values."+strconv.Itoa(i), v)
	}
	return nil
}

// item reads one object of an account collection.
func (m *monicaReader) item(kind, path string, v any) {
	switch kind {
	case "contact":
		m.contactsSeen = true
		m.contact(path, v)
	case "relationship":
		if m.pass == 1 {
			m.relationship(path, v)
		}
	case "photo":
		if m.pass == 1 {
			m.photo(path, v)
		}
	case "document":
		if m.pass == 1 {
			m.documents++
		}
	case "activity":
		if m.pass == 1 {
			m.activity(path, v)
		}
	}
}

func objectKey(dec *json.Decoder) (string, error) {
	tok, err := dec.Token()
	if err != nil {
		return "", err
	}
	key, _ := tok.(string)
	return key, nil
}

// skipValue reads past the value ahead, token by token: a photo's data
// URL is read and dropped, never kept whole in a RawMessage.
func skipValue(dec *json.Decoder) error {
	tok, err := dec.Token()
	if err != nil {
		return err
	}
	return skipOpened(dec, tok)
}

// skipOpened reads past the rest of a value whose first token was tok.
func skipOpened(dec *json.Decoder, tok json.Token) error {
	if tok != json.Delim('{') && tok != json.Delim('[') {
		return nil
	}
	for depth := 1; depth > 0; {
		tok, err := dec.Token()
		if err != nil {
			return err
		}
		switch tok {
		case json.Delim('{'), json.Delim('['):
			depth++
		case json.Delim('}'), json.Delim(']'):
			depth--
		}
	}
	return nil
}

// atEOF checks that nothing follows the file's value.
func atEOF(dec *json.Decoder) error {
	if _, err := dec.Token(); err != io.EOF {
		if err == nil {
			return &trailingData{dec.InputOffset()}
		}
		return err
	}
	return nil
}

// trailingData is a value after the file's one value.
type trailingData struct{ offset int64 }

func (e *trailingData) Error() string { return "transfer: data after the JSON value" }
