package server

import (
	"fmt"
	"strings"
	"testing"
)

// person creates a person through the API and returns its id.
func (e *env) person(key, query string) string {
	e.t.Helper()
	r := e.do(req{method: "POST", path: "/api/persons?" + query, key: key})
	if r.code != 201 {
		e.t.Fatalf("create person: %d %s", r.code, r.body)
	}
	return fmt.Sprint(r.json(e.t)["data"].(map[string]any)["id"])
}

var appearanceKeys = []string{"height", "weight", "build", "skin_tone", "face_shape", "eye_color", "eye_shape", "hair_color",
	"hair_type", "hair_length", "facial_hair", "scars", "tatoos", "piercings", "distinctive_marks", "glasses", "dress_style", "voice"}

func TestPersonShape(t *testing.T) {
	e := newEnv(t)
	_, key := e.user("ada@example.com")
	r := e.do(req{method: "POST", path: "/api/persons", key: key, body: `{"first_name":"Michael","last_name":"Scott","nickname":"Mike"}`})
	if r.code != 201 {
		t.Fatalf("%d %s", r.code, r.body)
	}
	p := keysOf(t, r.json(t)["data"], "id", "object", "name", "first_name", "last_name", "middle_name", "nickname",
		"maiden_name", "prefix", "suffix", "age", "how_we_met", "gender", "marital_status", "kids_status",
		"can_be_deleted", "is_listed", "physical_appearance", "tags", "has_photo", "created_at", "updated_at")
	now := float64(e.clock.Now().Unix())
	if tags, ok := p["tags"].([]any); !ok || len(tags) != 0 {
		t.Errorf("tags %v, want []", p["tags"])
	}
	if p["object"] != "person" || p["name"] != "Michael Scott" || p["nickname"] != "Mike" || p["middle_name"] != nil || p["has_photo"] != false ||
		p["can_be_deleted"] != true || p["is_listed"] != true || p["created_at"] != now || p["updated_at"] != now {
		t.Errorf("person: %s", r.body)
	}
	age := keysOf(t, p["age"], "age_type", "age")
	if age["age_type"] != nil || age["age"] != nil {
		t.Errorf("unset age: %v", age)
	}
	for k, v := range keysOf(t, p["physical_appearance"], appearanceKeys...) {
		if v != nil {
			t.Errorf("appearance %s = %v, want null", k, v)
		}
	}
	r = e.do(req{method: "POST", path: "/api/persons?first_name=Cher", key: key})
	if !strings.Contains(r.body, `"name":"Cher"`) {
		t.Errorf("name without last name: %s", r.body)
	}
}

func TestPersonCreate(t *testing.T) {
	e := newEnv(t)
	_, key := e.user("ada@example.com")
	post := func(q string) req { return req{method: "POST", path: "/api/persons?" + q, key: key} }
	e.run(t, []scenario{
		{"query string only, every field", post("first_name=Dwight&last_name=Schrute&middle_name=K&nickname=D&maiden_name=M&prefix=Mr&suffix=Jr" +
			"&how_we_met=Work&marital_status=single&kids_status=no_kids&can_be_deleted=0&is_listed=false"),
			201, []string{`"first_name":"Dwight"`, `"suffix":"Jr"`, `"how_we_met":"Work"`, `"marital_status":"single"`, `"kids_status":"no_kids"`,
				`"can_be_deleted":false`, `"is_listed":false`}},
		{"booleans as JSON", req{method: "POST", path: "/api/persons", key: key, body: `{"first_name":"A","can_be_deleted":true,"is_listed":0}`},
			201, []string{`"can_be_deleted":true`, `"is_listed":false`}},
		{"missing first name", post("last_name=Scott"), 422, errBody(422, "The first name field is required.")},
		{"blank first name", post("first_name=%20"), 422, errBody(422, "The first name field is required.")},
		{"oversized first name", post("first_name=" + strings.Repeat("x", 256)), 422, errBody(422, "The first name field must not be greater than 255 characters.")},
		{"oversized optional field", post("first_name=A&how_we_met=" + strings.Repeat("x", 256)), 422, errBody(422, "The how we met field must not be greater than 255 characters.")},
		{"unknown marital status", post("first_name=A&marital_status=married"), 422, errBody(422, "The selected marital status is invalid.")},
		{"unknown kids status", post("first_name=A&kids_status=lots"), 422, errBody(422, "The selected kids status is invalid.")},
		{"boolean that is not one", post("first_name=A&is_listed=maybe"), 422, errBody(422, "The is listed field must be true or false.")},
		{"first name of the wrong type", req{method: "POST", path: "/api/persons", key: key, body: `{"first_name":["A"]}`},
			422, errBody(422, "The first name field must be a string.")},
		{"several errors are summed up", post("marital_status=x&kids_status=y"), 422,
			[]string{`"message":"The first name field is required. (and 2 more errors)"`}},
	})
}

func TestPersonList(t *testing.T) {
	e := newEnv(t)
	_, key := e.user("ada@example.com")
	_, other := e.user("bob@example.com")
	e.person(other, "first_name=NotAda")
	for i := 1; i <= 17; i++ {
		e.person(key, fmt.Sprintf("first_name=P%02d", i))
	}
	r := e.do(req{method: "GET", path: "/api/persons", key: key})
	body := keysOf(t, r.json(t), "data", "links", "meta")
	if n := len(body["data"].([]any)); n != 15 || strings.Contains(r.body, "NotAda") {
		t.Errorf("first page: %d persons (want 15, none of bob's)", n)
	}
	links := keysOf(t, body["links"], "first", "last", "prev", "next")
	meta := keysOf(t, body["meta"], "current_page", "from", "last_page", "path", "per_page", "to", "total")
	if links["first"] != "http://example.com/api/persons?page=1" || links["last"] != "http://example.com/api/persons?page=2" ||
		links["prev"] != nil || links["next"] != "http://example.com/api/persons?page=2" {
		t.Errorf("links: %v", links)
	}
	if meta["current_page"] != 1.0 || meta["from"] != 1.0 || meta["to"] != 15.0 || meta["last_page"] != 2.0 ||
		meta["per_page"] != 15.0 || meta["total"] != 17.0 || meta["path"] != "http://example.com/api/persons" {
		t.Errorf("meta: %v", meta)
	}

	r = e.do(req{method: "GET", path: "/api/persons?page=2&per_page=10", key: key})
	data := r.json(t)["data"].([]any)
	if len(data) != 7 || data[0].(map[string]any)["first_name"] != "P11" || !strings.Contains(r.body, `"prev":"http://example.com/api/persons?page=1&per_page=10"`) ||
		!strings.Contains(r.body, `"next":null`) || !strings.Contains(r.body, `"from":11,"last_page":2`) {
		t.Errorf("page 2 of 10: %s", r.body)
	}
	r = e.do(req{method: "GET", path: "/api/persons?page=9", key: key})
	if len(r.json(t)["data"].([]any)) != 0 || !strings.Contains(r.body, `"from":null`) || !strings.Contains(r.body, `"to":null`) {
		t.Errorf("past the last page: %s", r.body)
	}

	e.run(t, []scenario{
		{"per_page at most 100", req{method: "GET", path: "/api/persons?per_page=101", key: key}, 422, errBody(422, "The per page field must be between 1 and 100.")},
		{"per_page zero", req{method: "GET", path: "/api/persons?per_page=0", key: key}, 422, errBody(422, "The per page field must be between 1 and 100.")},
		{"page zero", req{method: "GET", path: "/api/persons?page=0", key: key}, 422, errBody(422, "The page field must be at least 1.")},
		{"page not a number", req{method: "GET", path: "/api/persons?page=two", key: key}, 422, errBody(422, "The page field must be an integer.")},
		{"a page so far out that its offset would wrap round is empty", req{method: "GET", path: "/api/persons?page=1152921504606846977&per_page=16", key: key}, 200,
			[]string{`"data":[]`, `"current_page":1152921504606846977`, `"from":null`, `"to":null`, `"total":17`}},
		{"the largest page is empty", req{method: "GET", path: "/api/persons?page=9223372036854775807", key: key}, 200,
			[]string{`"data":[]`, `"from":null`, `"prev":"http://example.com/api/persons?page=2"`}},
		{"an empty account", req{method: "GET", path: "/api/persons", key: e.newKeyOfEmptyAccount()}, 200,
			[]string{`"data":[]`, `"total":0`, `"last_page":1`}},
	})
}

func (e *env) newKeyOfEmptyAccount() string {
	_, key := e.user("empty@example.com")
	return key
}

func TestPersonShowUpdateDelete(t *testing.T) {
	e := newEnv(t)
	_, key := e.user("ada@example.com")
	id := e.person(key, "first_name=Jim&last_name=Halpert&nickname=Big+Tuna&marital_status=couple&can_be_deleted=0&is_listed=0")
	path := "/api/persons/" + id
	notFound := errBody(404, "Person not found.")
	e.run(t, []scenario{
		{"show", req{method: "GET", path: path, key: key}, 200, []string{`"name":"Jim Halpert"`, `"nickname":"Big Tuna"`}},
		{"show a missing person", req{method: "GET", path: "/api/persons/999", key: key}, 404, notFound},
		{"show a person id that is not a number", req{method: "GET", path: "/api/persons/jim", key: key}, 404, notFound},
		{"a protected person cannot be deleted", req{method: "DELETE", path: path, key: key}, 403, errBody(403, "This person cannot be deleted.")},
		{"update needs a first name", req{method: "PUT", path: path, key: key, body: `{"last_name":"H"}`}, 422, errBody(422, "The first name field is required.")},
		{"update a missing person with bad input is 404 first", req{method: "PUT", path: "/api/persons/999", key: key}, 404, notFound},
		{"update replaces: omitted fields take their defaults", req{method: "PUT", path: path + "?first_name=James", key: key}, 200,
			[]string{`"name":"James"`, `"last_name":null`, `"nickname":null`, `"can_be_deleted":true`, `"is_listed":true`}},
		{"now it can be deleted", req{method: "DELETE", path: path, key: key}, 204, nil},
		{"gone", req{method: "GET", path: path, key: key}, 404, notFound},
		{"deleting twice", req{method: "DELETE", path: path, key: key}, 404, notFound},
	})
}

func TestPersonDeleteTakesItsTasks(t *testing.T) {
	e := newEnv(t)
	_, key := e.user("ada@example.com")
	id := e.person(key, "first_name=Jim")
	r := e.do(req{method: "POST", path: "/api/persons/" + id + "/tasks?name=Call", key: key})
	taskID := fmt.Sprint(r.json(t)["data"].(map[string]any)["id"])
	if r := e.do(req{method: "DELETE", path: "/api/persons/" + id, key: key}); r.code != 204 {
		t.Fatalf("delete: %d", r.code)
	}
	if r := e.do(req{method: "PUT", path: "/api/tasks/" + taskID + "/toggle", key: key}); r.code != 404 {
		t.Errorf("the deleted person's task still toggles: %d", r.code)
	}
	if n := e.count(`SELECT count(*) FROM tasks`); n != 0 {
		t.Errorf("%d tasks left, want 0", n)
	}
}

func TestPhysicalAppearance(t *testing.T) {
	e := newEnv(t)
	_, key := e.user("ada@example.com")
	path := "/api/persons/" + e.person(key, "first_name=Jim&nickname=Tuna") + "/physical-appearance"
	e.run(t, []scenario{
		{"set some fields", req{method: "PATCH", path: path + "?height=190cm&eye_color=brown&tatoos=none", key: key}, 200,
			[]string{`"height":"190cm"`, `"eye_color":"brown"`, `"tatoos":"none"`, `"voice":null`, `"nickname":"Tuna"`}},
		{"fields not sent stay", req{method: "PATCH", path: path, key: key, body: `{"voice":"deep"}`}, 200,
			[]string{`"height":"190cm"`, `"voice":"deep"`}},
		{"a field sent empty is cleared", req{method: "PATCH", path: path + "?height=", key: key}, 200,
			[]string{`"height":null`, `"eye_color":"brown"`}},
		{"a field sent null is cleared", req{method: "PATCH", path: path, key: key, body: `{"eye_color":null}`}, 200,
			[]string{`"eye_color":null`, `"voice":"deep"`}},
		{"nothing sent changes nothing", req{method: "PATCH", path: path, key: key}, 200, []string{`"voice":"deep"`}},
		{"oversized field", req{method: "PATCH", path: path + "?scars=" + strings.Repeat("s", 256), key: key}, 422,
			errBody(422, "The scars field must not be greater than 255 characters.")},
		{"wrong type", req{method: "PATCH", path: path, key: key, body: `{"glasses":true}`}, 422, errBody(422, "The glasses field must be a string.")},
		{"unknown fields are ignored", req{method: "PATCH", path: path + "?first_name=Hacked", key: key}, 200, []string{`"first_name":"Jim"`}},
		{"missing person", req{method: "PATCH", path: "/api/persons/999/physical-appearance?height=1", key: key}, 404, errBody(404, "Person not found.")},
	})
}
