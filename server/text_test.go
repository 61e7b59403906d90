package server

import (
	"testing"

	"kith/server/input"
)

// TestTextMustBeCleanUTF8: text that is not UTF-8 (or, in JSON, escapes
// half a character) is refused with 422 naming the field, wherever it
// comes from; encoding/json used to store it as U+FFFD.
func TestTextMustBeCleanUTF8(t *testing.T) {
	e := newEnv(t)
	_, key := e.user("ada@example.com")
	post := func(body string) req { return req{method: "POST", path: "/api/persons", key: key, body: body} }
	form := func(ctype, body string) req {
		return req{method: "POST", path: "/api/persons", key: key, body: body, ctype: ctype}
	}
	multipart := "multipart/form-data; boundary=X"
	part := func(v string) string {
		return "--X\r\nContent-Disposition: form-data; name=\"first_name\"\r\n\r\n" + v + "\r\n--X--\r\n"
	}
	invalid := append(errBody(422, "The first name field format is invalid."),
		`"errors":{"first_name":["The first name field format is invalid."]}`)
	e.run(t, []scenario{
		{"JSON bytes that are not UTF-8", post("{\"first_name\":\"Jim\xff\"}"), 422, invalid},
		{"JSON with a lone high surrogate", post(`{"first_name":"Jim\ud800"}`), 422, invalid},
		{"JSON with a lone low surrogate", post(`{"first_name":"\udc00Jim"}`), 422, invalid},
		{"JSON with a high surrogate before a letter", post(`{"first_name":"\uD800\u0041"}`), 422, invalid},
		{"JSON not UTF-8 in another field", post("{\"first_name\":\"Jim\",\"last_name\":\"\xc3\"}"), 422,
			errBody(422, "The last name field format is invalid.")},
		{"query bytes that are not UTF-8", req{method: "POST", path: "/api/persons?first_name=Jim%FF", key: key}, 422, invalid},
		{"form bytes that are not UTF-8", form("application/x-www-form-urlencoded", "first_name=Jim%FF"), 422, invalid},
		{"multipart bytes that are not UTF-8", form(multipart, part("Jim\xff")), 422, invalid},
		{"a whole surrogate pair is a character", post(`{"first_name":"Jim \ud83d\ude00"}`), 201, []string{`"first_name":"Jim 😀"`}},
		{"U+FFFD sent as such is a character", post(`{"first_name":"Jim \ufffd \\ud800"}`), 201, []string{`"first_name":"Jim � \\ud800"`}},
		{"an unknown field is ignored, valid or not", post("{\"first_name\":\"Jim\",\"extra\":\"\xff\"}"), 201, []string{`"first_name":"Jim"`}},
	})
}

// TestControlCharacters: names and other one-line fields take no control
// characters; long text (how_we_met) takes tab and line breaks only;
// passwords take any.
func TestControlCharacters(t *testing.T) {
	e := newEnv(t)
	_, key := e.user("ada@example.com")
	post := func(body string) req { return req{method: "POST", path: "/api/persons", key: key, body: body} }
	invalid := func(field string) []string {
		return append(errBody(422, "The "+input.Attr(field)+" field format is invalid."), `"errors":{"`+field+`":`)
	}
	e.run(t, []scenario{
		{"NUL in a name, JSON", post(`{"first_name":"Jim\u0000"}`), 422, invalid("first_name")},
		{"NUL in a name, query", req{method: "POST", path: "/api/persons?first_name=Jim%00Bob", key: key}, 422, invalid("first_name")},
		{"NUL in a name, form", req{method: "POST", path: "/api/persons", key: key, ctype: "application/x-www-form-urlencoded",
			body: "first_name=Jim%00Bob"}, 422, invalid("first_name")},
		{"tab in a name", post(`{"first_name":"Jim\tBob"}`), 422, invalid("first_name")},
		{"line break in a name", post(`{"first_name":"Jim\nBob"}`), 422, invalid("first_name")},
		{"escape sequence in a name", post(`{"first_name":"Jim","nickname":"\u001b[31mred"}`), 422, invalid("nickname")},
		{"DEL in a name", req{method: "POST", path: "/api/persons?first_name=Jim%7F", key: key}, 422, invalid("first_name")},
		{"C1 control in a name", post(`{"first_name":"Jim\u0085Bob"}`), 422, invalid("first_name")},
		{"NUL in an API key label", req{method: "POST", path: "/api/administration/api?label=a%00b", key: key}, 422, invalid("label")},
		{"NUL in a task category's color", req{method: "POST", path: "/api/administration/task-categories?name=x&color=red%00", key: key},
			422, invalid("color")},
		{"NUL in long text", post(`{"first_name":"Jim","how_we_met":"at\u0000work"}`), 422, invalid("how_we_met")},
		{"a bell in long text", post(`{"first_name":"Jim","how_we_met":"at\u0007work"}`), 422, invalid("how_we_met")},
		{"paragraphs in long text", post(`{"first_name":"Jim","how_we_met":"At work.\r\n\n\tThen again."}`), 201,
			[]string{`"how_we_met":"At work.\r\n\n\tThen again."`}},
		{"trailing white space is trimmed from a name, as before", post(`{"first_name":"Jim\n"}`), 201, []string{`"first_name":"Jim"`}},
		{"a password may hold anything: wrong, not invalid", req{method: "POST", path: "/api/login",
			body: `{"email":"ada@example.com","password":"correct\u0000horse"}`}, 401, errBody(401, "Invalid credentials")},
	})
	if n := e.count(`SELECT count(*) FROM persons WHERE first_name LIKE '%Bob%' OR how_we_met LIKE '%work%'`); n != 1 {
		t.Errorf("%d refused persons were stored", n-1)
	}
}
