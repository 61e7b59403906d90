package server

import (
	"fmt"
	"strings"
	"testing"
	"time"
)

// gift creates a gift through the API and returns its id.
func (e *env) gift(key, personID, query string) string {
	e.t.Helper()
	r := e.do(req{method: "POST", path: "/api/persons/" + personID + "/gifts?" + query, key: key})
	if r.code != 201 {
		e.t.Fatalf("create gift: %d %s", r.code, r.body)
	}
	return fmt.Sprint(r.json(e.t)["data"].(map[string]any)["id"])
}

func TestGiftCreate(t *testing.T) {
	e := newEnv(t)
	_, key := e.user("ada@example.com")
	_, bob := e.user("bob@example.com")
	jim := e.person(key, "first_name=Jim")
	bobs := e.person(bob, "first_name=Bob")
	path := "/api/persons/" + jim + "/gifts"
	post := func(q string) req { return req{method: "POST", path: path + "?" + q, key: key} }
	postJSON := func(b string) req { return req{method: "POST", path: path, key: key, body: b} }
	now := fmt.Sprint(e.clock.Now().Unix())
	badStatus := errBody(422, "The selected status is invalid.")
	badURL := errBody(422, "The url field must be a valid URL.")
	badDate := errBody(422, "The date field must be a valid date.")
	e.run(t, []scenario{
		{"query string only, every field", post("name=Teapot&status=given&occasion=Birthday&url=https://example.com/teapot&date=2026-12-01"), 201,
			[]string{`"object":"gift"`, `"name":"Teapot"`, `"occasion":"Birthday"`, `"url":"https://example.com/teapot"`, `"status":"given"`,
				`"gifted_at":1796083200`, `"created_at":` + now, `"updated_at":` + now}},
		{"only what is required", post("name=Book&status=idea"), 201, []string{`"occasion":null`, `"url":null`, `"gifted_at":null`, `"status":"idea"`}},
		{"JSON with an RFC 3339 time", postJSON(`{"name":"Mug","status":"offered","date":"2026-12-01T12:30:00+01:00"}`), 201,
			[]string{`"gifted_at":1796124600`, `"status":"offered"`}},
		{"a Unix time, and received as the web app writes it", postJSON(`{"name":"Mug","status":"received","date":1796083200}`), 201,
			[]string{`"gifted_at":1796083200`, `"status":"received"`}},
		{"blank optional fields are null", post("name=Pen&status=idea&occasion=+&url=&date="), 201, []string{`"occasion":null`, `"url":null`, `"gifted_at":null`}},
		{"missing name and status", post(""), 422,
			[]string{`"message":"The name field is required. (and 1 more error)"`, `"status":["The status field is required."]`}},
		{"an unknown status", post("name=x&status=lost"), 422, badStatus},
		{"a status of the wrong case", post("name=x&status=Idea"), 422, badStatus},
		{"a status of the wrong type", postJSON(`{"name":"x","status":["idea"]}`), 422, errBody(422, "The status field must be a string.")},
		{"oversized name", post("status=idea&name=" + strings.Repeat("n", 256)), 422, errBody(422, "The name field must not be greater than 255 characters.")},
		{"oversized occasion", post("name=x&status=idea&occasion=" + strings.Repeat("o", 256)), 422,
			errBody(422, "The occasion field must not be greater than 255 characters.")},
		{"oversized url", post("name=x&status=idea&url=https://example.com/" + strings.Repeat("u", 240)), 422,
			errBody(422, "The url field must not be greater than 255 characters.")},
		{"a url without a scheme", post("name=x&status=idea&url=example.com"), 422, badURL},
		{"a url without a host", post("name=x&status=idea&url=https:///path"), 422, badURL},
		{"a url with a port but no host", postJSON(`{"name":"x","status":"idea","url":"http://:80"}`), 422, badURL},
		{"a url with a user but no host", postJSON(`{"name":"x","status":"idea","url":"http://u@:80/x"}`), 422, badURL},
		{"a url with an IPv6 host and a port", postJSON(`{"name":"x","status":"idea","url":"http://[::1]:80/x"}`), 201, []string{`"url":"http://[::1]:80/x"`}},
		{"a url without //", post("name=x&status=idea&url=mailto:ada@example.com"), 422, badURL},
		{"a url with a space", postJSON(`{"name":"x","status":"idea","url":"https://exa mple.com"}`), 422, badURL},
		{"a javascript: url", postJSON(`{"name":"x","status":"idea","url":"javascript://example.com/%0Aalert(1)"}`), 422, badURL},
		{"an ftp url", post("name=x&status=idea&url=ftp://example.com/gift"), 422, badURL},
		{"a file url", postJSON(`{"name":"x","status":"idea","url":"file://localhost/etc/passwd"}`), 422, badURL},
		{"name of the wrong type", postJSON(`{"name":{"a":1},"status":"idea"}`), 422, errBody(422, "The name field must be a string.")},
		{"date not a date", post("name=x&status=idea&date=tomorrow"), 422, badDate},
		{"date on a day that does not exist", post("name=x&status=idea&date=2026-02-30"), 422, badDate},
		{"date past year 9999", post("name=x&status=idea&date=999999999999"), 422, badDate},
		{"date of the wrong type", postJSON(`{"name":"x","status":"idea","date":true}`), 422, badDate},
		{"a missing person", req{method: "POST", path: "/api/persons/999/gifts?name=x&status=idea", key: key}, 404, errBody(404, "Person not found.")},
		{"a missing person with bad input is still 404", req{method: "POST", path: "/api/persons/999/gifts?status=lost", key: key}, 404, errBody(404, "Person not found.")},
		{"another account's person", req{method: "POST", path: "/api/persons/" + bobs + "/gifts?name=x&status=idea", key: key}, 404, errBody(404, "Person not found.")},
		{"a person id that is not a number", req{method: "POST", path: "/api/persons/-1/gifts?name=x&status=idea", key: key}, 404, errBody(404, "Person not found.")},
	})
	if n := e.count(`SELECT count(*) FROM gifts`); n != 6 {
		t.Errorf("%d gifts, want the 6 that got 201", n)
	}
}

func TestGiftListAndShow(t *testing.T) {
	e := newEnv(t)
	_, key := e.user("ada@example.com")
	jim := e.person(key, "first_name=Jim")
	pam := e.person(key, "first_name=Pam")
	base := "/api/persons/" + jim + "/gifts"
	if r := e.do(req{method: "GET", path: base, key: key}); r.code != 200 || r.body != `{"data":[]}`+"\n" {
		t.Errorf("no gifts yet: %d %s", r.code, r.body)
	}
	first := e.gift(key, jim, "name=First&status=idea")
	second := e.gift(key, jim, "name=Second&status=given") // same second: id breaks the tie
	e.clock.Advance(time.Minute)
	third := e.gift(key, jim, "name=Third&status=offered&url=http://example.com")
	e.gift(key, pam, "name=Pam's&status=idea")

	r := e.do(req{method: "GET", path: base, key: key})
	var order []string
	for _, item := range keysOf(t, r.json(t), "data")["data"].([]any) {
		g := keysOf(t, item, "id", "object", "name", "occasion", "url", "status", "gifted_at", "created_at", "updated_at")
		order = append(order, fmt.Sprint(g["id"]))
	}
	if strings.Join(order, ",") != third+","+second+","+first {
		t.Errorf("order %v, want newest first: %s,%s,%s", order, third, second, first)
	}
	notFound := errBody(404, "Gift not found.")
	e.run(t, []scenario{
		{"gifts of a missing person", req{method: "GET", path: "/api/persons/999/gifts", key: key}, 404, errBody(404, "Person not found.")},
		{"show", req{method: "GET", path: base + "/" + third, key: key}, 200, []string{`"name":"Third"`, `"url":"http://example.com"`}},
		{"a gift under the wrong person", req{method: "GET", path: "/api/persons/" + pam + "/gifts/" + first, key: key}, 404, notFound},
		{"a missing gift", req{method: "GET", path: base + "/999", key: key}, 404, notFound},
		{"a gift id that is not a number", req{method: "GET", path: base + "/x", key: key}, 404, notFound},
		{"a gift under a missing person", req{method: "GET", path: "/api/persons/999/gifts/" + first, key: key}, 404, errBody(404, "Person not found.")},
		{"PATCH is not a method of a gift", req{method: "PATCH", path: base + "/" + first, key: key}, 405, errBody(405, "Method not allowed.")},
	})
}

func TestGiftUpdate(t *testing.T) {
	e := newEnv(t)
	_, key := e.user("ada@example.com")
	jim := e.person(key, "first_name=Jim")
	pam := e.person(key, "first_name=Pam")
	id := e.gift(key, jim, "name=Teapot&status=idea&occasion=Birthday&url=https://example.com&date=2026-12-01")
	created := fmt.Sprint(e.clock.Now().Unix())
	path := "/api/persons/" + jim + "/gifts/" + id
	put := func(q string) req { return req{method: "PUT", path: path + "?" + q, key: key} }
	e.clock.Advance(time.Hour)
	now := fmt.Sprint(e.clock.Now().Unix())
	notFound := errBody(404, "Gift not found.")
	e.run(t, []scenario{
		{"replace every field", put("name=Kettle&status=given&occasion=Christmas&url=https://example.org/k&date=2026-12-25"), 200,
			[]string{`"name":"Kettle"`, `"status":"given"`, `"occasion":"Christmas"`, `"url":"https://example.org/k"`,
				`"gifted_at":1798156800`, `"created_at":` + created, `"updated_at":` + now}},
		{"fields not sent are cleared", put("name=Kettle&status=given"), 200, []string{`"occasion":null`, `"url":null`, `"gifted_at":null`}},
		{"JSON", req{method: "PUT", path: path, key: key, body: `{"name":"Kettle","status":"received","date":"2026-12-25"}`}, 200,
			[]string{`"status":"received"`, `"gifted_at":1798156800`}},
		{"missing status", put("name=Kettle"), 422, errBody(422, "The status field is required.")},
		{"an unknown status", put("name=Kettle&status=sold"), 422, errBody(422, "The selected status is invalid.")},
		{"a bad url", put("name=Kettle&status=idea&url=not+a+url"), 422, errBody(422, "The url field must be a valid URL.")},
		{"a bad date", put("name=Kettle&status=idea&date=2026-13-01"), 422, errBody(422, "The date field must be a valid date.")},
		{"under the wrong person", req{method: "PUT", path: "/api/persons/" + pam + "/gifts/" + id + "?name=x&status=idea", key: key}, 404, notFound},
		{"under the wrong person with bad input is still 404", req{method: "PUT", path: "/api/persons/" + pam + "/gifts/" + id, key: key}, 404, notFound},
		{"under a missing person", req{method: "PUT", path: "/api/persons/999/gifts/" + id + "?name=x&status=idea", key: key}, 404, errBody(404, "Person not found.")},
		{"a missing gift", req{method: "PUT", path: "/api/persons/" + jim + "/gifts/999?name=x&status=idea", key: key}, 404, notFound},
	})
	r := e.do(req{method: "GET", path: path, key: key})
	if !strings.Contains(r.body, `"status":"received"`) || !strings.Contains(r.body, `"gifted_at":1798156800`) {
		t.Errorf("after the refused updates: %s", r.body)
	}
}

func TestGiftDelete(t *testing.T) {
	e := newEnv(t)
	_, key := e.user("ada@example.com")
	jim := e.person(key, "first_name=Jim&can_be_deleted=1")
	pam := e.person(key, "first_name=Pam")
	id := e.gift(key, jim, "name=Teapot&status=idea")
	e.gift(key, jim, "name=Mug&status=given")
	e.gift(key, pam, "name=Pam's&status=idea")
	notFound := errBody(404, "Gift not found.")
	e.run(t, []scenario{
		{"under the wrong person", req{method: "DELETE", path: "/api/persons/" + pam + "/gifts/" + id, key: key}, 404, notFound},
		{"under a missing person", req{method: "DELETE", path: "/api/persons/999/gifts/" + id, key: key}, 404, errBody(404, "Person not found.")},
		{"delete", req{method: "DELETE", path: "/api/persons/" + jim + "/gifts/" + id, key: key}, 204, nil},
		{"gone", req{method: "GET", path: "/api/persons/" + jim + "/gifts/" + id, key: key}, 404, notFound},
		{"twice", req{method: "DELETE", path: "/api/persons/" + jim + "/gifts/" + id, key: key}, 404, notFound},
		{"deleting the person", req{method: "DELETE", path: "/api/persons/" + jim, key: key}, 204, nil},
	})
	if n := e.count(`SELECT count(*) FROM gifts`); n != 1 {
		t.Errorf("%d gifts left, want Pam's alone: a deleted person's gifts go with them", n)
	}
}
