package server

import (
	"fmt"
	"strings"
	"testing"
	"time"
)

// relationships answers the person's relationships as "<id> <type id>
// <type name> → <person id> <person name>", each checked for its exact
// keys.
func (e *env) relationships(t *testing.T, key, person string) []string {
	t.Helper()
	r := e.do(req{method: "GET", path: "/api/persons/" + person + "/relationships", key: key})
	if r.code != 200 {
		t.Fatalf("list relationships of %s: %d %s", person, r.code, r.body)
	}
	out := []string{}
	for _, item := range keysOf(t, r.json(t), "data")["data"].([]any) {
		rel := keysOf(t, item, "id", "object", "type", "person", "created_at", "updated_at")
		ty := keysOf(t, rel["type"], "id", "name")
		p := keysOf(t, rel["person"], "id", "name")
		if rel["object"] != "relationship" {
			t.Errorf("object %v", rel["object"])
		}
		out = append(out, fmt.Sprintf("%v %v %v → %v %v", rel["id"], ty["id"], ty["name"], p["id"], p["name"]))
	}
	return out
}

func wantList(t *testing.T, what string, got []string, want ...string) {
	t.Helper()
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("%s:\n%s\nwant\n%s", what, strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
}

func TestRelationships(t *testing.T) {
	e := newEnv(t)
	_, key := e.user("ada@example.com")
	_, bob := e.user("bob@example.com")
	michael := e.person(key, "first_name=Michael&last_name=Scott")
	dwight := e.person(key, "first_name=Dwight&last_name=Schrute&can_be_deleted=1")
	jim := e.person(key, "first_name=Jim")
	bobs := e.person(bob, "first_name=Bob")
	bobsType := fmt.Sprint(e.relationshipTypes(t, bob)[0]["id"])
	e.clock.Advance(time.Hour)
	now := fmt.Sprint(e.clock.Now().Unix())
	on := func(person string) string { return "/api/persons/" + person + "/relationships" }
	post := func(person, query string) req { return req{method: "POST", path: on(person) + "?" + query, key: key} }

	e.run(t, []scenario{
		{"Dwight is Michael's parent", post(michael, "relationship_type_id=3&person_id="+dwight), 201,
			[]string{`{"data":{"id":1,"object":"relationship","type":{"id":3,"name":"parent"},"person":{"id":` + dwight +
				`,"name":"Dwight Schrute"},"created_at":` + now + `,"updated_at":` + now + `}}`}},
		{"the same again", post(michael, "relationship_type_id=3&person_id="+dwight), 422,
			[]string{`{"message":"The relationship already exists.","status":422,"errors":{"person_id":["The relationship already exists."]}}`}},
		{"the same made on the other person", post(dwight, "relationship_type_id=3&person_id="+michael), 422,
			errBody(422, "The relationship already exists.")},
		{"another type between the same two, as JSON strings", req{method: "POST", path: on(dwight), key: key,
			body: `{"relationship_type_id":"10","person_id":"` + michael + `"}`}, 201,
			[]string{`"id":2`, `"type":{"id":10,"name":"colleague"}`, `"person":{"id":` + michael + `,"name":"Michael Scott"}`}},
		{"a form, with a one-word name", req{method: "POST", path: on(jim), key: key,
			body: "relationship_type_id=11&person_id=" + michael, ctype: "application/x-www-form-urlencoded"}, 201,
			[]string{`"id":3`, `"type":{"id":11,"name":"manager"}`, `"person":{"id":` + michael + `,"name":"Michael Scott"}`}},
		{"nothing sent", post(michael, ""), 422,
			[]string{`"message":"The relationship type id field is required. (and 1 more error)"`,
				`"errors":{"person_id":["The person id field is required."],"relationship_type_id":["The relationship type id field is required."]}`}},
		{"blanks are absent", post(michael, "relationship_type_id=+&person_id=+"), 422,
			[]string{`"relationship_type_id":["The relationship type id field is required."]`, `"person_id":["The person id field is required."]`}},
		{"ids that are no integers", req{method: "POST", path: on(michael), key: key, body: `{"relationship_type_id":[3],"person_id":1.5}`}, 422,
			[]string{`"message":"The relationship type id field must be an integer. (and 1 more error)"`,
				`"relationship_type_id":["The relationship type id field must be an integer."]`, `"person_id":["The person id field must be an integer."]`}},
		{"words and numbers past int64", post(michael, "relationship_type_id=parent&person_id=99999999999999999999"), 422,
			[]string{`"relationship_type_id":["The relationship type id field must be an integer."]`, `"person_id":["The person id field must be an integer."]`}},
		{"a type that does not exist", post(michael, "relationship_type_id=999&person_id="+jim), 422,
			[]string{`{"message":"The selected relationship type id is invalid.","status":422,"errors":{"relationship_type_id":["The selected relationship type id is invalid."]}}`}},
		{"another account's type", post(michael, "relationship_type_id="+bobsType+"&person_id="+jim), 422,
			errBody(422, "The selected relationship type id is invalid.")},
		{"type id zero", post(michael, "relationship_type_id=0&person_id="+jim), 422, errBody(422, "The selected relationship type id is invalid.")},
		{"a person that does not exist", post(michael, "relationship_type_id=8&person_id=999"), 422,
			[]string{`{"message":"The selected person id is invalid.","status":422,"errors":{"person_id":["The selected person id is invalid."]}}`}},
		{"another account's person", post(michael, "relationship_type_id=8&person_id="+bobs), 422, errBody(422, "The selected person id is invalid.")},
		{"person id negative", post(michael, "relationship_type_id=8&person_id=-1"), 422, errBody(422, "The selected person id is invalid.")},
		{"the person themself", post(michael, "relationship_type_id=8&person_id="+michael), 422,
			[]string{`{"message":"The person id field and person must be different.","status":422,"errors":{"person_id":["The person id field and person must be different."]}}`}},
		{"an unknown type and the person themself: both said", post(michael, "relationship_type_id=999&person_id="+michael), 422,
			[]string{`"message":"The selected relationship type id is invalid. (and 1 more error)"`,
				`"errors":{"person_id":["The person id field and person must be different."],"relationship_type_id":["The selected relationship type id is invalid."]}`}},
		{"an unknown type and no person: the type is said first", post(michael, "relationship_type_id=999"), 422,
			[]string{`"message":"The selected relationship type id is invalid. (and 1 more error)"`,
				`"person_id":["The person id field is required."]`}},
		{"no type and an unknown person", post(michael, "person_id=999"), 422,
			[]string{`"message":"The relationship type id field is required. (and 1 more error)"`,
				`"person_id":["The selected person id is invalid."]`}},
		{"an existing pair under an unknown type is only the type's fault", post(michael, "relationship_type_id=999&person_id="+dwight), 422,
			[]string{`{"message":"The selected relationship type id is invalid.","status":422,"errors":{"relationship_type_id":["The selected relationship type id is invalid."]}}`}},
		{"a missing person of the path, with bad input, is 404", post("999", "relationship_type_id=x"), 404, errBody(404, "Person not found.")},
		{"another account's person of the path", post(bobs, "relationship_type_id=8&person_id="+jim), 404, errBody(404, "Person not found.")},
		{"a path person that is no number", post("michael", "relationship_type_id=8&person_id="+jim), 404, errBody(404, "Person not found.")},
		{"list of a missing person", req{method: "GET", path: on("999"), key: key}, 404, errBody(404, "Person not found.")},
		{"list, HEAD", req{method: "HEAD", path: on(michael), key: key}, 200, nil},
		{"list of a missing person, HEAD", req{method: "HEAD", path: on("999"), key: key}, 404, nil},
		{"PUT is no method of a relationship", req{method: "PUT", path: on(michael) + "/1?relationship_type_id=8", key: key}, 405,
			errBody(405, "Method not allowed.")},
		{"nor GET", req{method: "GET", path: on(michael) + "/1", key: key}, 405, errBody(405, "Method not allowed.")},
		{"nor PUT on the list", req{method: "PUT", path: on(michael), key: key}, 405, errBody(405, "Method not allowed.")},
	})

	if n := e.count(`SELECT count(*) FROM relationships`); n != 3 {
		t.Errorf("%d relationships stored, want the 3 that got 201", n)
	}
	wantList(t, "Michael's, from both sides by id", e.relationships(t, key, michael),
		"1 3 parent → "+dwight+" Dwight Schrute", "2 10 colleague → "+dwight+" Dwight Schrute", "3 11 report → "+jim+" Jim")
	wantList(t, "Dwight's", e.relationships(t, key, dwight),
		"1 3 child → "+michael+" Michael Scott", "2 10 colleague → "+michael+" Michael Scott")
	wantList(t, "Jim's", e.relationships(t, key, jim), "3 11 manager → "+michael+" Michael Scott")
	if r := e.do(req{method: "GET", path: on(bobs), key: bob}); r.body != `{"data":[]}`+"\n" {
		t.Errorf("a person without relationships: %s", r.body)
	}

	// A rename shows at once, from both sides.
	if r := e.do(req{method: "PUT", path: "/api/administration/relationship-types/3?name=mother+or+father&name_reverse=son+or+daughter&group=family", key: key}); r.code != 200 {
		t.Fatalf("rename: %d %s", r.code, r.body)
	}
	wantList(t, "Michael's after the rename", e.relationships(t, key, michael)[:1], "1 3 mother or father → "+dwight+" Dwight Schrute")
	wantList(t, "Dwight's after the rename", e.relationships(t, key, dwight)[:1], "1 3 son or daughter → "+michael+" Michael Scott")
	if r := e.do(req{method: "PUT", path: "/api/persons/" + dwight + "?first_name=Dwight&last_name=K.+Schrute&can_be_deleted=1", key: key}); r.code != 200 {
		t.Fatalf("rename Dwight: %d %s", r.code, r.body)
	}
	wantList(t, "Michael's after Dwight's rename", e.relationships(t, key, michael)[:1], "1 3 mother or father → "+dwight+" Dwight K. Schrute")

	inUse := `{"message":"The relationship type is in use.","status":422,"errors":{"relationship_type":["The relationship type is in use."]}}` + "\n"
	if r := e.do(req{method: "DELETE", path: "/api/administration/relationship-types/3", key: key}); r.code != 422 || r.body != inUse {
		t.Errorf("delete a type in use: %d %s", r.code, r.body)
	}
	notFound := errBody(404, "Relationship not found.")
	e.run(t, []scenario{
		{"delete from the other person's path", req{method: "DELETE", path: on(dwight) + "/2", key: key}, 204, nil},
		{"delete it again", req{method: "DELETE", path: on(michael) + "/2", key: key}, 404, notFound},
		{"delete one that does not involve the person", req{method: "DELETE", path: on(dwight) + "/3", key: key}, 404, notFound},
		{"delete a missing one", req{method: "DELETE", path: on(michael) + "/999", key: key}, 404, notFound},
		{"delete one whose id is no number", req{method: "DELETE", path: on(michael) + "/one", key: key}, 404, notFound},
		{"delete under a missing person", req{method: "DELETE", path: on("999") + "/1", key: key}, 404, errBody(404, "Person not found.")},
		{"delete under another account's person", req{method: "DELETE", path: on(bobs) + "/1", key: key}, 404, errBody(404, "Person not found.")},
		{"delete as another account", req{method: "DELETE", path: on(michael) + "/1", key: bob}, 404, errBody(404, "Person not found.")},
		{"the type of the deleted one can go", req{method: "DELETE", path: "/api/administration/relationship-types/10", key: key}, 204, nil},
	})
	wantList(t, "Michael's after the deletion", e.relationships(t, key, michael),
		"1 3 mother or father → "+dwight+" Dwight K. Schrute", "3 11 report → "+jim+" Jim")

	// Deleting a person deletes their relationships, which frees the type.
	if r := e.do(req{method: "DELETE", path: "/api/persons/" + dwight, key: key}); r.code != 204 {
		t.Fatalf("delete Dwight: %d %s", r.code, r.body)
	}
	wantList(t, "Michael's after Dwight went", e.relationships(t, key, michael), "3 11 report → "+jim+" Jim")
	if r := e.do(req{method: "DELETE", path: "/api/administration/relationship-types/3", key: key}); r.code != 204 {
		t.Errorf("delete the type freed: %d %s", r.code, r.body)
	}
	// A pair made again after its deletion is a new relationship.
	if r := e.do(post(michael, "relationship_type_id=2&person_id="+jim)); r.code != 201 || !strings.Contains(r.body, `"id":4`) {
		t.Errorf("a new relationship: %d %s", r.code, r.body)
	}
	if n := e.count(`SELECT count(*) FROM relationships`); n != 2 {
		t.Errorf("%d relationships stored, want 2", n)
	}
}

func TestRelationshipLogs(t *testing.T) {
	e := newEnv(t)
	_, key := e.user("ada@example.com")
	michael := e.person(key, "first_name=Michael&last_name=Scott")
	dwight := e.person(key, "first_name=Dwight")
	logged, _ := e.logsOf(key)
	steps := []struct {
		r                   req
		status              int
		action, description string
	}{
		{req{method: "POST", path: "/api/administration/relationship-types?name=boss&name_reverse=employee"}, 201,
			"relationship_type_creation", "Created the relationship type called boss"},
		{req{method: "POST", path: "/api/administration/relationship-types"}, 422, "", ""},
		{req{method: "PUT", path: "/api/administration/relationship-types/13?name=chief"}, 200,
			"relationship_type_update", "Updated the relationship type called chief"},
		{req{method: "POST", path: "/api/persons/" + michael + "/relationships?relationship_type_id=13&person_id=" + dwight}, 201,
			"relationship_creation", "Added a relationship for Michael Scott"},
		{req{method: "POST", path: "/api/persons/" + michael + "/relationships?relationship_type_id=13&person_id=" + dwight}, 422, "", ""},
		{req{method: "DELETE", path: "/api/administration/relationship-types/13"}, 422, "", ""},
		{req{method: "DELETE", path: "/api/persons/" + dwight + "/relationships/1"}, 204,
			"relationship_deletion", "Deleted a relationship for Dwight"},
		{req{method: "DELETE", path: "/api/persons/" + dwight + "/relationships/1"}, 404, "", ""},
		{req{method: "DELETE", path: "/api/administration/relationship-types/13"}, 204,
			"relationship_type_deletion", "Deleted the relationship type called chief"},
	}
	count := len(logged)
	for _, s := range steps {
		s.r.key = key
		if r := e.do(s.r); r.code != s.status {
			t.Fatalf("%s %s: %d, want %d: %s", s.r.method, s.r.path, r.code, s.status, r.body)
		}
		logs, total := e.logsOf(key)
		if s.action != "" {
			count++
		}
		if total != count {
			t.Fatalf("%s %s: %d entries, want %d", s.r.method, s.r.path, total, count)
		}
		if a := logs[0]["attributes"].(map[string]any); s.action != "" && (a["action"] != s.action || a["description"] != s.description) {
			t.Errorf("%s %s: logged %v %q, want %s %q", s.r.method, s.r.path, a["action"], a["description"], s.action, s.description)
		}
	}
}
