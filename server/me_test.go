package server

import (
	"strings"
	"testing"
	"time"
)

func TestMeShow(t *testing.T) {
	e := newEnv(t)
	u, token := e.user("ada@example.com")
	r := e.do(req{method: "GET", path: "/api/me", key: token, header: map[string]string{"Host": "kith.test"}})
	if r.code != 200 {
		t.Fatalf("status %d", r.code)
	}
	data := keysOf(t, r.json(t)["data"], "type", "id", "attributes", "links")
	if data["type"] != "user" || data["id"] != "1" || u.ID != 1 {
		t.Errorf("type/id: %v %v", data["type"], data["id"])
	}
	attrs := keysOf(t, data["attributes"], "first_name", "last_name", "nickname", "email", "born_at")
	if attrs["first_name"] != "Ada" || attrs["last_name"] != "Lovelace" || attrs["email"] != "ada@example.com" ||
		attrs["nickname"] != nil || attrs["born_at"] != nil {
		t.Errorf("attributes: %v", attrs)
	}
	if self := keysOf(t, data["links"], "self")["self"]; self != "http://kith.test/api/me" {
		t.Errorf("links.self %v", self)
	}
	if strings.Contains(r.body, "password") || strings.Contains(r.body, "$2a$") {
		t.Errorf("the password hash leaks: %s", r.body)
	}
}

func TestMeUpdate(t *testing.T) {
	e := newEnv(t)
	_, token := e.user("ada@example.com")
	e.user("bob@example.com")
	put := func(q string) req { return req{method: "PUT", path: "/api/me" + q, key: token} }
	body := func(b string) req { return req{method: "PUT", path: "/api/me", key: token, body: b} }
	e.run(t, []scenario{
		{"query string only, as the reference client sends it",
			put("?first_name=Dwight&last_name=Schrute&email=ada@example.com&nickname=Dwightchou&born_at=1985-03-15"),
			200, []string{`"first_name":"Dwight"`, `"last_name":"Schrute"`, `"nickname":"Dwightchou"`, `"email":"ada@example.com"`, `"born_at":479692800`}},
		{"PUT replaces: omitted optional fields are cleared",
			body(`{"first_name":"Ada","last_name":"Lovelace","email":"ada@example.com"}`),
			200, []string{`"nickname":null`, `"born_at":null`}},
		{"email is stored in lower case", body(`{"first_name":"Ada","last_name":"L","email":"Ada@Example.COM"}`),
			200, []string{`"email":"ada@example.com"`}},
		{"own email in another case is not taken, nor a change", body(`{"first_name":"Ada","last_name":"L","email":"ADA@example.com"}`),
			200, []string{`"email":"ada@example.com"`}},
		{"another user's email is taken, in any case", body(`{"first_name":"Ada","last_name":"L","email":"BOB@example.com"}`),
			422, errBody(422, "The email has already been taken.")},
		{"body wins over the query string", req{method: "PUT", path: "/api/me?first_name=Query&last_name=Q&email=ada@example.com", key: token,
			body: `{"first_name":"Body"}`}, 200, []string{`"first_name":"Body"`, `"last_name":"Q"`}},
		{"all required fields missing", body(`{}`),
			422, []string{`"message":"The first name field is required. (and 2 more errors)"`,
				`"last_name":["The last name field is required."]`, `"email":["The email field is required."]`}},
		{"oversized first name", body(`{"first_name":"` + strings.Repeat("x", 256) + `","last_name":"L","email":"ada@example.com"}`),
			422, errBody(422, "The first name field must not be greater than 255 characters.")},
		{"255 characters of several bytes each fit", body(`{"first_name":"` + strings.Repeat("ü", 255) + `","last_name":"L","email":"ada@example.com"}`),
			200, nil},
		{"oversized nickname", body(`{"first_name":"A","last_name":"L","email":"ada@example.com","nickname":"` + strings.Repeat("n", 256) + `"}`),
			422, errBody(422, "The nickname field must not be greater than 255 characters.")},
		{"malformed email", body(`{"first_name":"A","last_name":"L","email":"Ada <ada@example.com>"}`),
			422, errBody(422, "The email field must be a valid email address.")},
		{"born_at not a date", body(`{"first_name":"A","last_name":"L","email":"ada@example.com","born_at":"15/03/1985"}`),
			422, errBody(422, "The born at field must match the format Y-m-d.")},
		{"born_at on a day that does not exist", body(`{"first_name":"A","last_name":"L","email":"ada@example.com","born_at":"1985-02-30"}`),
			422, errBody(422, "The born at field must match the format Y-m-d.")},
		{"born_at as a number", body(`{"first_name":"A","last_name":"L","email":"ada@example.com","born_at":479692800}`),
			422, errBody(422, "The born at field must match the format Y-m-d.")},
		{"born_at in the future", body(`{"first_name":"A","last_name":"L","email":"ada@example.com","born_at":"2026-03-16"}`),
			422, errBody(422, "The born at field must be a date before or equal to today.")},
		{"born_at today", body(`{"first_name":"A","last_name":"L","email":"ada@example.com","born_at":"2026-03-15"}`),
			200, []string{`"born_at":1773532800`}},
		{"first name of the wrong type", body(`{"first_name":{"x":1},"last_name":"L","email":"ada@example.com"}`),
			422, errBody(422, "The first name field must be a string.")},
		{"a number for a name is taken as its digits", body(`{"first_name":42,"last_name":"L","email":"ada@example.com"}`),
			200, []string{`"first_name":"42"`}},
		{"strings are trimmed", body(`{"first_name":"  Ada  ","last_name":" L ","email":" ada@example.com "}`),
			200, []string{`"first_name":"Ada"`, `"last_name":"L"`, `"email":"ada@example.com"`}},
		{"JSON array body", body(`["Ada"]`), 400, errBody(400, "The request body must be a JSON object.")},
		{"trailing data after the JSON object", body(`{"first_name":"A"} {}`), 400, errBody(400, "The request body is not valid JSON.")},
	})
}

// TestMeUpdateBornAtUsesTheUsersToday: at 23:30 UTC on 15 March it is
// already 16 March in Auckland, so a user there may give 16 March.
func TestMeUpdateBornAtUsesTheUsersToday(t *testing.T) {
	e := newEnv(t)
	_, token := e.user("ada@example.com")
	e.clock.Advance(11*time.Hour + 30*time.Minute)
	b := `{"first_name":"A","last_name":"L","email":"ada@example.com","born_at":"2026-03-16"}`
	if r := e.do(req{method: "PUT", path: "/api/me", key: token, body: b}); r.code != 422 {
		t.Fatalf("in UTC 16 March is tomorrow: %d", r.code)
	}
	if r := e.do(req{method: "PUT", path: "/api/me/timezone", key: token, body: `{"timezone":"Pacific/Auckland"}`}); r.code != 200 {
		t.Fatalf("timezone: %d %s", r.code, r.body)
	}
	if r := e.do(req{method: "PUT", path: "/api/me", key: token, body: b}); r.code != 200 {
		t.Fatalf("in Auckland 16 March is today: %d %s", r.code, r.body)
	}
}

func TestTimezone(t *testing.T) {
	e := newEnv(t)
	_, token := e.user("ada@example.com")
	r := e.do(req{method: "GET", path: "/api/me/timezone", key: token})
	data := keysOf(t, r.json(t)["data"], "type", "attributes", "links")
	if data["type"] != "timezone" || keysOf(t, data["attributes"], "timezone")["timezone"] != "UTC" {
		t.Errorf("a new user's timezone: %s", r.body)
	}
	if keysOf(t, data["links"], "self")["self"] != "http://example.com/api/me" {
		t.Errorf("links: %s", r.body)
	}
	put := func(q string) req { return req{method: "PUT", path: "/api/me/timezone" + q, key: token} }
	invalidTZ := errBody(422, "The timezone field must be a valid timezone.")
	e.run(t, []scenario{
		{"query string only, as the reference client sends it", put("?timezone=Europe/Paris"), 200, []string{`"timezone":"Europe/Paris"`}},
		{"JSON body", req{method: "PUT", path: "/api/me/timezone", key: token, body: `{"timezone":"America/New_York"}`}, 200, []string{`"timezone":"America/New_York"`}},
		{"missing", put(""), 422, errBody(422, "The timezone field is required.")},
		{"empty", put("?timezone="), 422, errBody(422, "The timezone field is required.")},
		{"unknown zone", put("?timezone=Mars/Olympus"), 422, invalidTZ},
		{"names are case-sensitive", put("?timezone=europe/paris"), 422, invalidTZ},
		{"Local is the host's zone, not a place", put("?timezone=Local"), 422, invalidTZ},
		{"a path is not a zone", put("?timezone=../../etc/passwd"), 422, invalidTZ},
		{"wrong type", req{method: "PUT", path: "/api/me/timezone", key: token, body: `{"timezone":7}`}, 422, invalidTZ},
	})
	r = e.do(req{method: "GET", path: "/api/me/timezone", key: token})
	if !strings.Contains(r.body, `"timezone":"America/New_York"`) {
		t.Errorf("failed updates changed the timezone: %s", r.body)
	}
}

func TestBaseURLFromConfigAndProxies(t *testing.T) {
	t.Run("base_url wins", func(t *testing.T) {
		e := newEnv(t, func(o *Options) { o.BaseURL = "https://kith.example.org" })
		_, token := e.user("ada@example.com")
		r := e.do(req{method: "GET", path: "/api/me", key: token})
		if !strings.Contains(r.body, `"self":"https://kith.example.org/api/me"`) {
			t.Errorf("links: %s", r.body)
		}
	})
	t.Run("X-Forwarded-Proto only from a trusted proxy", func(t *testing.T) {
		e := newEnv(t, func(o *Options) { o.TrustedProxies = []string{"10.0.0.1/32"} })
		_, token := e.user("ada@example.com")
		h := map[string]string{"X-Forwarded-Proto": "https", "Host": "kith.test"}
		r := e.do(req{method: "GET", path: "/api/me", key: token, header: h, remote: "10.0.0.1:5000"})
		if !strings.Contains(r.body, `"self":"https://kith.test/api/me"`) {
			t.Errorf("from the proxy: %s", r.body)
		}
		r = e.do(req{method: "GET", path: "/api/me", key: token, header: h, remote: "203.0.113.9:5000"})
		if !strings.Contains(r.body, `"self":"http://kith.test/api/me"`) {
			t.Errorf("from a stranger: %s", r.body)
		}
	})
}
