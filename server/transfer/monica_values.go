package transfer

import (
	"encoding/json"
	"regexp"
	"strings"
	"sync"
	"time"
)

// jobj is a JSON object of the file at its path: its mapped keys are read
// through it, each checked for its type (import-formats.md §4.3).
type jobj struct {
	m    *monicaReader
	path string
	v    map[string]any
}

// object is v, the value at path, as an object; false, and a refusal,
// when it is something else; false alone for null.
func (m *monicaReader) object(path string, v any) (jobj, bool) {
	o, ok := v.(map[string]any)
	if !ok {
		if v != nil {
			m.fail(path, "an object was expected.")
		}
		return jobj{m: m, path: path}, false
	}
	return jobj{m: m, path: path, v: o}, true
}

func (o jobj) at(key string) string { return o.path + "." + key }

// str is the string at key, trimmed; nil for none, null, or "".
func (o jobj) str(key string) *string {
	s := o.raw(key)
	if s == nil {
		return nil
	}
	t := strings.TrimSpace(*s)
	if t == "" {
		return nil
	}
	return &t
}

// raw is the string at key as written; nil for none or null.
func (o jobj) raw(key string) *string {
	v, ok := o.v[key]
	if !ok || v == nil {
		return nil
	}
	s, ok := v.(string)
	if !ok {
		o.m.fail(o.at(key), "a string was expected.")
		return nil
	}
	return &s
}

func (o jobj) boolean(key string) bool {
	v, ok := o.v[key]
	if !ok || v == nil {
		return false
	}
	b, ok := v.(bool)
	if !ok {
		// Laravel writes some flags as 0 and 1.
		if n, isNum := v.(json.Number); isNum && (n == "0" || n == "1") {
			return n == "1"
		}
		o.m.fail(o.at(key), "a boolean was expected.")
	}
	return b
}

// number is the number at key, as written; "" for none. Monica writes
// amounts as numbers or as strings of digits: both are read.
func (o jobj) number(key string, orString bool) string {
	v, ok := o.v[key]
	if !ok || v == nil {
		return ""
	}
	switch n := v.(type) {
	case json.Number:
		return n.String()
	case string:
		if orString {
			return strings.TrimSpace(n)
		}
	}
	o.m.fail(o.at(key), "a number was expected.")
	return ""
}

func (o jobj) obj(key string) (jobj, bool) { return o.m.object(o.at(key), o.v[key]) }

func (o jobj) arr(key string) []any {
	v, ok := o.v[key]
	if !ok || v == nil {
		return nil
	}
	list, ok := v.([]any)
	if !ok {
		o.m.fail(o.at(key), "an array was expected.")
	}
	return list
}

// date is the calendar date at key as written (§4.3); "" for none.
func (o jobj) date(key string) string {
	s := o.str(key)
	if s == nil {
		return ""
	}
	d, ok := dateOf(*s)
	if !ok {
		o.m.fail(o.at(key), "a date was expected.")
		return ""
	}
	return d.Format(time.DateOnly)
}

// unix is the time at key, as Unix seconds; 0 for none. Only the calendar
// date counts for the rows that have one; created_at keeps its time.
func (o jobj) unix(key string) int64 {
	s := o.str(key)
	if s == nil {
		return 0
	}
	if t, err := time.Parse(time.RFC3339Nano, *s); err == nil {
		return t.Unix()
	}
	d, ok := dateOf(*s)
	if !ok {
		o.m.fail(o.at(key), "a date was expected.")
		return 0
	}
	return d.Unix()
}

var datePattern = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^\d{4}-\d{2}-\d{2}(?:[T ].*)?$`) })

// dateOf reads YYYY-MM-DD, maybe followed by a time, as its date.
func dateOf(s string) (time.Time, bool) {
	if !datePattern().MatchString(s) {
		return time.Time{}, false
	}
	d, err := time.Parse(time.DateOnly, s[:10])
	return d, err == nil
}

// uuid is the object's uuid, "" for none.
func (o jobj) uuid() string {
	if s := o.raw("uuid"); s != nil {
		return *s
	}
	return ""
}

// props is the object's properties.
func (o jobj) props() jobj {
	p, _ := o.obj("properties")
	return p
}

// place is the object's place in the file.
func (o jobj) place() Place { return Place{MonicaPlace: &MonicaPlace{Item: o.path, UUID: o.uuid()}} }

// collections reads the object's data: its collections by type, each a
// list of values with their paths.
func (o jobj) collections() map[string][]jvalue {
	out := map[string][]jvalue{}
	for i, c := range o.arr("data") {
		path := o.at("data") + "." + itoa(i)
		co, ok := o.m.object(path, c)
		if !ok {
			if c == nil {
				o.m.fail(path, "an object was expected.")
			}
			continue
		}
		kind := co.raw("type")
		if kind == nil {
			if _, present := co.v["type"]; !present {
				o.m.fail(co.at("type"), "a string was expected.")
			}
			continue
		}
		vals, isList := co.v["values"].([]any)
		if !isList {
			o.m.fail(co.at("values"), "an array was expected.")
			continue
		}
		for j, v := range vals {
			out[*kind] = append(out[*kind], jvalue{path: co.at("values") + "." + itoa(j), v: v})
		}
	}
	return out
}

// jvalue is a value of the file at its path.
type jvalue struct {
	path string
	v    any
}
