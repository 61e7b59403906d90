package server

import (
	"net/http/httptest"
	"strconv"
	"strings"
	"testing"
	"unicode/utf8"
)

// TestCardDAVTextRules: a card is held to the API's text rules: one with a
// NUL, an escape or bytes that are not UTF-8 in any property is refused
// (409, CardDAV's valid-address-data) and nothing of it is kept, on both
// engines. Before, SQLite kept it (and kith copy to PostgreSQL then
// failed) and PostgreSQL answered 500. A vCard file's import repairs what
// old address books write (NUL bytes go, Latin-1 is read as such), then
// skips a card the rules still refuse: nothing it keeps breaks them.
func TestCardDAVTextRules(t *testing.T) {
	e := newEnv(t)
	ts := httptest.NewServer(e.srv)
	t.Cleanup(ts.Close)
	u, key := e.user("ada@example.com")
	_, bob := e.user("bob@example.com")
	d := &davEnv{env: e, url: ts.URL}
	book := "/dav/" + strconv.FormatInt(u.ID, 10) + "/addressbooks/contacts/"
	vh := map[string]string{"Content-Type": "text/vcard"}
	card := func(line string) string {
		return "BEGIN:VCARD\r\nVERSION:3.0\r\nUID:text-rules\r\nFN:Grace Hopper\r\nN:Hopper;Grace;;;\r\n" + line + "\r\nEND:VCARD\r\n"
	}
	cases := []struct{ name, line string }{
		{"a NUL in a note", "NOTE:before\x00after"},
		{"an escape in an email", "EMAIL:grace\x1b[31m@navy.example"},
		{"bytes that are not UTF-8 in a title", "TITLE:Rear \xff\xfe Admiral"},
		{"a NUL in a property Kith does not read", "X-SOMETHING:a\x00b"},
		{"a NUL in a parameter", "TEL;TYPE=ce\x00ll:+1 555 0100"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			code, _, body := d.raw("PUT", book+"text-rules.vcf", "ada@example.com", key, card(c.line), vh)
			if code != 409 || !strings.Contains(body, "valid-address-data") {
				t.Errorf("PUT: %d %s", code, body)
			}
			r := e.do(req{method: "POST", path: "/api/import/vcard", key: bob, body: card(c.line), ctype: "text/vcard"})
			if r.code != 200 {
				t.Errorf("vCard import: %d %s", r.code, r.body)
			}
			kept := e.do(req{method: "GET", path: "/api/export/vcard", key: bob})
			if strings.ContainsAny(kept.body, "\x00\x1b") || !utf8.ValidString(kept.body) {
				t.Errorf("the import kept what the rules refuse: %q (import: %s)", kept.body, r.body)
			}
		})
	}
	if r := e.do(req{method: "POST", path: "/api/import/vcard", key: bob, body: card("NOTE:a\x1bb"), ctype: "text/vcard"}); !strings.Contains(r.body, "is not valid text") {
		t.Errorf("an escape is not skipped by the import: %s", r.body)
	}
	if r := e.do(req{method: "GET", path: "/api/persons", key: key}); !strings.Contains(r.body, `"total":0`) {
		t.Errorf("a refused card left a person: %s", r.body)
	}
	// Tabs and line breaks, which a note may hold, still pass.
	if code, _, body := d.raw("PUT", book+"text-rules.vcf", "ada@example.com", key, card("NOTE:one\\ntwo\tthree"), vh); code != 201 {
		t.Errorf("a clean card: %d %s", code, body)
	}
}

// TestVCardNestedFrameLines: a card with nested BEGIN:VCARD and VERSION
// lines is kept with one frame: its export (and what a phone syncs) has
// one BEGIN, one END and one VERSION, not a card opened inside the card.
func TestVCardNestedFrameLines(t *testing.T) {
	e := newEnv(t)
	_, key := e.user("ada@example.com")
	card := "BEGIN:VCARD\r\nVERSION:3.0\r\nFN:Grace Hopper\r\nN:Hopper;Grace;;;\r\nBEGIN:VCARD\r\nVERSION:4.0\r\nX-KEPT:yes\r\nEND:VCARD\r\n"
	r := e.do(req{method: "POST", path: "/api/import/vcard", key: key, body: card, ctype: "text/vcard"})
	if r.code != 200 || !strings.Contains(r.body, `"created":1`) {
		t.Fatalf("import: %d %s", r.code, r.body)
	}
	out := e.do(req{method: "GET", path: "/api/export/vcard", key: key}).body
	for _, line := range []string{"BEGIN:VCARD", "END:VCARD", "VERSION:"} {
		if n := strings.Count(out, line); n != 1 {
			t.Errorf("%d %s lines in:\n%s", n, line, out)
		}
	}
	if !strings.Contains(out, "X-KEPT:yes") {
		t.Errorf("the card's own extra property is lost:\n%s", out)
	}
}
