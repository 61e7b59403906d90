package server

import (
	"fmt"
	"strings"
	"testing"
	"time"
)

// workEntry creates a work history entry through the API and returns its
// id.
func (e *env) workEntry(key, personID, query string) string {
	e.t.Helper()
	r := e.do(req{method: "POST", path: "/api/persons/" + personID + "/work-history?" + query, key: key})
	if r.code != 201 {
		e.t.Fatalf("create work history entry: %d %s", r.code, r.body)
	}
	return fmt.Sprint(r.json(e.t)["data"].(map[string]any)["id"])
}

// activeWork returns the ids of the person's active entries, in order.
func (e *env) activeWork(key, personID string) string {
	e.t.Helper()
	r := e.do(req{method: "GET", path: "/api/persons/" + personID + "/work-history?per_page=100", key: key})
	var ids []string
	for _, item := range r.json(e.t)["data"].([]any) {
		if w := item.(map[string]any); w["active"] == true {
			ids = append(ids, fmt.Sprint(w["id"]))
		}
	}
	return strings.Join(ids, ",")
}

func TestWorkHistoryCreate(t *testing.T) {
	e := newEnv(t)
	_, key := e.user("ada@example.com")
	pid := e.person(key, "first_name=Jim")
	path := "/api/persons/" + pid + "/work-history"
	post := func(q string) req { return req{method: "POST", path: path + "?" + q, key: key} }
	postJSON := func(body string) req { return req{method: "POST", path: path, key: key, body: body} }
	now := fmt.Sprint(e.clock.Now().Unix())
	e.run(t, []scenario{
		{"query string only", post("job_title=Salesman&company_name=Dunder+Mifflin&estimated_salary=%2475%2C000&duration=9+years&active=1"), 201,
			[]string{`"object":"work_history"`, `"job_title":"Salesman"`, `"company_name":"Dunder Mifflin"`, `"estimated_salary":"$75,000"`,
				`"duration":"9 years"`, `"active":true`, `"created_at":` + now, `"updated_at":` + now}},
		{"JSON, inactive, optional fields null", postJSON(`{"job_title":"Paper boy","active":false}`), 201,
			[]string{`"job_title":"Paper boy"`, `"active":false`, `"company_name":null`, `"estimated_salary":null`, `"duration":null`}},
		{"active as a string, text trimmed", postJSON(`{"job_title":"  Manager  ","active":"false","company_name":" "}`), 201,
			[]string{`"job_title":"Manager"`, `"active":false`, `"company_name":null`}},
		{"a number as text", postJSON(`{"job_title":"Clerk","estimated_salary":75000,"active":0}`), 201, []string{`"estimated_salary":"75000"`}},
		{"missing job_title", post("active=1"), 422, errBody(422, "The job title field is required.")},
		{"missing active", post("job_title=x"), 422, errBody(422, "The active field is required.")},
		{"empty active", post("job_title=x&active="), 422, errBody(422, "The active field is required.")},
		{"both missing", post(""), 422, []string{`"message":"The job title field is required. (and 1 more error)"`, `"active":["The active field is required."]`}},
		{"active not a boolean", post("job_title=x&active=yes"), 422, errBody(422, "The active field must be true or false.")},
		{"active of the wrong type", postJSON(`{"job_title":"x","active":[true]}`), 422, errBody(422, "The active field must be true or false.")},
		{"oversized job_title", post("active=0&job_title=" + strings.Repeat("j", 256)), 422, errBody(422, "The job title field must not be greater than 255 characters.")},
		{"oversized optional text", post("job_title=x&active=0&company_name=" + strings.Repeat("c", 256) + "&estimated_salary=" + strings.Repeat("s", 256) + "&duration=" + strings.Repeat("d", 256)), 422,
			[]string{`"company_name":["The company name field must not be greater than 255 characters."]`,
				`"estimated_salary":["The estimated salary field must not be greater than 255 characters."]`,
				`"duration":["The duration field must not be greater than 255 characters."]`}},
		{"job_title of the wrong type", postJSON(`{"job_title":{"a":1},"active":true}`), 422, errBody(422, "The job title field must be a string.")},
		{"a body that is not JSON", req{method: "POST", path: path, key: key, body: `[1`}, 400, nil},
		{"a missing person", req{method: "POST", path: "/api/persons/999/work-history?job_title=x&active=1", key: key}, 404, errBody(404, "Person not found.")},
		{"a missing person with bad input is still 404", req{method: "POST", path: "/api/persons/999/work-history?active=maybe", key: key}, 404, errBody(404, "Person not found.")},
		{"a person id that is not a number", req{method: "POST", path: "/api/persons/-1/work-history?job_title=x&active=1", key: key}, 404, errBody(404, "Person not found.")},
		{"no key", req{method: "POST", path: path + "?job_title=x&active=1"}, 401, errBody(401, "Unauthenticated.")},
	})
	if n := e.count(`SELECT count(*) FROM work_history`); n != 4 {
		t.Errorf("%d entries, want the 4 that got 201", n)
	}
}

func TestWorkHistoryOneActive(t *testing.T) {
	e := newEnv(t)
	_, key := e.user("ada@example.com")
	jim := e.person(key, "first_name=Jim")
	pam := e.person(key, "first_name=Pam")
	first := e.workEntry(key, jim, "job_title=Salesman&active=1")
	pams := e.workEntry(key, pam, "job_title=Receptionist&active=1")
	second := e.workEntry(key, jim, "job_title=Paper+boy&active=0")
	if got := e.activeWork(key, jim); got != first {
		t.Errorf("after an inactive one, active %q, want %s", got, first)
	}
	e.clock.Advance(time.Hour)
	third := e.workEntry(key, jim, "job_title=Co-founder&active=true")
	if got := e.activeWork(key, jim); got != third {
		t.Errorf("after a new active one, active %q, want %s", got, third)
	}
	r := e.do(req{method: "GET", path: "/api/persons/" + jim + "/work-history/" + first, key: key})
	if !strings.Contains(r.body, `"active":false`) || !strings.Contains(r.body, fmt.Sprintf(`"updated_at":%d`, e.clock.Now().Unix())) {
		t.Errorf("the entry made inactive: %s", r.body)
	}
	r = e.do(req{method: "PUT", path: "/api/persons/" + jim + "/work-history/" + second + "?job_title=Paper+boy&active=1", key: key})
	if r.code != 200 || e.activeWork(key, jim) != second {
		t.Errorf("after updating one to active: %d %s, active %q", r.code, r.body, e.activeWork(key, jim))
	}
	if got := e.activeWork(key, pam); got != pams {
		t.Errorf("Pam's active %q, want %s", got, pams)
	}
	// A refused update changes nothing, not even the other entries.
	r = e.do(req{method: "PUT", path: "/api/persons/" + pam + "/work-history/" + first + "?job_title=x&active=1", key: key})
	if r.code != 404 || e.activeWork(key, jim) != second || e.activeWork(key, pam) != pams {
		t.Errorf("refused update: %d, active %q and %q", r.code, e.activeWork(key, jim), e.activeWork(key, pam))
	}
	if n := e.count(`SELECT count(*) FROM work_history WHERE active`); n != 2 {
		t.Errorf("%d active entries, want one for each person", n)
	}
}

func TestWorkHistoryListAndShow(t *testing.T) {
	e := newEnv(t)
	_, key := e.user("ada@example.com")
	jim := e.person(key, "first_name=Jim")
	pam := e.person(key, "first_name=Pam")
	list := "/api/persons/" + jim + "/work-history"
	r := e.do(req{method: "GET", path: list, key: key})
	empty := keysOf(t, r.json(t), "data", "links", "meta")
	if r.code != 200 || len(empty["data"].([]any)) != 0 || !strings.Contains(r.body, `"total":0`) || !strings.Contains(r.body, `"from":null`) {
		t.Errorf("no entries yet: %d %s", r.code, r.body)
	}
	var ids []string
	for i := range 17 {
		ids = append(ids, e.workEntry(key, jim, fmt.Sprintf("job_title=Job+%d&active=0", i)))
	}
	e.workEntry(key, pam, "job_title=Pam's&active=1")

	r = e.do(req{method: "GET", path: list, key: key})
	body := keysOf(t, r.json(t), "data", "links", "meta")
	data := body["data"].([]any)
	if len(data) != 15 {
		t.Fatalf("first page has %d entries: %s", len(data), r.body)
	}
	for i, item := range data {
		w := keysOf(t, item, "id", "object", "company_name", "job_title", "estimated_salary", "duration", "active", "created_at", "updated_at")
		if fmt.Sprint(w["id"]) != ids[i] {
			t.Errorf("entry %d is %v, want %s: id ascending", i, w["id"], ids[i])
		}
	}
	base := "http://example.com" + list
	for _, want := range []string{`"first":"` + base + `?page=1"`, `"last":"` + base + `?page=2"`, `"prev":null`, `"next":"` + base + `?page=2"`,
		`"current_page":1`, `"from":1`, `"last_page":2`, `"path":"` + base + `"`, `"per_page":15`, `"to":15`, `"total":17`} {
		if !strings.Contains(r.body, want) {
			t.Errorf("first page lacks %s: %s", want, r.body)
		}
	}
	notFound := errBody(404, "Work history entry not found.")
	e.run(t, []scenario{
		{"second page", req{method: "GET", path: list + "?page=2", key: key}, 200,
			[]string{`"job_title":"Job 15"`, `"job_title":"Job 16"`, `"from":16`, `"to":17`, `"next":null`}},
		{"per_page keeps in the links", req{method: "GET", path: list + "?per_page=5&page=2", key: key}, 200,
			[]string{`"job_title":"Job 5"`, `"last_page":4`, `"next":"` + base + `?page=3&per_page=5"`}},
		{"a page past the end is empty", req{method: "GET", path: list + "?page=9", key: key}, 200, []string{`"data":[]`, `"total":17`}},
		{"page zero", req{method: "GET", path: list + "?page=0", key: key}, 422, errBody(422, "The page field must be at least 1.")},
		{"per_page over 100", req{method: "GET", path: list + "?per_page=101", key: key}, 422, errBody(422, "The per page field must be between 1 and 100.")},
		{"page not a number", req{method: "GET", path: list + "?page=two", key: key}, 422, errBody(422, "The page field must be an integer.")},
		{"entries of a missing person", req{method: "GET", path: "/api/persons/999/work-history", key: key}, 404, errBody(404, "Person not found.")},
		{"a missing person with a bad page is still 404", req{method: "GET", path: "/api/persons/999/work-history?page=0", key: key}, 404, errBody(404, "Person not found.")},
		{"show", req{method: "GET", path: list + "/" + ids[3], key: key}, 200, []string{`"job_title":"Job 3"`, `"active":false`}},
		{"an entry under the wrong person", req{method: "GET", path: "/api/persons/" + pam + "/work-history/" + ids[0], key: key}, 404, notFound},
		{"a missing entry", req{method: "GET", path: list + "/999", key: key}, 404, notFound},
		{"an entry id that is not a number", req{method: "GET", path: list + "/1.5", key: key}, 404, notFound},
		{"an entry under a missing person", req{method: "GET", path: "/api/persons/999/work-history/" + ids[0], key: key}, 404, errBody(404, "Person not found.")},
		{"POST is not a method of an entry", req{method: "POST", path: list + "/" + ids[0], key: key}, 405, errBody(405, "Method not allowed.")},
	})
}

func TestWorkHistoryUpdate(t *testing.T) {
	e := newEnv(t)
	_, key := e.user("ada@example.com")
	jim := e.person(key, "first_name=Jim")
	pam := e.person(key, "first_name=Pam")
	id := e.workEntry(key, jim, "job_title=Salesman&company_name=DM&estimated_salary=1&duration=2&active=1")
	created := e.clock.Now().Unix()
	path := "/api/persons/" + jim + "/work-history/" + id
	put := func(q string) req { return req{method: "PUT", path: path + "?" + q, key: key} }
	e.clock.Advance(time.Hour)
	now := fmt.Sprint(e.clock.Now().Unix())
	notFound := errBody(404, "Work history entry not found.")
	e.run(t, []scenario{
		{"update replaces every field", put("job_title=Manager&duration=3+years&active=0"), 200,
			[]string{`"job_title":"Manager"`, `"duration":"3 years"`, `"company_name":null`, `"estimated_salary":null`, `"active":false`,
				fmt.Sprintf(`"created_at":%d`, created), `"updated_at":` + now}},
		{"JSON", req{method: "PUT", path: path, key: key, body: `{"job_title":"Boss","company_name":"Scranton","active":true}`}, 200,
			[]string{`"job_title":"Boss"`, `"company_name":"Scranton"`, `"duration":null`, `"active":true`}},
		{"missing job_title", put("active=1"), 422, errBody(422, "The job title field is required.")},
		{"missing active", put("job_title=x"), 422, errBody(422, "The active field is required.")},
		{"active not a boolean", put("job_title=x&active=2"), 422, errBody(422, "The active field must be true or false.")},
		{"under the wrong person", req{method: "PUT", path: "/api/persons/" + pam + "/work-history/" + id + "?job_title=x&active=1", key: key}, 404, notFound},
		{"under the wrong person with bad input is still 404", req{method: "PUT", path: "/api/persons/" + pam + "/work-history/" + id, key: key}, 404, notFound},
		{"under a missing person", req{method: "PUT", path: "/api/persons/999/work-history/" + id + "?job_title=x&active=1", key: key}, 404, errBody(404, "Person not found.")},
		{"a missing entry", req{method: "PUT", path: "/api/persons/" + jim + "/work-history/999?job_title=x&active=1", key: key}, 404, notFound},
	})
	r := e.do(req{method: "GET", path: path, key: key})
	if !strings.Contains(r.body, `"job_title":"Boss"`) || !strings.Contains(r.body, `"active":true`) {
		t.Errorf("after the refused updates: %s", r.body)
	}
}

func TestWorkHistoryDelete(t *testing.T) {
	e := newEnv(t)
	_, key := e.user("ada@example.com")
	jim := e.person(key, "first_name=Jim")
	pam := e.person(key, "first_name=Pam")
	id := e.workEntry(key, jim, "job_title=Salesman&active=1")
	notFound := errBody(404, "Work history entry not found.")
	e.run(t, []scenario{
		{"under the wrong person", req{method: "DELETE", path: "/api/persons/" + pam + "/work-history/" + id, key: key}, 404, notFound},
		{"under a missing person", req{method: "DELETE", path: "/api/persons/999/work-history/" + id, key: key}, 404, errBody(404, "Person not found.")},
		{"delete", req{method: "DELETE", path: "/api/persons/" + jim + "/work-history/" + id, key: key}, 204, nil},
		{"gone", req{method: "GET", path: "/api/persons/" + jim + "/work-history/" + id, key: key}, 404, notFound},
		{"twice", req{method: "DELETE", path: "/api/persons/" + jim + "/work-history/" + id, key: key}, 404, notFound},
	})

	// Deleting the person deletes its entries.
	e.workEntry(key, jim, "job_title=A&active=1")
	e.workEntry(key, jim, "job_title=B&active=0")
	e.workEntry(key, pam, "job_title=C&active=1")
	if r := e.do(req{method: "DELETE", path: "/api/persons/" + jim, key: key}); r.code != 204 {
		t.Fatalf("delete person: %d %s", r.code, r.body)
	}
	if n := e.count(`SELECT count(*) FROM work_history`); n != 1 {
		t.Errorf("%d entries left, want Pam's 1", n)
	}
}
