package server

import (
	"bytes"
	"fmt"
	"net/http"
	"net/http/httptest"
	"regexp"
	"strings"
	"testing"
	"time"
	"unicode/utf8"

	goical "github.com/emersion/go-ical"

	"kith/rate"
	"kith/store/storetest"
)

// The feed is read back with github.com/emersion/go-ical, a test
// dependency only: the feed is written by server/ical, which shares no
// code with it.

var feedURL = regexp.MustCompile(`^http://example\.com(/ical/[A-Z2-7]{52}\.ics)$`)

// feed makes (or replaces) the user's feed and returns its path.
func (e *env) feed(key string) string {
	e.t.Helper()
	r := e.do(req{method: "POST", path: "/api/me/calendar-feed", key: key})
	if r.code != 201 {
		e.t.Fatalf("create feed: %d %s", r.code, r.body)
	}
	u, _ := r.json(e.t)["data"].(map[string]any)["url"].(string)
	m := feedURL.FindStringSubmatch(u)
	if m == nil {
		e.t.Fatalf("feed url %q is not <base>/ical/<secret>.ics", u)
	}
	return m[1]
}

// ics fetches a feed without a key, with the headers given.
func (e *env) ics(path string, header map[string]string) resp {
	e.t.Helper()
	return e.do(req{method: "GET", path: path, header: header})
}

// parseFeed checks a 200 feed answer's headers and raw text, then parses
// it and returns its events by UID.
func parseFeed(t *testing.T, r resp) map[string]goical.Event {
	t.Helper()
	if r.code != 200 {
		t.Fatalf("feed: %d %s", r.code, r.body)
	}
	if ct := r.header.Get("Content-Type"); ct != "text/calendar; charset=utf-8" {
		t.Errorf("Content-Type %q", ct)
	}
	if cc := r.header.Get("Cache-Control"); cc != "private, no-cache" {
		t.Errorf("Cache-Control %q", cc)
	}
	if !regexp.MustCompile(`^"[0-9a-f]{32}"$`).MatchString(r.header.Get("ETag")) {
		t.Errorf("ETag %q is not a strong tag", r.header.Get("ETag"))
	}
	if _, err := http.ParseTime(r.header.Get("Last-Modified")); err != nil {
		t.Errorf("Last-Modified %q: %v", r.header.Get("Last-Modified"), err)
	}
	body := r.body
	if !strings.HasSuffix(body, "\r\n") {
		t.Errorf("the feed does not end in CRLF")
	}
	for i, l := range strings.Split(strings.TrimSuffix(body, "\r\n"), "\r\n") {
		if strings.ContainsAny(l, "\r\n") || len(l) > 75 || !utf8.ValidString(l) {
			t.Errorf("line %d: bare CR/LF, over 75 octets (%d) or split UTF-8: %q", i+1, len(l), l)
		}
	}
	cal, err := goical.NewDecoder(strings.NewReader(body)).Decode()
	if err != nil {
		t.Fatalf("go-ical refuses the feed: %v\n%s", err, body)
	}
	for name, want := range map[string]string{"VERSION": "2.0", "PRODID": "-//Kith//Calendar feed//EN", "X-WR-CALNAME": "Kith"} {
		if got, _ := cal.Props.Text(name); got != want {
			t.Errorf("%s %q, want %q", name, got, want)
		}
	}
	events := map[string]goical.Event{}
	for _, ev := range cal.Events() {
		uid, _ := ev.Props.Text("UID")
		if _, dup := events[uid]; dup {
			t.Errorf("UID %s twice", uid)
		}
		events[uid] = ev
	}
	return events
}

// wantEvent is what one event of the feed must say.
type wantEvent struct {
	summary, description, start, rrule string
	stamp                              int64
}

func checkEvent(t *testing.T, events map[string]goical.Event, uid string, w wantEvent) {
	t.Helper()
	ev, ok := events[uid]
	if !ok {
		t.Errorf("no event %s among %d", uid, len(events))
		return
	}
	if got, err := ev.Props.Text("SUMMARY"); err != nil || got != w.summary {
		t.Errorf("%s: SUMMARY %q (%v), want %q", uid, got, err, w.summary)
	}
	got, _ := ev.Props.Text("DESCRIPTION")
	if got != w.description {
		t.Errorf("%s: DESCRIPTION %q, want %q", uid, got, w.description)
	}
	start := ev.Props.Get("DTSTART")
	if start == nil || start.Value != w.start || start.Params.Get("VALUE") != "DATE" {
		t.Errorf("%s: DTSTART %+v, want the DATE %s", uid, start, w.start)
	}
	end := ev.Props.Get("DTEND")
	if s, err := time.Parse("20060102", w.start); err != nil || end == nil || end.Value != s.AddDate(0, 0, 1).Format("20060102") ||
		end.Params.Get("VALUE") != "DATE" {
		t.Errorf("%s: DTEND %+v, want the next day of %s", uid, end, w.start)
	}
	rule := ""
	if p := ev.Props.Get("RRULE"); p != nil {
		rule = p.Value
	}
	if rule != w.rrule {
		t.Errorf("%s: RRULE %q, want %q", uid, rule, w.rrule)
	}
	if stamp, err := ev.Props.DateTime("DTSTAMP", time.UTC); err != nil || stamp.Unix() != w.stamp {
		t.Errorf("%s: DTSTAMP %v (%v), want %v", uid, stamp, err, time.Unix(w.stamp, 0).UTC())
	}
}

func TestCalendarFeedCreateRotateRevoke(t *testing.T) {
	e := newEnv(t)
	_, key := e.user("ada@example.com")
	created := fmt.Sprint(e.clock.Now().Unix())
	notFound := errBody(404, "Calendar feed not found.")
	me := func(method string) req { return req{method: method, path: "/api/me/calendar-feed", key: key} }
	e.run(t, []scenario{
		{"no feed yet: GET is 404", me("GET"), 404, notFound},
		{"no feed yet: DELETE is 404", me("DELETE"), 404, notFound},
		{"without a key", req{method: "POST", path: "/api/me/calendar-feed"}, 401, errBody(401, "Unauthenticated.")},
		{"with a revoked key", req{method: "GET", path: "/api/me/calendar-feed", key: "1|" + strings.Repeat("A", 52)}, 401, nil},
	})

	r := e.do(me("POST"))
	data := keysOf(t, r.json(t)["data"], "object", "url", "created_at")
	if r.code != 201 || data["object"] != "calendar_feed" || fmt.Sprint(int64(data["created_at"].(float64))) != created ||
		!feedURL.MatchString(data["url"].(string)) {
		t.Fatalf("create: %d %s", r.code, r.body)
	}
	first := feedURL.FindStringSubmatch(data["url"].(string))[1]
	e.run(t, []scenario{
		{"GET says there is one, without its URL", me("GET"), 200, []string{`{"data":{"object":"calendar_feed","url":null,"created_at":` + created + `}}`}},
		{"HEAD too", req{method: "HEAD", path: "/api/me/calendar-feed", key: key}, 200, nil},
	})
	if r := e.ics(first, nil); r.code != 200 || !strings.HasPrefix(r.body, "BEGIN:VCALENDAR\r\n") {
		t.Fatalf("the new feed without a key: %d %s", r.code, r.body)
	}

	e.clock.Advance(time.Hour)
	second := e.feed(key)
	if second == first {
		t.Fatal("rotating kept the secret")
	}
	rotated := fmt.Sprint(e.clock.Now().Unix())
	e.run(t, []scenario{
		{"the old URL is void", req{method: "GET", path: first}, 404, notFound},
		{"the new one works", req{method: "GET", path: second}, 200, []string{"BEGIN:VCALENDAR"}},
		{"created_at is the new URL's", me("GET"), 200, []string{`"created_at":` + rotated}},
		{"revoke", me("DELETE"), 204, nil},
		{"the URL is void", req{method: "GET", path: second}, 404, notFound},
		{"HEAD of it too", req{method: "HEAD", path: second}, 404, nil},
		{"no feed any more", me("GET"), 404, notFound},
		{"revoking again is 404", me("DELETE"), 404, notFound},
	})
	third := e.feed(key)
	if r := e.ics(third, nil); r.code != 200 || third == first || third == second {
		t.Errorf("a feed after a revocation: %d, or an old secret", r.code)
	}
	logs, _ := e.logsOf(key)
	var actions []string
	for _, l := range logs[:4] {
		actions = append(actions, l["attributes"].(map[string]any)["action"].(string))
	}
	if want := "calendar_feed_creation calendar_feed_deletion calendar_feed_rotation calendar_feed_creation"; strings.Join(actions, " ") != want {
		t.Errorf("log actions %v, want %s (newest first)", actions, want)
	}
}

func TestCalendarFeedNeedsAVerifiedUser(t *testing.T) {
	e := newEnv(t)
	_, key := e.user("ada@example.com")
	path := e.feed(key)
	e.changeEmail(key, "new@example.com") // unverified until the link is opened
	e.run(t, []scenario{
		{"an unverified user cannot make one", req{method: "POST", path: "/api/me/calendar-feed", key: key}, 403, nil},
		{"nor revoke one", req{method: "DELETE", path: "/api/me/calendar-feed", key: key}, 403, nil},
		{"the feed made before still answers", req{method: "GET", path: path}, 200, []string{"BEGIN:VCALENDAR"}},
	})
}

func TestCalendarFeedMalformedIsNotFound(t *testing.T) {
	e := newEnv(t)
	_, key := e.user("ada@example.com")
	path := e.feed(key)
	secret := strings.TrimSuffix(strings.TrimPrefix(path, "/ical/"), ".ics")
	if r := e.ics(path, nil); r.code != 200 {
		t.Fatalf("%d", r.code)
	}
	before := e.count(`SELECT changed_at FROM calendar_feeds`)
	notFound := errBody(404, "Calendar feed not found.")
	e.run(t, []scenario{
		{"no .ics", req{method: "GET", path: "/ical/" + secret}, 404, notFound},
		{"another suffix", req{method: "GET", path: "/ical/" + secret + ".ICS"}, 404, notFound},
		{"lower case", req{method: "GET", path: "/ical/" + strings.ToLower(secret) + ".ics"}, 404, notFound},
		{"one character short", req{method: "GET", path: "/ical/" + secret[1:] + ".ics"}, 404, notFound},
		{"one too many", req{method: "GET", path: "/ical/" + secret + "A.ics"}, 404, notFound},
		{"a character outside base32", req{method: "GET", path: "/ical/" + "1" + secret[1:] + ".ics"}, 404, notFound},
		{"a well-formed unknown secret", req{method: "GET", path: "/ical/" + strings.Repeat("A", 52) + ".ics"}, 404, notFound},
		{"empty", req{method: "GET", path: "/ical/.ics"}, 404, notFound},
		{"nothing", req{method: "GET", path: "/ical/"}, 404, errBody(404, "Not found.")},
		{"a segment more", req{method: "GET", path: path + "/x"}, 404, errBody(404, "Not found.")},
		{"POST is not a method of it", req{method: "POST", path: path}, 405, nil},
		{"a key does not change it", req{method: "GET", path: "/ical/" + strings.Repeat("B", 52) + ".ics", key: key}, 404, notFound},
	})
	if after := e.count(`SELECT changed_at FROM calendar_feeds`); after != before {
		t.Errorf("requests for no feed wrote to the feed: changed_at %d → %d", before, after)
	}
}

// TestCalendarFeedEvents fills an account with every kind of row the feed
// shows, and some it must not, and reads each event back.
func TestCalendarFeedEvents(t *testing.T) {
	e := newEnv(t)
	ada, key := e.user("ada@example.com")
	_, teammate := e.userIn(ada.AccountID, "grace@example.com")
	_, bob := e.user("bob@example.com")
	if r := e.do(req{method: "PUT", path: "/api/me/timezone?timezone=Pacific/Auckland", key: key}); r.code != 200 {
		t.Fatal(r.body)
	}
	post := func(path, body string) map[string]any {
		t.Helper()
		r := e.do(req{method: "POST", path: path, key: key, body: body})
		if r.code != 201 {
			t.Fatalf("POST %s: %d %s", path, r.code, r.body)
		}
		return r.json(t)["data"].(map[string]any)
	}
	age := func(person, q string) {
		t.Helper()
		if r := e.do(req{method: "PATCH", path: "/api/persons/" + person + "/age?" + q, key: key}); r.code != 200 {
			t.Fatalf("age: %d %s", r.code, r.body)
		}
	}
	updated := func(table, id string) int64 {
		return int64(e.count(`SELECT updated_at FROM `+table+` WHERE id = ?`, id))
	}

	jimName := `Jim, "Big Tuna"; Hal\pert 🐟`
	jim := fmt.Sprint(post("/api/persons", `{"first_name":"Jim, \"Big Tuna\";","last_name":"Hal\\pert 🐟"}`)["id"])
	age(jim, "age_type=exact&age_year=1978&age_month=10&age_day=1&add_yearly_reminder=0")
	pam := e.person(key, "first_name=Pam")
	age(pam, "age_type=exact&age_year=1996&age_month=2&age_day=29&add_yearly_reminder=1")
	yearOnly := e.person(key, "first_name=Year&last_name=Only")
	age(yearOnly, "age_type=exact&age_year=1980&add_yearly_reminder=1")
	noDay := e.person(key, "first_name=No&last_name=Day")
	age(noDay, "age_type=exact&age_year=1980&age_month=5&add_yearly_reminder=1")
	guessed := e.person(key, "first_name=Guessed")
	age(guessed, "age_type=estimated&estimated_age=40&add_yearly_reminder=1")

	comment := strings.Repeat("Tea, cake; a toast \\ 🥂 ", 8) + "and dance, twice" // 200 characters
	if n := utf8.RuneCountInString(comment); n != 200 {
		t.Fatalf("the comment has %d characters", n)
	}
	wedding := fmt.Sprint(post("/api/persons/"+jim+"/life-events", `{"description":"Wedding, at last; 💍","happened_at":"2009-10-03T10:00:00Z",
		"should_be_reminded":true,"comment":"`+strings.ReplaceAll(comment, `\`, `\\`)+`"}`)["id"])
	old := fmt.Sprint(post("/api/persons/"+pam+"/life-events", `{"description":"Great-grandmother arrived","happened_at":"1850-06-30T13:00:00Z","should_be_reminded":true}`)["id"])
	// 13:00 UTC on 30 June is 1 July in Auckland (then at +11:39).
	e.lifeEvent(key, jim, "description=Not+reminded&happened_at=2010-01-01")

	due := fmt.Sprint(post("/api/persons/"+jim+"/tasks", `{"name":"Buy a gift, wrap it; sign \\ card 🎁","due_at":"2026-03-20T20:00:00Z"}`)["id"])
	e.task(key, pam, "name=No+due+date")
	done := e.task(key, pam, "name=Done&due_at=2026-04-01")
	if r := e.do(req{method: "PUT", path: "/api/tasks/" + done + "/toggle", key: key}); r.code != 200 {
		t.Fatal(r.body)
	}
	// A line break no API field takes today, as a copied or older database
	// may hold: the writer escapes whatever the database has.
	lines := e.task(key, pam, "name=x&due_at=2026-05-01")
	storetest.Exec(t, e.where, `UPDATE tasks SET name = ? WHERE id = ?`, "two\nlines", lines)
	anniversary := e.importantDate(key, jim, "label=Anniversary%2C+with+Pam%3B+%F0%9F%8E%89&date=2009-10-03&remind_yearly=1")
	nameDay := e.importantDate(key, pam, "label=Name+day&date=--12-24&remind_yearly=1")
	e.importantDate(key, pam, "label=Not+reminded&date=--07-01")
	e.person(bob, "first_name=Bob's+friend")
	bobP := e.person(bob, "first_name=Bobby")
	e.task(bob, bobP, "name=Bob's+task&due_at=2026-03-20")

	path := e.feed(key)
	events := parseFeed(t, e.ics(path, nil))
	host := "@example.com"
	if len(events) != 8 {
		t.Errorf("%d events, want 8: 2 birthdays, 2 life events, 2 important dates, 2 tasks", len(events))
	}
	checkEvent(t, events, "date-"+anniversary+host, wantEvent{summary: "Anniversary, with Pam; 🎉 (" + jimName + ")", start: "20091003",
		rrule: "FREQ=YEARLY", stamp: updated("important_dates", anniversary)})
	// A year unknown starts in 2000.
	checkEvent(t, events, "date-"+nameDay+host, wantEvent{summary: "Name day (Pam)", start: "20001224",
		rrule: "FREQ=YEARLY", stamp: updated("important_dates", nameDay)})
	checkEvent(t, events, "birthday-"+jim+host, wantEvent{summary: "Birthday of " + jimName, start: "19781001", rrule: "FREQ=YEARLY",
		stamp: updated("persons", jim)})
	checkEvent(t, events, "birthday-"+pam+host, wantEvent{summary: "Birthday of Pam", start: "19960229",
		rrule: "FREQ=YEARLY;BYMONTH=2;BYMONTHDAY=-1", stamp: updated("persons", pam)})
	checkEvent(t, events, "life-event-"+wedding+host, wantEvent{summary: "Wedding, at last; 💍 (" + jimName + ")", description: comment,
		start: "20091003", rrule: "FREQ=YEARLY", stamp: updated("life_events", wedding)})
	checkEvent(t, events, "life-event-"+old+host, wantEvent{summary: "Great-grandmother arrived (Pam)", start: "20000701",
		rrule: "FREQ=YEARLY", stamp: updated("life_events", old)})
	checkEvent(t, events, "task-"+due+host, wantEvent{summary: "Buy a gift, wrap it; sign \\ card 🎁 (" + jimName + ")",
		start: "20260321", stamp: updated("tasks", due)})
	checkEvent(t, events, "task-"+lines+host, wantEvent{summary: "two\nlines (Pam)", start: "20260501", stamp: updated("tasks", lines)})

	// Pam's birthday falls on 28 February in common years.
	pamsBirthday := events["birthday-"+pam+host]
	rs, err := pamsBirthday.RecurrenceSet(time.UTC)
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, d := range rs.Between(time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC), time.Date(2029, 1, 1, 0, 0, 0, 0, time.UTC), true) {
		got = append(got, d.Format(time.DateOnly))
	}
	if strings.Join(got, " ") != "2026-02-28 2027-02-28 2028-02-29" {
		t.Errorf("Pam's birthdays 2026-2028: %v", got)
	}

	t.Run("UIDs and events are stable across fetches and unrelated edits", func(t *testing.T) {
		again := parseFeed(t, e.ics(path, nil))
		e.clock.Advance(time.Minute)
		if r := e.do(req{method: "PUT", path: "/api/persons/" + pam, key: key, body: `{"first_name":"Pamela"}`}); r.code != 200 {
			t.Fatal(r.body)
		}
		edited := parseFeed(t, e.ics(path, nil))
		for uid, ev := range events {
			for _, other := range []map[string]goical.Event{again, edited} {
				o, ok := other[uid]
				if !ok {
					t.Errorf("%s is gone", uid)
					continue
				}
				if strings.Contains(uid, "-"+pam+"@") || uid == "life-event-"+old+host || uid == "task-"+lines+host {
					continue // Pam's own events changed with her name
				}
				a, _ := ev.Props.Text("SUMMARY")
				b, _ := o.Props.Text("SUMMARY")
				if a != b || ev.Props.Get("DTSTAMP").Value != o.Props.Get("DTSTAMP").Value {
					t.Errorf("%s changed: %q → %q", uid, a, b)
				}
			}
		}
		if s, _ := edited["birthday-"+pam+host].Props.Text("SUMMARY"); s != "Birthday of Pamela" {
			t.Errorf("the renamed person's birthday: %q", s)
		}
	})
	t.Run("a teammate's feed shows the account's persons", func(t *testing.T) {
		theirs := parseFeed(t, e.ics(e.feed(teammate), nil))
		if len(theirs) != 8 {
			t.Errorf("%d events in a teammate's feed", len(theirs))
		}
		// The teammate's zone is UTC: the task falls on its UTC date.
		checkEvent(t, theirs, "task-"+due+host, wantEvent{summary: "Buy a gift, wrap it; sign \\ card 🎁 (" + jimName + ")",
			start: "20260320", stamp: updated("tasks", due)})
	})
	t.Run("another account's feed shows only its own", func(t *testing.T) {
		r := e.ics(e.feed(bob), nil)
		theirs := parseFeed(t, r)
		if len(theirs) != 1 || strings.Contains(r.body, "Jim") || strings.Contains(r.body, "Pam") {
			t.Errorf("Bob's feed: %s", r.body)
		}
		for uid := range theirs {
			if !strings.HasPrefix(uid, "task-") {
				t.Errorf("Bob's feed has %s", uid)
			}
		}
	})
	t.Run("completing a task takes it out", func(t *testing.T) {
		if r := e.do(req{method: "PUT", path: "/api/tasks/" + due + "/toggle", key: key}); r.code != 200 {
			t.Fatal(r.body)
		}
		if _, ok := parseFeed(t, e.ics(path, nil))["task-"+due+host]; ok {
			t.Error("a completed task is still in the feed")
		}
	})
	t.Run("a date given alone is that date west of Greenwich too", func(t *testing.T) {
		e2 := newEnv(t)
		_, k := e2.user("ada@example.com")
		e2.timezone(k, "America/New_York")
		p := e2.person(k, "first_name=Jim")
		byDate := e2.task(k, p, "name=By+date&due_at=2026-03-20")
		atNight := e2.task(k, p, "name=At+night&due_at=2026-03-20T02:00:00Z") // 22:00 on the 19th in New York
		evs := parseFeed(t, e2.ics(e2.feed(k), nil))
		checkEvent(t, evs, "task-"+byDate+host, wantEvent{summary: "By date (Jim)", start: "20260320", stamp: int64(e2.count(`SELECT updated_at FROM tasks WHERE id = ?`, byDate))})
		checkEvent(t, evs, "task-"+atNight+host, wantEvent{summary: "At night (Jim)", start: "20260319", stamp: int64(e2.count(`SELECT updated_at FROM tasks WHERE id = ?`, atNight))})
	})
	t.Run("UIDs end in the configured base URL's host", func(t *testing.T) {
		e2 := newEnv(t, func(o *Options) { o.BaseURL = "https://kith.example.org" })
		_, k := e2.user("ada@example.com")
		p := e2.person(k, "first_name=Jim")
		e2.task(k, p, "name=Call&due_at=2026-03-20")
		r := e2.do(req{method: "POST", path: "/api/me/calendar-feed", key: k})
		u := r.json(t)["data"].(map[string]any)["url"].(string)
		if !strings.HasPrefix(u, "https://kith.example.org/ical/") {
			t.Fatalf("url %q", u)
		}
		evs := parseFeed(t, e2.ics(strings.TrimPrefix(u, "https://kith.example.org"), nil))
		if len(evs) != 1 {
			t.Errorf("%d events, want 1", len(evs))
		}
		for uid := range evs {
			if !regexp.MustCompile(`^task-[0-9]+@kith\.example\.org$`).MatchString(uid) {
				t.Errorf("UID %s", uid)
			}
		}
	})
}

func TestCalendarFeedConditional(t *testing.T) {
	e := newEnv(t)
	_, key := e.user("ada@example.com")
	jim := e.person(key, "first_name=Jim")
	task := e.task(key, jim, "name=Call&due_at=2026-03-20")
	path := e.feed(key)

	e.clock.Advance(time.Minute)
	first := e.ics(path, nil)
	parseFeed(t, first)
	etag, modified := first.header.Get("ETag"), first.header.Get("Last-Modified")
	if modified != e.clock.Now().UTC().Format(http.TimeFormat) {
		t.Errorf("Last-Modified %s on the first fetch, want now", modified)
	}
	e.clock.Advance(time.Minute)
	second := e.ics(path, nil)
	if second.body != first.body || second.header.Get("ETag") != etag || second.header.Get("Last-Modified") != modified {
		t.Errorf("an unchanged feed changed: %s %s", second.header.Get("ETag"), second.header.Get("Last-Modified"))
	}
	earlier := e.clock.Now().Add(-3 * time.Minute).UTC().Format(http.TimeFormat)
	notModified := func(name string, header map[string]string, want int) {
		t.Helper()
		for _, method := range []string{"GET", "HEAD"} {
			r := e.do(req{method: method, path: path, header: header})
			if r.code != want {
				t.Errorf("%s, %s: %d, want %d", name, method, r.code, want)
			}
			if r.header.Get("ETag") != etag || r.header.Get("Last-Modified") != modified {
				t.Errorf("%s, %s: ETag %s, Last-Modified %s", name, method, r.header.Get("ETag"), r.header.Get("Last-Modified"))
			}
			if want == 304 && r.body != "" || want == 200 && method == "GET" && r.body != first.body {
				t.Errorf("%s, %s: body %q", name, method, r.body)
			}
			if method == "HEAD" && want == 200 && r.header.Get("Content-Length") != fmt.Sprint(len(first.body)) {
				t.Errorf("%s, HEAD: Content-Length %q, want %d", name, r.header.Get("Content-Length"), len(first.body))
			}
		}
	}
	notModified("If-None-Match the ETag", map[string]string{"If-None-Match": etag}, 304)
	notModified("If-None-Match among others", map[string]string{"If-None-Match": `"nope", ` + etag}, 304)
	notModified("If-None-Match weak", map[string]string{"If-None-Match": "W/" + etag}, 304)
	notModified("If-None-Match *", map[string]string{"If-None-Match": "*"}, 304)
	notModified("If-None-Match another", map[string]string{"If-None-Match": `"0123"`}, 200)
	notModified("If-Modified-Since Last-Modified", map[string]string{"If-Modified-Since": modified}, 304)
	notModified("If-Modified-Since later", map[string]string{"If-Modified-Since": e.clock.Now().UTC().Format(http.TimeFormat)}, 304)
	notModified("If-Modified-Since earlier", map[string]string{"If-Modified-Since": earlier}, 200)
	notModified("If-Modified-Since unreadable", map[string]string{"If-Modified-Since": "yesterday"}, 200)
	notModified("If-None-Match wins over If-Modified-Since", map[string]string{"If-None-Match": `"0123"`, "If-Modified-Since": modified}, 200)
	notModified("no condition", nil, 200)

	t.Run("an edit changes the ETag and moves Last-Modified on", func(t *testing.T) {
		e.clock.Advance(time.Hour)
		if r := e.do(req{method: "PUT", path: "/api/persons/" + jim + "/tasks/" + task, key: key, body: `{"name":"Call back","due_at":"2026-03-20"}`}); r.code != 200 {
			t.Fatal(r.body)
		}
		r := e.ics(path, map[string]string{"If-None-Match": etag})
		if r.code != 200 || r.header.Get("ETag") == etag || r.header.Get("Last-Modified") != e.clock.Now().UTC().Format(http.TimeFormat) {
			t.Fatalf("after an edit: %d %s %s", r.code, r.header.Get("ETag"), r.header.Get("Last-Modified"))
		}
		etag, modified = r.header.Get("ETag"), r.header.Get("Last-Modified")
	})
	t.Run("so does a deletion, which no updated_at shows", func(t *testing.T) {
		e.clock.Advance(time.Hour)
		if r := e.do(req{method: "DELETE", path: "/api/persons/" + jim + "/tasks/" + task, key: key}); r.code != 204 {
			t.Fatal(r.body)
		}
		r := e.ics(path, map[string]string{"If-Modified-Since": modified})
		if r.code != 200 || r.header.Get("ETag") == etag || strings.Contains(r.body, "VEVENT") {
			t.Fatalf("after a deletion: %d %s\n%s", r.code, r.header.Get("ETag"), r.body)
		}
		if got := r.header.Get("Last-Modified"); got != e.clock.Now().UTC().Format(http.TimeFormat) {
			t.Errorf("Last-Modified %s after a deletion, want now", got)
		}
		etag, modified = r.header.Get("ETag"), r.header.Get("Last-Modified")
		if r := e.ics(path, map[string]string{"If-Modified-Since": modified}); r.code != 304 {
			t.Errorf("then unchanged: %d", r.code)
		}
	})
	t.Run("two changes within one second still move Last-Modified on", func(t *testing.T) {
		e.clock.Advance(time.Hour)
		e.task(key, jim, "name=One&due_at=2026-03-21")
		one := e.ics(path, nil)
		e.task(key, jim, "name=Two&due_at=2026-03-22") // the same second
		if r := e.ics(path, map[string]string{"If-Modified-Since": one.header.Get("Last-Modified")}); r.code != 200 {
			t.Errorf("a client holding the first body was told it is current: %d", r.code)
		}
		// The second change's time is a second ahead; the header never is.
		if r := e.ics(path, nil); r.header.Get("Last-Modified") != e.clock.Now().UTC().Format(http.TimeFormat) {
			t.Errorf("Last-Modified %s, now is %s", r.header.Get("Last-Modified"), e.clock.Now().UTC().Format(http.TimeFormat))
		}
		e.clock.Advance(2 * time.Second)
		last := e.ics(path, nil)
		if r := e.ics(path, map[string]string{"If-Modified-Since": last.header.Get("Last-Modified")}); r.code != 304 {
			t.Errorf("once the clock passed it: %d", r.code)
		}
	})
	t.Run("an unchanged feed is read without a write", func(t *testing.T) {
		before := e.count(`SELECT changed_at FROM calendar_feeds`)
		e.clock.Advance(time.Hour)
		for i := 0; i < 3; i++ {
			e.ics(path, nil)
		}
		if after := e.count(`SELECT changed_at FROM calendar_feeds`); after != before {
			t.Errorf("changed_at moved from %d to %d with nothing changed", before, after)
		}
	})
}

func TestCalendarFeedRateLimitedPerAddress(t *testing.T) {
	e := newEnv(t, func(o *Options) { o.Limiter = rate.New(5) })
	_, key := e.user("ada@example.com")
	path := e.feed(key)
	codes := map[int]int{}
	for range 8 {
		codes[e.do(req{method: "GET", path: path, remote: "192.0.2.7:1000"}).code]++
	}
	if codes[200] != 5 || codes[429] != 3 {
		t.Errorf("8 fetches from one address: %v, want 5 served and 3 refused", codes)
	}
	if r := e.do(req{method: "GET", path: path, remote: "192.0.2.8:1000"}); r.code != 200 {
		t.Errorf("another address: %d", r.code)
	}
	for range 6 {
		e.do(req{method: "GET", path: "/ical/" + strings.Repeat("A", 52) + ".ics", remote: "192.0.2.9:1000"})
	}
	if r := e.do(req{method: "GET", path: "/ical/" + strings.Repeat("C", 52) + ".ics", remote: "192.0.2.9:1000"}); r.code != 429 {
		t.Errorf("guessing secrets is not limited: %d", r.code)
	}
}

func TestCalendarFeedSecretIsNotLogged(t *testing.T) {
	e := newEnv(t)
	_, key := e.user("ada@example.com")
	path := e.feed(key)
	e.ics(path, nil)
	e.ics(path+"x", nil)
	secret := strings.TrimSuffix(strings.TrimPrefix(path, "/ical/"), ".ics")
	logs := e.logs.String()
	if strings.Contains(logs, secret) {
		t.Errorf("the log holds the feed's secret:\n%s", logs)
	}
	if strings.Count(logs, `"path":"/ical/…"`) != 2 {
		t.Errorf("the feed's requests are not logged as /ical/…:\n%s", logs)
	}
}

// BenchmarkCalendarFeed serves the feed of an account of 1,001 persons
// (newBenchData's first and 1,000 more), each with a birthday and a
// reminded life event, and 1,000 or 10,000 open tasks with a due date: the
// whole request, through the router and the database. "304" is the same
// request with If-Modified-Since, which reads and renders all the same,
// since the ETag is the body's hash.
func BenchmarkCalendarFeed(b *testing.B) {
	for _, tasks := range []int{1000, 10000} {
		b.Run(fmt.Sprintf("tasks=%d", tasks), func(b *testing.B) { benchFeed(b, 1000, tasks) })
	}
}

func benchFeed(b *testing.B, persons, tasks int) {
	bd := newBenchData(b, persons, tasks-50) // it makes 50 more for its first person
	storetest.Exec(b, bd.where, `UPDATE persons SET age_type = 'exact', age_year = 1950 + id % 50,
		age_month = 1 + id % 12, age_day = 1 + id % 28, yearly_reminder = 1`)
	storetest.Exec(b, bd.where, `INSERT INTO life_events (account_id, person_id, description, comment, happened_at,
		should_be_reminded, created_at, updated_at)
		SELECT account_id, id, 'Wedding, at last; 💍', 'In the barn, with everyone', 1254556800 + id * 86400, 1, created_at, updated_at
		FROM persons`)
	sess, err := bd.st.Authenticate(b.Context(), bd.key)
	if err != nil {
		b.Fatal(err)
	}
	_, secret, err := bd.st.CreateCalendarFeed(b.Context(), sess.UserID)
	if err != nil {
		b.Fatal(err)
	}
	path := "/ical/" + secret + ".ics"
	var body *bytes.Buffer
	serve := func(b *testing.B, header map[string]string, want int) {
		w := httptest.NewRecorder()
		bd.srv.ServeHTTP(w, req{method: "GET", path: path, header: header}.httpRequest())
		if w.Code != want {
			b.Fatalf("%d %s", w.Code, w.Body.String())
		}
		body = w.Body
	}
	serve(b, nil, 200)
	if n, want := bytes.Count(body.Bytes(), []byte("BEGIN:VEVENT")), 2*(persons+1)+tasks; n != want {
		b.Fatalf("%d events, want %d birthdays and life events and %d tasks", n, 2*(persons+1), tasks)
	}
	size := body.Len()
	b.Run("200", func(b *testing.B) {
		for b.Loop() {
			serve(b, nil, 200)
		}
		b.ReportMetric(float64(size), "bytes/feed")
	})
	b.Run("304", func(b *testing.B) {
		for b.Loop() {
			serve(b, map[string]string{"If-Modified-Since": bd.clock.Now().UTC().Format(http.TimeFormat)}, 304)
		}
	})
}

// TestCalendarFeedConcurrentFetches: fetches that all find a new body at
// once each record it or find it recorded; none fails, all agree.
func TestCalendarFeedConcurrentFetches(t *testing.T) {
	e := newEnv(t)
	_, key := e.user("ada@example.com")
	jim := e.person(key, "first_name=Jim")
	path := e.feed(key)
	for round := range 3 {
		e.task(key, jim, fmt.Sprintf("name=Call+%d&due_at=2026-03-2%d", round, round))
		answers := make(chan resp, 8)
		for range cap(answers) {
			go func() {
				rec := httptest.NewRecorder()
				e.srv.ServeHTTP(rec, req{method: "GET", path: path}.httpRequest())
				answers <- resp{code: rec.Code, header: rec.Result().Header, body: rec.Body.String()}
			}()
		}
		var first resp
		for i := range cap(answers) {
			r := <-answers
			if i == 0 {
				first = r
			}
			if r.code != 200 || r.header.Get("ETag") != first.header.Get("ETag") || r.body != first.body {
				t.Errorf("round %d: %d %s, and another %s", round, r.code, r.header.Get("ETag"), first.header.Get("ETag"))
			}
		}
		if n := strings.Count(first.body, "BEGIN:VEVENT"); n != round+1 {
			t.Errorf("round %d: %d events", round, n)
		}
	}
}
