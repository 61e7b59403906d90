package server

import (
	"fmt"
	"strings"
	"testing"
	"time"
)

// defaultRelationshipTypes are every account's twelve types, in order:
// name, name_reverse, group.
var defaultRelationshipTypes = [][3]string{
	{"partner", "partner", "love"}, {"spouse", "spouse", "love"}, {"parent", "child", "family"},
	{"sibling", "sibling", "family"}, {"grandparent", "grandchild", "family"},
	{"uncle or aunt", "nephew or niece", "family"}, {"cousin", "cousin", "family"},
	{"friend", "friend", "friend"}, {"best friend", "best friend", "friend"},
	{"colleague", "colleague", "work"}, {"manager", "report", "work"}, {"mentor", "mentee", "work"},
}

// relationshipTypes answers the account's types, each checked for its
// exact keys.
func (e *env) relationshipTypes(t *testing.T, key string) []map[string]any {
	t.Helper()
	r := e.do(req{method: "GET", path: "/api/administration/relationship-types", key: key})
	if r.code != 200 {
		t.Fatalf("list relationship types: %d %s", r.code, r.body)
	}
	var out []map[string]any
	for _, item := range keysOf(t, r.json(t), "data")["data"].([]any) {
		out = append(out, keysOf(t, item, "id", "object", "name", "name_reverse", "group", "created_at", "updated_at"))
	}
	return out
}

func TestRelationshipTypeDefaults(t *testing.T) {
	e := newEnv(t)
	ada, key := e.user("ada@example.com")
	created := float64(e.clock.Now().Unix())
	e.clock.Advance(time.Hour)
	_, teammate := e.userIn(ada.AccountID, "grace@example.com") // joins: adds none
	_, bob := e.user("bob@example.com")
	for _, who := range []string{key, teammate} {
		types := e.relationshipTypes(t, who)
		if len(types) != 12 {
			t.Fatalf("%d types: %v", len(types), types)
		}
		for i, ty := range types {
			want := defaultRelationshipTypes[i]
			if ty["id"] != float64(i+1) || ty["object"] != "relationship_type" || ty["name"] != want[0] ||
				ty["name_reverse"] != want[1] || ty["group"] != want[2] || ty["created_at"] != created || ty["updated_at"] != created {
				t.Errorf("default %d: %v, want %v", i, ty, want)
			}
		}
	}
	bobs := e.relationshipTypes(t, bob)
	if len(bobs) != 12 || bobs[0]["id"] != float64(13) || bobs[0]["created_at"] != created+3600 {
		t.Errorf("another account's types: %v", bobs)
	}
	if logs, _ := e.logsOf(key); len(logs) != 0 {
		t.Errorf("the defaults were logged: %v", logs)
	}
}

func TestRelationshipTypes(t *testing.T) {
	e := newEnv(t)
	_, key := e.user("ada@example.com")
	e.clock.Advance(time.Hour)
	now := fmt.Sprint(e.clock.Now().Unix())
	base := "/api/administration/relationship-types"
	notFound := errBody(404, "Relationship type not found.")
	do := func(method, path, body string) req { return req{method: method, path: path, key: key, body: body} }
	long := strings.Repeat("n", 256)
	e.run(t, []scenario{
		{"create with a name only: symmetric, in the group other", do("POST", base+"?name=++neighbour++", ""), 201,
			[]string{`{"data":{"id":13,"object":"relationship_type","name":"neighbour","name_reverse":"neighbour","group":"other","created_at":` + now + `,"updated_at":` + now + `}}`}},
		{"create with JSON, every field", do("POST", base, `{"name":"godparent","name_reverse":"godchild","group":"family"}`), 201,
			[]string{`"id":14`, `"name":"godparent"`, `"name_reverse":"godchild"`, `"group":"family"`}},
		{"create as a form; empty name_reverse and group are absent", req{method: "POST", path: base, key: key,
			body: "name=coach&name_reverse=&group=", ctype: "application/x-www-form-urlencoded"}, 201,
			[]string{`"id":15`, `"name":"coach"`, `"name_reverse":"coach"`, `"group":"other"`}},
		{"names need not be unique", do("POST", base+"?name=friend&group=friend", ""), 201, []string{`"id":16`, `"name":"friend"`}},
		{"create without a name", do("POST", base+"?name_reverse=x", ""), 422, errBody(422, "The name field is required.")},
		{"create with a blank name", do("POST", base+"?name=+++", ""), 422, errBody(422, "The name field is required.")},
		{"create with a name over 255 characters", do("POST", base+"?name="+long, ""), 422,
			errBody(422, "The name field must not be greater than 255 characters.")},
		{"create with a name_reverse over 255 characters", do("POST", base+"?name=x&name_reverse="+long, ""), 422,
			[]string{`"errors":{"name_reverse":["The name reverse field must not be greater than 255 characters."]}`}},
		{"create with an unknown group", do("POST", base+"?name=x&group=enemies", ""), 422,
			[]string{`{"message":"The selected group is invalid.","status":422,"errors":{"group":["The selected group is invalid."]}}`}},
		{"create with a name that is not a string", do("POST", base, `{"name":["x"]}`), 422, errBody(422, "The name field must be a string.")},
		{"create with every field wrong", do("POST", base, `{"name_reverse":true,"group":"Love"}`), 422,
			[]string{`"message":"The name field is required. (and 2 more errors)"`, `"name_reverse":["The name reverse field must be a string."]`,
				`"group":["The selected group is invalid."]`}},
		{"show", do("GET", base+"/3", ""), 200, []string{`"id":3`, `"name":"parent"`, `"name_reverse":"child"`, `"group":"family"`}},
		{"show, HEAD", do("HEAD", base+"/3", ""), 200, nil},
		{"show another account's, or a missing one", do("GET", base+"/999", ""), 404, notFound},
		{"show an id that is not a number", do("GET", base+"/parent", ""), 404, notFound},
		{"show id zero", do("GET", base+"/0", ""), 404, notFound},
		{"update replaces: name_reverse and group left out go back to their defaults", do("PUT", base+"/3?name=mother+or+father", ""), 200,
			[]string{`"id":3`, `"name":"mother or father"`, `"name_reverse":"mother or father"`, `"group":"other"`, `"updated_at":` + now}},
		{"update with JSON", do("PUT", base+"/3", `{"name":"parent","name_reverse":"child","group":"family"}`), 200,
			[]string{`"name":"parent"`, `"name_reverse":"child"`, `"group":"family"`}},
		{"update without a name", do("PUT", base+"/3?group=love", ""), 422, errBody(422, "The name field is required.")},
		{"update a missing one with bad input is 404", do("PUT", base+"/999?group=enemies", ""), 404, notFound},
		{"PATCH is no method of a type", do("PATCH", base+"/3?name=x", ""), 405, errBody(405, "Method not allowed.")},
		{"delete an unused one", do("DELETE", base+"/13", ""), 204, nil},
		{"delete it again", do("DELETE", base+"/13", ""), 404, notFound},
		{"delete an id that is not a number", do("DELETE", base+"/x", ""), 404, notFound},
		{"delete a default", do("DELETE", base+"/1", ""), 204, nil},
		{"list, HEAD", do("HEAD", base, ""), 200, nil},
	})
	var ids []string
	for _, ty := range e.relationshipTypes(t, key) {
		ids = append(ids, fmt.Sprint(ty["id"]))
	}
	if got := strings.Join(ids, ","); got != "2,3,4,5,6,7,8,9,10,11,12,14,15,16" {
		t.Errorf("list by id: %s", got)
	}
	if r := e.do(do("HEAD", base+"/3", "")); r.body != "" || !strings.HasPrefix(r.header.Get("Content-Type"), "application/json") {
		t.Errorf("HEAD answers a body or no JSON type: %q %v", r.body, r.header)
	}
}
