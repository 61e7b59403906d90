package server

import (
	"fmt"
	"strings"
	"testing"
	"time"
)

// journal creates a journal through the API and returns its id.
func (e *env) journal(key, name string) string {
	e.t.Helper()
	r := e.do(req{method: "POST", path: "/api/journals", key: key, body: fmt.Sprintf(`{"name":%q}`, name)})
	if r.code != 201 {
		e.t.Fatalf("create journal: %d %s", r.code, r.body)
	}
	return fmt.Sprint(r.json(e.t)["data"].(map[string]any)["id"])
}

func TestJournalCreate(t *testing.T) {
	e := newEnv(t)
	_, key := e.user("ada@example.com")
	post := func(q string) req { return req{method: "POST", path: "/api/journals?" + q, key: key} }
	now := fmt.Sprint(e.clock.Now().Unix())
	e.run(t, []scenario{
		{"query string only", post("name=My+Travel+Journal"), 201,
			[]string{`"object":"journal"`, `"name":"My Travel Journal"`, `-my-travel-journal"`, `"created_at":` + now, `"updated_at":` + now}},
		{"JSON, trimmed, accents dropped from the slug", req{method: "POST", path: "/api/journals", key: key, body: `{"name":"  Café au lait  "}`}, 201,
			[]string{`"name":"Café au lait"`, `-cafe-au-lait"`}},
		{"a form body", req{method: "POST", path: "/api/journals", key: key, body: "name=Dreams", ctype: "application/x-www-form-urlencoded"}, 201,
			[]string{`"name":"Dreams"`}},
		{"a number as a name", req{method: "POST", path: "/api/journals", key: key, body: `{"name":2026}`}, 201, []string{`"name":"2026"`}},
		{"a name with nothing to slug", post("name=%E6%97%A5%E8%A8%98"), 201, []string{`"name":"日記"`}},
		{"name at its limit", post("name=" + strings.Repeat("j", 255)), 201, nil},
		{"missing name", post(""), 422, errBody(422, "The name field is required.")},
		{"blank name", post("name=+++"), 422, errBody(422, "The name field is required.")},
		{"oversized name", post("name=" + strings.Repeat("j", 256)), 422, errBody(422, "The name field must not be greater than 255 characters.")},
		{"name of the wrong type", req{method: "POST", path: "/api/journals", key: key, body: `{"name":["x"]}`}, 422, errBody(422, "The name field must be a string.")},
		{"a body that is not JSON", req{method: "POST", path: "/api/journals", key: key, body: `{"name":`}, 400, nil},
		{"no key", req{method: "POST", path: "/api/journals?name=x"}, 401, errBody(401, "Unauthenticated.")},
		{"another method on the list", req{method: "PATCH", path: "/api/journals?name=x", key: key}, 405, nil},
	})
	if n := e.count(`SELECT count(*) FROM journals`); n != 7 {
		t.Errorf("%d journals, want the account's first and the 6 that got 201", n)
	}
	if bad := e.count(`SELECT count(*) FROM journals WHERE slug NOT LIKE id || '%'`); bad != 0 {
		t.Errorf("%d slugs do not start with their id", bad)
	}
	if n := e.count(`SELECT count(*) FROM journals WHERE slug = CAST(id AS TEXT)`); n != 1 {
		t.Errorf("%d slugs are the id alone, want 1 (日記)", n)
	}
}

func TestJournalListShowUpdateDelete(t *testing.T) {
	e := newEnv(t)
	_, key := e.user("ada@example.com")
	_, bob := e.user("bob@example.com")
	start := fmt.Sprint(e.clock.Now().Unix())
	r := e.do(req{method: "GET", path: "/api/journals", key: key})
	list := r.json(t)["data"].([]any)
	if len(list) != 1 {
		t.Fatalf("a new account has %d journals, want 1: %s", len(list), r.body)
	}
	mine := keysOf(t, list[0], "id", "object", "name", "slug", "created_at", "updated_at")
	myFirst := fmt.Sprint(mine["id"])
	if mine["name"] != "My first journal" || mine["slug"] != myFirst+"-my-first-journal" ||
		!strings.Contains(r.body, `"created_at":`+start+`,"updated_at":`+start) {
		t.Errorf("a new account's journal: %s", r.body)
	}
	first := e.journal(key, "First")
	second := e.journal(key, "Second") // same second: id breaks the tie
	e.clock.Advance(time.Minute)
	third := e.journal(key, "Third")
	bobs := e.journal(bob, "Bob's")

	list = e.do(req{method: "GET", path: "/api/journals", key: key}).json(t)["data"].([]any)
	var order []string
	for _, item := range list {
		j := keysOf(t, item, "id", "object", "name", "slug", "created_at", "updated_at")
		order = append(order, fmt.Sprint(j["id"]))
	}
	if strings.Join(order, ",") != third+","+second+","+first+","+myFirst {
		t.Errorf("order %v, want newest first: %s,%s,%s,%s", order, third, second, first, myFirst)
	}

	path := "/api/journals/" + first
	created := fmt.Sprint(e.clock.Now().Add(-time.Minute).Unix())
	e.clock.Advance(time.Hour)
	now := fmt.Sprint(e.clock.Now().Unix())
	notFound := errBody(404, "Journal not found.")
	e.run(t, []scenario{
		{"show", req{method: "GET", path: path, key: key}, 200, []string{`"id":` + first, `"name":"First"`, `"slug":"` + first + `-first"`}},
		{"show a missing journal", req{method: "GET", path: "/api/journals/999", key: key}, 404, notFound},
		{"show an id that is not a number", req{method: "GET", path: "/api/journals/x", key: key}, 404, notFound},
		{"show id zero", req{method: "GET", path: "/api/journals/0", key: key}, 404, notFound},
		{"show another account's journal", req{method: "GET", path: "/api/journals/" + bobs, key: key}, 404, notFound},
		{"update by query string remakes the slug", req{method: "PUT", path: path + "?name=Été+2026", key: key}, 200,
			[]string{`"name":"Été 2026"`, `"slug":"` + first + `-ete-2026"`, `"created_at":` + created, `"updated_at":` + now}},
		{"update by JSON", req{method: "PUT", path: path, key: key, body: `{"name":"My Travel Journal"}`}, 200,
			[]string{`"slug":"` + first + `-my-travel-journal"`}},
		{"update without a name", req{method: "PUT", path: path, key: key}, 422, errBody(422, "The name field is required.")},
		{"update with an oversized name", req{method: "PUT", path: path + "?name=" + strings.Repeat("j", 256), key: key}, 422,
			errBody(422, "The name field must not be greater than 255 characters.")},
		{"update with a name of the wrong type", req{method: "PUT", path: path, key: key, body: `{"name":{"a":1}}`}, 422,
			errBody(422, "The name field must be a string.")},
		{"update a missing journal", req{method: "PUT", path: "/api/journals/999?name=x", key: key}, 404, notFound},
		{"update another account's journal with bad input is still 404", req{method: "PUT", path: "/api/journals/" + bobs, key: key}, 404, notFound},
		{"delete another account's journal", req{method: "DELETE", path: "/api/journals/" + bobs, key: key}, 404, notFound},
		{"delete", req{method: "DELETE", path: "/api/journals/" + second, key: key}, 204, nil},
		{"delete again", req{method: "DELETE", path: "/api/journals/" + second, key: key}, 404, notFound},
		{"show the deleted one", req{method: "GET", path: "/api/journals/" + second, key: key}, 404, notFound},
		{"another method on a journal", req{method: "PATCH", path: path, key: key}, 405, nil},
	})
	if r := e.do(req{method: "GET", path: "/api/journals/" + bobs, key: bob}); r.code != 200 || !strings.Contains(r.body, `"name":"Bob's"`) {
		t.Errorf("Bob's journal changed: %d %s", r.code, r.body)
	}
	if n := e.count(`SELECT count(*) FROM journals`); n != 5 {
		t.Errorf("%d journals left, want 5 (each account's first, two of Ada's, Bob's)", n)
	}
}
