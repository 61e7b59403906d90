package server

import (
	"fmt"
	"strings"
	"testing"
)

// reminder sets a reminder on the person and returns its id.
func (e *env) reminder(key, personID, query string) string {
	e.t.Helper()
	r := e.do(req{method: "POST", path: "/api/persons/" + personID + "/reminders?" + query, key: key})
	if r.code != 201 {
		e.t.Fatalf("create reminder: %d %s", r.code, r.body)
	}
	return fmt.Sprint(r.json(e.t)["data"].(map[string]any)["id"])
}

// The env's today is 2026-03-15.
func TestReminderCreate(t *testing.T) {
	e := newEnv(t)
	_, key := e.user("ada@example.com")
	pid := e.person(key, "first_name=Jim")
	path := "/api/persons/" + pid + "/reminders"
	post := func(q string) req { return req{method: "POST", path: path + "?" + q, key: key} }
	postJSON := func(body string) req { return req{method: "POST", path: path, key: key, body: body} }
	now := fmt.Sprint(e.clock.Now().Unix())
	created := 0
	ok := func(name string, r req, want ...string) scenario {
		created++
		return scenario{name, r, 201, want}
	}
	field := func(key, msg string) []string { return []string{`"status":422`, `"` + key + `":["` + msg} }
	e.run(t, []scenario{
		ok("every key, exactly", postJSON(`{"label":" Call about the flat ","starts_on":"2026-12-01","frequency":"weekly","every":2,"until":"2027-03-01"}`),
			`{"data":{"id":1,"object":"reminder","label":"Call about the flat","starts_on":"2026-12-01","frequency":"weekly","every":2,"until":"2027-03-01","next_on":"2026-12-01","sent_at":null,"created_at":`+now+`,"updated_at":`+now+`}}`),
		ok("every defaults to 1, until to none", post("label=x&starts_on=2026-01-31&frequency=monthly"),
			`"every":1`, `"until":null`, `"next_on":"2026-03-31"`),
		ok("one_time ignores every and until, even invalid", post("label=x&starts_on=2026-03-20&frequency=one_time&every=x&until=nope"),
			`"frequency":"one_time"`, `"every":1`, `"until":null`, `"next_on":"2026-03-20"`),
		ok("one_time in the past has no next_on", post("label=x&starts_on=2026-03-14&frequency=one_time"), `"next_on":null`),
		ok("today is next_on", post("label=x&starts_on=2026-03-15&frequency=one_time"), `"next_on":"2026-03-15"`),
		ok("past until has no next_on", post("label=x&starts_on=2025-01-01&frequency=daily&until=2026-03-14"), `"next_on":null`),
		ok("until on starts_on", post("label=x&starts_on=2026-04-01&frequency=yearly&until=2026-04-01"), `"until":"2026-04-01"`),
		ok("an empty until is none", postJSON(`{"label":"x","starts_on":"2026-04-01","frequency":"daily","until":null,"every":"1000"}`),
			`"until":null`, `"every":1000`),
		ok("29 February yearly", post("label=x&starts_on=2024-02-29&frequency=yearly"), `"next_on":"2027-02-28"`),
		ok("years 1900 and 9999", post("label=x&starts_on=1900-01-01&frequency=yearly&until=9999-12-31"), `"next_on":"2027-01-01"`),
		ok("a label of 255 characters", post("label="+strings.Repeat("é", 255)+"&starts_on=2026-01-01&frequency=daily")),

		{"missing label", post("starts_on=2026-01-01&frequency=daily"), 422, field("label", "The label field is required.")},
		{"blank label", post("label=+++&starts_on=2026-01-01&frequency=daily"), 422, field("label", "The label field is required.")},
		{"oversized label", post("label=" + strings.Repeat("l", 256) + "&starts_on=2026-01-01&frequency=daily"), 422, field("label", "")},
		{"missing starts_on", post("label=x&frequency=daily"), 422, field("starts_on", "The starts on field is required.")},
		{"30 February", post("label=x&starts_on=2026-02-30&frequency=daily"), 422, field("starts_on", "")},
		{"29 February of a common year", post("label=x&starts_on=2027-02-29&frequency=yearly"), 422, field("starts_on", "")},
		{"not a date", post("label=x&starts_on=tomorrow&frequency=daily"), 422, field("starts_on", "")},
		{"year 1899", post("label=x&starts_on=1899-12-31&frequency=daily"), 422, field("starts_on", "")},
		{"year 10000", post("label=x&starts_on=10000-01-01&frequency=daily"), 422, field("starts_on", "")},
		{"missing frequency", post("label=x&starts_on=2026-01-01"), 422, field("frequency", "The frequency field is required.")},
		{"unknown frequency", post("label=x&starts_on=2026-01-01&frequency=hourly"), 422, field("frequency", "")},
		{"every 0", post("label=x&starts_on=2026-01-01&frequency=daily&every=0"), 422, field("every", "")},
		{"every 1001", post("label=x&starts_on=2026-01-01&frequency=daily&every=1001"), 422, field("every", "")},
		{"every x", post("label=x&starts_on=2026-01-01&frequency=daily&every=x"), 422, field("every", "")},
		{"until before starts_on", post("label=x&starts_on=2026-01-02&frequency=daily&until=2026-01-01"), 422, field("until", "")},
		{"until not a date", post("label=x&starts_on=2026-01-02&frequency=daily&until=2026-13-01"), 422, field("until", "")},
		{"until in year 10000", post("label=x&starts_on=2026-01-02&frequency=daily&until=10000-01-01"), 422, field("until", "")},
		{"a body that is not JSON", req{method: "POST", path: path, key: key, body: `{"label":`}, 400, nil},
		{"a missing person, with bad fields too", req{method: "POST", path: "/api/persons/999/reminders?label=x", key: key}, 404, errBody(404, "Person not found.")},
		{"no key", req{method: "POST", path: path + "?label=x&starts_on=2026-01-01&frequency=daily"}, 401, errBody(401, "Unauthenticated.")},
	})
	if n := e.count(`SELECT count(*) FROM reminders`); n != created {
		t.Errorf("%d reminders, want the %d that got 201", n, created)
	}
}

func TestReminderReadReplaceDelete(t *testing.T) {
	e := newEnv(t)
	ada, key := e.user("ada@example.com")
	_, bob := e.user("bob@example.com")
	jim := e.person(key, "first_name=Jim")
	pam := e.person(key, "first_name=Pam")
	bobs := e.person(bob, "first_name=Bob")
	first := e.reminder(key, jim, "label=Call&starts_on=2026-03-01&frequency=weekly&every=2")
	second := e.reminder(key, jim, "label=Ring&starts_on=2026-05-01&frequency=one_time")
	pams := e.reminder(key, pam, "label=Pam's&starts_on=2026-03-01&frequency=daily")
	theirs := e.reminder(bob, bobs, "label=Bob's&starts_on=2026-03-01&frequency=daily")
	one := "/api/persons/" + jim + "/reminders/" + first
	list := "/api/persons/" + jim + "/reminders"
	e.run(t, []scenario{
		{"the list, by id", req{method: "GET", path: list, key: key}, 200,
			[]string{`{"data":[{"id":` + first + `,`, `"next_on":"2026-03-15"`, `},{"id":` + second + `,`, `"label":"Ring"`}},
		{"one", req{method: "GET", path: one, key: key}, 200, []string{`"label":"Call"`, `"every":2`, `"next_on":"2026-03-15"`}},
		{"PUT replaces: left out is the default", req{method: "PUT", path: one + "?label=Visit&starts_on=2026-03-16&frequency=monthly", key: key}, 200,
			[]string{`"label":"Visit"`, `"frequency":"monthly"`, `"every":1`, `"until":null`, `"next_on":"2026-03-16"`}},
		{"PUT refuses bad fields", req{method: "PUT", path: one + "?label=x&starts_on=2026-03-16&frequency=monthly&every=0", key: key}, 422,
			[]string{`"every":[`}},
		{"another person's reminder of the account", req{method: "GET", path: "/api/persons/" + jim + "/reminders/" + pams, key: key}, 404,
			errBody(404, "Reminder not found.")},
		{"PUT of another person's reminder", req{method: "PUT", path: "/api/persons/" + jim + "/reminders/" + pams + "?label=x&starts_on=2026-01-01&frequency=daily", key: key}, 404,
			errBody(404, "Reminder not found.")},
		{"DELETE of another person's reminder", req{method: "DELETE", path: "/api/persons/" + jim + "/reminders/" + pams, key: key}, 404,
			errBody(404, "Reminder not found.")},
		{"another account's person", req{method: "GET", path: "/api/persons/" + bobs + "/reminders/" + theirs, key: key}, 404,
			errBody(404, "Person not found.")},
		{"another account's person's list", req{method: "GET", path: "/api/persons/" + bobs + "/reminders", key: key}, 404,
			errBody(404, "Person not found.")},
		{"an unknown reminder", req{method: "GET", path: list + "/999", key: key}, 404, errBody(404, "Reminder not found.")},
		{"delete", req{method: "DELETE", path: "/api/persons/" + jim + "/reminders/" + second, key: key}, 204, nil},
		{"deleted", req{method: "GET", path: "/api/persons/" + jim + "/reminders/" + second, key: key}, 404, errBody(404, "Reminder not found.")},
	})
	if n := e.count(`SELECT count(*) FROM logs WHERE account_id = ? AND action LIKE 'reminder_%'`, ada.AccountID); n != 5 {
		t.Errorf("%d logged reminder writes, want 5: 3 made, 1 replaced, 1 deleted", n)
	}
	if r := e.do(req{method: "DELETE", path: "/api/persons/" + jim, key: key}); r.code != 204 && r.code != 200 {
		t.Fatalf("delete Jim: %d %s", r.code, r.body)
	}
	if n := e.count(`SELECT count(*) FROM reminders WHERE person_id = ?`, jim); n != 0 {
		t.Errorf("Jim's %d reminders outlived him", n)
	}
	if r := e.do(req{method: "PUT", path: "/api/administration/prune", key: key}); r.code != 204 {
		t.Fatalf("prune: %d %s", r.code, r.body)
	}
	if n := e.count(`SELECT count(*) FROM reminders WHERE account_id = ?`, ada.AccountID); n != 0 {
		t.Errorf("%d reminders outlived the prune", n)
	}
	if n := e.count(`SELECT count(*) FROM reminders`); n != 1 {
		t.Errorf("%d reminders left, want Bob's", n)
	}
}
