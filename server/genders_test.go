package server

import (
	"fmt"
	"strings"
	"testing"
	"time"
)

func TestGenderDefaults(t *testing.T) {
	e := newEnv(t)
	_, key := e.user("ada@example.com")
	r := e.do(req{method: "GET", path: "/api/administration/genders", key: key})
	list := r.json(t)["data"].([]any)
	if r.code != 200 || len(list) != 3 {
		t.Fatalf("defaults: %d %s", r.code, r.body)
	}
	created := float64(e.clock.Now().Unix())
	for i, item := range list {
		g := keysOf(t, item, "type", "id", "attributes", "links")
		a := keysOf(t, g["attributes"], "name", "position", "created_at", "updated_at")
		if g["type"] != "gender" || a["name"] != []string{"Man", "Woman", "Other"}[i] || a["position"] != float64(i+1) ||
			a["created_at"] != created || a["updated_at"] != nil {
			t.Errorf("default %d: %v", i, g)
		}
		if keysOf(t, g["links"], "self")["self"] != "http://example.com/api/administration/genders/"+g["id"].(string) {
			t.Errorf("links: %v", g["links"])
		}
	}
}

func TestGenders(t *testing.T) {
	e := newEnv(t)
	_, key := e.user("ada@example.com")
	e.clock.Advance(time.Hour)
	now := fmt.Sprint(e.clock.Now().Unix())
	base := "/api/administration/genders"
	notFound := errBody(404, "Gender not found.")
	do := func(method, path, body string) req { return req{method: method, path: path, key: key, body: body} }
	e.run(t, []scenario{
		{"create, query string only; a position sent is ignored", do("POST", base+"?name=Nonbinary&position=1", ""), 201,
			[]string{`"type":"gender"`, `"id":"4"`, `"name":"Nonbinary"`, `"position":4`, `"created_at":` + now, `"updated_at":` + now,
				`"self":"http://example.com/api/administration/genders/4"`}},
		{"create with JSON comes after the highest position", do("POST", base, `{"name":"Agender"}`), 201, []string{`"id":"5"`, `"position":5`}},
		{"create without a name", do("POST", base, ""), 422, errBody(422, "The name field is required.")},
		{"create with a blank name", do("POST", base+"?name=+++", ""), 422, errBody(422, "The name field is required.")},
		{"create with a name over 255 characters", do("POST", base+"?name="+strings.Repeat("n", 256), ""), 422,
			errBody(422, "The name field must not be greater than 255 characters.")},
		{"create with a name that is not a string", do("POST", base, `{"name":["x"]}`), 422, errBody(422, "The name field must be a string.")},
		{"show", do("GET", base+"/2", ""), 200, []string{`"name":"Woman"`, `"position":2`, `"updated_at":null`}},
		{"show a missing one", do("GET", base+"/999", ""), 404, notFound},
		{"show an id that is not a number", do("GET", base+"/two", ""), 404, notFound},
		{"show id zero", do("GET", base+"/0", ""), 404, notFound},
		{"update, query string only", do("PUT", base+"/2?name=Female&position=7", ""), 200,
			[]string{`"name":"Female"`, `"position":7`, `"updated_at":` + now}},
		{"update with JSON, a duplicate negative position", do("PUT", base+"/3", `{"name":"Other","position":"-1"}`), 200,
			[]string{`"name":"Other"`, `"position":-1`}},
		{"update a duplicate position", do("PUT", base+"/1?name=Male&position=-1", ""), 200, []string{`"position":-1`}},
		{"update without a position", do("PUT", base+"/2?name=Female", ""), 422, errBody(422, "The position field is required.")},
		{"update with a position that is not an integer", do("PUT", base+"/2?name=Female&position=first", ""), 422,
			errBody(422, "The position field must be an integer.")},
		{"update with a fractional position", do("PUT", base+"/2", `{"name":"Female","position":1.5}`), 422,
			errBody(422, "The position field must be an integer.")},
		{"update without anything", do("PUT", base+"/2", ""), 422,
			[]string{`"message":"The name field is required. (and 1 more error)"`, `"position":["The position field is required."]`}},
		{"update with a name over 255 characters", do("PUT", base+"/2?position=1&name="+strings.Repeat("n", 256), ""), 422,
			errBody(422, "The name field must not be greater than 255 characters.")},
		{"update a missing one with bad input is 404", do("PUT", base+"/999", ""), 404, notFound},
		{"delete a default", do("DELETE", base+"/1", ""), 204, nil},
		{"delete twice", do("DELETE", base+"/1", ""), 404, notFound},
		{"delete an id that is not a number", do("DELETE", base+"/one", ""), 404, notFound},
		{"list by position, then id", do("GET", base, ""), 200, nil},
	})
	r := e.do(do("GET", base, ""))
	var order []string
	for _, item := range r.json(t)["data"].([]any) {
		order = append(order, item.(map[string]any)["id"].(string))
	}
	if got := strings.Join(order, ","); got != "3,4,5,2" {
		t.Errorf("order %s, want 3,4,5,2 (positions -1, 4, 5, 7): %s", got, r.body)
	}
	for _, id := range order {
		if r := e.do(do("DELETE", base+"/"+id, "")); r.code != 204 {
			t.Fatalf("delete %s: %d %s", id, r.code, r.body)
		}
	}
	if r := e.do(do("GET", base, "")); r.code != 200 || r.body != `{"data":[]}`+"\n" {
		t.Errorf("no genders left: %d %s", r.code, r.body)
	}
	if r := e.do(do("POST", base+"?name=Any", "")); r.code != 201 || !strings.Contains(r.body, `"position":1`) {
		t.Errorf("first gender of an empty account: %d %s", r.code, r.body)
	}
}

func TestPersonGender(t *testing.T) {
	e := newEnv(t)
	_, key := e.user("ada@example.com")
	_, bob := e.user("bob@example.com")
	bobsGender := fmt.Sprint(e.do(req{method: "GET", path: "/api/administration/genders", key: bob}).json(t)["data"].([]any)[0].(map[string]any)["id"])
	badGender := errBody(422, "The selected gender id is invalid.")
	post := func(q string) req { return req{method: "POST", path: "/api/persons?" + q, key: key} }
	e.run(t, []scenario{
		{"no gender, statuses unknown", post("first_name=Jim"), 201,
			[]string{`"gender":null`, `"marital_status":"unknown"`, `"kids_status":"unknown"`}},
		{"query string only, with a gender and statuses", post("first_name=Pam&gender_id=2&marital_status=couple&kids_status=has_kids"), 201,
			[]string{`"gender":{"id":2,"name":"Woman"}`, `"marital_status":"couple"`, `"kids_status":"has_kids"`}},
		{"JSON with gender_id as a string", req{method: "POST", path: "/api/persons", key: key, body: `{"first_name":"Dwight","gender_id":"1"}`}, 201,
			[]string{`"gender":{"id":1,"name":"Man"}`}},
		{"an empty gender_id is none", post("first_name=Kevin&gender_id="), 201, []string{`"gender":null`}},
		{"JSON null gender_id is none", req{method: "POST", path: "/api/persons", key: key, body: `{"first_name":"Oscar","gender_id":null}`}, 201,
			[]string{`"gender":null`}},
		{"a gender that does not exist", post("first_name=X&gender_id=999"), 422, badGender},
		{"another account's gender", post("first_name=X&gender_id=" + bobsGender), 422, badGender},
		{"gender id zero", post("first_name=X&gender_id=0"), 422, badGender},
		{"gender id negative", post("first_name=X&gender_id=-1"), 422, badGender},
		{"gender id not a number", post("first_name=X&gender_id=man"), 422, errBody(422, "The gender id field must be an integer.")},
		{"gender id of the wrong type", req{method: "POST", path: "/api/persons", key: key, body: `{"first_name":"X","gender_id":[1]}`}, 422,
			errBody(422, "The gender id field must be an integer.")},
		{"gender id past int64", post("first_name=X&gender_id=99999999999999999999"), 422, errBody(422, "The gender id field must be an integer.")},
	})
	if n := e.count(`SELECT count(*) FROM persons`); n != 5 {
		t.Errorf("%d persons, want the 5 that got 201", n)
	}

	pam := e.person(key, "first_name=Pam&gender_id=2&marital_status=single")
	path := "/api/persons/" + pam
	put := func(q string) req { return req{method: "PUT", path: path + "?" + q, key: key} }
	e.clock.Advance(time.Minute)
	e.run(t, []scenario{
		{"update replaces the gender", put("first_name=Pam&gender_id=3"), 200, []string{`"gender":{"id":3,"name":"Other"}`}},
		{"update with an unknown gender", put("first_name=Pam&gender_id=999"), 422, badGender},
		{"update with another account's gender", put("first_name=Pam&gender_id=" + bobsGender), 422, badGender},
		{"a missing person with an unknown gender is 404", req{method: "PUT", path: "/api/persons/999?first_name=X&gender_id=999", key: key}, 404,
			errBody(404, "Person not found.")},
		{"another account's person with its own gender is 404", req{method: "PUT", path: path + "?first_name=X&gender_id=" + bobsGender, key: bob}, 404,
			errBody(404, "Person not found.")},
		{"update without gender, statuses clears them", put("first_name=Pam"), 200,
			[]string{`"gender":null`, `"marital_status":"unknown"`, `"kids_status":"unknown"`}},
	})
	if r := e.do(put("first_name=Pam&gender_id=2")); r.code != 200 {
		t.Fatalf("%d %s", r.code, r.body)
	}
	if r := e.do(req{method: "PUT", path: "/api/administration/genders/2?name=Female&position=2", key: key}); r.code != 200 {
		t.Fatalf("rename: %d %s", r.code, r.body)
	}
	for _, p := range []string{path, "/api/persons"} {
		if r := e.do(req{method: "GET", path: p, key: key}); !strings.Contains(r.body, `"gender":{"id":2,"name":"Female"}`) {
			t.Errorf("GET %s after the rename: %s", p, r.body)
		}
	}
	if r := e.do(req{method: "PATCH", path: path + "/age?age_type=bracket&age_bracket=20-30&add_yearly_reminder=0", key: key}); !strings.Contains(r.body, `"gender":{"id":2,"name":"Female"}`) {
		t.Errorf("age answer: %s", r.body)
	}
	if r := e.do(req{method: "PATCH", path: path + "/physical-appearance?height=1", key: key}); !strings.Contains(r.body, `"gender":{"id":2,"name":"Female"}`) {
		t.Errorf("appearance answer: %s", r.body)
	}
	if r := e.do(req{method: "DELETE", path: "/api/administration/genders/2", key: key}); r.code != 204 {
		t.Fatalf("delete: %d %s", r.code, r.body)
	}
	if r := e.do(req{method: "GET", path: path, key: key}); r.code != 200 || !strings.Contains(r.body, `"gender":null`) {
		t.Errorf("after the gender went: %d %s", r.code, r.body)
	}
	if r := e.do(put("first_name=Pam&gender_id=2")); r.code != 422 {
		t.Errorf("a deleted gender: %d %s", r.code, r.body)
	}
}
