package server

import (
	"fmt"
	"strings"
	"testing"
	"time"
)

// importantDate creates an important date through the API and returns its
// id.
func (e *env) importantDate(key, personID, query string) string {
	e.t.Helper()
	r := e.do(req{method: "POST", path: "/api/persons/" + personID + "/important-dates?" + query, key: key})
	if r.code != 201 {
		e.t.Fatalf("create important date: %d %s", r.code, r.body)
	}
	return fmt.Sprint(r.json(e.t)["data"].(map[string]any)["id"])
}

func TestImportantDateCreate(t *testing.T) {
	e := newEnv(t)
	_, key := e.user("ada@example.com")
	pid := e.person(key, "first_name=Jim")
	path := "/api/persons/" + pid + "/important-dates"
	post := func(q string) req { return req{method: "POST", path: path + "?" + q, key: key} }
	postJSON := func(body string) req { return req{method: "POST", path: path, key: key, body: body} }
	now := fmt.Sprint(e.clock.Now().Unix())
	badDate := errBody(422, "The date field must be a valid date.")
	mismatch := errBody(422, "The date field must name the same day as year, month and day.")
	created := 0
	ok := func(name string, r req, want ...string) scenario {
		created++
		return scenario{name, r, 201, want}
	}
	e.run(t, []scenario{
		ok("a date with a year", post("label=anniversary&date=2010-06-12&remind_yearly=1"),
			`"object":"important_date"`, `"label":"anniversary"`, `"date":"2010-06-12"`, `"year":2010`, `"month":6`, `"day":12`,
			`"remind_yearly":true`, `"created_at":`+now, `"updated_at":`+now),
		ok("vCard's date without a year, 29 February", post("label=name_day&date=--02-29"),
			`"date":"--02-29"`, `"year":null`, `"month":2`, `"day":29`, `"remind_yearly":false`),
		ok("29 February of a leap year", post("label=born&date=2024-02-29"), `"date":"2024-02-29"`),
		ok("year, month and day, as JSON numbers and strings", postJSON(`{"label":"met","year":"1999","month":12,"day":"31","remind_yearly":"true"}`),
			`"date":"1999-12-31"`, `"year":1999`, `"month":12`, `"day":31`, `"remind_yearly":true`),
		ok("month and day alone, 29 February", postJSON(`{"label":"x","month":2,"day":29}`), `"date":"--02-29"`, `"year":null`),
		ok("month and day with a null year", postJSON(`{"label":"x","year":null,"month":"7","day":4}`), `"date":"--07-04"`),
		ok("year 1, written with four digits", post("label=x&year=1&month=1&day=1"), `"date":"0001-01-01"`, `"year":1`),
		ok("both ways, naming the same day, as a client sends back what it read",
			postJSON(`{"label":"x","date":"2010-06-12","year":2010,"month":6,"day":12}`), `"date":"2010-06-12"`),
		ok("both ways, without a year", postJSON(`{"label":"x","date":"--06-12","year":null,"month":6,"day":12}`), `"date":"--06-12"`),
		ok("a free-text label of 255 characters, trimmed", post("label=+"+strings.Repeat("é", 255)+"+&date=--01-01"), `"label":"`+strings.Repeat("é", 255)+`"`),
		ok("an empty date falls back on the fields", post("label=x&date=&month=3&day=3"), `"date":"--03-03"`),

		{"missing label", post("date=2020-01-01"), 422, errBody(422, "The label field is required.")},
		{"oversized label", post("date=2020-01-01&label=" + strings.Repeat("l", 256)), 422,
			errBody(422, "The label field must not be greater than 255 characters.")},
		{"label of the wrong type", postJSON(`{"label":["x"],"date":"2020-01-01"}`), 422, errBody(422, "The label field must be a string.")},
		{"no day at all", post("label=x"), 422, errBody(422, "The date field is required.")},
		{"nothing at all", post(""), 422, []string{`"message":"The label field is required. (and 1 more error)"`, `"date":["The date field is required."]`}},
		{"30 February", post("label=x&date=2025-02-30"), 422, badDate},
		{"29 February of a common year", post("label=x&date=2023-02-29"), 422, badDate},
		{"30 February without a year", post("label=x&date=--02-30"), 422, badDate},
		{"31 April", post("label=x&date=2025-04-31"), 422, badDate},
		{"month 13 in a date", post("label=x&date=2025-13-01"), 422, badDate},
		{"month 0 in a date", post("label=x&date=--00-10"), 422, badDate},
		{"day 0 in a date", post("label=x&date=2025-01-00"), 422, badDate},
		{"year 0", post("label=x&date=0000-01-01"), 422, badDate},
		{"a year of five digits", post("label=x&date=12025-01-01"), 422, badDate},
		{"one-digit month and day", post("label=x&date=2025-1-5"), 422, badDate},
		{"vCard's basic form", post("label=x&date=--0229"), 422, badDate},
		{"a time", post("label=x&date=2025-01-01T10:00:00Z"), 422, badDate},
		{"not a date", post("label=x&date=yesterday"), 422, badDate},
		{"a date of the wrong type", postJSON(`{"label":"x","date":["2020-01-01"]}`), 422, badDate},
		{"a date as a number", postJSON(`{"label":"x","date":20200101}`), 422, badDate},
		{"month 13", post("label=x&month=13&day=1"), 422, errBody(422, "The month field must be between 1 and 12.")},
		{"day 0", post("label=x&month=1&day=0"), 422, errBody(422, "The day field must be between 1 and 31.")},
		{"day 32", post("label=x&month=1&day=32"), 422, errBody(422, "The day field must be between 1 and 31.")},
		{"year 0 as a field", post("label=x&year=0&month=1&day=1"), 422, errBody(422, "The year field must be between 1 and 9999.")},
		{"year 10000", post("label=x&year=10000&month=1&day=1"), 422, errBody(422, "The year field must be between 1 and 9999.")},
		{"29 February 2023 as fields", post("label=x&year=2023&month=2&day=29"), 422, errBody(422, "The day field must be a valid day of the month.")},
		{"31 June without a year", post("label=x&month=6&day=31"), 422, errBody(422, "The day field must be a valid day of the month.")},
		{"a month that is not a number", post("label=x&month=abc&day=1"), 422, errBody(422, "The month field must be an integer.")},
		{"month without day", post("label=x&month=1"), 422, errBody(422, "The day field is required when date is not present.")},
		{"day without month", post("label=x&day=1"), 422, errBody(422, "The month field is required when date is not present.")},
		{"year alone", post("label=x&year=2020"), 422, []string{`"month":["The month field is required when date is not present."]`,
			`"day":["The day field is required when date is not present."]`}},
		{"a date and another month", post("label=x&date=2020-01-01&month=2"), 422, mismatch},
		{"a date and another year", post("label=x&date=2020-01-01&year=2021"), 422, mismatch},
		{"a date without a year and a year", post("label=x&date=--01-01&year=2020"), 422, mismatch},
		{"a date and another day", postJSON(`{"label":"x","date":"2020-01-01","day":2}`), 422, mismatch},
		{"remind_yearly not a boolean", post("label=x&date=2020-01-01&remind_yearly=yes"), 422,
			errBody(422, "The remind yearly field must be true or false.")},
		{"a body that is not JSON", req{method: "POST", path: path, key: key, body: `{"label":`}, 400, nil},
		{"a missing person", req{method: "POST", path: "/api/persons/999/important-dates?label=x&date=2020-01-01", key: key}, 404, errBody(404, "Person not found.")},
		{"a missing person with bad input is still 404", req{method: "POST", path: "/api/persons/999/important-dates?date=2025-02-30", key: key}, 404, errBody(404, "Person not found.")},
		{"a person id that is not a number", req{method: "POST", path: "/api/persons/jim/important-dates?label=x&date=2020-01-01", key: key}, 404, errBody(404, "Person not found.")},
		{"no key", req{method: "POST", path: path + "?label=x&date=2020-01-01"}, 401, errBody(401, "Unauthenticated.")},
	})
	if n := e.count(`SELECT count(*) FROM important_dates`); n != created {
		t.Errorf("%d important dates, want the %d that got 201", n, created)
	}
}

func TestImportantDateListAndShow(t *testing.T) {
	e := newEnv(t)
	_, key := e.user("ada@example.com")
	jim := e.person(key, "first_name=Jim")
	pam := e.person(key, "first_name=Pam")
	if r := e.do(req{method: "GET", path: "/api/persons/" + jim + "/important-dates", key: key}); r.code != 200 || r.body != `{"data":[]}`+"\n" {
		t.Errorf("no dates yet: %d %s", r.code, r.body)
	}
	dec := e.importantDate(key, jim, "label=December&date=1990-12-01")
	jan := e.importantDate(key, jim, "label=January&date=2020-01-05&remind_yearly=1")
	janNoYear := e.importantDate(key, jim, "label=January+too&date=--01-05") // same day: id breaks the tie
	feb := e.importantDate(key, jim, "label=February&date=1900-02-28")
	e.importantDate(key, pam, "label=Pam's&date=--01-01")

	r := e.do(req{method: "GET", path: "/api/persons/" + jim + "/important-dates", key: key})
	var order []string
	for _, item := range keysOf(t, r.json(t), "data")["data"].([]any) {
		d := keysOf(t, item, "id", "object", "label", "date", "year", "month", "day", "remind_yearly", "created_at", "updated_at")
		order = append(order, fmt.Sprint(d["id"]))
	}
	if strings.Join(order, ",") != jan+","+janNoYear+","+feb+","+dec {
		t.Errorf("order %v, want by month and day: %s,%s,%s,%s", order, jan, janNoYear, feb, dec)
	}
	notFound := errBody(404, "Important date not found.")
	base := "/api/persons/" + jim + "/important-dates/"
	e.run(t, []scenario{
		{"dates of a missing person", req{method: "GET", path: "/api/persons/999/important-dates", key: key}, 404, errBody(404, "Person not found.")},
		{"show", req{method: "GET", path: base + jan, key: key}, 200,
			[]string{`"label":"January"`, `"date":"2020-01-05"`, `"year":2020`, `"remind_yearly":true`}},
		{"show one without a year", req{method: "GET", path: base + janNoYear, key: key}, 200, []string{`"date":"--01-05"`, `"year":null`}},
		{"HEAD", req{method: "HEAD", path: base + jan, key: key}, 200, nil},
		{"a date under the wrong person", req{method: "GET", path: "/api/persons/" + pam + "/important-dates/" + jan, key: key}, 404, notFound},
		{"a missing date", req{method: "GET", path: base + "999", key: key}, 404, notFound},
		{"a date id that is not a number", req{method: "GET", path: base + "2020-01-05", key: key}, 404, notFound},
		{"a date id of zero", req{method: "GET", path: base + "0", key: key}, 404, notFound},
		{"a date under a missing person", req{method: "GET", path: "/api/persons/999/important-dates/" + jan, key: key}, 404, errBody(404, "Person not found.")},
		{"PATCH is not a method of a date", req{method: "PATCH", path: base + jan, key: key}, 405, errBody(405, "Method not allowed.")},
	})
}

func TestImportantDateUpdate(t *testing.T) {
	e := newEnv(t)
	_, key := e.user("ada@example.com")
	jim := e.person(key, "first_name=Jim")
	pam := e.person(key, "first_name=Pam")
	id := e.importantDate(key, jim, "label=anniversary&date=2010-06-12&remind_yearly=1")
	created := e.clock.Now().Unix()
	path := "/api/persons/" + jim + "/important-dates/" + id
	put := func(q string) req { return req{method: "PUT", path: path + "?" + q, key: key} }
	e.clock.Advance(time.Hour)
	now := fmt.Sprint(e.clock.Now().Unix())
	notFound := errBody(404, "Important date not found.")
	e.run(t, []scenario{
		{"update replaces every field", put("label=met&date=--03-04&remind_yearly=true"), 200,
			[]string{`"label":"met"`, `"date":"--03-04"`, `"year":null`, `"month":3`, `"day":4`, `"remind_yearly":true`,
				fmt.Sprintf(`"created_at":%d`, created), `"updated_at":` + now}},
		{"what is not sent is cleared, the reminder too", put("label=met&year=2001&month=3&day=4"), 200,
			[]string{`"date":"2001-03-04"`, `"remind_yearly":false`}},
		{"JSON", req{method: "PUT", path: path, key: key, body: `{"label":"name_day","date":"--02-29","remind_yearly":1}`}, 200,
			[]string{`"label":"name_day"`, `"date":"--02-29"`, `"remind_yearly":true`}},
		{"missing label", put("date=2020-01-01"), 422, errBody(422, "The label field is required.")},
		{"missing date", put("label=x"), 422, errBody(422, "The date field is required.")},
		{"bad date", put("label=x&date=2025-02-30"), 422, errBody(422, "The date field must be a valid date.")},
		{"month 13", put("label=x&month=13&day=1"), 422, errBody(422, "The month field must be between 1 and 12.")},
		{"under the wrong person", req{method: "PUT", path: "/api/persons/" + pam + "/important-dates/" + id + "?label=x&date=2020-01-01", key: key}, 404, notFound},
		{"under the wrong person with bad input is still 404", req{method: "PUT", path: "/api/persons/" + pam + "/important-dates/" + id + "?date=2023-02-29", key: key}, 404, notFound},
		{"under a missing person", req{method: "PUT", path: "/api/persons/999/important-dates/" + id + "?label=x&date=2020-01-01", key: key}, 404, errBody(404, "Person not found.")},
		{"a missing date", req{method: "PUT", path: "/api/persons/" + jim + "/important-dates/999?label=x&date=2020-01-01", key: key}, 404, notFound},
	})
	r := e.do(req{method: "GET", path: path, key: key})
	if !strings.Contains(r.body, `"label":"name_day"`) {
		t.Errorf("after the refused updates: %s", r.body)
	}
}

func TestImportantDateDelete(t *testing.T) {
	e := newEnv(t)
	_, key := e.user("ada@example.com")
	jim := e.person(key, "first_name=Jim")
	pam := e.person(key, "first_name=Pam")
	id := e.importantDate(key, jim, "label=met&date=2020-06-01&remind_yearly=1")
	notFound := errBody(404, "Important date not found.")
	path := "/api/persons/" + jim + "/important-dates/" + id
	e.run(t, []scenario{
		{"under the wrong person", req{method: "DELETE", path: "/api/persons/" + pam + "/important-dates/" + id, key: key}, 404, notFound},
		{"under a missing person", req{method: "DELETE", path: "/api/persons/999/important-dates/" + id, key: key}, 404, errBody(404, "Person not found.")},
		{"delete", req{method: "DELETE", path: path, key: key}, 204, nil},
		{"gone", req{method: "GET", path: path, key: key}, 404, notFound},
		{"twice", req{method: "DELETE", path: path, key: key}, 404, notFound},
	})

	// Deleting the person deletes their dates, and the reminders with them.
	e.importantDate(key, jim, "label=A&date=--06-01&remind_yearly=1")
	e.importantDate(key, pam, "label=B&date=--06-01")
	if r := e.do(req{method: "DELETE", path: "/api/persons/" + jim, key: key}); r.code != 204 {
		t.Fatalf("delete person: %d %s", r.code, r.body)
	}
	if n := e.count(`SELECT count(*) FROM important_dates`); n != 1 {
		t.Errorf("%d important dates left, want Pam's 1", n)
	}
}
