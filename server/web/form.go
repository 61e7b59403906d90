package web

import "net/url"

// Form is one form as the partial "form" draws it: a label above each
// field and the field's errors under it.
type Form struct {
	ID     string // prefixes the fields' ids, unique on the page
	Action string
	Submit string
	CSRF   string
	Fields []Field
	// Errors are those of no field of the form (a refused sign-in).
	Errors []string
	// Multipart is for a form that sends a file.
	Multipart bool
	// More are fields drawn after Fields inside a closed disclosure,
	// "More details", which opens when one of them has an error.
	More     []Field
	MoreOpen bool
}

// Field is one input of a form.
type Field struct {
	Name  string
	Label string
	// Type is an input type (text, email, password, date, number, url,
	// search, file), or textarea, select or checkbox.
	Type     string
	Hint     string
	Options  []Option
	Required bool
	// Auto is the autocomplete attribute, when the browser can help.
	Auto    string
	Value   string
	Checked bool
	Errors  []string
	// Fits marks the select whose value picks the fields kith.js shows:
	// those whose For holds it.
	Fits bool
	// For lists the values of the form's Fits select (space-separated)
	// that the field belongs to; "" belongs to all. Without the script
	// every field shows.
	For string
}

// Option is one choice of a select.
type Option struct {
	Value, Label string
}

// Choices makes options whose labels are their values.
func Choices(values ...string) []Option {
	out := make([]Option, len(values))
	for i, v := range values {
		out[i] = Option{v, v}
	}
	return out
}

// Fill gives each field its value from values (a checkbox is checked by
// any value but "" and "0" and "false"; a password is never sent back)
// and its errors from errs.
func (f Form) Fill(values url.Values, errs map[string][]string) Form {
	f.Fields = fillFields(f.Fields, values, errs)
	f.More = fillFields(f.More, values, errs)
	for _, fd := range f.More {
		f.MoreOpen = f.MoreOpen || len(fd.Errors) > 0
	}
	return f
}

func fillFields(fs []Field, values url.Values, errs map[string][]string) []Field {
	if fs == nil {
		return nil
	}
	fields := make([]Field, len(fs))
	for i, fd := range fs {
		if values != nil {
			v, has := last(values, fd.Name)
			if fd.Type == "checkbox" {
				fd.Checked = has && v != "" && v != "0" && v != "false"
			} else if has && fd.Type != "password" {
				fd.Value = v
			}
		}
		fd.Errors = errs[fd.Name]
		fields[i] = fd
	}
	return fields
}

// formField is a field as the partial "field" draws it, with its form's
// ID, which prefixes its id.
type formField struct {
	Form string
	Field
}

// last is a key's last value, which the API reads too: a checkbox sends
// "1" after its hidden "0", so that unticked is a value and not nothing.
func last(values url.Values, key string) (string, bool) {
	vs := values[key]
	if len(vs) == 0 {
		return "", false
	}
	return vs[len(vs)-1], true
}

// Button is a form of one button that posts to Action: a delete, a tick.
type Button struct {
	Action, CSRF, Label, Class string
	// Confirm asks before posting, where a script runs.
	Confirm string
}
