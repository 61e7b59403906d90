package server

import (
	"html"
	"net/http"
	"net/url"
	"strings"
	"testing"
)

// TestWebJournalEntryText: a journal's day shows its text and writes it
// with the API's rules, making the entry the first time.
func TestWebJournalEntryText(t *testing.T) {
	e := newEnv(t)
	_, key := e.user("ada@example.com")
	j := e.journal(key, "Diary")
	e.entryOn(key, j, "2026-03-07") // made by the API, no text yet
	b := e.signIn(t, "ada@example.com")
	day := "/journals/" + j + "/2026/3/7"

	// The journal's list links each day.
	b.get("/journals/"+j).has(t, `<a href="`+day+`">Write</a>`)

	pg := b.get(day)
	if pg.code != http.StatusOK {
		t.Fatalf("day: %d %s", pg.code, pg.body)
	}
	pg.has(t, "<h1>Sat 7 Mar 2026</h1>", `<a href="/journals/`+j+`">← Diary</a>`, `aria-current="page">Journals`,
		"Nothing written yet.", `action="`+day+`"`, `<label for="entry-body">Entry</label>`,
		`<textarea id="entry-body" name="body"></textarea>`, `<button type="submit">Save</button>`, `name="csrf"`)
	pg.lacks(t, "style=", "<script>")

	// Saving writes the text, trimmed, its line breaks kept, escaped.
	_, _, logged := e.newestLog(key)
	text := "Dear diary,\n\nwe met <b>Pam</b> & Jim."
	pg = b.post(day, url.Values{"body": {"  " + text + "\n  "}})
	if pg.code != http.StatusSeeOther || pg.header.Get("Location") != day {
		t.Fatalf("save: %d %s %s", pg.code, pg.header.Get("Location"), pg.body)
	}
	pg = b.follow(pg)
	pg.has(t, "Saved.", `<p class="pre">`+html.EscapeString(text)+`</p>`, `name="body">`+html.EscapeString(text)+`</textarea>`)
	pg.lacks(t, "<b>Pam</b>", "Nothing written yet.")
	if r := e.do(req{method: "GET", path: "/api/journals/" + j + "/2026/3/7", key: key}); r.code != 200 ||
		!strings.Contains(r.body, `"body":"Dear diary,\n\nwe met <b>Pam</b> & Jim."`) {
		t.Errorf("the API's entry: %d %s", r.code, r.body)
	}
	if action, desc, total := e.newestLog(key); action != "entry_update" || desc != "Updated the entry for the journal called Diary" || total != logged+1 {
		t.Errorf("log: %q %q, %d entries after %d", action, desc, total, logged)
	}
	b.get("/journals/"+j).has(t, `<a href="`+day+`">Edit</a>`, `<p class="pre entry-text">`+html.EscapeString(text)+`</p>`)

	// A day without an entry: shown without making one, made by a save.
	newDay := "/journals/" + j + "/2026/03/08"
	b.get(newDay).has(t, "<h1>Sun 8 Mar 2026</h1>", "No entry for this day yet: saving a text makes it.", `action="/journals/`+j+`/2026/3/8"`)
	if n := e.count(`SELECT count(*) FROM journal_entries`); n != 1 {
		t.Errorf("a look made an entry: %d", n)
	}
	b.follow(b.post(newDay, url.Values{"body": {"Rain."}})).has(t, "Saved.", `<p class="pre">Rain.</p>`)
	if action, _, _ := e.newestLog(key); action != "entry_creation" {
		t.Errorf("the first save logged %q, want entry_creation", action)
	}
	// An empty text clears it.
	b.follow(b.post(newDay, url.Values{"body": {"  "}})).has(t, "Nothing written yet.")

	// Refused text: beside the field, what was typed kept, nothing written.
	for _, c := range []struct{ body, msg string }{
		{strings.Repeat("é", 100001), "The body field must not be greater than 100000 characters."},
		{"bell\a", "The body field format is invalid."},
	} {
		pg = b.post(day, url.Values{"body": {c.body}})
		if pg.code != http.StatusUnprocessableEntity {
			t.Errorf("%.20q: %d", c.body, pg.code)
			continue
		}
		pg.has(t, `id="entry-body-err">`+c.msg, `aria-invalid="true"`, "<h1>Sat 7 Mar 2026</h1>", `<p class="pre">`+html.EscapeString(text))
	}
	// 100,000 characters, even of four bytes each: 1.2 MB as a form.
	for _, r := range []string{"é", "😀"} {
		if pg := b.post(day, url.Values{"body": {strings.Repeat(r, 100000)}}); pg.code != http.StatusSeeOther {
			t.Errorf("100000 × %s: %d", r, pg.code)
		}
	}
	if pg := b.post(day, url.Values{"csrf": {"wrong"}, "body": {"Eve was here"}}); pg.code != http.StatusForbidden {
		t.Errorf("without the token: %d", pg.code)
	}
	if n := e.count(`SELECT count(*) FROM journal_entries WHERE body LIKE '%Eve%'`); n != 0 {
		t.Errorf("a refused form wrote the text")
	}

	// Dates that are none, and other accounts' journals: 404.
	e.user("bob@example.com")
	bob := e.signIn(t, "bob@example.com")
	for _, c := range []struct {
		b    *browser
		path string
		msg  string
	}{
		{b, "/journals/" + j + "/2026/2/30", "Entry not found."},
		{b, "/journals/" + j + "/2026/13/1", "Entry not found."},
		{b, "/journals/" + j + "/x/1/1", "Entry not found."},
		{b, "/journals/999999/2026/3/7", "Journal not found."},
		{bob, day, "Journal not found."},
	} {
		for _, pg := range []page{c.b.get(c.path), c.b.post(c.path, url.Values{"body": {"x"}})} {
			if pg.code != http.StatusNotFound || !strings.Contains(pg.body, c.msg) {
				t.Errorf("%s: %d, want the 404 page with %q:\n%.300s", c.path, pg.code, c.msg, pg.body)
			}
		}
	}
	if n := e.count(`SELECT count(*) FROM journal_entries`); n != 2 {
		t.Errorf("%d entries, want 2", n)
	}
}
