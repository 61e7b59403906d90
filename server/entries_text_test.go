package server

import (
	"fmt"
	"net/http/httptest"
	"net/url"
	"strings"
	"sync"
	"testing"
	"time"
)

// entryData is the data of an entry answer.
func entryData(t *testing.T, r resp) map[string]any {
	t.Helper()
	return keysOf(t, r.json(t)["data"], "id", "object", "day", "month", "year", "body", "created_at", "updated_at")
}

// wrongMethod asserts that method on path answers 405 with the methods
// allow names. It goes around checkOpenAPI: the document's router matches
// some of these requests to a neighbouring operation (PUT …/entries to the
// entry's PUT with empty dates, PUT /api/persons/duplicates to a
// person's), whose answers never include a 405.
func (e *env) wrongMethod(t *testing.T, method, path, key, allow string) {
	t.Helper()
	rec := httptest.NewRecorder()
	e.srv.ServeHTTP(rec, req{method: method, path: path, key: key}.httpRequest())
	if rec.Code != 405 || !strings.Contains(rec.Body.String(), `"message":"Method not allowed."`) || rec.Header().Get("Allow") != allow {
		t.Errorf("%s %s: %d, Allow %q, %s; want 405, Allow %q", method, path, rec.Code, rec.Header().Get("Allow"), rec.Body.String(), allow)
	}
}

// newestLog is the action and description of the key's user's newest log
// entry, and how many they have.
func (e *env) newestLog(key string) (action, description string, total int) {
	e.t.Helper()
	logs, total := e.logsOf(key)
	if len(logs) == 0 {
		return "", "", 0
	}
	attrs := logs[0]["attributes"].(map[string]any)
	return attrs["action"].(string), attrs["description"].(string), total
}

func TestEntryWrite(t *testing.T) {
	e := newEnv(t)
	_, key := e.user("ada@example.com")
	_, bob := e.user("bob@example.com")
	journal := e.journal(key, "Diary")
	bobs := e.journal(bob, "Bob's")
	path := "/api/journals/" + journal + "/entries/2025/3/7"
	put := func(path, body string) req { return req{method: "PUT", path: path, key: key, body: body} }

	// The first PUT makes the entry, logged as made.
	made := fmt.Sprint(e.clock.Now().Unix())
	r := e.do(put(path, `{"body":"Went to the wedding."}`))
	if r.code != 201 {
		t.Fatalf("first PUT: %d %s", r.code, r.body)
	}
	d := entryData(t, r)
	if d["body"] != "Went to the wedding." || d["day"] != 7.0 || d["month"] != 3.0 || d["year"] != 2025.0 || d["object"] != "entry" {
		t.Errorf("made: %v", d)
	}
	id := d["id"]
	if action, desc, _ := e.newestLog(key); action != "entry_creation" || desc != "Created the entry for the journal called Diary" {
		t.Errorf("log after the first PUT: %q %q", action, desc)
	}

	// The next one replaces the text of the same entry, logged as updated
	// with the journal's name of now.
	e.clock.Advance(time.Hour)
	if r := e.do(req{method: "PUT", path: "/api/journals/" + journal + "?name=Notebook", key: key}); r.code != 200 {
		t.Fatalf("rename: %d %s", r.code, r.body)
	}
	r = e.do(put(path, `{"body":"Danced."}`))
	if r.code != 200 {
		t.Fatalf("second PUT: %d %s", r.code, r.body)
	}
	d = entryData(t, r)
	if d["id"] != id || d["body"] != "Danced." || fmt.Sprint(int64(d["created_at"].(float64))) != made ||
		int64(d["updated_at"].(float64)) != e.clock.Now().Unix() {
		t.Errorf("replaced: %v, want entry %v made at %s, updated now", d, id, made)
	}
	if action, desc, _ := e.newestLog(key); action != "entry_update" || desc != "Updated the entry for the journal called Notebook" {
		t.Errorf("log after the second PUT: %q %q", action, desc)
	}

	// The GETs by date show the text, and made entries show "".
	e.run(t, []scenario{
		{"the short path shows the text", req{method: "GET", path: "/api/journals/" + journal + "/2025/03/07", key: key}, 200,
			[]string{`"body":"Danced."`}},
		{"an entry made by a GET has no text", req{method: "GET", path: "/api/journals/" + journal + "/2025/3/8", key: key}, 201,
			[]string{`"body":""`}},
		{"a PUT writes the text of an entry a GET made", put("/api/journals/"+journal+"/entries/2025/03/08", `{"body":"Rested."}`), 200,
			[]string{`"day":8,"month":3,"year":2025,"body":"Rested."`}},
	})

	_, _, logged := e.newestLog(key)
	long := strings.Repeat("a", 100000)
	wide := strings.Repeat("é", 100000) // 200,000 bytes: characters count, not bytes
	astral := strings.Repeat("😀", 100000)
	escaped := strings.Repeat(`\ud83d\ude00`, 100000) // 1.2 MB of JSON for 100,000 characters
	tooLong := errBody(422, "The body field must not be greater than 100000 characters.")
	e.run(t, []scenario{
		{"trimmed at both ends, line breaks inside kept", put(path, `{"body":"  \n\t Dear diary,\n\nwe met.\r\n  Tabs\tstay. \n "}`), 200,
			[]string{`"body":"Dear diary,\n\nwe met.\r\n  Tabs\tstay."`}},
		{"a form body", req{method: "PUT", path: path, key: key, body: "body=" + url.QueryEscape(" From a form\nwith two lines "),
			ctype: "application/x-www-form-urlencoded"}, 200, []string{`"body":"From a form\nwith two lines"`}},
		{"the query string", put(path+"?body=Queried", ""), 200, []string{`"body":"Queried"`}},
		{"a number is its digits", put(path, `{"body":42}`), 200, []string{`"body":"42"`}},
		{"absent clears the text", put(path, ""), 200, []string{`"body":""`}},
		{"set again", put(path, `{"body":"Back."}`), 200, []string{`"body":"Back."`}},
		{"empty clears it", put(path, `{"body":""}`), 200, []string{`"body":""`}},
		{"white space only clears it", put(path, `{"body":" \n\t "}`), 200, []string{`"body":""`}},
		{"null clears it", put(path, `{"body":null}`), 200, []string{`"body":""`}},
		{"100000 characters", put(path, `{"body":"`+long+`"}`), 200, []string{`"body":"` + long + `"`}},
		{"100000 two-byte characters", put(path, `{"body":"`+wide+`"}`), 200, []string{`"body":"` + wide + `"`}},
		{"100000 four-byte characters", put(path, `{"body":"`+astral+`"}`), 200, []string{`"body":"` + astral + `"`}},
		{"100000 characters as JSON escapes, over 1 MiB", put(path, `{"body":"`+escaped+`"}`), 200, []string{`"body":"` + astral + `"`}},
		{"100000 four-byte characters as a form, over 1 MiB", req{method: "PUT", path: path, key: key,
			body: "body=" + url.QueryEscape(astral), ctype: "application/x-www-form-urlencoded"}, 200, []string{`"body":"` + astral + `"`}},
		{"100000 characters and spaces around them", put(path, `{"body":"  `+long+`  "}`), 200, []string{`"body":"` + long + `"`}},
	})
	_, _, after := e.newestLog(key)
	if after-logged != 15 {
		t.Errorf("%d log entries for 15 writes", after-logged)
	}
	e.run(t, []scenario{
		{"100001 characters", put(path, `{"body":"`+long+`b"}`), 422, tooLong},
		{"100001 two-byte characters", put(path, `{"body":"`+wide+`é"}`), 422, tooLong},
		{"100001 four-byte characters", put(path, `{"body":"`+astral+`😀"}`), 422, tooLong},
		{"a control character", put(path, `{"body":"bell\u0007"}`), 422, errBody(422, "The body field format is invalid.")},
		{"a NUL", put(path, `{"body":"a\u0000b"}`), 422, errBody(422, "The body field format is invalid.")},
		{"an array", put(path, `{"body":["x"]}`), 422, errBody(422, "The body field must be a string.")},
		{"true", put(path, `{"body":true}`), 422, errBody(422, "The body field must be a string.")},
		{"a body that is no JSON", put(path, `{"body":`), 400, nil},
		{"over the request limit", put(path, `{"body":"`+strings.Repeat(escaped, 2)+`"}`), 413, nil},
	})
	if r := e.do(req{method: "GET", path: path, key: key}); !strings.Contains(r.body, `"body":"`+long+`"`) {
		t.Errorf("a refused PUT changed the text: %.200s", r.body)
	}

	noEntry, noJournal := errBody(404, "Entry not found."), errBody(404, "Journal not found.")
	bad := `{"body":["not text"]}`
	e.run(t, []scenario{
		{"February 30th", put("/api/journals/"+journal+"/entries/2025/2/30", `{"body":"x"}`), 404, noEntry},
		{"month 13", put("/api/journals/"+journal+"/entries/2025/13/1", `{"body":"x"}`), 404, noEntry},
		{"a year that is no number", put("/api/journals/"+journal+"/entries/x/1/1", `{"body":"x"}`), 404, noEntry},
		{"a bad date before a bad body", put("/api/journals/"+journal+"/entries/2025/2/30", bad), 404, noEntry},
		{"another account's journal", put("/api/journals/"+bobs+"/entries/2025/3/7", `{"body":"x"}`), 404, noJournal},
		{"another account's journal before a bad date", put("/api/journals/"+bobs+"/entries/2025/2/30", `{"body":"x"}`), 404, noJournal},
		{"another account's journal before a bad body", put("/api/journals/"+bobs+"/entries/2025/3/7", bad), 404, noJournal},
		{"a missing journal", put("/api/journals/999999/entries/2025/3/7", `{"body":"x"}`), 404, noJournal},
		{"a journal id that is no number", put("/api/journals/x/entries/2025/3/7", `{"body":"x"}`), 404, noJournal},
		{"no key", req{method: "PUT", path: path, body: `{"body":"x"}`}, 401, errBody(401, "Unauthenticated.")},
		{"PUT on the short path", put("/api/journals/"+journal+"/2025/3/7", `{"body":"x"}`), 405, errBody(405, "Method not allowed.")},
		{"POST on the entries path", req{method: "POST", path: path, key: key, body: `{"body":"x"}`}, 405, nil},
		{"PATCH on the entries path", req{method: "PATCH", path: path, key: key, body: `{"body":"x"}`}, 405, nil},
		{"POST on the list", req{method: "POST", path: "/api/journals/" + journal + "/entries", key: key}, 405, nil},
	})
	e.wrongMethod(t, "PUT", "/api/journals/"+journal+"/entries", key, "OPTIONS, GET, HEAD")
	if _, _, total := e.newestLog(key); total != after {
		t.Errorf("refused PUTs logged %d entries", total-after)
	}
	if n := e.count(`SELECT count(*) FROM journal_entries`); n != 2 {
		t.Errorf("%d entries, want the 2 written", n)
	}
	if n := e.count(`SELECT count(*) FROM journal_entries WHERE journal_id = ?`, bobs); n != 0 {
		t.Errorf("Bob's journal got %d entries", n)
	}
}

// TestEntryWriteRace sends many first PUTs for one date at once: one makes
// the entry, the others write its text, and there is one row.
func TestEntryWriteRace(t *testing.T) {
	e := newEnv(t)
	_, key := e.user("ada@example.com")
	path := "/api/journals/" + e.journal(key, "Diary") + "/entries/2026/3/15"
	const n = 16
	codes := make([]int, n)
	var wg sync.WaitGroup
	for i := range n {
		wg.Go(func() {
			codes[i] = e.do(req{method: "PUT", path: path, key: key, body: fmt.Sprintf(`{"body":"writer %d"}`, i)}).code
		})
	}
	wg.Wait()
	created := 0
	for i, c := range codes {
		if c == 201 {
			created++
		} else if c != 200 {
			t.Errorf("request %d: %d", i, c)
		}
	}
	if created != 1 {
		t.Errorf("%d requests made the entry, want 1: %v", created, codes)
	}
	if rows := e.count(`SELECT count(*) FROM journal_entries WHERE body LIKE 'writer %'`); rows != 1 {
		t.Errorf("%d entries, want 1 with a writer's text", rows)
	}
	if logs := e.count(`SELECT count(*) FROM logs WHERE action IN ('entry_creation', 'entry_update')`); logs != n {
		t.Errorf("%d entry logs for %d writes", logs, n)
	}
}

func TestEntryList(t *testing.T) {
	e := newEnv(t)
	_, key := e.user("ada@example.com")
	_, bob := e.user("bob@example.com")
	journal := e.journal(key, "Diary")
	other := e.journal(key, "Other")
	bobs := e.journal(bob, "Bob's")
	write := func(journal, date, body string) {
		t.Helper()
		r := e.do(req{method: "PUT", path: "/api/journals/" + journal + "/entries/" + date, key: key,
			body: fmt.Sprintf(`{"body":%q}`, body)})
		if r.code != 201 {
			t.Fatalf("write %s: %d %s", date, r.code, r.body)
		}
	}
	// Written out of order: the list orders them.
	write(journal, "2025/1/1", "New year. Σίσυφος again.")
	write(journal, "2025/3/10", "The Wedding of Jim and Pam.")
	write(journal, "0999/1/1", "Long ago: 100% sure.")
	write(journal, "2024/12/31", "Été à Paris, a_b.")
	write(journal, "2025/3/7", "Wedding plans; axb.")
	write(other, "2025/3/9", "Another journal's wedding.")
	e.entryOn(key, journal, "2025-03-08") // no text
	r := e.do(req{method: "PUT", path: "/api/journals/" + bobs + "/entries/2025/3/9", key: bob, body: `{"body":"Bob's wedding"}`})
	if r.code != 201 {
		t.Fatalf("Bob's entry: %d %s", r.code, r.body)
	}

	base := "/api/journals/" + journal + "/entries"
	list := func(query string) []string {
		t.Helper()
		r := e.do(req{method: "GET", path: base + "?" + query, key: key})
		if r.code != 200 {
			t.Fatalf("list %s: %d %s", query, r.code, r.body)
		}
		var dates []string
		for _, item := range r.json(t)["data"].([]any) {
			m := keysOf(t, item, "id", "object", "day", "month", "year", "body", "created_at", "updated_at")
			dates = append(dates, fmt.Sprintf("%04.0f-%02.0f-%02.0f", m["year"], m["month"], m["day"]))
		}
		return dates
	}
	for _, c := range []struct{ query, want string }{
		{"", "2025-03-10 2025-03-08 2025-03-07 2025-01-01 2024-12-31 0999-01-01"},
		{"q=", "2025-03-10 2025-03-08 2025-03-07 2025-01-01 2024-12-31 0999-01-01"},
		{"per_page=2&page=2", "2025-03-07 2025-01-01"},
		{"per_page=4&page=2", "2024-12-31 0999-01-01"},
		{"page=2", ""},
		{"q=wed", "2025-03-10 2025-03-07"},
		{"q=WEDDING+OF", "2025-03-10"},
		{"q=" + url.QueryEscape("ÉTÉ À"), "2024-12-31"},
		{"q=" + url.QueryEscape("ΣΊΣΥΦΟΣ"), "2025-01-01"}, // final sigma and accented capitals
		{"q=" + url.QueryEscape("0%"), "0999-01-01"},
		{"q=" + url.QueryEscape("%"), "0999-01-01"},
		{"q=a_b", "2024-12-31"},
		{"q=" + url.QueryEscape("  jim  "), "2025-03-10"},
		{"q=Bob", ""},
		{"q=another", ""},
		{"q=" + strings.Repeat("x", 255), ""},
	} {
		if got := strings.Join(list(c.query), " "); got != c.want {
			t.Errorf("%s: %q, want %q", c.query, got, c.want)
		}
	}

	get := func(query string) req { return req{method: "GET", path: base + "?" + query, key: key} }
	self := "http://example.com" + base
	noJournal := errBody(404, "Journal not found.")
	e.run(t, []scenario{
		{"the envelope", get(""), 200, []string{`"body":"The Wedding of Jim and Pam."`, `"body":""`,
			`"current_page":1`, `"from":1`, `"last_page":1`, `"path":"` + self + `"`, `"per_page":15`, `"to":6`, `"total":6`,
			`"first":"` + self + `?page=1"`, `"prev":null`, `"next":null`}},
		{"a page's links keep q and per_page", get("q=wed&per_page=1&page=1"), 200, []string{`"total":2`, `"last_page":2`,
			`"next":"` + self + `?page=2&per_page=1&q=wed"`, `"first":"` + self + `?page=1&per_page=1&q=wed"`}},
		{"past the end", get("page=9"), 200, []string{`"data":[]`, `"from":null`, `"total":6`}},
		{"a q too long", get("q=" + strings.Repeat("x", 256)), 422, errBody(422, "The q field must not be greater than 255 characters.")},
		{"a q that is no text", req{method: "GET", path: base, key: key, body: `{"q":["x"]}`}, 422, errBody(422, "The q field must be a string.")},
		{"per_page over 100", get("per_page=101"), 422, []string{`"per_page":[`}},
		{"page 0", get("page=0"), 422, errBody(422, "The page field must be at least 1.")},
		{"another account's journal", req{method: "GET", path: "/api/journals/" + bobs + "/entries", key: key}, 404, noJournal},
		{"another account's journal before a bad q", req{method: "GET", path: "/api/journals/" + bobs + "/entries?q=" + strings.Repeat("x", 256), key: key},
			404, noJournal},
		{"a missing journal", req{method: "GET", path: "/api/journals/999999/entries", key: key}, 404, noJournal},
		{"a journal id that is no number", req{method: "GET", path: "/api/journals/x/entries", key: key}, 404, noJournal},
		{"no key", req{method: "GET", path: base}, 401, errBody(401, "Unauthenticated.")},
		{"another journal's own list", req{method: "GET", path: "/api/journals/" + other + "/entries?q=wedding", key: key}, 200,
			[]string{`"total":1`, `"body":"Another journal's wedding."`}},
	})
	// A rewrite is searched by its new text, not its old.
	if r := e.do(req{method: "PUT", path: base + "/2025/3/7", key: key, body: `{"body":"Cake tasting."}`}); r.code != 200 {
		t.Fatalf("rewrite: %d %s", r.code, r.body)
	}
	if got := strings.Join(list("q=WED"), " "); got != "2025-03-10" {
		t.Errorf("wed after the rewrite: %q", got)
	}
	if got := strings.Join(list("q=cake"), " "); got != "2025-03-07" {
		t.Errorf("cake after the rewrite: %q", got)
	}
	head := e.do(req{method: "HEAD", path: base + "?q=wed", key: key})
	if head.code != 200 || head.body != "" || !strings.HasPrefix(head.header.Get("Content-Type"), "application/json") {
		t.Errorf("HEAD: %d %q %q", head.code, head.header.Get("Content-Type"), head.body)
	}
}
