package transfer

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"strconv"
	"unicode/utf8"

	"kith/server/input"
	"kith/store"
)

// MaxImportBytes is the largest document POST /api/import reads: 50 MiB,
// binary, some 20,000 persons with a few details each.
const MaxImportBytes = 50 << 20

// maxImportErrors bounds the problems that one refused document lists.
const maxImportErrors = 100

// The refusals of a document that is not JSON, or not one object.
var (
	ErrNotJSON       = errors.New("transfer: the document is not valid JSON")
	ErrNotJSONObject = errors.New("transfer: the document is not a JSON object")
)

// ImportDocument restores an export document into the account, for the
// user, in whose time zone tz the rules that look at today (a birth year
// at most this one, an interaction at most tomorrow) take it. Every
// row is read with the API's rules for making it, and the whole document
// is checked before anything is written: an *input.ValidationError names each
// problem by its place (persons.3.gifts.0.name), at most 100 of them. It is
// then read a second time as it is written, in one transaction, so that
// the persons are never all in memory at once and a failure writes
// nothing. ErrNotJSON, ErrNotJSONObject and store.ErrAccountHasPersons are
// the other refusals.
func ImportDocument(ctx context.Context, st *store.Store, accountID, userID int64, tz string, doc io.ReaderAt, size int64) (store.ImportCounts, error) {
	now := st.Now()
	today := input.DateOf(now.In(input.UserZone(tz)))
	// The account's relationship types are those a document without its
	// own names.
	types, err := st.RelationshipTypes(ctx, accountID)
	if err != nil {
		return store.ImportCounts{}, err
	}
	check := newDocReader(today, now.Unix())
	check.accountTypes = types
	in, err := check.head(doc, size)
	if err != nil {
		return store.ImportCounts{}, err
	}
	in.Persons = func(add func(*store.PersonRecord) error) error {
		write := newDocReader(today, now.Unix())
		return walk(io.NewSectionReader(doc, 0, size), func(key string, dec *json.Decoder) error {
			if key != "persons" {
				return skip(dec)
			}
			_, err := elements(dec, func(i int, v any) error {
				where := "persons." + strconv.Itoa(i)
				p := write.person(where, v)
				if write.count > 0 {
					return fmt.Errorf("transfer: import: %s passed its check, then failed: %v", where, &write.errs)
				}
				return add(&p)
			})
			return err
		})
	}
	return st.ImportAccount(ctx, accountID, userID, in)
}

// head checks the whole document and returns what comes before the
// persons, which are checked and dropped.
func (r *docReader) head(doc io.ReaderAt, size int64) (store.AccountImport, error) {
	var in store.AccountImport
	top := input.NewParams(map[string]any{})
	// The first reading checks the bytes are UTF-8 too, which the decoder
	// would turn into U+FFFD without a word; the second reads them again.
	err := walk(&utf8Reader{r: io.NewSectionReader(doc, 0, size)}, func(key string, dec *json.Decoder) error {
		switch key {
		case "persons":
			isArray, err := elements(dec, func(i int, v any) error {
				if !r.full() {
					r.person("persons."+strconv.Itoa(i), v)
				}
				return nil
			})
			if err == nil && !isArray {
				r.fail("persons", "The persons field must be an array.")
			}
			return err
		case "kith_export", "settings", "task_categories", "genders", "relationship_types", "tags", "journals":
			var v any
			if err := dec.Decode(&v); err != nil {
				return notJSON(err)
			}
			top.Set(key, v)
			return nil
		}
		return skip(dec)
	})
	if err != nil {
		return in, err
	}
	// The version first: the rows of a newer format are not this
	// reader's to judge.
	version := top.Integer("kith_export")
	switch {
	case version == nil && !top.Failed("kith_export"):
		return in, input.Invalid("kith_export", "The kith export field is required: the document is not a Kith export.")
	case version == nil:
		return in, top.Err()
	case *version < 1:
		return in, input.Invalid("kith_export", "The selected kith export is invalid.")
	case *version > ExportVersion:
		return in, input.Invalid("kith_export", fmt.Sprintf("This export is of format %d, newer than this Kith reads (%d and older): "+
			"import it into a newer Kith.", *version, ExportVersion))
	}
	in.Timezone, in.Reminders = r.settings(top.Value("settings"))
	in.TaskCategories = r.categoriesOf(top.Value("task_categories"))
	in.Genders = r.gendersOf(top.Value("genders"))
	in.RelationshipTypes = r.relationshipTypesOf(top.Value("relationship_types"))
	in.Tags = r.tagsOf(top.Value("tags"))
	in.Journals = r.journalsOf(top.Value("journals"))
	r.checkRefs()
	r.checkRelationships(in.RelationshipTypes)
	if r.count > 0 {
		return in, &r.errs
	}
	return in, nil
}

// walk reads the document's one object, calling field with each member's
// name and a decoder at its value, which field must read. An empty
// document is an empty object.
func walk(doc io.Reader, field func(key string, dec *json.Decoder) error) error {
	dec := json.NewDecoder(doc)
	dec.UseNumber() // keeps 1985 apart from 1985.5, as input.ReadParams does
	tok, err := dec.Token()
	if err == io.EOF {
		return nil
	}
	if err != nil {
		return notJSON(err)
	}
	if tok != json.Delim('{') {
		if _, ok := tok.(json.Delim); ok {
			if err := skipRest(dec); err != nil {
				return err
			}
		}
		if _, err := dec.Token(); err != io.EOF {
			return notJSON(err)
		}
		return ErrNotJSONObject
	}
	for dec.More() {
		tok, err := dec.Token()
		if err != nil {
			return notJSON(err)
		}
		if err := field(tok.(string), dec); err != nil {
			return err
		}
	}
	if _, err := dec.Token(); err != nil { // the closing brace
		return notJSON(err)
	}
	if _, err := dec.Token(); err != io.EOF {
		return notJSON(err) // data after the object
	}
	return nil
}

// elements reads an array one element at a time; null is an empty one.
// A value of another kind is read past, and isArray is false.
func elements(dec *json.Decoder, each func(i int, v any) error) (isArray bool, err error) {
	tok, err := dec.Token()
	if err != nil {
		return false, notJSON(err)
	}
	switch tok {
	case nil:
		return true, nil
	case json.Delim('{'):
		return false, skipRest(dec)
	case json.Delim('['):
	default:
		return false, nil // a scalar, read whole
	}
	for i := 0; dec.More(); i++ {
		var v any
		if err := dec.Decode(&v); err != nil {
			return false, notJSON(err)
		}
		if err := each(i, v); err != nil {
			return false, err
		}
	}
	if _, err := dec.Token(); err != nil { // the closing bracket
		return false, notJSON(err)
	}
	return true, nil
}

// skip reads past the value ahead.
func skip(dec *json.Decoder) error {
	var raw json.RawMessage
	if err := dec.Decode(&raw); err != nil {
		return notJSON(err)
	}
	return nil
}

// skipRest reads past the rest of an object or array whose opening
// delimiter was read.
func skipRest(dec *json.Decoder) error {
	for depth := 1; depth > 0; {
		tok, err := dec.Token()
		if err != nil {
			return notJSON(err)
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

func notJSON(err error) error { return fmt.Errorf("%w: %v", ErrNotJSON, err) }

// utf8Reader passes its reader's bytes on, and fails with ErrNotJSON at
// bytes that are not UTF-8: the document is read a piece at a time, so the
// check cannot be one utf8.Valid over all of it. held is the start of a
// character cut at the end of the last piece.
type utf8Reader struct {
	r    io.Reader
	held []byte
}

func (u *utf8Reader) Read(p []byte) (int, error) {
	n, err := u.r.Read(p)
	buf := append(u.held, p[:n]...)
	end := len(buf)
	if err == nil {
		// Keep back a character that may go on in the next piece.
		for i := len(buf) - 1; i >= 0 && i >= len(buf)-utf8.UTFMax; i-- {
			if utf8.RuneStart(buf[i]) {
				if !utf8.FullRune(buf[i:]) {
					end = i
				}
				break
			}
		}
	}
	if !utf8.Valid(buf[:end]) {
		return 0, ErrNotJSON
	}
	u.held = append(u.held[:0], buf[end:]...)
	if err == io.EOF && len(u.held) > 0 {
		return 0, ErrNotJSON
	}
	return n, err
}
