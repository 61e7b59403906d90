package server

import (
	"fmt"
	"strings"
	"testing"
	"time"
)

// task creates a task through the API and returns its id.
func (e *env) task(key, personID, query string) string {
	e.t.Helper()
	r := e.do(req{method: "POST", path: "/api/persons/" + personID + "/tasks?" + query, key: key})
	if r.code != 201 {
		e.t.Fatalf("create task: %d %s", r.code, r.body)
	}
	return fmt.Sprint(r.json(e.t)["data"].(map[string]any)["id"])
}

func TestTaskCreate(t *testing.T) {
	e := newEnv(t)
	_, key := e.user("ada@example.com")
	_, bob := e.user("bob@example.com")
	bobsCategory := fmt.Sprint(e.do(req{method: "GET", path: "/api/administration/task-categories", key: bob}).json(t)["data"].([]any)[0].(map[string]any)["id"])
	pid := e.person(key, "first_name=Jim&last_name=Halpert")
	path := "/api/persons/" + pid + "/tasks"
	post := func(q string) req { return req{method: "POST", path: path + "?" + q, key: key} }
	badCategory := errBody(422, "The selected task category id is invalid.")
	badDate := errBody(422, "The due at field must be a valid date.")
	e.run(t, []scenario{
		{"query string only, with a date", post("name=Call+Jim&due_at=2026-12-01&task_category_id=2"), 201,
			[]string{`"name":"Call Jim"`, `"due_at":1796083200`, `"task_category":{"id":2,"name":"Call","color":"bg-blue-100"}`,
				`"person":{"id":` + pid + `,"name":"Jim Halpert"}`, `"is_completed":false`, `"completed_at":null`}},
		{"JSON with an RFC 3339 time", req{method: "POST", path: path, key: key, body: `{"name":"Lunch","due_at":"2026-12-01T12:30:00+01:00","task_category_id":"5"}`},
			201, []string{`"due_at":1796124600`, `"task_category":{"id":5`}},
		{"a Unix time", req{method: "POST", path: path, key: key, body: `{"name":"Lunch","due_at":1796083200}`}, 201, []string{`"due_at":1796083200`, `"task_category":null`}},
		{"missing name", post("due_at=2026-12-01"), 422, errBody(422, "The name field is required.")},
		{"oversized name", post("name=" + strings.Repeat("n", 256)), 422, errBody(422, "The name field must not be greater than 255 characters.")},
		{"due_at not a date", post("name=x&due_at=tomorrow"), 422, badDate},
		{"due_at on a day that does not exist", post("name=x&due_at=2026-02-30"), 422, badDate},
		{"due_at past year 9999", post("name=x&due_at=999999999999"), 422, badDate},
		{"due_at of the wrong type", req{method: "POST", path: path, key: key, body: `{"name":"x","due_at":[1]}`}, 422, badDate},
		{"a category that does not exist", post("name=x&task_category_id=999"), 422, badCategory},
		{"another account's category", post("name=x&task_category_id=" + bobsCategory), 422, badCategory},
		{"category id zero", post("name=x&task_category_id=0"), 422, badCategory},
		{"category id not a number", post("name=x&task_category_id=call"), 422, errBody(422, "The task category id field must be an integer.")},
		{"a missing person", req{method: "POST", path: "/api/persons/999/tasks?name=x", key: key}, 404, errBody(404, "Person not found.")},
		{"a missing person with an unknown category is still 404", req{method: "POST", path: "/api/persons/999/tasks?name=x&task_category_id=999", key: key},
			404, errBody(404, "Person not found.")},
		{"a missing person with bad input is still 404", req{method: "POST", path: "/api/persons/999/tasks", key: key}, 404, errBody(404, "Person not found.")},
	})
	if n := e.count(`SELECT count(*) FROM tasks`); n != 3 {
		t.Errorf("%d tasks, want the 3 that got 201", n)
	}
}

func TestTaskListAndShow(t *testing.T) {
	e := newEnv(t)
	_, key := e.user("ada@example.com")
	jim := e.person(key, "first_name=Jim")
	pam := e.person(key, "first_name=Pam")
	if r := e.do(req{method: "GET", path: "/api/persons/" + jim + "/tasks", key: key}); r.code != 200 || r.body != `{"data":[]}`+"\n" {
		t.Errorf("no tasks yet: %d %s", r.code, r.body)
	}
	first := e.task(key, jim, "name=First")
	second := e.task(key, jim, "name=Second") // same second: id breaks the tie
	e.clock.Advance(time.Minute)
	third := e.task(key, jim, "name=Third&task_category_id=1")
	e.task(key, pam, "name=Pam's")

	r := e.do(req{method: "GET", path: "/api/persons/" + jim + "/tasks", key: key})
	list := r.json(t)["data"].([]any)
	var order []string
	for _, item := range list {
		task := keysOf(t, item, "id", "object", "name", "is_completed", "due_at", "completed_at", "task_category", "person", "created_at", "updated_at")
		order = append(order, fmt.Sprint(task["id"]))
	}
	if strings.Join(order, ",") != third+","+second+","+first {
		t.Errorf("order %v, want newest first: %s,%s,%s", order, third, second, first)
	}
	notFound := errBody(404, "Task not found.")
	e.run(t, []scenario{
		{"tasks of a missing person", req{method: "GET", path: "/api/persons/999/tasks", key: key}, 404, errBody(404, "Person not found.")},
		{"show", req{method: "GET", path: "/api/persons/" + jim + "/tasks/" + third, key: key}, 200, []string{`"name":"Third"`, `"task_category":{"id":1,"name":"Birthday"`}},
		{"a task under the wrong person", req{method: "GET", path: "/api/persons/" + pam + "/tasks/" + first, key: key}, 404, notFound},
		{"a missing task", req{method: "GET", path: "/api/persons/" + jim + "/tasks/999", key: key}, 404, notFound},
		{"a task id that is not a number", req{method: "GET", path: "/api/persons/" + jim + "/tasks/x", key: key}, 404, notFound},
		{"a task under a missing person", req{method: "GET", path: "/api/persons/999/tasks/" + first, key: key}, 404, errBody(404, "Person not found.")},
	})
}

func TestTaskUpdateAndCompletion(t *testing.T) {
	e := newEnv(t)
	_, key := e.user("ada@example.com")
	jim := e.person(key, "first_name=Jim")
	pam := e.person(key, "first_name=Pam")
	id := e.task(key, jim, "name=Call&due_at=2026-12-01&task_category_id=2")
	path := "/api/persons/" + jim + "/tasks/" + id
	put := func(q string) req { return req{method: "PUT", path: path + "?" + q, key: key} }
	created := e.clock.Now().Unix()
	e.clock.Advance(time.Hour)
	now := fmt.Sprint(e.clock.Now().Unix())
	e.run(t, []scenario{
		{"update takes a Unix due_at, as the seed says", put("name=Call+back&due_at=1796169600&task_category_id=3"), 200,
			[]string{`"name":"Call back"`, `"due_at":1796169600`, `"task_category":{"id":3`, `"is_completed":false`, `"updated_at":` + now}},
		{"and a date", put("name=Call&due_at=2026-12-03"), 200, []string{`"due_at":1796256000`}},
		{"omitted due_at and category are cleared", put("name=Call"), 200, []string{`"due_at":null`, `"task_category":null`}},
		{"is_completed true completes it now", put("name=Call&is_completed=1"), 200, []string{`"is_completed":true`, `"completed_at":` + now}},
		{"omitted is_completed leaves it", put("name=Call"), 200, []string{`"is_completed":true`, `"completed_at":` + now}},
		{"is_completed false clears completed_at", req{method: "PUT", path: path, key: key, body: `{"name":"Call","is_completed":false}`}, 200,
			[]string{`"is_completed":false`, `"completed_at":null`}},
		{"missing name", put("is_completed=1"), 422, errBody(422, "The name field is required.")},
		{"is_completed not a boolean", put("name=Call&is_completed=yes"), 422, errBody(422, "The is completed field must be true or false.")},
		{"a category of no one", put("name=Call&task_category_id=999"), 422, errBody(422, "The selected task category id is invalid.")},
		{"under the wrong person", req{method: "PUT", path: "/api/persons/" + pam + "/tasks/" + id + "?name=x", key: key}, 404, errBody(404, "Task not found.")},
		{"under the wrong person with bad input is still 404", req{method: "PUT", path: "/api/persons/" + pam + "/tasks/" + id, key: key}, 404, errBody(404, "Task not found.")},
		{"under the wrong person with an unknown category is still 404", req{method: "PUT", path: "/api/persons/" + pam + "/tasks/" + id + "?name=x&task_category_id=999", key: key},
			404, errBody(404, "Task not found.")},
	})
	r := e.do(req{method: "GET", path: path, key: key})
	if !strings.Contains(r.body, `"name":"Call"`) || !strings.Contains(r.body, fmt.Sprintf(`"created_at":%d`, created)) {
		t.Errorf("after the refused updates: %s", r.body)
	}
}

func TestTaskToggle(t *testing.T) {
	e := newEnv(t)
	_, key := e.user("ada@example.com")
	id := e.task(key, e.person(key, "first_name=Jim"), "name=Call")
	e.clock.Advance(time.Minute)
	toggle := req{method: "PUT", path: "/api/tasks/" + id + "/toggle", key: key}
	r := e.do(toggle)
	body := keysOf(t, r.json(t), "data")
	task := body["data"].(map[string]any)
	if r.code != 200 || task["is_completed"] != true || task["completed_at"] != float64(e.clock.Now().Unix()) {
		t.Fatalf("first toggle: %s", r.body)
	}
	r = e.do(toggle)
	if !strings.Contains(r.body, `"is_completed":false`) || !strings.Contains(r.body, `"completed_at":null`) {
		t.Errorf("second toggle: %s", r.body)
	}
	e.run(t, []scenario{
		{"a missing task", req{method: "PUT", path: "/api/tasks/999/toggle", key: key}, 404, errBody(404, "Task not found.")},
		{"a task id that is not a number", req{method: "PUT", path: "/api/tasks/abc/toggle", key: key}, 404, errBody(404, "Task not found.")},
		{"GET is not a method of toggle", req{method: "GET", path: "/api/tasks/" + id + "/toggle", key: key}, 405, errBody(405, "Method not allowed.")},
	})
}

func TestTaskDelete(t *testing.T) {
	e := newEnv(t)
	_, key := e.user("ada@example.com")
	jim := e.person(key, "first_name=Jim")
	pam := e.person(key, "first_name=Pam")
	id := e.task(key, jim, "name=Call")
	e.run(t, []scenario{
		{"under the wrong person", req{method: "DELETE", path: "/api/persons/" + pam + "/tasks/" + id, key: key}, 404, errBody(404, "Task not found.")},
		{"under a missing person", req{method: "DELETE", path: "/api/persons/999/tasks/" + id, key: key}, 404, errBody(404, "Person not found.")},
		{"delete", req{method: "DELETE", path: "/api/persons/" + jim + "/tasks/" + id, key: key}, 204, nil},
		{"gone", req{method: "GET", path: "/api/persons/" + jim + "/tasks/" + id, key: key}, 404, errBody(404, "Task not found.")},
		{"twice", req{method: "DELETE", path: "/api/persons/" + jim + "/tasks/" + id, key: key}, 404, errBody(404, "Task not found.")},
	})
}

func TestCategories(t *testing.T) {
	e := newEnv(t)
	_, key := e.user("ada@example.com")
	r := e.do(req{method: "GET", path: "/api/administration/task-categories", key: key})
	list := r.json(t)["data"].([]any)
	want := []string{"Birthday bg-purple-100", "Call bg-blue-100", "Email bg-green-100", "Follow up bg-yellow-100", "Lunch bg-orange-100", "Thank you bg-red-100"}
	if len(list) != 6 {
		t.Fatalf("defaults: %s", r.body)
	}
	for i, item := range list {
		c := keysOf(t, item, "type", "id", "attributes", "links")
		a := keysOf(t, c["attributes"], "name", "color", "created_at", "updated_at")
		if c["type"] != "task_category" || c["id"] != fmt.Sprint(i+1) || fmt.Sprint(a["name"], " ", a["color"]) != want[i] || a["updated_at"] != nil {
			t.Errorf("default %d: %v", i, c)
		}
		if keysOf(t, c["links"], "self")["self"] != "http://example.com/api/administration/task-categories/"+fmt.Sprint(i+1) {
			t.Errorf("links: %v", c["links"])
		}
	}
	now := fmt.Sprint(e.clock.Now().Unix())
	base := "/api/administration/task-categories"
	notFound := errBody(404, "Task category not found.")
	e.run(t, []scenario{
		{"create, query string only", req{method: "POST", path: base + "?name=Visit&color=text-red-600", key: key}, 201,
			[]string{`"id":"7"`, `"name":"Visit"`, `"color":"text-red-600"`, `"updated_at":` + now}},
		{"create with JSON", req{method: "POST", path: base, key: key, body: `{"name":"Gift","color":"bg-pink-100"}`}, 201, []string{`"name":"Gift"`}},
		{"both fields missing", req{method: "POST", path: base, key: key}, 422,
			[]string{`"message":"The name field is required. (and 1 more error)"`, `"color":["The color field is required."]`}},
		{"color over 30 characters", req{method: "POST", path: base + "?name=x&color=" + strings.Repeat("c", 31), key: key}, 422,
			errBody(422, "The color field must not be greater than 30 characters.")},
		{"name over 255 characters", req{method: "POST", path: base + "?color=x&name=" + strings.Repeat("n", 256), key: key}, 422,
			errBody(422, "The name field must not be greater than 255 characters.")},
		{"show", req{method: "GET", path: base + "/2", key: key}, 200, []string{`"name":"Call"`, `"updated_at":null`}},
		{"show a missing one", req{method: "GET", path: base + "/999", key: key}, 404, notFound},
		{"update", req{method: "PUT", path: base + "/2?name=Phone&color=bg-blue-200", key: key}, 200,
			[]string{`"name":"Phone"`, `"color":"bg-blue-200"`, `"updated_at":` + now}},
		{"update needs both fields", req{method: "PUT", path: base + "/2?name=Phone", key: key}, 422, errBody(422, "The color field is required.")},
		{"update a missing one with bad input is 404", req{method: "PUT", path: base + "/999", key: key}, 404, notFound},
		{"delete", req{method: "DELETE", path: base + "/7", key: key}, 204, nil},
		{"delete twice", req{method: "DELETE", path: base + "/7", key: key}, 404, notFound},
		{"id that is not a number", req{method: "DELETE", path: base + "/seven", key: key}, 404, notFound},
	})
}

func TestDeletingACategoryKeepsItsTasks(t *testing.T) {
	e := newEnv(t)
	_, key := e.user("ada@example.com")
	jim := e.person(key, "first_name=Jim")
	id := e.task(key, jim, "name=Call&task_category_id=2")
	if r := e.do(req{method: "DELETE", path: "/api/administration/task-categories/2", key: key}); r.code != 204 {
		t.Fatalf("delete category: %d", r.code)
	}
	r := e.do(req{method: "GET", path: "/api/persons/" + jim + "/tasks/" + id, key: key})
	if r.code != 200 || !strings.Contains(r.body, `"task_category":null`) {
		t.Errorf("the task after its category went: %d %s", r.code, r.body)
	}
	r = e.do(req{method: "POST", path: "/api/persons/" + jim + "/tasks?name=x&task_category_id=2", key: key})
	if r.code != 422 {
		t.Errorf("a deleted category for a new task: %d, want 422", r.code)
	}
}

// TestJSONAnswersHaveTheirLength: an answer is encoded whole before it is
// sent, with its Content-Length, however long it is (a list of 40 tasks is
// past net/http's 2 KiB buffer, which used to send it chunked); HEAD says
// the same length.
func TestJSONAnswersHaveTheirLength(t *testing.T) {
	e := newEnv(t)
	_, key := e.user("ada@example.com")
	pid := e.person(key, "first_name=Jim&last_name=Halpert")
	for i := range 40 {
		e.task(key, pid, fmt.Sprintf("name=Call+back+about+the+birthday+present+%d", i))
	}
	list := e.do(req{method: "GET", path: "/api/persons/" + pid + "/tasks", key: key})
	if list.code != 200 || len(list.body) < 4096 || list.header.Get("Content-Length") != fmt.Sprint(len(list.body)) {
		t.Errorf("list: %d, %d bytes, Content-Length %q", list.code, len(list.body), list.header.Get("Content-Length"))
	}
	head := e.do(req{method: "HEAD", path: "/api/persons/" + pid + "/tasks", key: key})
	if head.code != 200 || head.body != "" || head.header.Get("Content-Length") != fmt.Sprint(len(list.body)) {
		t.Errorf("HEAD: %d %q, Content-Length %q", head.code, head.body, head.header.Get("Content-Length"))
	}
	missing := e.do(req{method: "GET", path: "/api/persons/999/tasks", key: key})
	if missing.code != 404 || missing.header.Get("Content-Length") != fmt.Sprint(len(missing.body)) {
		t.Errorf("an error: %d, Content-Length %q for %d bytes", missing.code, missing.header.Get("Content-Length"), len(missing.body))
	}
}
