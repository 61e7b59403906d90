package server

import (
	"fmt"
	"net/url"
	"strings"
	"testing"
	"time"
)

// note creates a note through the API and returns its id.
func (e *env) note(key, personID, content string) string {
	e.t.Helper()
	r := e.do(req{method: "POST", path: "/api/persons/" + personID + "/notes?content=" + url.QueryEscape(content), key: key})
	if r.code != 201 {
		e.t.Fatalf("create note: %d %s", r.code, r.body)
	}
	return fmt.Sprint(r.json(e.t)["data"].(map[string]any)["id"])
}

func TestNoteCreate(t *testing.T) {
	e := newEnv(t)
	_, key := e.user("ada@example.com")
	_, bob := e.user("bob@example.com")
	jim := e.person(key, "first_name=Jim")
	bobs := e.person(bob, "first_name=Bob's")
	path := "/api/persons/" + jim + "/notes"
	post := func(q string) req { return req{method: "POST", path: path + "?" + q, key: key} }
	now := fmt.Sprint(e.clock.Now().Unix())
	required := errBody(422, "The content field is required.")
	e.run(t, []scenario{
		{"query string only", post("content=Likes+tea"), 201,
			[]string{`"object":"note"`, `"content":"Likes tea"`, `"created_at":` + now, `"updated_at":` + now}},
		{"JSON, trimmed, line breaks kept", req{method: "POST", path: path, key: key, body: `{"content":"  one\n\ntwo\tthree  "}`}, 201,
			[]string{`"content":"one\n\ntwo\tthree"`}},
		{"a form", req{method: "POST", path: path, key: key, body: "content=From+a+form", ctype: "application/x-www-form-urlencoded"}, 201,
			[]string{`"content":"From a form"`}},
		{"a number is its digits", req{method: "POST", path: path, key: key, body: `{"content":42}`}, 201, []string{`"content":"42"`}},
		{"20 000 characters", req{method: "POST", path: path, key: key, body: `{"content":"` + strings.Repeat("é", 20000) + `"}`}, 201, nil},
		{"missing content", post(""), 422, required},
		{"blank content", post("content=+++"), 422, required},
		{"null content", req{method: "POST", path: path, key: key, body: `{"content":null}`}, 422, required},
		{"oversized content", req{method: "POST", path: path, key: key, body: `{"content":"` + strings.Repeat("n", 20001) + `"}`}, 422,
			errBody(422, "The content field must not be greater than 20000 characters.")},
		{"content not a string", req{method: "POST", path: path, key: key, body: `{"content":["x"]}`}, 422,
			errBody(422, "The content field must be a string.")},
		{"content with a control character", req{method: "POST", path: path, key: key, body: `{"content":"a\u0000b"}`}, 422,
			errBody(422, "The content field format is invalid.")},
		{"a missing person", req{method: "POST", path: "/api/persons/999/notes?content=x", key: key}, 404, errBody(404, "Person not found.")},
		{"a missing person with bad input is still 404", req{method: "POST", path: "/api/persons/999/notes", key: key}, 404, errBody(404, "Person not found.")},
		{"another account's person", req{method: "POST", path: "/api/persons/" + bobs + "/notes?content=x", key: key}, 404, errBody(404, "Person not found.")},
		{"a person id that is not a number", req{method: "POST", path: "/api/persons/jim/notes?content=x", key: key}, 404, errBody(404, "Person not found.")},
		{"no key", req{method: "POST", path: path + "?content=x"}, 401, errBody(401, "Unauthenticated.")},
	})
	if n := e.count(`SELECT count(*) FROM notes`); n != 5 {
		t.Errorf("%d notes, want the 5 that got 201", n)
	}
}

func TestNoteListAndShow(t *testing.T) {
	e := newEnv(t)
	_, key := e.user("ada@example.com")
	jim := e.person(key, "first_name=Jim")
	pam := e.person(key, "first_name=Pam")
	base := "/api/persons/" + jim + "/notes"
	r := e.do(req{method: "GET", path: base, key: key})
	if r.code != 200 || !strings.HasPrefix(r.body, `{"data":[],`) || !strings.Contains(r.body, `"total":0`) {
		t.Errorf("no notes yet: %d %s", r.code, r.body)
	}
	var ids []string
	for i := range 17 {
		ids = append(ids, e.note(key, jim, fmt.Sprint("note ", i)))
		e.clock.Advance(-time.Minute) // newer notes with older times: the order is by id alone
	}
	e.note(key, pam, "Pam's")

	r = e.do(req{method: "GET", path: base, key: key})
	body := keysOf(t, r.json(t), "data", "links", "meta")
	list := body["data"].([]any)
	if len(list) != 15 {
		t.Fatalf("first page has %d notes, want 15", len(list))
	}
	for i, item := range list {
		n := keysOf(t, item, "id", "object", "content", "created_at", "updated_at")
		if fmt.Sprint(n["id"]) != ids[i] || n["content"] != fmt.Sprint("note ", i) {
			t.Errorf("item %d is %v, want id %s", i, n, ids[i])
		}
	}
	meta := body["meta"].(map[string]any)
	if meta["total"] != float64(17) || meta["last_page"] != float64(2) || meta["per_page"] != float64(15) ||
		meta["path"] != "http://example.com"+base {
		t.Errorf("meta %v", meta)
	}
	notFound := errBody(404, "Note not found.")
	e.run(t, []scenario{
		{"second page", req{method: "GET", path: base + "?page=2", key: key}, 200,
			[]string{`"content":"note 15"`, `"content":"note 16"`, `"from":16`, `"to":17`, `"next":null`}},
		{"per_page, as the query string sends it", req{method: "GET", path: base + "?per_page=5&page=4", key: key}, 200,
			[]string{`"content":"note 15"`, `"last_page":4`, `"prev":"http://example.com` + base + `?page=3&per_page=5"`}},
		{"a page past the end", req{method: "GET", path: base + "?page=9", key: key}, 200, []string{`"data":[]`, `"from":null`}},
		{"page zero", req{method: "GET", path: base + "?page=0", key: key}, 422, errBody(422, "The page field must be at least 1.")},
		{"per_page over 100", req{method: "GET", path: base + "?per_page=101", key: key}, 422, errBody(422, "The per page field must be between 1 and 100.")},
		{"per_page not a number", req{method: "GET", path: base + "?per_page=all", key: key}, 422, errBody(422, "The per page field must be an integer.")},
		{"notes of a missing person", req{method: "GET", path: "/api/persons/999/notes", key: key}, 404, errBody(404, "Person not found.")},
		{"a missing person with a bad page is still 404", req{method: "GET", path: "/api/persons/999/notes?page=0", key: key}, 404, errBody(404, "Person not found.")},
		{"show", req{method: "GET", path: base + "/" + ids[3], key: key}, 200, []string{`"id":` + ids[3], `"content":"note 3"`}},
		{"a note under the wrong person", req{method: "GET", path: "/api/persons/" + pam + "/notes/" + ids[3], key: key}, 404, notFound},
		{"a missing note", req{method: "GET", path: base + "/999", key: key}, 404, notFound},
		{"a note id that is not a number", req{method: "GET", path: base + "/x", key: key}, 404, notFound},
		{"a note id of zero", req{method: "GET", path: base + "/0", key: key}, 404, notFound},
		{"a note under a missing person", req{method: "GET", path: "/api/persons/999/notes/" + ids[3], key: key}, 404, errBody(404, "Person not found.")},
		{"PATCH is not a method of a note", req{method: "PATCH", path: base + "/" + ids[3], key: key}, 405, errBody(405, "Method not allowed.")},
	})
}

func TestNoteUpdate(t *testing.T) {
	e := newEnv(t)
	_, key := e.user("ada@example.com")
	jim := e.person(key, "first_name=Jim")
	pam := e.person(key, "first_name=Pam")
	id := e.note(key, jim, "Likes tea")
	created := fmt.Sprint(e.clock.Now().Unix())
	path := "/api/persons/" + jim + "/notes/" + id
	e.clock.Advance(time.Hour)
	now := fmt.Sprint(e.clock.Now().Unix())
	notFound := errBody(404, "Note not found.")
	e.run(t, []scenario{
		{"query string only", req{method: "PUT", path: path + "?content=Likes+coffee", key: key}, 200,
			[]string{`"content":"Likes coffee"`, `"created_at":` + created, `"updated_at":` + now}},
		{"JSON", req{method: "PUT", path: path, key: key, body: `{"content":"Line\nbreak"}`}, 200, []string{`"content":"Line\nbreak"`}},
		{"missing content", req{method: "PUT", path: path, key: key}, 422, errBody(422, "The content field is required.")},
		{"oversized content", req{method: "PUT", path: path + "?content=" + strings.Repeat("x", 20001), key: key}, 422,
			errBody(422, "The content field must not be greater than 20000 characters.")},
		{"content of the wrong type", req{method: "PUT", path: path, key: key, body: `{"content":{"a":1}}`}, 422, errBody(422, "The content field must be a string.")},
		{"under the wrong person", req{method: "PUT", path: "/api/persons/" + pam + "/notes/" + id + "?content=x", key: key}, 404, notFound},
		{"under the wrong person with bad input is still 404", req{method: "PUT", path: "/api/persons/" + pam + "/notes/" + id, key: key}, 404, notFound},
		{"under a missing person", req{method: "PUT", path: "/api/persons/999/notes/" + id + "?content=x", key: key}, 404, errBody(404, "Person not found.")},
		{"a missing note", req{method: "PUT", path: "/api/persons/" + jim + "/notes/999?content=x", key: key}, 404, notFound},
	})
	r := e.do(req{method: "GET", path: path, key: key})
	if !strings.Contains(r.body, `"content":"Line\nbreak"`) {
		t.Errorf("after the refused updates: %s", r.body)
	}
}

func TestNoteDelete(t *testing.T) {
	e := newEnv(t)
	_, key := e.user("ada@example.com")
	jim := e.person(key, "first_name=Jim&can_be_deleted=1")
	pam := e.person(key, "first_name=Pam")
	id := e.note(key, jim, "Likes tea")
	e.note(key, jim, "Another")
	e.note(key, pam, "Pam's")
	notFound := errBody(404, "Note not found.")
	e.run(t, []scenario{
		{"under the wrong person", req{method: "DELETE", path: "/api/persons/" + pam + "/notes/" + id, key: key}, 404, notFound},
		{"under a missing person", req{method: "DELETE", path: "/api/persons/999/notes/" + id, key: key}, 404, errBody(404, "Person not found.")},
		{"delete", req{method: "DELETE", path: "/api/persons/" + jim + "/notes/" + id, key: key}, 204, nil},
		{"gone", req{method: "GET", path: "/api/persons/" + jim + "/notes/" + id, key: key}, 404, notFound},
		{"twice", req{method: "DELETE", path: "/api/persons/" + jim + "/notes/" + id, key: key}, 404, notFound},
		{"deleting the person", req{method: "DELETE", path: "/api/persons/" + jim, key: key}, 204, nil},
	})
	if n := e.count(`SELECT count(*) FROM notes`); n != 1 {
		t.Errorf("%d notes left, want Pam's alone: a deleted person's notes go with them", n)
	}
}
