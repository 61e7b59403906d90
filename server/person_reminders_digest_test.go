package server

import (
	"encoding/json"
	"strconv"
	"strings"
	"testing"
	"time"

	"kith/server/remind"
)

// upcomingTitles lists upcoming's items as "DATE KIND TITLE".
func (e *env) upcomingTitles(t *testing.T, key, query string) []string {
	t.Helper()
	r := e.do(req{method: "GET", path: "/api/reminders/upcoming?" + query, key: key})
	if r.code != 200 {
		t.Fatalf("upcoming: %d %s", r.code, r.body)
	}
	var body struct {
		Data []remind.Day `json:"data"`
	}
	if err := json.Unmarshal([]byte(r.body), &body); err != nil {
		t.Fatal(err)
	}
	var out []string
	for _, d := range body.Data {
		for _, it := range d.Items {
			out = append(out, d.Date+" "+it.Kind+" "+it.Title)
		}
	}
	return out
}

// TestRemindersUpcomingAndDashboard: each occurrence on its day, in the
// user's zone, never overdue; birthdays worded one way.
func TestRemindersUpcomingAndDashboard(t *testing.T) {
	e := newEnv(t)
	_, key := e.user("ada@example.com")
	e.timezone(key, "Pacific/Auckland")
	e.at(time.Date(2028, 1, 29, 12, 0, 0, 0, time.UTC)) // 30 January 2028, 01:00 in Auckland
	jim := e.person(key, "first_name=Jim")
	rent := e.reminder(key, jim, "label=Pay+rent&starts_on=2027-10-31&frequency=monthly")
	e.reminder(key, jim, "label=Yesterday&starts_on=2028-01-29&frequency=one_time") // gone by: never overdue
	e.reminder(key, jim, "label=Stretch&starts_on=2028-01-01&frequency=daily&every=2&until=2028-02-02")
	e.reminder(key, jim, "label=Leap&starts_on=2024-02-29&frequency=yearly")
	e.importantDate(key, jim, "label=Birthday&date=1990-02-01&remind_yearly=1")
	e.importantDate(key, jim, "label=birthday&date=--02-03&remind_yearly=1")
	e.importantDate(key, jim, "label=Birthday&date=--02-02") // not reminded yearly

	got := e.upcomingTitles(t, key, "days=31")
	want := []string{
		"2028-01-31 reminder Pay rent — Jim",
		"2028-01-31 reminder Stretch — Jim", // the 1st, 3rd, … 31st, 2 February, then until
		"2028-02-01 important_date Birthday of Jim (38)",
		"2028-02-02 reminder Stretch — Jim",
		"2028-02-03 important_date Birthday of Jim",
		"2028-02-29 reminder Pay rent — Jim", // the last day of a short month
		"2028-02-29 reminder Leap — Jim",
	}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("upcoming:\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
	body := e.do(req{method: "GET", path: "/api/reminders/upcoming?days=1", key: key}).body
	if !strings.Contains(body, `{"kind":"reminder","person_id":`+jim+`,"person":"Jim","title":"Pay rent — Jim","label":"Pay rent","reminder_id":`+rent+`}`) {
		t.Errorf("a reminder item is not as the contract has it: %s", body)
	}

	b := e.signIn(t, "ada@example.com")
	home := b.get("/")
	home.has(t, "Stretch — Jim", "Pay rent — Jim", "Birthday of Jim (38)", "Birthday of Jim</a>")
	home.lacks(t, "Yesterday — Jim", "Leap — Jim") // the 29th of February is past the dashboard's two weeks
	page := b.get("/people/" + jim)
	page.has(t, `id="reminders"`, "Pay rent", "every month from", "· next ", "Yesterday", "once, on ")
}

// TestOneTimeReminderSentOnce: a real pass delivers the day's digest to a
// webhook; the one_time reminder of the day is then sent, kept, and gone
// from upcoming and later digests. A delivery that fails sends nothing.
func TestOneTimeReminderSentOnce(t *testing.T) {
	rc, got := newReceiver(t)
	e := newEnv(t)
	ada, key := e.user("ada@example.com")
	_, grace := e.userIn(ada.AccountID, "grace@example.com") // a teammate, whose hour is later
	e.do(req{method: "PUT", path: "/api/me/reminders?send_at=20:00", key: grace})
	// Ada's email channel off: the webhook is her one way in, whose
	// failure the test needs.
	for _, ch := range e.do(req{method: "GET", path: "/api/me/channels", key: key}).json(t)["data"].([]any) {
		id := jsonNumber(ch.(map[string]any)["id"])
		if r := e.do(req{method: "PUT", path: "/api/me/channels/" + id + "?kind=email&enabled=0", key: key}); r.code != 200 {
			t.Fatalf("turn the email channel off: %d %s", r.code, r.body)
		}
	}
	e.channel(key, "kind=webhook&url="+rc.URL+"/hook")
	e.channel(grace, "kind=webhook&url="+rc.URL+"/grace")
	jim := e.person(key, "first_name=Jim")
	call := e.reminder(key, jim, "label=Call&starts_on=2026-03-15&frequency=one_time") // today, at the env's clock
	visit := e.reminder(key, jim, "label=Visit&starts_on=2026-03-17&frequency=one_time")
	e.reminder(key, jim, "label=Walk&starts_on=2026-03-08&frequency=weekly")
	show := func(id string) map[string]any {
		t.Helper()
		return e.do(req{method: "GET", path: "/api/persons/" + jim + "/reminders/" + id, key: key}).json(t)["data"].(map[string]any)
	}
	if r := show(call); r["sent_at"] != nil || r["next_on"] != "2026-03-15" {
		t.Fatalf("before the digest: %v", r)
	}

	e.pass()
	if len(*got) != 1 {
		t.Fatalf("%d requests, want Ada's digest", len(*got))
	}
	var wh remind.WebhookBody
	if err := json.Unmarshal((*got)[0].body, &wh); err != nil {
		t.Fatal(err)
	}
	var items []string
	for _, d := range wh.Days {
		for _, it := range d.Items {
			items = append(items, d.Date+" "+it.Title)
		}
	}
	if strings.Join(items, ", ") != "2026-03-15 Call — Jim, 2026-03-15 Walk — Jim, 2026-03-17 Visit — Jim, 2026-03-22 Walk — Jim" {
		t.Errorf("the digest holds %v", items)
	}
	if !strings.Contains(string((*got)[0].body), `{"kind":"reminder","person_id":`+jim+`,"person":"Jim","title":"Call — Jim","label":"Call","reminder_id":`+call+`,"actions":[]}`) {
		t.Errorf("webhook body %s", (*got)[0].body)
	}
	sentAt := float64(e.clock.Now().Unix())
	if r := show(call); r["sent_at"] != sentAt || r["next_on"] != nil {
		t.Errorf("after its day's digest: %v", r)
	}
	if r := show(visit); r["sent_at"] != nil {
		t.Errorf("a reminder of a later day was marked sent by today's digest: %v", r)
	}
	if titles := strings.Join(e.upcomingTitles(t, key, "days=7"), "\n"); strings.Contains(titles, "Call") || !strings.Contains(titles, "Visit") {
		t.Errorf("upcoming after the digest:\n%s", titles)
	}
	b := e.signIn(t, "ada@example.com")
	b.get("/").lacks(t, "Call — Jim")
	b.get("/people/"+jim).has(t, "Call", "once, on Sun 15 Mar 2026 · sent")

	// Grace's digest, later that day, no longer holds it.
	e.at(time.Date(2026, 3, 15, 20, 0, 0, 0, time.UTC))
	e.pass()
	if len(*got) != 2 || (*got)[1].path != "/grace" || strings.Contains(string((*got)[1].body), "Call — Jim") ||
		!strings.Contains(string((*got)[1].body), "Visit — Jim") {
		t.Fatalf("Grace's digest: %d requests, %s", len(*got), (*got)[len(*got)-1].body)
	}

	// On Visit's day the webhook fails: it stays unsent until a try works.
	rc.setStatus(500)
	e.at(time.Date(2026, 3, 17, 12, 0, 0, 0, time.UTC))
	e.pass()
	if r := show(visit); r["sent_at"] != nil {
		t.Errorf("sent although no channel took the digest: %v", r)
	}
	rc.setStatus(200)
	e.clock.Advance(2 * time.Minute)
	e.pass()
	if r := show(visit); r["sent_at"] != float64(e.clock.Now().Unix()) {
		t.Errorf("after the retry: %v", r)
	}
}

func jsonNumber(v any) string { return strconv.FormatFloat(v.(float64), 'f', -1, 64) }
