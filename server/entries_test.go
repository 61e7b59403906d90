package server

import (
	"fmt"
	"strings"
	"sync"
	"testing"
	"time"
)

func TestEntryByDate(t *testing.T) {
	e := newEnv(t)
	_, key := e.user("ada@example.com")
	_, bob := e.user("bob@example.com")
	journal := e.journal(key, "Diary")
	other := e.journal(key, "Other")
	bobs := e.journal(bob, "Bob's")
	base := "/api/journals/" + journal + "/"
	get := func(path string) req { return req{method: "GET", path: path, key: key} }
	now := fmt.Sprint(e.clock.Now().Unix())
	noEntry := errBody(404, "Entry not found.")
	noJournal := errBody(404, "Journal not found.")
	e.run(t, []scenario{
		{"the first request makes the entry", get(base + "2025/3/7"), 201,
			[]string{`"object":"entry"`, `"day":7,"month":3,"year":2025`, `"created_at":` + now, `"updated_at":` + now}},
		{"later ones find it", get(base + "2025/3/7"), 200, []string{`"day":7,"month":3,"year":2025`}},
		{"leading zeros name the same date", get(base + "2025/03/07"), 200, []string{`"day":7,"month":3,"year":2025`}},
		{"and so does the entries path", get(base + "entries/0002025/3/007"), 200, []string{`"day":7,"month":3,"year":2025`}},
		{"the entries path makes one too", get(base + "entries/2024/2/29"), 201, []string{`"day":29,"month":2,"year":2024`}},
		{"the first year", get(base + "1/1/1"), 201, []string{`"day":1,"month":1,"year":1`}},
		{"the last day", get(base + "9999/12/31"), 201, []string{`"day":31,"month":12,"year":9999`}},
		{"another journal has its own entry for a date", get("/api/journals/" + other + "/2025/3/7"), 201, nil},
		{"February 30th", get(base + "2025/02/30"), 404, noEntry},
		{"February 29th of a common year", get(base + "2023/02/29"), 404, noEntry},
		{"April 31st", get(base + "2025/4/31"), 404, noEntry},
		{"month 13", get(base + "2025/13/01"), 404, noEntry},
		{"month 0", get(base + "2025/0/1"), 404, noEntry},
		{"day 0", get(base + "2025/1/0"), 404, noEntry},
		{"day 32", get(base + "2025/1/32"), 404, noEntry},
		{"year 0", get(base + "0/1/1"), 404, noEntry},
		{"year 10000", get(base + "10000/1/1"), 404, noEntry},
		{"a year that is not a number", get(base + "x/1/1"), 404, noEntry},
		{"a signed year", get(base + "+2025/1/1"), 404, noEntry},
		{"a negative day", get(base + "2025/1/-1"), 404, noEntry},
		{"a decimal month", get(base + "2025/1.0/1"), 404, noEntry},
		{"a huge year", get(base + "99999999999999999999999/1/1"), 404, noEntry},
		{"an escaped space", get(base + "2025/%201/1"), 404, noEntry},
		{"entries as the year on the short path", get(base + "entries/1/1"), 404, noEntry},
		{"another account's journal", get("/api/journals/" + bobs + "/2025/3/7"), 404, noJournal},
		{"another account's journal with a bad date is still the journal's 404", get("/api/journals/" + bobs + "/2025/2/30"), 404, noJournal},
		{"a missing journal", get("/api/journals/999/entries/2025/3/7"), 404, noJournal},
		{"a journal id that is not a number", get("/api/journals/x/2025/3/7"), 404, noJournal},
		{"a journal id that is not a number with a bad date", get("/api/journals/x/2025/13/7"), 404, noJournal},
		{"no key", req{method: "GET", path: base + "2025/3/7"}, 401, errBody(401, "Unauthenticated.")},
		{"another method", req{method: "POST", path: base + "2025/3/7", key: key}, 405, nil},
		{"another method on the entries path", req{method: "DELETE", path: base + "entries/2025/3/7", key: key}, 405, nil},
	})
	r := e.do(get(base + "2025/3/7"))
	keysOf(t, r.json(t)["data"], "id", "object", "day", "month", "year", "body", "created_at", "updated_at")
	if n := e.count(`SELECT count(*) FROM journal_entries`); n != 5 {
		t.Errorf("%d entries, want the 5 that got 201", n)
	}
	if n := e.count(`SELECT count(*) FROM journal_entries WHERE journal_id = ?`, bobs); n != 0 {
		t.Errorf("Bob's journal got %d entries", n)
	}

	// Entries go with their journal, and only then.
	e.clock.Advance(time.Hour)
	if r := e.do(req{method: "PUT", path: "/api/journals/" + journal + "?name=Renamed", key: key}); r.code != 200 {
		t.Fatalf("rename: %d %s", r.code, r.body)
	}
	if r := e.do(get(base + "2025/3/7")); r.code != 200 || !strings.Contains(r.body, `"created_at":`+now) {
		t.Errorf("a rename changed the entry: %d %s", r.code, r.body)
	}
	if r := e.do(req{method: "DELETE", path: "/api/journals/" + journal, key: key}); r.code != 204 {
		t.Fatalf("delete: %d %s", r.code, r.body)
	}
	if n := e.count(`SELECT count(*) FROM journal_entries`); n != 1 {
		t.Errorf("%d entries after the delete, want the other journal's 1", n)
	}
	e.run(t, []scenario{
		{"a deleted journal's date", get(base + "2025/3/7"), 404, noJournal},
	})
}

// TestEntryByDateRace sends many first requests for one date at once: one
// makes the entry, the others find it, and there is one row.
func TestEntryByDateRace(t *testing.T) {
	e := newEnv(t)
	_, key := e.user("ada@example.com")
	path := "/api/journals/" + e.journal(key, "Diary") + "/2026/3/15"
	const n = 16
	codes := make([]int, n)
	ids := make([]string, n)
	var wg sync.WaitGroup
	for i := range n {
		wg.Add(1)
		go func() {
			defer wg.Done()
			r := e.do(req{method: "GET", path: path, key: key})
			codes[i] = r.code
			if r.code < 300 {
				ids[i] = fmt.Sprint(r.json(t)["data"].(map[string]any)["id"])
			}
		}()
	}
	wg.Wait()
	created := 0
	for i, c := range codes {
		if c == 201 {
			created++
		} else if c != 200 {
			t.Errorf("request %d: %d", i, c)
		}
		if ids[i] != ids[0] {
			t.Errorf("request %d got entry %s, request 0 entry %s", i, ids[i], ids[0])
		}
	}
	if created != 1 {
		t.Errorf("%d requests made the entry, want 1: %v", created, codes)
	}
	if rows := e.count(`SELECT count(*) FROM journal_entries`); rows != 1 {
		t.Errorf("%d entries, want 1", rows)
	}
}

// TestHeadMakesNoEntry: a HEAD, as a link checker or a prefetch sends it,
// is refused on both entry paths and makes no entry and no log entry.
func TestHeadMakesNoEntry(t *testing.T) {
	e := newEnv(t)
	_, key := e.user("ada@example.com")
	journal := e.journal(key, "Diary")
	_, logged := e.logsOf(key)
	for _, path := range []string{"/api/journals/" + journal + "/2040/4/4", "/api/journals/" + journal + "/entries/2040/4/4"} {
		r := e.do(req{method: "HEAD", path: path, key: key})
		if r.code != 405 || strings.Contains(r.header.Get("Allow"), "HEAD") || !strings.Contains(r.header.Get("Allow"), "GET") {
			t.Errorf("HEAD %s: %d, Allow %q", path, r.code, r.header.Get("Allow"))
		}
	}
	if n := e.count(`SELECT count(*) FROM journal_entries`); n != 0 {
		t.Errorf("HEAD made %d entries", n)
	}
	if _, total := e.logsOf(key); total != logged {
		t.Errorf("HEAD logged: %d entries, want %d", total, logged)
	}
	if r := e.do(req{method: "GET", path: "/api/journals/" + journal + "/2040/4/4", key: key}); r.code != 201 {
		t.Errorf("the GET after the HEADs: %d, want 201 (made now)", r.code)
	}
}
