package server

import (
	"testing"
)

func TestAccountTaskList(t *testing.T) {
	e := newEnv(t) // the clock: 2026-03-15 12:00 UTC
	_, key := e.user("ada@example.com")
	_, bob := e.user("bob@example.com")
	jim := e.person(key, "first_name=Jim")
	pam := e.person(key, "first_name=Pam")
	e.task(key, jim, "name=Overdue&due_at=2026-03-10")
	e.task(key, pam, "name=Today&due_at=2026-03-15")
	// 23:30 in New York on the 15th is the 16th in UTC: it is due on the
	// 15th for a user there.
	e.task(key, jim, "name=Tonight+in+New+York&due_at=2026-03-16T03:30:00Z")
	e.task(key, pam, "name=Next+week&due_at=2026-03-22")
	e.task(key, jim, "name=Someday")
	done := e.task(key, jim, "name=Done&due_at=2026-03-01")
	e.do(req{method: "PUT", path: "/api/tasks/" + done + "/toggle", key: key})
	e.task(bob, e.person(bob, "first_name=Bob"), "name=Bob's&due_at=2026-03-15")
	get := func(q string) req { return req{method: "GET", path: "/api/tasks?" + q, key: key} }
	e.run(t, []scenario{
		{"all, soonest first, undated last", get(""), 200, []string{`"total":6`,
			`"name":"Done"`, `"person":{`}},
		{"open", get("is_completed=0"), 200, []string{`"total":5`}},
		{"done", get("is_completed=1"), 200, []string{`"total":1`, `"name":"Done"`}},
		{"without a date", get("has_due_date=0"), 200, []string{`"total":1`, `"name":"Someday"`}},
		{"due and overdue today, in UTC", get("is_completed=0&due_to=2026-03-15"), 200, []string{`"total":2`, `"name":"Overdue"`, `"name":"Today"`}},
		{"this week", get("due_from=2026-03-15&due_to=2026-03-21"), 200, []string{`"total":2`}},
		{"the links keep the filters", get("is_completed=0&per_page=1&page=2"), 200, []string{`is_completed=0`, `"next":`, `"current_page":2`}},
		{"a bad date", get("due_to=2026-02-30"), 422, errBody(422, "The due to field must match the format Y-m-d.")},
		{"to before from", get("due_from=2026-03-15&due_to=2026-03-14"), 422, errBody(422, "The due to field must be a date after or equal to due from.")},
		{"a bad boolean", get("is_completed=maybe"), 422, nil},
		{"no key", req{method: "GET", path: "/api/tasks"}, 401, nil},
	})
	// The order: overdue, today, tonight, next week, then the undated.
	r := e.do(get("is_completed=0"))
	var names []string
	for _, task := range r.json(t)["data"].([]any) {
		names = append(names, task.(map[string]any)["name"].(string))
	}
	want := []string{"Overdue", "Today", "Tonight in New York", "Next week", "Someday"}
	if len(names) != len(want) {
		t.Fatalf("order %v", names)
	}
	for i := range want {
		if names[i] != want[i] {
			t.Errorf("order %v, want %v", names, want)
			break
		}
	}
	// In New York, tonight's task is due today.
	e.do(req{method: "PUT", path: "/api/me/timezone?timezone=America/New_York", key: key})
	e.run(t, []scenario{
		{"due today in New York", get("due_from=2026-03-15&due_to=2026-03-15"), 200,
			[]string{`"total":2`, `"name":"Today"`, `"name":"Tonight in New York"`}},
	})
}
