package server

import (
	"fmt"
	"strings"
	"testing"
	"time"
)

// interaction logs an interaction through the API and returns its id.
func (e *env) interaction(key, personID, query string) string {
	e.t.Helper()
	r := e.do(req{method: "POST", path: "/api/persons/" + personID + "/interactions?" + query, key: key})
	if r.code != 201 {
		e.t.Fatalf("create interaction: %d %s", r.code, r.body)
	}
	return fmt.Sprint(r.json(e.t)["data"].(map[string]any)["id"])
}

func TestInteractionCreate(t *testing.T) {
	e := newEnv(t) // today is 2026-03-15, 12:00 UTC
	_, key := e.user("ada@example.com")
	pid := e.person(key, "first_name=Jim")
	path := "/api/persons/" + pid + "/interactions"
	post := func(q string) req { return req{method: "POST", path: path + "?" + q, key: key} }
	postJSON := func(body string) req { return req{method: "POST", path: path, key: key, body: body} }
	now := fmt.Sprint(e.clock.Now().Unix())
	notADate := errBody(422, "The happened on field must match the format Y-m-d.")
	tooLate := errBody(422, "The happened on field must be a date before or equal to tomorrow.")
	created := 0
	ok := func(name string, r req, want ...string) scenario {
		created++
		return scenario{name, r, 201, want}
	}
	e.run(t, []scenario{
		ok("a call with a note", post("happened_on=2026-03-10&kind=call&note=About+the+wedding"),
			`"object":"interaction"`, `"happened_on":"2026-03-10"`, `"kind":"call"`, `"note":"About the wedding"`,
			`"created_at":`+now, `"updated_at":`+now),
		ok("JSON, a note over lines", postJSON(`{"happened_on":"2026-03-15","kind":"meeting","note":"Lunch.\nHe paid."}`),
			`"kind":"meeting"`, `"note":"Lunch.\nHe paid."`),
		ok("each kind: message", post("happened_on=2026-03-01&kind=message"), `"kind":"message"`, `"note":null`),
		ok("each kind: email", post("happened_on=2026-03-01&kind=email"), `"kind":"email"`),
		ok("each kind: other", post("happened_on=2026-03-01&kind=other"), `"kind":"other"`),
		ok("tomorrow, today somewhere else", post("happened_on=2026-03-16&kind=call"), `"happened_on":"2026-03-16"`),
		ok("long ago", post("happened_on=0001-01-01&kind=call"), `"happened_on":"0001-01-01"`),
		ok("a note of 2000 characters", post("happened_on=2026-03-01&kind=call&note="+strings.Repeat("é", 2000))),
		ok("an empty note is null", post("happened_on=2026-03-01&kind=call&note=+"), `"note":null`),

		{"missing happened_on", post("kind=call"), 422, errBody(422, "The happened on field is required.")},
		{"missing kind", post("happened_on=2026-03-01"), 422, errBody(422, "The kind field is required.")},
		{"nothing", post(""), 422, []string{`"message":"The kind field is required. (and 1 more error)"`, `"happened_on":["The happened on field is required."]`}},
		{"an unknown kind", post("happened_on=2026-03-01&kind=visit"), 422, errBody(422, "The selected kind is invalid.")},
		{"a kind in capitals", post("happened_on=2026-03-01&kind=Call"), 422, errBody(422, "The selected kind is invalid.")},
		{"a kind of the wrong type", postJSON(`{"happened_on":"2026-03-01","kind":["call"]}`), 422, errBody(422, "The kind field must be a string.")},
		{"30 February", post("happened_on=2025-02-30&kind=call"), 422, notADate},
		{"29 February of a common year", post("happened_on=2023-02-29&kind=call"), 422, notADate},
		{"month 13", post("happened_on=2025-13-01&kind=call"), 422, notADate},
		{"no year", post("happened_on=--03-01&kind=call"), 422, notADate},
		{"not a date", post("happened_on=yesterday&kind=call"), 422, notADate},
		{"a Unix time", postJSON(`{"happened_on":1773532800,"kind":"call"}`), 422, notADate},
		{"year 0", post("happened_on=0000-12-31&kind=call"), 422, errBody(422, "The happened on field must be a date after or equal to 0001-01-01.")},
		{"the day after tomorrow", post("happened_on=2026-03-17&kind=call"), 422, tooLate},
		{"next year", post("happened_on=2027-01-01&kind=call"), 422, tooLate},
		{"an oversized note", post("happened_on=2026-03-01&kind=call&note=" + strings.Repeat("n", 2001)), 422,
			errBody(422, "The note field must not be greater than 2000 characters.")},
		{"a note with a control character", postJSON(`{"happened_on":"2026-03-01","kind":"call","note":"a\u0000b"}`), 422,
			errBody(422, "The note field format is invalid.")},
		{"a body that is not JSON", req{method: "POST", path: path, key: key, body: `{"kind":`}, 400, nil},
		{"a missing person", req{method: "POST", path: "/api/persons/999/interactions?happened_on=2026-03-01&kind=call", key: key}, 404, errBody(404, "Person not found.")},
		{"a missing person with bad input is still 404", req{method: "POST", path: "/api/persons/999/interactions?kind=visit", key: key}, 404, errBody(404, "Person not found.")},
		{"no key", req{method: "POST", path: path + "?happened_on=2026-03-01&kind=call"}, 401, errBody(401, "Unauthenticated.")},
	})
	if n := e.count(`SELECT count(*) FROM interactions`); n != created {
		t.Errorf("%d interactions, want the %d that got 201", n, created)
	}
}

// TestInteractionTomorrowIsTheUsers: how late happened_on may be follows
// the user's own date, not the server's.
func TestInteractionTomorrowIsTheUsers(t *testing.T) {
	e := newEnv(t) // 2026-03-15 12:00 UTC is already the 16th at UTC+14
	_, key := e.user("ada@example.com")
	pid := e.person(key, "first_name=Jim")
	post := func(on string) req {
		return req{method: "POST", path: "/api/persons/" + pid + "/interactions?kind=call&happened_on=" + on, key: key}
	}
	e.run(t, []scenario{
		{"in UTC, the 17th is after tomorrow", post("2026-03-17"), 422, errBody(422, "The happened on field must be a date before or equal to tomorrow.")},
		{"move to Kiritimati", req{method: "PUT", path: "/api/me/timezone?timezone=Pacific/Kiritimati", key: key}, 200, nil},
		{"there, the 17th is tomorrow", post("2026-03-17"), 201, []string{`"happened_on":"2026-03-17"`}},
		{"and the 18th after it", post("2026-03-18"), 422, errBody(422, "The happened on field must be a date before or equal to tomorrow.")},
	})
}

func TestInteractionListPages(t *testing.T) {
	e := newEnv(t)
	_, key := e.user("ada@example.com")
	jim := e.person(key, "first_name=Jim")
	pam := e.person(key, "first_name=Pam")
	path := "/api/persons/" + jim + "/interactions"
	r := e.do(req{method: "GET", path: path, key: key})
	if r.code != 200 || !strings.HasPrefix(r.body, `{"data":[],`) || !strings.Contains(r.body, `"total":0`) {
		t.Errorf("none yet: %d %s", r.code, r.body)
	}
	old := e.interaction(key, jim, "happened_on=2025-12-24&kind=call")
	first := e.interaction(key, jim, "happened_on=2026-03-01&kind=email")
	newest := e.interaction(key, jim, "happened_on=2026-03-10&kind=meeting")
	sameDay := e.interaction(key, jim, "happened_on=2026-03-01&kind=message") // same date as first: the higher id is newer
	e.interaction(key, pam, "happened_on=2026-03-12&kind=call")

	ids := func(body map[string]any) string {
		var out []string
		for _, item := range body["data"].([]any) {
			it := keysOf(t, item, "id", "object", "happened_on", "kind", "note", "created_at", "updated_at")
			out = append(out, fmt.Sprint(it["id"]))
		}
		return strings.Join(out, ",")
	}
	r = e.do(req{method: "GET", path: path + "?per_page=3", key: key})
	body := keysOf(t, r.json(t), "data", "links", "meta")
	if got := ids(body); got != newest+","+sameDay+","+first {
		t.Errorf("first page %s, want newest first: %s,%s,%s", got, newest, sameDay, first)
	}
	meta := body["meta"].(map[string]any)
	if meta["total"] != 4.0 || meta["last_page"] != 2.0 || meta["per_page"] != 3.0 ||
		!strings.HasSuffix(body["links"].(map[string]any)["next"].(string), "/api/persons/"+jim+"/interactions?page=2&per_page=3") {
		t.Errorf("first page's meta and links: %v %v", meta, body["links"])
	}
	r = e.do(req{method: "GET", path: path + "?per_page=3&page=2", key: key})
	if got := ids(r.json(t)); got != old {
		t.Errorf("second page %s, want %s", got, old)
	}
	e.run(t, []scenario{
		{"15 a page unless asked", req{method: "GET", path: path, key: key}, 200, []string{`"per_page":15`, `"total":4`}},
		{"a page past the end is empty", req{method: "GET", path: path + "?page=9", key: key}, 200, []string{`"data":[]`, `"total":4`}},
		{"page 0", req{method: "GET", path: path + "?page=0", key: key}, 422, errBody(422, "The page field must be at least 1.")},
		{"per_page 101", req{method: "GET", path: path + "?per_page=101", key: key}, 422, errBody(422, "The per page field must be between 1 and 100.")},
		{"a page that is not a number", req{method: "GET", path: path + "?page=abc", key: key}, 422, errBody(422, "The page field must be an integer.")},
		{"a missing person", req{method: "GET", path: "/api/persons/999/interactions", key: key}, 404, errBody(404, "Person not found.")},
		{"a missing person with a bad page is still 404", req{method: "GET", path: "/api/persons/999/interactions?page=0", key: key}, 404, errBody(404, "Person not found.")},
		{"HEAD", req{method: "HEAD", path: path, key: key}, 200, nil},
	})
}

func TestInteractionShowUpdateDelete(t *testing.T) {
	e := newEnv(t)
	_, key := e.user("ada@example.com")
	jim := e.person(key, "first_name=Jim")
	pam := e.person(key, "first_name=Pam")
	id := e.interaction(key, jim, "happened_on=2026-03-10&kind=call&note=Hello")
	created := e.clock.Now().Unix()
	path := "/api/persons/" + jim + "/interactions/" + id
	put := func(q string) req { return req{method: "PUT", path: path + "?" + q, key: key} }
	e.clock.Advance(time.Hour)
	now := fmt.Sprint(e.clock.Now().Unix())
	notFound := errBody(404, "Interaction not found.")
	e.run(t, []scenario{
		{"show", req{method: "GET", path: path, key: key}, 200, []string{`"happened_on":"2026-03-10"`, `"kind":"call"`, `"note":"Hello"`}},
		{"HEAD", req{method: "HEAD", path: path, key: key}, 200, nil},
		{"under the wrong person", req{method: "GET", path: "/api/persons/" + pam + "/interactions/" + id, key: key}, 404, notFound},
		{"a missing interaction", req{method: "GET", path: "/api/persons/" + jim + "/interactions/999", key: key}, 404, notFound},
		{"an id that is not a number", req{method: "GET", path: "/api/persons/" + jim + "/interactions/x", key: key}, 404, notFound},
		{"under a missing person", req{method: "GET", path: "/api/persons/999/interactions/" + id, key: key}, 404, errBody(404, "Person not found.")},
		{"PATCH is not a method of an interaction", req{method: "PATCH", path: path, key: key}, 405, errBody(405, "Method not allowed.")},

		{"update replaces every field", put("happened_on=2026-03-12&kind=email"), 200,
			[]string{`"happened_on":"2026-03-12"`, `"kind":"email"`, `"note":null`, fmt.Sprintf(`"created_at":%d`, created), `"updated_at":` + now}},
		{"JSON", req{method: "PUT", path: path, key: key, body: `{"happened_on":"2026-03-11","kind":"other","note":"Bye"}`}, 200,
			[]string{`"happened_on":"2026-03-11"`, `"kind":"other"`, `"note":"Bye"`}},
		{"update with an unknown kind", put("happened_on=2026-03-12&kind=fax"), 422, errBody(422, "The selected kind is invalid.")},
		{"update with a bad date", put("happened_on=2025-02-30&kind=call"), 422, errBody(422, "The happened on field must match the format Y-m-d.")},
		{"update into the future", put("happened_on=2026-04-01&kind=call"), 422, errBody(422, "The happened on field must be a date before or equal to tomorrow.")},
		{"update under the wrong person", req{method: "PUT", path: "/api/persons/" + pam + "/interactions/" + id + "?happened_on=2026-03-12&kind=call", key: key}, 404, notFound},
		{"update under the wrong person with bad input is still 404", req{method: "PUT", path: "/api/persons/" + pam + "/interactions/" + id + "?kind=fax", key: key}, 404, notFound},
		{"update under a missing person", req{method: "PUT", path: "/api/persons/999/interactions/" + id + "?happened_on=2026-03-12&kind=call", key: key}, 404, errBody(404, "Person not found.")},
		{"update a missing interaction", req{method: "PUT", path: "/api/persons/" + jim + "/interactions/999?happened_on=2026-03-12&kind=call", key: key}, 404, notFound},
		{"unchanged by the refusals", req{method: "GET", path: path, key: key}, 200, []string{`"kind":"other"`, `"note":"Bye"`}},

		{"delete under the wrong person", req{method: "DELETE", path: "/api/persons/" + pam + "/interactions/" + id, key: key}, 404, notFound},
		{"delete under a missing person", req{method: "DELETE", path: "/api/persons/999/interactions/" + id, key: key}, 404, errBody(404, "Person not found.")},
		{"delete", req{method: "DELETE", path: path, key: key}, 204, nil},
		{"gone", req{method: "GET", path: path, key: key}, 404, notFound},
		{"twice", req{method: "DELETE", path: path, key: key}, 404, notFound},
	})

	// Deleting the person deletes their interactions and cadence.
	e.interaction(key, jim, "happened_on=2026-03-01&kind=call")
	e.interaction(key, pam, "happened_on=2026-03-01&kind=call")
	e.do(req{method: "PUT", path: "/api/persons/" + jim + "/stay-in-touch?every_days=7", key: key})
	if r := e.do(req{method: "DELETE", path: "/api/persons/" + jim, key: key}); r.code != 204 {
		t.Fatalf("delete person: %d %s", r.code, r.body)
	}
	if n := e.count(`SELECT count(*) FROM interactions`); n != 1 {
		t.Errorf("%d interactions left, want Pam's 1", n)
	}
	if n := e.count(`SELECT count(*) FROM stay_in_touch`); n != 0 {
		t.Errorf("%d cadences left, want none", n)
	}
}
