package server

import (
	"fmt"
	"strings"
	"testing"
	"time"
)

// lifeEvent creates a life event through the API and returns its id.
func (e *env) lifeEvent(key, personID, query string) string {
	e.t.Helper()
	r := e.do(req{method: "POST", path: "/api/persons/" + personID + "/life-events?" + query, key: key})
	if r.code != 201 {
		e.t.Fatalf("create life event: %d %s", r.code, r.body)
	}
	return fmt.Sprint(r.json(e.t)["data"].(map[string]any)["id"])
}

func TestLifeEventCreate(t *testing.T) {
	e := newEnv(t)
	_, key := e.user("ada@example.com")
	pid := e.person(key, "first_name=Jim")
	path := "/api/persons/" + pid + "/life-events"
	post := func(q string) req { return req{method: "POST", path: path + "?" + q, key: key} }
	postJSON := func(body string) req { return req{method: "POST", path: path, key: key, body: body} }
	now := fmt.Sprint(e.clock.Now().Unix())
	badDate := errBody(422, "The happened at field must be a valid date.")
	e.run(t, []scenario{
		{"query string only, with a date", post("description=Wedding&happened_at=2020-06-01&comment=In+the+barn&icon=ring&bg_color=bg-pink-100&text_color=text-pink-600&should_be_reminded=1"),
			201, []string{`"object":"life_event"`, `"description":"Wedding"`, `"comment":"In the barn"`, `"icon":"ring"`, `"bg_color":"bg-pink-100"`,
				`"text_color":"text-pink-600"`, `"happened_at":1590969600`, `"should_be_reminded":true`, `"created_at":` + now, `"updated_at":` + now}},
		{"JSON with an RFC 3339 time and a string boolean", postJSON(`{"description":"Moved","happened_at":"2020-06-01T10:00:00+02:00","should_be_reminded":"true"}`),
			201, []string{`"happened_at":1590998400`, `"should_be_reminded":true`, `"comment":null`, `"icon":null`, `"bg_color":null`, `"text_color":null`}},
		{"a Unix time, reminder off by default", postJSON(`{"description":"Born","happened_at":1590969600}`), 201,
			[]string{`"happened_at":1590969600`, `"should_be_reminded":false`}},
		{"year 1 is a date", post("description=Long+ago&happened_at=0001-01-01"), 201, []string{`"happened_at":-62135596800`}},
		{"text is trimmed, empty optional text is null", post("description=++Trimmed++&happened_at=2020-06-01&comment=+&icon="), 201,
			[]string{`"description":"Trimmed"`, `"comment":null`, `"icon":null`}},
		{"should_be_reminded false", postJSON(`{"description":"x","happened_at":"2020-06-01","should_be_reminded":0}`), 201, []string{`"should_be_reminded":false`}},
		{"missing description", post("happened_at=2020-06-01"), 422, errBody(422, "The description field is required.")},
		{"missing happened_at", post("description=x"), 422, errBody(422, "The happened at field is required.")},
		{"both missing", post(""), 422, []string{`"message":"The description field is required. (and 1 more error)"`, `"happened_at":["The happened at field is required."]`}},
		{"happened_at not a date", post("description=x&happened_at=yesterday"), 422, badDate},
		{"happened_at on a day that does not exist", post("description=x&happened_at=2021-02-29"), 422, badDate},
		{"happened_at past year 9999", post("description=x&happened_at=253402300800"), 422, badDate},
		{"happened_at of the wrong type", postJSON(`{"description":"x","happened_at":{"y":2020}}`), 422, badDate},
		{"oversized description", post("happened_at=2020-06-01&description=" + strings.Repeat("d", 256)), 422,
			errBody(422, "The description field must not be greater than 255 characters.")},
		{"oversized comment", post("description=x&happened_at=2020-06-01&comment=" + strings.Repeat("é", 256)), 422,
			errBody(422, "The comment field must not be greater than 255 characters.")},
		{"oversized colors", post("description=x&happened_at=2020-06-01&bg_color=" + strings.Repeat("c", 256) + "&text_color=" + strings.Repeat("c", 256)), 422,
			[]string{`"bg_color":["The bg color field must not be greater than 255 characters."]`, `"text_color":["The text color field must not be greater than 255 characters."]`}},
		{"description of the wrong type", postJSON(`{"description":["x"],"happened_at":"2020-06-01"}`), 422, errBody(422, "The description field must be a string.")},
		{"icon of the wrong type", postJSON(`{"description":"x","happened_at":"2020-06-01","icon":{"a":1}}`), 422, errBody(422, "The icon field must be a string.")},
		{"should_be_reminded not a boolean", post("description=x&happened_at=2020-06-01&should_be_reminded=yes"), 422,
			errBody(422, "The should be reminded field must be true or false.")},
		{"a body that is not JSON", req{method: "POST", path: path, key: key, body: `{"description":`}, 400, nil},
		{"a missing person", req{method: "POST", path: "/api/persons/999/life-events?description=x&happened_at=2020-06-01", key: key}, 404, errBody(404, "Person not found.")},
		{"a missing person with bad input is still 404", req{method: "POST", path: "/api/persons/999/life-events?happened_at=never", key: key}, 404, errBody(404, "Person not found.")},
		{"a person id that is not a number", req{method: "POST", path: "/api/persons/jim/life-events?description=x&happened_at=2020-06-01", key: key}, 404, errBody(404, "Person not found.")},
		{"no key", req{method: "POST", path: path + "?description=x&happened_at=2020-06-01"}, 401, errBody(401, "Unauthenticated.")},
	})
	if n := e.count(`SELECT count(*) FROM life_events`); n != 6 {
		t.Errorf("%d life events, want the 6 that got 201", n)
	}
}

func TestLifeEventListAndShow(t *testing.T) {
	e := newEnv(t)
	_, key := e.user("ada@example.com")
	jim := e.person(key, "first_name=Jim")
	pam := e.person(key, "first_name=Pam")
	if r := e.do(req{method: "GET", path: "/api/persons/" + jim + "/life-events", key: key}); r.code != 200 || r.body != `{"data":[]}`+"\n" {
		t.Errorf("no events yet: %d %s", r.code, r.body)
	}
	first := e.lifeEvent(key, jim, "description=First&happened_at=2001-01-01")
	second := e.lifeEvent(key, jim, "description=Second&happened_at=1999-01-01") // same second: id breaks the tie
	e.clock.Advance(time.Minute)
	third := e.lifeEvent(key, jim, "description=Third&happened_at=1990-01-01&should_be_reminded=true")
	e.lifeEvent(key, pam, "description=Pam's&happened_at=2001-01-01")

	r := e.do(req{method: "GET", path: "/api/persons/" + jim + "/life-events", key: key})
	var order []string
	for _, item := range keysOf(t, r.json(t), "data")["data"].([]any) {
		ev := keysOf(t, item, "id", "object", "description", "comment", "icon", "bg_color", "text_color", "happened_at", "should_be_reminded", "created_at", "updated_at")
		order = append(order, fmt.Sprint(ev["id"]))
	}
	if strings.Join(order, ",") != third+","+second+","+first {
		t.Errorf("order %v, want newest first: %s,%s,%s", order, third, second, first)
	}
	notFound := errBody(404, "Life event not found.")
	e.run(t, []scenario{
		{"events of a missing person", req{method: "GET", path: "/api/persons/999/life-events", key: key}, 404, errBody(404, "Person not found.")},
		{"show", req{method: "GET", path: "/api/persons/" + jim + "/life-events/" + third, key: key}, 200,
			[]string{`"description":"Third"`, `"happened_at":631152000`, `"should_be_reminded":true`}},
		{"an event under the wrong person", req{method: "GET", path: "/api/persons/" + pam + "/life-events/" + first, key: key}, 404, notFound},
		{"a missing event", req{method: "GET", path: "/api/persons/" + jim + "/life-events/999", key: key}, 404, notFound},
		{"an event id that is not a number", req{method: "GET", path: "/api/persons/" + jim + "/life-events/x", key: key}, 404, notFound},
		{"an event id of zero", req{method: "GET", path: "/api/persons/" + jim + "/life-events/0", key: key}, 404, notFound},
		{"an event under a missing person", req{method: "GET", path: "/api/persons/999/life-events/" + first, key: key}, 404, errBody(404, "Person not found.")},
		{"PATCH is not a method of an event", req{method: "PATCH", path: "/api/persons/" + jim + "/life-events/" + first, key: key}, 405, errBody(405, "Method not allowed.")},
	})
}

func TestLifeEventUpdate(t *testing.T) {
	e := newEnv(t)
	_, key := e.user("ada@example.com")
	jim := e.person(key, "first_name=Jim")
	pam := e.person(key, "first_name=Pam")
	id := e.lifeEvent(key, jim, "description=Wedding&happened_at=2020-06-01&comment=barn&icon=ring&bg_color=b&text_color=t&should_be_reminded=1")
	created := e.clock.Now().Unix()
	path := "/api/persons/" + jim + "/life-events/" + id
	put := func(q string) req { return req{method: "PUT", path: path + "?" + q, key: key} }
	e.clock.Advance(time.Hour)
	now := fmt.Sprint(e.clock.Now().Unix())
	notFound := errBody(404, "Life event not found.")
	e.run(t, []scenario{
		{"update replaces every field", put("description=Vows&happened_at=1590969600&comment=garden&should_be_reminded=true"), 200,
			[]string{`"description":"Vows"`, `"happened_at":1590969600`, `"comment":"garden"`, `"icon":null`, `"bg_color":null`, `"text_color":null`,
				`"should_be_reminded":true`, fmt.Sprintf(`"created_at":%d`, created), `"updated_at":` + now}},
		{"what is not sent is cleared, the reminder too", put("description=Vows&happened_at=2020-06-01"), 200,
			[]string{`"comment":null`, `"should_be_reminded":false`}},
		{"JSON", req{method: "PUT", path: path, key: key, body: `{"description":"Party","happened_at":"2021-01-01","icon":"cake","should_be_reminded":1}`}, 200,
			[]string{`"description":"Party"`, `"happened_at":1609459200`, `"icon":"cake"`, `"should_be_reminded":true`}},
		{"missing description", put("happened_at=2020-06-01"), 422, errBody(422, "The description field is required.")},
		{"missing happened_at", put("description=x"), 422, errBody(422, "The happened at field is required.")},
		{"bad date", put("description=x&happened_at=2020-13-01"), 422, errBody(422, "The happened at field must be a valid date.")},
		{"under the wrong person", req{method: "PUT", path: "/api/persons/" + pam + "/life-events/" + id + "?description=x&happened_at=2020-06-01", key: key}, 404, notFound},
		{"under the wrong person with bad input is still 404", req{method: "PUT", path: "/api/persons/" + pam + "/life-events/" + id, key: key}, 404, notFound},
		{"under a missing person", req{method: "PUT", path: "/api/persons/999/life-events/" + id + "?description=x&happened_at=2020-06-01", key: key}, 404, errBody(404, "Person not found.")},
		{"a missing event", req{method: "PUT", path: "/api/persons/" + jim + "/life-events/999?description=x&happened_at=2020-06-01", key: key}, 404, notFound},
	})
	r := e.do(req{method: "GET", path: path, key: key})
	if !strings.Contains(r.body, `"description":"Party"`) {
		t.Errorf("after the refused updates: %s", r.body)
	}
}

func TestLifeEventDelete(t *testing.T) {
	e := newEnv(t)
	_, key := e.user("ada@example.com")
	jim := e.person(key, "first_name=Jim")
	pam := e.person(key, "first_name=Pam")
	id := e.lifeEvent(key, jim, "description=Wedding&happened_at=2020-06-01&should_be_reminded=1")
	notFound := errBody(404, "Life event not found.")
	e.run(t, []scenario{
		{"under the wrong person", req{method: "DELETE", path: "/api/persons/" + pam + "/life-events/" + id, key: key}, 404, notFound},
		{"under a missing person", req{method: "DELETE", path: "/api/persons/999/life-events/" + id, key: key}, 404, errBody(404, "Person not found.")},
		{"delete", req{method: "DELETE", path: "/api/persons/" + jim + "/life-events/" + id, key: key}, 204, nil},
		{"gone", req{method: "GET", path: "/api/persons/" + jim + "/life-events/" + id, key: key}, 404, notFound},
		{"twice", req{method: "DELETE", path: "/api/persons/" + jim + "/life-events/" + id, key: key}, 404, notFound},
	})

	// Deleting the person deletes its events, and their reminders with them.
	e.lifeEvent(key, jim, "description=A&happened_at=2020-06-01&should_be_reminded=1")
	e.lifeEvent(key, jim, "description=B&happened_at=2020-06-01")
	e.lifeEvent(key, pam, "description=C&happened_at=2020-06-01")
	if r := e.do(req{method: "DELETE", path: "/api/persons/" + jim, key: key}); r.code != 204 {
		t.Fatalf("delete person: %d %s", r.code, r.body)
	}
	if n := e.count(`SELECT count(*) FROM life_events`); n != 1 {
		t.Errorf("%d life events left, want Pam's 1", n)
	}
	if n := e.count(`SELECT count(*) FROM life_events WHERE person_id = ?`, jim); n != 0 {
		t.Errorf("%d events of the deleted person", n)
	}
}
