package server

import (
	"fmt"
	"strings"
	"testing"
)

// everything is a query string that passes the validation of every write
// route, so that an answer other than 404 cannot come from bad input.
const everything = "name=x&color=y&first_name=x&label=x&age_type=bracket&age_bracket=1-2&add_yearly_reminder=1&height=1"

// TestAccountsCannotReachEachOther calls every route that takes an id, with
// every method the router has for it, using Bob's key on Ada's ids. Each
// must answer 404 and leave Ada's data exactly as it was. The routes come
// from the router itself, so a route added without scoping fails here.
func TestAccountsCannotReachEachOther(t *testing.T) {
	e := newEnv(t)
	_, ada := e.user("ada@example.com")
	_, bob := e.user("bob@example.com")
	person := e.person(ada, "first_name=Jim&can_be_deleted=1")
	task := e.task(ada, person, "name=Call&task_category_id=2")
	category := fmt.Sprint(e.do(req{method: "POST", path: "/api/administration/task-categories?name=Mine&color=c", key: ada}).json(t)["data"].(map[string]any)["id"])
	adaKey := strings.Split(ada, "|")[0]
	e.person(bob, "first_name=Bob's") // Bob has rows of his own, with ids of their own

	snapshot := func() string {
		var b strings.Builder
		for _, path := range []string{"/api/persons", "/api/persons/" + person + "/tasks", "/api/administration/task-categories", "/api/administration/api", "/api/me"} {
			b.WriteString(e.do(req{method: "GET", path: path, key: ada}).body)
		}
		return b.String()
	}
	before := snapshot()

	ids := map[string]string{":person": person, ":task": task}
	tested := 0
	for _, rt := range e.srv.Routes() {
		if !strings.Contains(rt.Path, ":") {
			continue
		}
		path := rt.Path
		for param, id := range ids {
			path = strings.ReplaceAll(path, param, id)
		}
		if strings.Contains(path, "task-categories/:id") {
			path = strings.ReplaceAll(path, ":id", category)
		} else {
			path = strings.ReplaceAll(path, ":id", adaKey)
		}
		if strings.Contains(path, ":") {
			t.Fatalf("route %s %s has a parameter this test does not know: add it", rt.Method, rt.Path)
		}
		r := e.do(req{method: rt.Method, path: path + "?" + everything, key: bob})
		if r.code != 404 || !strings.Contains(r.body, `not found."`) {
			t.Errorf("%s %s with another account's key: %d %s, want 404", rt.Method, path, r.code, r.body)
		}
		tested++
	}
	if tested < 16 {
		t.Errorf("only %d routes with ids were tried", tested)
	}
	if after := snapshot(); after != before {
		t.Errorf("Ada's data changed:\nbefore %s\nafter  %s", before, after)
	}

	// Lists show only the caller's own rows.
	persons := e.do(req{method: "GET", path: "/api/persons", key: bob}).body
	cats := e.do(req{method: "GET", path: "/api/administration/task-categories", key: bob}).body
	if strings.Contains(persons, "Jim") || strings.Contains(cats, "Mine") || strings.Count(cats, `"type":"task_category"`) != 6 {
		t.Errorf("Bob's lists show Ada's rows:\n%s\n%s", persons, cats)
	}
	// A task cannot be given another account's category either.
	r := e.do(req{method: "POST", path: "/api/persons/" + e.person(bob, "first_name=B") + "/tasks?name=x&task_category_id=" + category, key: bob})
	if r.code != 422 {
		t.Errorf("Bob used Ada's category: %d", r.code)
	}
}
