package transfer

import (
	"encoding/json"
	"errors"
	"io"
	"slices"
	"strings"
	"sync"

	"kith/server/input"
)

// csvKey is a header's name as names are compared: trimmed, ignoring
// case.
func csvKey(name string) string { return strings.ToLower(strings.TrimSpace(name)) }

// detectCSVFormat finds the format of a file by its header
// (import-formats.md §5.1); "" when none fits.
func detectCSVFormat(header []string, mapped bool) string {
	has := map[string]bool{}
	values, generic := false, true
	for _, h := range header {
		k := csvKey(h)
		has[k] = true
		values = values || strings.HasSuffix(k, " - value")
		generic = generic && csvFields()[k]
	}
	switch {
	case has["first name"] && values, has["given name"] && has["group membership"]:
		return CSVGoogle
	case has["first name"] && (has["e-mail address"] || has["mobile phone"] || has["home street"]):
		return CSVOutlook
	case mapped, generic && len(header) > 0:
		return CSVGeneric
	}
	return ""
}

// maxListedColumns bounds the columns a refused header lists: a file
// of one line of a million commas is no reason for an answer of megabytes.
const maxListedColumns = 100

// unrecognized refuses a header of no format Kith knows, and shows it,
// so that the person can write the mapping.
func unrecognized(header []string) error {
	listed := header
	if len(listed) > maxListedColumns {
		listed = append(slices.Clip(listed[:maxListedColumns]), "…")
	}
	err := input.Invalid("file", "The columns were not recognized: send a mapping.")
	err.Add("file", "The header's columns are: "+strings.Join(listed, ", ")+".")
	return err
}

// CSVFields are Kith's field names, which a generic file's header or a
// mapping gives its columns (§5.4), in the order a form offers them.
var CSVFields = []string{"first_name", "middle_name", "last_name", "nickname", "maiden_name", "prefix", "suffix",
	"how_we_met", "email", "phone", "website", "street", "city", "region", "postal_code", "country", "birthday",
	"notes", "tags", "company", "job_title", "ignore"}

// csvFields are CSVFields, to look one up.
var csvFields = sync.OnceValue(func() map[string]bool {
	m := make(map[string]bool, len(CSVFields))
	for _, f := range CSVFields {
		m[f] = true
	}
	return m
})

// CSVHeader reads a file's header, for a form that asks for the mapping:
// its columns' names, trimmed, and the format found from them, "" when
// none is. Its refusals are those of a file that is not CSV, or that is
// empty or too large.
func CSVHeader(file []byte) (header []string, format string, err error) {
	r, err := NewCSVReader(file, CSVOptions{Format: CSVGeneric, Mapping: CSVMapping{}})
	if err != nil {
		return nil, "", err
	}
	return r.header, detectCSVFormat(r.header, false), nil
}

// CSVMapping gives columns, by their header's names, Kith's field names,
// in the order the JSON object lists them, which is that of its errors.
type CSVMapping []CSVMapEntry

// CSVMapEntry is one column of a mapping.
type CSVMapEntry struct {
	Header, Field string
}

// errMappingNotObject refuses a mapping that is no JSON object of
// strings, a new error each time: a validation error takes more messages.
func errMappingNotObject() error {
	return input.Invalid("mapping", "The mapping field must be a JSON object.")
}

// ParseCSVMapping reads the mapping option: a JSON object of strings. An
// empty option is no mapping (nil).
func ParseCSVMapping(s string) (CSVMapping, error) {
	if strings.TrimSpace(s) == "" {
		return nil, nil
	}
	dec := json.NewDecoder(strings.NewReader(s))
	if tok, err := dec.Token(); err != nil || tok != json.Delim('{') {
		return nil, errMappingNotObject()
	}
	m := CSVMapping{}
	for dec.More() {
		key, err := dec.Token()
		if err != nil {
			return nil, errMappingNotObject()
		}
		value, err := dec.Token()
		field, ok := value.(string)
		if err != nil || !ok {
			return nil, errMappingNotObject()
		}
		m = append(m, CSVMapEntry{Header: key.(string), Field: field})
	}
	if _, err := dec.Token(); err != nil { // the closing brace
		return nil, errMappingNotObject()
	}
	if _, err := dec.Token(); !errors.Is(err, io.EOF) {
		return nil, errMappingNotObject()
	}
	return m, nil
}

// fields gives each column of the header its field: the mapping's, else
// its own name when that is a field name, else none (""). A mapping
// whose field is not one, or whose column is not in the header, is
// refused.
func (m CSVMapping) fields(header []string) ([]string, error) {
	at := map[string]int{}
	for i := len(header) - 1; i >= 0; i-- {
		at[csvKey(header[i])] = i // the first column of a name
	}
	out := make([]string, len(header))
	for i, h := range header {
		if k := csvKey(h); csvFields()[k] {
			out[i] = k
		}
	}
	var errs input.ValidationError
	for _, e := range m {
		field := csvKey(e.Field)
		i, inHeader := at[csvKey(e.Header)]
		switch {
		case !csvFields()[field]:
			errs.Add("mapping."+e.Header, "The mapping."+e.Header+" field is invalid.")
		case !inHeader:
			errs.Add("mapping."+e.Header, "The mapping."+e.Header+" field names no column.")
		default:
			out[i] = field
		}
	}
	if len(errs.Fields()) > 0 {
		return nil, &errs
	}
	return out, nil
}

// splitValues splits a cell at sep, trimming each value and leaving the
// empty ones out.
func splitValues(s, sep string) []string {
	var out []string
	for _, v := range strings.Split(s, sep) {
		if v = strings.TrimSpace(v); v != "" {
			out = append(out, v)
		}
	}
	return out
}
