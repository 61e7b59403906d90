// Package input is what a client may send, read one way for the API, the
// web app's forms and the importers: merged parameters and their getters,
// validation errors and their words, one reader per resource, the caller's
// session and account, and time zones. An API answer, a form's field
// error and an import's refusal say the same words because they come from
// here.
package input

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"mime"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"time"
	"unicode"
	"unicode/utf16"
	"unicode/utf8"

	"github.com/labstack/echo/v4"

	"kith/store"
)

// Params are a request's parameters: the query string merged with the
// body, the body winning on a clash (contract §1). Each getter checks one
// field and records its first failure; err returns them all at the end.
// A field that failed once is not checked again, and reads as absent.
type Params struct {
	values map[string]any // string from a query or form; any JSON value from JSON
	errs   ValidationError
}

// badText stands in for a value that is not text: bytes that are not
// UTF-8 in a query or form, and in JSON those or a \u escape of half a
// surrogate pair, which encoding/json would otherwise turn into U+FFFD
// without a word. Any getter refuses it, naming the field.
type badText struct{}

// ReadParams merges the query string with a JSON or form body. A body that
// does not parse is a 400, one over the limit a 413.
func ReadParams(c echo.Context) (*Params, error) {
	r := c.Request()
	p := &Params{values: lastValues(r.URL.Query())}
	body, err := readBody(r)
	if err != nil {
		return nil, err
	}
	for k, v := range body {
		p.values[k] = v
	}
	markBadBytes(p.values)
	return p, nil
}

// markBadBytes replaces each string of a query or form that is not UTF-8,
// an array's elements too, with badText.
func markBadBytes(values map[string]any) {
	for k, v := range values {
		switch v := v.(type) {
		case string:
			if !utf8.ValidString(v) {
				values[k] = badText{}
			}
		case []any:
			for i, e := range v {
				if s, ok := e.(string); ok && !utf8.ValidString(s) {
					v[i] = badText{}
				}
			}
		}
	}
}

func readBody(r *http.Request) (map[string]any, error) {
	ct := r.Header.Get(echo.HeaderContentType)
	mt, _, _ := mime.ParseMediaType(ct)
	switch {
	case mt == echo.MIMEMultipartForm:
		if err := r.ParseMultipartForm(MaxBodyBytes); err != nil {
			return nil, BodyError(err, ErrInvalidForm)
		}
		defer r.MultipartForm.RemoveAll()
		return lastValues(r.MultipartForm.Value), nil
	case mt == echo.MIMEApplicationForm:
		raw, err := io.ReadAll(r.Body)
		if err != nil {
			return nil, BodyError(err, ErrInvalidForm)
		}
		form, err := url.ParseQuery(string(raw))
		if err != nil {
			return nil, ErrInvalidForm
		}
		return lastValues(form), nil
	case mt == echo.MIMEApplicationJSON || strings.HasSuffix(mt, "+json") || ct == "":
		// No Content-Type at all: a body can only be meant as JSON here.
		raw, err := io.ReadAll(r.Body)
		if err != nil {
			return nil, BodyError(err, ErrInvalidJSON)
		}
		return decodeJSONObject(raw)
	}
	return nil, nil // other types carry no parameters we read
}

// ReadAll is io.ReadAll that makes room for size bytes at once when the
// size is known (a request's Content-Length, which limitBody has held to
// the route's limit): a body of 10 MiB is read into one buffer, not into a
// series of doubling ones that hold twice as much for a moment.
func ReadAll(r io.Reader, size int64) ([]byte, error) {
	var b bytes.Buffer
	if size > 0 {
		b.Grow(int(size) + bytes.MinRead) // MinRead: room to see the EOF
	}
	_, err := b.ReadFrom(r)
	return b.Bytes(), err
}

// BodyError is ErrBodyTooLarge when reading stopped at the limit, else def.
func BodyError(err error, def *Error) error {
	var mbe *http.MaxBytesError
	if errors.As(err, &mbe) {
		return ErrBodyTooLarge
	}
	return def
}

func decodeJSONObject(raw []byte) (map[string]any, error) {
	raw = bytes.TrimSpace(raw)
	if len(raw) == 0 {
		return nil, nil
	}
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.UseNumber() // keeps "1985" and 1985 apart from 1985.5 exactly
	var v any
	if err := dec.Decode(&v); err != nil {
		return nil, ErrInvalidJSON
	}
	if _, err := dec.Token(); err != io.EOF {
		return nil, ErrInvalidJSON // trailing data after the value
	}
	switch obj := v.(type) {
	case nil:
		return nil, nil
	case map[string]any:
		if !utf8.Valid(raw) || bytes.Contains(raw, []byte(`\u`)) {
			markBadText(raw, obj)
		}
		return obj, nil
	}
	return nil, ErrNotJSONObject
}

// markBadText replaces in obj, decoded from raw, each string that
// encoding/json had to mend with badText. Only bodies that may hold one
// (not UTF-8, or with \u escapes) are read this second time.
func markBadText(raw []byte, obj map[string]any) {
	var lits map[string]json.RawMessage
	if json.Unmarshal(raw, &lits) != nil {
		return // decoded once already: cannot happen
	}
	for k, lit := range lits {
		switch {
		case len(lit) > 0 && lit[0] == '"' && !cleanJSONString(lit):
			obj[k] = badText{}
		case len(lit) > 0 && lit[0] == '[':
			markBadElements(lit, obj[k])
		}
	}
}

// markBadElements is markBadText for the strings of an array.
func markBadElements(lit json.RawMessage, v any) {
	var elems []json.RawMessage
	arr, ok := v.([]any)
	if !ok || json.Unmarshal(lit, &elems) != nil || len(elems) != len(arr) {
		return // decoded once already: cannot happen
	}
	for i, e := range elems {
		if len(e) > 0 && e[0] == '"' && !cleanJSONString(e) {
			arr[i] = badText{}
		}
	}
}

// cleanJSONString reports whether a JSON string literal, quotes included,
// is UTF-8 and escapes only whole characters: every \u escape of a high
// surrogate is followed by one of a low surrogate, and no low one stands
// alone.
func cleanJSONString(lit []byte) bool {
	if !utf8.Valid(lit) {
		return false
	}
	for i := 0; i < len(lit); i++ {
		if lit[i] != '\\' {
			continue
		}
		i++ // the escaped character, which the loop then steps over
		r, ok := escapedUnit(lit, i)
		if !ok || !utf16.IsSurrogate(r) {
			continue
		}
		i += 4
		if r >= 0xdc00 {
			return false // a low surrogate first
		}
		if i+2 >= len(lit) || lit[i+1] != '\\' {
			return false
		}
		if low, ok := escapedUnit(lit, i+2); !ok || low < 0xdc00 || low > 0xdfff {
			return false
		}
		i += 6
	}
	return true
}

// escapedUnit reads the four hex digits of a \u escape whose u is at
// lit[i].
func escapedUnit(lit []byte, i int) (rune, bool) {
	if i+5 > len(lit) || lit[i] != 'u' {
		return 0, false
	}
	n, err := strconv.ParseUint(string(lit[i+1:i+5]), 16, 16)
	return rune(n), err == nil
}

// lastValues reads a query or form as PHP does: a repeated key is its last
// value, and key[] repeated is the array key, in order (a lone empty
// key[]= is the empty array, the only way a form says one). An array
// wins over a plain value of the same key.
func lastValues(form map[string][]string) map[string]any {
	m := make(map[string]any, len(form))
	for k, vs := range form {
		if _, isArray := strings.CutSuffix(k, "[]"); len(vs) > 0 && !isArray {
			if _, taken := m[k]; !taken {
				m[k] = vs[len(vs)-1]
			}
		}
	}
	for k, vs := range form {
		name, isArray := strings.CutSuffix(k, "[]")
		if !isArray || name == "" {
			continue
		}
		arr := make([]any, 0, len(vs))
		if len(vs) != 1 || vs[0] != "" {
			for _, v := range vs {
				arr = append(arr, v)
			}
		}
		m[name] = arr
	}
	return m
}

// Attr is how a message names a field: underscores become spaces.
func Attr(key string) string { return strings.ReplaceAll(key, "_", " ") }

func (p *Params) Fail(key, msg string) {
	p.errs.Add(key, msg)
}

func (p *Params) Failed(key string) bool {
	_, ok := p.errs.messages[key]
	return ok
}

// Err returns the recorded failures, or nil.
func (p *Params) Err() error {
	if len(p.errs.fields) == 0 {
		return nil
	}
	return &p.errs
}

// raw returns key's value as text. JSON numbers count as text (their
// digits); other JSON values (true, arrays, objects) do not, and isText is
// false. A missing or null value is not present.
func (p *Params) raw(key string) (s string, isText, present bool) {
	if p.Failed(key) {
		return "", false, false
	}
	switch v := p.values[key].(type) {
	case nil:
		return "", false, false
	case badText:
		p.Fail(key, "The "+Attr(key)+" field format is invalid.")
		return "", false, false
	case string:
		return v, true, true
	case json.Number:
		return v.String(), true, true
	}
	return "", false, true
}

// Scalar is raw trimmed, where an empty string counts as absent.
func (p *Params) Scalar(key string) (s string, isText, present bool) {
	s, isText, present = p.raw(key)
	s = strings.TrimSpace(s)
	return s, isText, present && !(isText && s == "")
}

// controls says which control characters (C0, DEL and C1) a text field
// takes.
type controls int

const (
	// oneLine is names, labels and every other short field: none. A NUL or
	// an escape sequence in a name breaks what shows it.
	oneLine controls = iota
	// paragraphs is long text a person writes (how_we_met): tab and line
	// breaks, nothing else.
	paragraphs
	// anyControl is passwords, which are compared, never shown.
	anyControl
)

// allows reports whether a text field of this kind takes r.
func (k controls) allows(r rune) bool {
	switch {
	case !unicode.IsControl(r) || k == anyControl:
		return true
	case k == paragraphs:
		return r == '\t' || r == '\n' || r == '\r'
	}
	return false
}

// Text returns the trimmed one-line string, or nil when it is absent or
// empty.
func (p *Params) Text(key string, maxLen int) *string {
	return p.textFrom(p.Scalar, key, maxLen, oneLine)
}

// longText is text that may run over several lines and paragraphs.
func (p *Params) longText(key string, maxLen int) *string {
	return p.textFrom(p.Scalar, key, maxLen, paragraphs)
}

// textFrom checks the value that read (raw or scalar) gives for key.
func (p *Params) textFrom(read func(string) (string, bool, bool), key string, maxLen int, ctl controls) *string {
	s, isText, present := read(key)
	if !present {
		return nil
	}
	if !isText {
		p.Fail(key, "The "+Attr(key)+" field must be a string.")
		return nil
	}
	return p.checkText(key, s, maxLen, ctl)
}

func (p *Params) checkText(key, s string, maxLen int, ctl controls) *string {
	switch {
	case s == "":
		return nil
	case !utf8.ValidString(s) || strings.IndexFunc(s, func(r rune) bool { return !ctl.allows(r) }) >= 0:
		p.Fail(key, "The "+Attr(key)+" field format is invalid.")
		return nil
	case utf8.RuneCountInString(s) > maxLen:
		p.Fail(key, "The "+Attr(key)+" field must not be greater than "+strconv.Itoa(maxLen)+" characters.")
		return nil
	}
	return &s
}

// RequiredText is text that must be there.
func (p *Params) RequiredText(key string, maxLen int) string {
	return p.require(key, p.Text(key, maxLen))
}

func (p *Params) require(key string, s *string) string {
	if s == nil {
		if !p.Failed(key) {
			p.Fail(key, "The "+Attr(key)+" field is required.")
		}
		return ""
	}
	return *s
}

// Password is required text that is not trimmed: spaces can be part of it.
func (p *Params) Password(key string, maxLen int) string {
	return p.require(key, p.textFrom(p.raw, key, maxLen, anyControl))
}

// NewPassword is a password being chosen: at least 8 characters and at
// most 72 bytes, all that bcrypt reads (the message says characters, as
// the contract does).
func (p *Params) NewPassword(key string) string {
	s := p.Password(key, 72)
	switch {
	case s == "":
	case len(s) > 72:
		p.Fail(key, "The "+Attr(key)+" field must not be greater than 72 characters.")
		return ""
	case utf8.RuneCountInString(s) < 8:
		p.Fail(key, "The "+Attr(key)+" field must be at least 8 characters.")
		return ""
	}
	return s
}

// Email is a required email address, lower-cased.
func (p *Params) Email(key string, maxLen int) string {
	s := p.RequiredText(key, maxLen)
	if s != "" && !store.ValidEmail(s) {
		p.Fail(key, "The "+Attr(key)+" field must be a valid email address.")
		return ""
	}
	return strings.ToLower(s)
}

// Integer accepts a JSON integer or a decimal string ("1985").
func (p *Params) Integer(key string) *int64 {
	s, isText, present := p.Scalar(key)
	if !present {
		return nil
	}
	n, err := strconv.ParseInt(s, 10, 64)
	if !isText || err != nil {
		p.Fail(key, "The "+Attr(key)+" field must be an integer.")
		return nil
	}
	return &n
}

// Boolean accepts true/false, 1/0, "1"/"0" and "true"/"false".
func (p *Params) Boolean(key string) *bool {
	if b, ok := p.values[key].(bool); ok && !p.Failed(key) {
		return &b
	}
	s, isText, present := p.Scalar(key)
	if !present {
		return nil
	}
	s = strings.ToLower(s)
	var b bool
	switch {
	case isText && (s == "1" || s == "true"):
		b = true
	case isText && (s == "0" || s == "false"):
		b = false
	default:
		p.Fail(key, "The "+Attr(key)+" field must be true or false.")
		return nil
	}
	return &b
}

// Date accepts a calendar date written YYYY-MM-DD, as midnight UTC.
func (p *Params) Date(key string) *time.Time {
	s, isText, present := p.Scalar(key)
	if !present {
		return nil
	}
	t, err := time.Parse(time.DateOnly, s)
	if !isText || err != nil {
		p.Fail(key, "The "+Attr(key)+" field must match the format Y-m-d.")
		return nil
	}
	return &t
}

// Strings reads an array of strings: a JSON array, or key[] repeated in a
// query or form. It must be present (an empty string or null is not),
// have at most maxItems elements, and each be a string of at most maxLen
// characters after trimming; an element is named key.N (from 0) in its
// errors. Elements are trimmed, and empty ones left out. On a failure it
// records every one and returns nil; past maxItems, only that one, since
// a body may hold a great many.
func (p *Params) Strings(key string, maxItems, maxLen int) []string {
	if _, _, present := p.Scalar(key); !present {
		if !p.Failed(key) {
			p.Fail(key, "The "+Attr(key)+" field must be present.")
		}
		return nil
	}
	arr, ok := p.values[key].([]any)
	switch {
	case !ok:
		p.Fail(key, "The "+Attr(key)+" field must be an array.")
		return nil
	case len(arr) > maxItems:
		p.Fail(key, fmt.Sprintf("The %s field must not have more than %d items.", Attr(key), maxItems))
		return nil
	}
	out := make([]string, 0, len(arr))
	failed := false
	for i, v := range arr {
		elem := key + "." + strconv.Itoa(i)
		switch v := v.(type) {
		case string:
			if s := p.checkText(elem, strings.TrimSpace(v), maxLen, oneLine); s != nil {
				out = append(out, *s)
			}
		case badText:
			p.Fail(elem, "The "+Attr(elem)+" field format is invalid.")
		default:
			p.Fail(elem, "The "+Attr(elem)+" field must be a string.")
		}
		failed = failed || p.Failed(elem)
	}
	if failed {
		return nil
	}
	return out
}

// Sent reports whether the request carries key at all, even empty or null:
// a PATCH tells "leave it" (not sent) from "clear it" (sent empty).
func (p *Params) Sent(key string) bool {
	_, ok := p.values[key]
	return ok
}

// OneOf returns key's value if it is one of allowed, def when absent.
func (p *Params) OneOf(key string, allowed []string, def string) string {
	s := p.Text(key, 255)
	if s == nil {
		return def
	}
	for _, a := range allowed {
		if *s == a {
			return a
		}
	}
	p.Fail(key, "The selected "+Attr(key)+" is invalid.")
	return def
}

// Between returns an integer within [lo, hi], or nil.
func (p *Params) Between(key string, lo, hi int64) *int64 {
	n := p.Integer(key)
	if n != nil && (*n < lo || *n > hi) {
		p.Fail(key, fmt.Sprintf("The %s field must be between %d and %d.", Attr(key), lo, hi))
		return nil
	}
	return n
}

// Unix times Kith accepts: years 1 to 9999, which every client can format.
const (
	minUnix = -62135596800
	maxUnix = 253402300799
)

// Timestamp accepts a Unix time (integer), a date YYYY-MM-DD (midnight
// UTC) or an RFC 3339 time, and returns Unix seconds.
func (p *Params) Timestamp(key string) *int64 {
	s, isText, present := p.Scalar(key)
	if !present {
		return nil
	}
	var unix int64
	var err error
	if unix, err = strconv.ParseInt(s, 10, 64); err != nil {
		var t time.Time
		if t, err = time.Parse(time.DateOnly, s); err != nil {
			t, err = time.Parse(time.RFC3339, s)
		}
		unix = t.Unix()
	}
	if !isText || err != nil || unix < minUnix || unix > maxUnix {
		p.Fail(key, "The "+Attr(key)+" field must be a valid date.")
		return nil
	}
	return &unix
}

// PathID reads a positive integer id from the path. Anything else names
// no row, so it gets the resource's own 404.
func PathID(c echo.Context, name string, notFound error) (int64, error) {
	id, err := strconv.ParseInt(c.Param(name), 10, 64)
	if err != nil || id <= 0 {
		return 0, notFound
	}
	return id, nil
}

// ParseForm reads a posted form, multipart or not, once: a body over the
// route's limit is 413, one that does not parse 400.
func ParseForm(c echo.Context) error {
	r := c.Request()
	if r.PostForm != nil {
		return nil
	}
	var err error
	if strings.HasPrefix(r.Header.Get(echo.HeaderContentType), echo.MIMEMultipartForm) {
		err = r.ParseMultipartForm(MaxBodyBytes)
	} else {
		err = r.ParseForm()
	}
	if err != nil {
		return BodyError(err, ErrInvalidForm)
	}
	return nil
}

// FormParams are a posted form's fields, read by the API's own getters.
func FormParams(c echo.Context) *Params {
	p := &Params{values: lastValues(c.Request().PostForm)}
	markBadBytes(p.values)
	return p
}

// FieldErrors are a validation error's messages by field, for the form
// to show beside each field; other errors are nil.
func FieldErrors(err error) map[string][]string {
	if ve := (*ValidationError)(nil); errors.As(err, &ve) {
		return ve.ByField()
	}
	return nil
}

// MaxBodyBytes is the largest request body read: 1 MiB, binary.
const MaxBodyBytes = 1 << 20

// NewParams are parameters read from values, such as one object of an
// imported document.
func NewParams(values map[string]any) *Params { return &Params{values: values} }

// Value is key's value as it was sent (a document's nested object or
// array), without a check.
func (p *Params) Value(key string) any { return p.values[key] }

// Set gives key a value, as if the client had sent it.
func (p *Params) Set(key string, v any) { p.values[key] = v }

// Verbatim is text kept exactly as sent, line breaks and surrounding
// spaces too: what Kith stores for another program (a vCard's extra
// lines), not what a person types.
func (p *Params) Verbatim(key string, maxLen int) *string {
	return p.textFrom(p.raw, key, maxLen, paragraphs)
}
