package input

import (
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/labstack/echo/v4"
)

// paramsOf reads the parameters of a request as a handler would.
func paramsOf(t *testing.T, method, target, ctype, body string) (*Params, error) {
	t.Helper()
	r := httptest.NewRequest(method, target, strings.NewReader(body))
	if ctype != "" {
		r.Header.Set("Content-Type", ctype)
	}
	return ReadParams(echo.New().NewContext(r, httptest.NewRecorder()))
}

func mustParams(t *testing.T, method, target, ctype, body string) *Params {
	t.Helper()
	p, err := paramsOf(t, method, target, ctype, body)
	if err != nil {
		t.Fatal(err)
	}
	return p
}

func TestParamsMergeQueryAndBody(t *testing.T) {
	for _, method := range []string{"GET", "POST", "PUT", "PATCH", "DELETE"} {
		p := mustParams(t, method, "/?a=query&b=query&b=last", "application/json", `{"a":"body","c":"body"}`)
		a, b, c := p.Text("a", 10), p.Text("b", 10), p.Text("c", 10)
		if a == nil || *a != "body" || b == nil || *b != "last" || c == nil || *c != "body" {
			t.Errorf("%s: a=%v b=%v c=%v, want body wins, last repeated query value, body-only kept", method, a, b, c)
		}
	}
	p := mustParams(t, "PUT", "/?a=query", "application/x-www-form-urlencoded", "a=form&d=form")
	if a, d := p.Text("a", 10), p.Text("d", 10); *a != "form" || *d != "form" {
		t.Errorf("form: a=%v d=%v", *a, *d)
	}
	p = mustParams(t, "POST", "/?a=query", "text/plain", "a=ignored")
	if a := p.Text("a", 10); *a != "query" {
		t.Errorf("a text/plain body is no parameters: a=%v", *a)
	}
	p = mustParams(t, "POST", "/", "", `{"a":"json without a content type"}`)
	if a := p.Text("a", 40); a == nil {
		t.Errorf("a body without a Content-Type is read as JSON")
	}
	p = mustParams(t, "POST", "/?a=1", "application/json", "  ")
	if a := p.Text("a", 10); *a != "1" {
		t.Errorf("an empty JSON body is no body")
	}
}

func TestParamsBodyErrors(t *testing.T) {
	cases := []struct {
		name, ctype, body string
		want              *Error
	}{
		{"broken JSON", "application/json", `{"a":`, ErrInvalidJSON},
		{"JSON with trailing data", "application/json", `{"a":1}x`, ErrInvalidJSON},
		{"JSON string", "application/json", `"a"`, ErrNotJSONObject},
		{"JSON array", "application/vnd.api+json", `[1]`, ErrNotJSONObject},
		{"broken form", "application/x-www-form-urlencoded", "a=%zz", ErrInvalidForm},
		{"broken multipart", "multipart/form-data; boundary=x", "garbage", ErrInvalidForm},
	}
	for _, tc := range cases {
		_, err := paramsOf(t, "POST", "/", tc.ctype, tc.body)
		if err != tc.want {
			t.Errorf("%s: error %v, want %v", tc.name, err, tc.want)
		}
	}
	if p, err := paramsOf(t, "POST", "/", "application/json", "null"); err != nil || p.Text("a", 1) != nil {
		t.Errorf("JSON null is no parameters: %v", err)
	}
}

func TestParamsInteger(t *testing.T) {
	p := mustParams(t, "POST", "/?q=1985&neg=-4&sp=%2012%20&empty=", "application/json",
		`{"n":1985,"s":"1985","f":1985.5,"e":"1e3","b":true,"x":"12a","big":"99999999999999999999","null":null}`)
	for key, want := range map[string]int64{"q": 1985, "neg": -4, "sp": 12, "n": 1985, "s": 1985} {
		if got := p.Integer(key); got == nil || *got != want {
			t.Errorf("%s: %v, want %d", key, got, want)
		}
	}
	for _, key := range []string{"empty", "null", "missing"} {
		if got := p.Integer(key); got != nil {
			t.Errorf("%s: %v, want absent", key, *got)
		}
	}
	for _, key := range []string{"f", "e", "b", "x", "big"} {
		if got := p.Integer(key); got != nil {
			t.Errorf("%s: %v, want an error", key, *got)
		}
	}
	ve := p.Err().(*ValidationError)
	if got := ve.messages["big"]; len(got) != 1 || got[0] != "The big field must be an integer." {
		t.Errorf("message: %v", got)
	}
	if ve.Error() != "The f field must be an integer. (and 4 more errors)" {
		t.Errorf("summary: %q", ve.Error())
	}
}

func TestParamsBoolean(t *testing.T) {
	p := mustParams(t, "POST", "/?q1=1&q0=0&qt=true&qf=false&qT=TRUE&qe=", "application/json",
		`{"t":true,"f":false,"n1":1,"n0":0,"s1":"1","s0":"0","yes":"yes","n2":2,"arr":[true]}`)
	for key, want := range map[string]bool{"q1": true, "q0": false, "qt": true, "qf": false, "qT": true,
		"t": true, "f": false, "n1": true, "n0": false, "s1": true, "s0": false} {
		if got := p.Boolean(key); got == nil || *got != want {
			t.Errorf("%s: %v, want %v", key, got, want)
		}
	}
	if got := p.Boolean("qe"); got != nil {
		t.Errorf("empty: %v, want absent", *got)
	}
	for _, key := range []string{"yes", "n2", "arr"} {
		if got := p.Boolean(key); got != nil {
			t.Errorf("%s: %v, want an error", key, *got)
		}
	}
	if msg := p.Err().(*ValidationError).messages["yes"][0]; msg != "The yes field must be true or false." {
		t.Errorf("message: %q", msg)
	}
}

func TestParamsText(t *testing.T) {
	p := mustParams(t, "POST", "/", "application/json",
		`{"name":"  Ada  ","blank":"   ","five":"ééééé","six":"éééééé","pw":"  secret  ","first_name":false}`)
	if got := p.Text("name", 255); *got != "Ada" {
		t.Errorf("trim: %q", *got)
	}
	if got := p.Text("blank", 255); got != nil {
		t.Errorf("blank is absent, got %q", *got)
	}
	if got := p.Text("five", 5); got == nil {
		t.Errorf("5 characters of 2 bytes fit a max of 5")
	}
	if got := p.Text("six", 5); got != nil {
		t.Errorf("6 characters do not fit a max of 5")
	}
	if got := p.Password("pw", 255); got != "  secret  " {
		t.Errorf("passwords are not trimmed: %q", got)
	}
	p.RequiredText("first_name", 255)
	p.RequiredText("missing_field", 255)
	ve := p.Err().(*ValidationError)
	want := map[string]string{
		"six":           "The six field must not be greater than 5 characters.",
		"first_name":    "The first name field must be a string.",
		"missing_field": "The missing field field is required.",
	}
	for key, msg := range want {
		if got := ve.messages[key]; len(got) != 1 || got[0] != msg {
			t.Errorf("%s: %v, want [%q]", key, got, msg)
		}
	}
	if ve.Error() != "The six field must not be greater than 5 characters. (and 2 more errors)" {
		t.Errorf("summary: %q", ve.Error())
	}
}

func TestValidationSummary(t *testing.T) {
	v := Invalid("a", "First.")
	if v.Error() != "First." {
		t.Errorf("one: %q", v.Error())
	}
	v.Add("b", "Second.")
	if v.Error() != "First. (and 1 more error)" {
		t.Errorf("two: %q", v.Error())
	}
	v.Add("a", "Third.")
	if v.Error() != "First. (and 2 more errors)" {
		t.Errorf("three: %q", v.Error())
	}
}
