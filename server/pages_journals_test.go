package server

import (
	"context"
	"net/http"
	"net/url"
	"regexp"
	"strconv"
	"strings"
	"testing"
)

// entryOn opens a journal's entry for a date through the API.
func (e *env) entryOn(key, journal, date string) {
	e.t.Helper()
	r := e.do(req{method: "GET", path: "/api/journals/" + journal + "/" + strings.ReplaceAll(date, "-", "/"), key: key})
	if r.code != http.StatusCreated && r.code != http.StatusOK {
		e.t.Fatalf("entry %s: %d %s", date, r.code, r.body)
	}
}

var entryItem = regexp.MustCompile(`<li id="entry-\d+"><strong>([^<]+)</strong>`)

// entryDates are the dates a journal page lists, in its order.
func entryDates(pg page) []string {
	var out []string
	for _, m := range entryItem.FindAllStringSubmatch(pg.body, -1) {
		out = append(out, m[1])
	}
	return out
}

func TestWebJournalList(t *testing.T) {
	e := newEnv(t)
	_, key := e.user("ada@example.com")
	dreams := e.journal(key, "Dreams")
	e.entryOn(key, dreams, "2026-03-07")
	e.entryOn(key, dreams, "2025-12-24")
	b := e.signIn(t, "ada@example.com")
	pg := b.get("/journals")
	if pg.code != http.StatusOK {
		t.Fatalf("journals: %d %s", pg.code, pg.body)
	}
	pg.has(t, "<h1>Journals</h1>", `aria-current="page">Journals`, `<a href="/journals/`+dreams+`">Dreams</a>`,
		"2 entries, the latest Sat 7 Mar 2026", "My first journal", "No entries yet",
		`action="/journals"`, `id="journal-name"`, "Add journal")
	pg.lacks(t, "style=", "<script>")
	if strings.Index(pg.body, "Dreams") > strings.Index(pg.body, "My first journal") {
		t.Errorf("not newest first")
	}
	b.lang = "en-US"
	b.get("/journals").has(t, "2 entries, the latest Sat, Mar 7, 2026")

	// Signed out: to the sign-in page.
	out := e.browser(t).get("/journals")
	if out.code != http.StatusSeeOther || out.header.Get("Location") != "/login" {
		t.Errorf("signed out: %d %s", out.code, out.header.Get("Location"))
	}
}

func TestWebJournalCreate(t *testing.T) {
	e := newEnv(t)
	e.user("ada@example.com")
	b := e.signIn(t, "ada@example.com")
	b.get("/journals")
	pg := b.post("/journals", url.Values{"name": {"  Travel  "}})
	if pg.code != http.StatusSeeOther || !strings.HasPrefix(pg.header.Get("Location"), "/journals/") {
		t.Fatalf("create: %d %s %s", pg.code, pg.header.Get("Location"), pg.body)
	}
	pg = b.follow(pg)
	pg.has(t, "Travel added.", "<h1>Travel</h1>", "No entries yet")
	if n := e.count(`SELECT count(*) FROM journals WHERE name = 'Travel' AND slug LIKE '%-travel'`); n != 1 {
		t.Errorf("%d journals Travel", n)
	}

	// Escaped, never markup.
	pg = b.follow(b.post("/journals", url.Values{"name": {"<b>bold</b> & co"}}))
	pg.has(t, "&lt;b&gt;bold&lt;/b&gt; &amp; co")
	pg.lacks(t, "<b>bold</b>")

	before := e.count(`SELECT count(*) FROM journals`)
	for _, c := range []struct{ name, msg string }{
		{"", "The name field is required."},
		{"   ", "The name field is required."},
		{strings.Repeat("j", 256), "The name field must not be greater than 255 characters."},
		{"tab\there", "The name field format is invalid."},
	} {
		pg = b.post("/journals", url.Values{"name": {c.name}})
		if pg.code != http.StatusUnprocessableEntity {
			t.Errorf("%q: %d", c.name, pg.code)
			continue
		}
		pg.has(t, `id="journal-name-err">`+c.msg, `aria-invalid="true"`, "<h1>Journals</h1>")
	}
	b.post("/journals", url.Values{"name": {strings.Repeat("j", 256)}}).has(t, `value="`+strings.Repeat("j", 256)+`"`)
	if after := e.count(`SELECT count(*) FROM journals`); after != before {
		t.Errorf("refused names made %d journals", after-before)
	}
	if pg := b.post("/journals", url.Values{"csrf": {"wrong"}, "name": {"Eve"}}); pg.code != http.StatusForbidden {
		t.Errorf("without the token: %d", pg.code)
	}
	if n := e.count(`SELECT count(*) FROM journals WHERE name = 'Eve'`); n != 0 {
		t.Errorf("a refused form made a journal")
	}
}

func TestWebJournalEntries(t *testing.T) {
	e := newEnv(t)
	_, key := e.user("ada@example.com")
	j := e.journal(key, "Diary")
	for _, d := range []string{"2026-03-07", "2025-12-24", "2026-03-14", "2026-03-15", "0999-01-01"} {
		e.entryOn(key, j, d)
	}
	b := e.signIn(t, "ada@example.com")
	pg := b.get("/journals/" + j)
	if pg.code != http.StatusOK {
		t.Fatalf("journal: %d %s", pg.code, pg.body)
	}
	want := []string{"Sun 15 Mar 2026", "Sat 14 Mar 2026", "Sat 7 Mar 2026", "Wed 24 Dec 2025", "Tue 1 Jan 0999"}
	if got := entryDates(pg); strings.Join(got, "|") != strings.Join(want, "|") {
		t.Errorf("entries %q, want %q", got, want)
	}
	pg.has(t, "<h1>Diary</h1>", `aria-current="page">Journals`, "Entries by day", "today", "yesterday",
		`action="/journals/`+j+`/entries"`, `type="date" id="open-date" name="date" value="2026-03-15"`,
		`data-confirm="Delete Diary and its 5 entries?"`)
	pg.lacks(t, "style=", "<script>", `rel="next"`, `rel="prev"`, "8 days ago") // a week back at most

	// Open a day: its page, and no entry made until something is saved.
	pg = b.post("/journals/"+j+"/entries", url.Values{"date": {"2026-03-10"}})
	pg.redirects(t, "/journals/"+j+"/2026/3/10")
	b.follow(pg).has(t, "<h1>Tue 10 Mar 2026</h1>", `<label for="entry-body">Entry`)
	b.post("/journals/"+j+"/entries", url.Values{"date": {"2026-3-10"}}).redirects(t, "/journals/"+j+"/2026/3/10")
	if n := e.count(`SELECT count(*) FROM journal_entries WHERE year = 2026 AND month = 3 AND day = 10`); n != 0 {
		t.Errorf("%d entries for a day only opened", n)
	}
	if got := entryDates(b.get("/journals/" + j)); len(got) != 5 {
		t.Errorf("after opening: %q", got)
	}
	if n := e.count(`SELECT count(*) FROM logs WHERE action = 'entry_creation'`); n != 5 {
		t.Errorf("%d entry_creation logs, want 5", n)
	}

	// A date that is not one: beside the field, nothing made.
	for _, c := range []struct{ date, msg string }{
		{"2025-02-30", "The date field must be a valid date."},
		{"2023-02-29", "The date field must be a valid date."},
		{"2025-13-01", "The date field must be a valid date."},
		{"0000-01-01", "The date field must be a valid date."},
		{"", "The date field is required."},
		{"March 3", "The date field must match the format Y-m-d."},
		{"2025-03-07T10:00", "The date field must match the format Y-m-d."},
		{"12025-03-07", "The date field must match the format Y-m-d."},
	} {
		pg = b.post("/journals/"+j+"/entries", url.Values{"date": {c.date}})
		if pg.code != http.StatusUnprocessableEntity {
			t.Errorf("%q: %d", c.date, pg.code)
			continue
		}
		pg.has(t, `id="open-date-err">`+c.msg, `value="`+c.date+`"`, "<h1>Diary</h1>", "Sun 15 Mar 2026")
	}
	if n := e.count(`SELECT count(*) FROM journal_entries`); n != 5 {
		t.Errorf("%d entries after refused dates, want 5", n)
	}
	if pg := b.post("/journals/"+j+"/entries", url.Values{"csrf": {"wrong"}, "date": {"2026-01-01"}}); pg.code != http.StatusForbidden {
		t.Errorf("without the token: %d", pg.code)
	}
	if n := e.count(`SELECT count(*) FROM journal_entries`); n != 5 {
		t.Errorf("a refused form made an entry")
	}

	// Dates as the browser's language writes them, today as the user's
	// zone has it.
	b.lang = "en-US"
	b.get("/journals/"+j).has(t, "Sun, Mar 15, 2026")
	e.timezone(key, "Pacific/Kiritimati") // UTC+14: already the 16th
	b.get("/journals/"+j).has(t, `name="date" value="2026-03-16"`, "yesterday")
}

func TestWebJournalPages(t *testing.T) {
	e := newEnv(t)
	u, key := e.user("ada@example.com")
	j := e.journal(key, "Long")
	id, _ := strconv.ParseInt(j, 10, 64)
	ctx := context.Background()
	for i := range 105 { // 1 Jan 2026 onward
		if _, _, err := e.st.JournalEntry(ctx, u.AccountID, id, 2026, 1+i/28, 1+i%28); err != nil {
			t.Fatal(err)
		}
	}
	b := e.signIn(t, "ada@example.com")
	pg := b.get("/journals/" + j)
	got := entryDates(pg)
	if len(got) != 100 || got[0] != "Tue 21 Apr 2026" {
		t.Errorf("page 1: %d entries, first %q", len(got), got)
	}
	pg.has(t, `<a href="/journals/`+j+`?page=2" rel="next">`, "1–100 of 105", "105 entries")
	pg.lacks(t, `rel="prev"`)
	pg = b.get("/journals/" + j + "?page=2")
	got = entryDates(pg)
	if len(got) != 5 || got[4] != "Thu 1 Jan 2026" {
		t.Errorf("page 2: %q", got)
	}
	pg.has(t, `<a href="/journals/`+j+`?page=1" rel="prev">`, "101–105 of 105")
	pg.lacks(t, `rel="next"`)
	if pg := b.get("/journals/" + j + "?page=99"); pg.code != http.StatusOK || len(entryDates(pg)) != 0 {
		t.Errorf("past the end: %d", pg.code)
	}
	b.get("/journals").has(t, "105 entries, the latest Tue 21 Apr 2026")
}

func TestWebJournalRename(t *testing.T) {
	e := newEnv(t)
	_, key := e.user("ada@example.com")
	j := e.journal(key, "Dreams")
	b := e.signIn(t, "ada@example.com")
	pg := b.get("/journals/" + j)
	pg.has(t, `action="/journals/`+j+`"`, `id="rename-name" name="name" value="Dreams"`, "<details><summary>Rename")
	pg = b.post("/journals/"+j, url.Values{"name": {"Night dreams"}})
	if pg.code != http.StatusSeeOther || pg.header.Get("Location") != "/journals/"+j {
		t.Fatalf("rename: %d %s %s", pg.code, pg.header.Get("Location"), pg.body)
	}
	b.follow(pg).has(t, "Renamed to Night dreams.", "<h1>Night dreams</h1>")
	if n := e.count(`SELECT count(*) FROM journals WHERE name = 'Night dreams' AND slug = ?`, j+"-night-dreams"); n != 1 {
		t.Errorf("not renamed with its slug")
	}
	pg = b.post("/journals/"+j, url.Values{"name": {" "}})
	if pg.code != http.StatusUnprocessableEntity {
		t.Fatalf("blank: %d", pg.code)
	}
	pg.has(t, `id="rename-name-err">The name field is required.`, "<details open><summary>Rename", "<h1>Night dreams</h1>")
	pg = b.post("/journals/"+j, url.Values{"name": {strings.Repeat("x", 256)}})
	pg.has(t, `id="rename-name-err">The name field must not be greater than 255 characters.`)
	if pg := b.post("/journals/"+j, url.Values{"csrf": {"wrong"}, "name": {"Eve"}}); pg.code != http.StatusForbidden {
		t.Errorf("without the token: %d", pg.code)
	}
	if n := e.count(`SELECT count(*) FROM journals WHERE name = 'Night dreams'`); n != 1 {
		t.Errorf("a refused rename changed the journal")
	}
}

func TestWebJournalDelete(t *testing.T) {
	e := newEnv(t)
	_, key := e.user("ada@example.com")
	j := e.journal(key, "Dreams")
	keep := e.journal(key, "Keep")
	e.entryOn(key, j, "2026-03-01")
	e.entryOn(key, keep, "2026-03-01")
	b := e.signIn(t, "ada@example.com")
	b.get("/journals/" + j)
	if pg := b.post("/journals/"+j+"/delete", url.Values{"csrf": {"wrong"}}); pg.code != http.StatusForbidden {
		t.Errorf("without the token: %d", pg.code)
	}
	pg := b.post("/journals/"+j+"/delete", nil)
	if pg.code != http.StatusSeeOther || pg.header.Get("Location") != "/journals" {
		t.Fatalf("delete: %d %s %s", pg.code, pg.header.Get("Location"), pg.body)
	}
	pg = b.follow(pg)
	pg.has(t, "Dreams deleted.", "Keep")
	pg.lacks(t, `href="/journals/`+j+`"`)
	if pg := b.get("/journals/" + j); pg.code != http.StatusNotFound {
		t.Errorf("deleted journal: %d", pg.code)
	}
	if n := e.count(`SELECT count(*) FROM journal_entries`); n != 1 {
		t.Errorf("%d entries left, want the other journal's", n)
	}
	if pg := b.post("/journals/"+j+"/delete", nil); pg.code != http.StatusNotFound {
		t.Errorf("deleted twice: %d", pg.code)
	}
}

func TestWebJournalOtherAccount(t *testing.T) {
	e := newEnv(t)
	_, ada := e.user("ada@example.com")
	e.user("bob@example.com")
	j := e.journal(ada, "Ada's")
	e.entryOn(ada, j, "2026-03-01")
	bob := e.signIn(t, "bob@example.com")
	bob.get("/journals").lacks(t, "Ada&#39;s", `href="/journals/`+j+`"`)
	for _, id := range []string{j, "999999", "abc", "0", "-1"} {
		base := "/journals/" + id
		for _, pg := range []page{
			bob.get(base),
			bob.get(base + "?page=2"),
			bob.post(base, url.Values{"name": {"Bob's now"}}),
			bob.post(base, url.Values{"name": {""}}),
			bob.post(base+"/entries", url.Values{"date": {"2026-03-02"}}),
			bob.post(base+"/entries", url.Values{"date": {"2025-02-30"}}),
			bob.post(base+"/delete", nil),
		} {
			if pg.code != http.StatusNotFound || !strings.Contains(pg.body, "Journal not found.") {
				t.Errorf("%s: %d, want the 404 page:\n%.300s", base, pg.code, pg.body)
			}
		}
	}
	if n := e.count(`SELECT count(*) FROM journals WHERE name = 'Ada''s'`); n != 1 {
		t.Errorf("Ada's journal changed")
	}
	if n := e.count(`SELECT count(*) FROM journal_entries`); n != 1 {
		t.Errorf("%d entries, want Ada's one", n)
	}
}
