package server

import (
	"strings"
	"testing"
	"time"
)

func TestUpcomingReminders(t *testing.T) {
	e := newEnv(t)
	_, key := e.user("ada@example.com")
	e.timezone(key, "Pacific/Auckland")
	e.at(time.Date(2027, 2, 19, 12, 0, 0, 0, time.UTC)) // 20 February 2027, 01:00 in Auckland
	leapling := e.birthday(key, "Leap", 2000, 2, 29, true)
	e.birthday(key, "Quiet", 1990, 2, 21, false)
	sam := e.birthday(key, "Sam", 1980, 2, 21, true)
	e.lifeEvent(key, sam, "description=Moved+to+Wellington&happened_at=2020-02-24T20:00:00Z&should_be_reminded=1") // the 25th in Auckland
	e.lifeEvent(key, sam, "description=Not+reminded&happened_at=2020-02-22&should_be_reminded=0")
	e.task(key, sam, "name=Send+card&task_category_id=1&due_at=2027-02-21T00:00:00%2B13:00")
	e.task(key, sam, "name=Late&task_category_id=1&due_at=2027-02-10T00:00:00%2B13:00")
	e.importantDate(key, sam, "label=Wedding+anniversary&date=2015-02-23&remind_yearly=1")
	e.importantDate(key, sam, "label=Name+day&date=--02-22&remind_yearly=1")
	e.importantDate(key, sam, "label=Not+reminded&date=--02-22")
	quiet := e.person(key, "first_name=Kim")
	e.do(req{method: "PUT", path: "/api/persons/" + quiet + "/stay-in-touch?every_days=3", key: key}) // due on the 23rd
	done := e.task(key, sam, "name=Done&task_category_id=1&due_at=2027-02-21T00:00:00%2B13:00")
	e.do(req{method: "PUT", path: "/api/tasks/" + done + "/toggle", key: key})

	r := e.do(req{method: "GET", path: "/api/reminders/upcoming?days=10", key: key})
	if r.code != 200 {
		t.Fatalf("%d %s", r.code, r.body)
	}
	days := r.json(t)["data"].([]any)
	var got []string
	for _, d := range days {
		day := keysOf(t, d, "object", "date", "items")
		for _, it := range day["items"].([]any) {
			got = append(got, day["date"].(string)+" "+it.(map[string]any)["kind"].(string)+" "+it.(map[string]any)["title"].(string))
		}
	}
	want := []string{
		"2027-02-20 task Overdue since 10 February: Late — Sam",
		"2027-02-21 birthday Birthday of Sam (47)",
		"2027-02-21 task Task: Send card — Sam",
		"2027-02-22 important_date Name day — Sam",
		"2027-02-23 important_date Wedding anniversary — Sam (12 years)",
		"2027-02-23 stay_in_touch Get in touch with Kim (every 3 days)",
		"2027-02-25 life_event Moved to Wellington — Sam (7 years ago)",
		// 29 February in a common year is reminded on the 28th.
		"2027-02-28 birthday Birthday of Leap (27)",
	}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("upcoming:\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}

	// An interaction resets the cadence: Kim is due three days after it.
	e.interaction(key, quiet, "happened_on=2027-02-21&kind=call")
	if body := e.do(req{method: "GET", path: "/api/reminders/upcoming?days=10", key: key}).body; strings.Contains(body, `"date":"2027-02-23","items":[{"kind":"important_date","person_id":`+sam+`,"person":"Sam","title":"Wedding anniversary — Sam (12 years)","label":"Wedding anniversary","years":12},{"kind":"stay_in_touch"`) ||
		!strings.Contains(body, `{"object":"reminder_day","date":"2027-02-24","items":[{"kind":"stay_in_touch","person_id":`+quiet) {
		t.Errorf("the interaction did not move Kim to the 24th: %s", body)
	}

	// add_yearly_reminder=0 takes the birthday out; 1 puts it back.
	e.do(req{method: "PATCH", path: "/api/persons/" + leapling + "/age?age_type=exact&age_year=2000&age_month=2&age_day=29&add_yearly_reminder=0", key: key})
	if body := e.do(req{method: "GET", path: "/api/reminders/upcoming?days=10", key: key}).body; strings.Contains(body, "Leap") {
		t.Errorf("a birthday without its yearly reminder is reminded: %s", body)
	}
	// In a leap year the 29th is the day.
	e.do(req{method: "PATCH", path: "/api/persons/" + leapling + "/age?age_type=exact&age_year=2000&age_month=2&age_day=29&add_yearly_reminder=1", key: key})
	e.at(time.Date(2028, 2, 27, 12, 0, 0, 0, time.UTC))
	body := e.do(req{method: "GET", path: "/api/reminders/upcoming?days=3", key: key}).body
	if !strings.Contains(body, `{"object":"reminder_day","date":"2028-02-29","items":[{"kind":"birthday"`) || strings.Contains(body, `"date":"2028-02-28","items":[{"kind":"birthday","person_id":`+leapling) {
		t.Errorf("leap year: %s", body)
	}

	get := func(q string) req { return req{method: "GET", path: "/api/reminders/upcoming?" + q, key: key} }
	e.run(t, []scenario{
		{"days -1", get("days=-1"), 422, []string{`"days":["The days field must be between 0 and 365."]`}},
		{"days 366", get("days=366"), 422, []string{`"days":["The days field must be between 0 and 365."]`}},
		{"days abc", get("days=abc"), 422, []string{`"days":["The days field must be an integer."]`}},
		{"today alone: what is overdue", get("days=0"), 200, []string{`"date":"2028-02-28"`, "Overdue since 10 February 2027: Late — Sam", "Overdue since 21 February 2027: Send card"}},
		{"no key", req{method: "GET", path: "/api/reminders/upcoming"}, 401, nil},
	})
	// Another account sees none of it.
	_, bob := e.user("bob@example.com")
	if body := e.do(req{method: "GET", path: "/api/reminders/upcoming?days=365", key: bob}).body; strings.TrimSpace(body) != `{"data":[]}` {
		t.Errorf("Bob sees Ada's reminders: %s", body)
	}
}
