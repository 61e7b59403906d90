package server

import (
	"context"
	"net/http"
	"strings"
	"testing"
	"time"
)

func TestLogin(t *testing.T) {
	e := newEnv(t)
	e.user("ada@example.com")
	long := strings.Repeat("a", 250) + "@x.io" // 255 characters, still an address
	e.run(t, []scenario{
		{"json body logs in", req{method: "POST", path: "/api/login", body: `{"email":"ada@example.com","password":"correct horse"}`},
			200, []string{`"message":"Authenticated"`, `"status":200`, `"token":"`}},
		{"query string only logs in, as the reference client sends it", req{method: "POST", path: "/api/login?email=ada@example.com&password=correct%20horse"},
			200, []string{`"token":"`}},
		{"form body logs in", req{method: "POST", path: "/api/login", body: "email=ada%40example.com&password=correct+horse", ctype: "application/x-www-form-urlencoded"},
			200, []string{`"token":"`}},
		{"email in another case logs in", req{method: "POST", path: "/api/login", body: `{"email":"  ADA@Example.com ","password":"correct horse"}`},
			200, []string{`"token":"`}},
		{"wrong password is refused", req{method: "POST", path: "/api/login", body: `{"email":"ada@example.com","password":"wrong horse"}`},
			401, errBody(401, "Invalid credentials")},
		{"unknown email gets the same answer", req{method: "POST", path: "/api/login", body: `{"email":"bob@example.com","password":"correct horse"}`},
			401, errBody(401, "Invalid credentials")},
		{"password is not trimmed", req{method: "POST", path: "/api/login", body: `{"email":"ada@example.com","password":" correct horse"}`},
			401, errBody(401, "Invalid credentials")},
		{"missing fields are both named", req{method: "POST", path: "/api/login"},
			422, []string{`"message":"The email field is required. (and 1 more error)"`, `"password":["The password field is required."]`}},
		{"empty strings count as missing", req{method: "POST", path: "/api/login", body: `{"email":"  ","password":""}`},
			422, []string{`"email":["The email field is required."]`}},
		{"malformed email", req{method: "POST", path: "/api/login", body: `{"email":"ada","password":"x"}`},
			422, errBody(422, "The email field must be a valid email address.")},
		{"oversized email", req{method: "POST", path: "/api/login", body: `{"email":"a` + long + `","password":"x"}`},
			422, errBody(422, "The email field must not be greater than 255 characters.")},
		{"oversized password", req{method: "POST", path: "/api/login", body: `{"email":"ada@example.com","password":"` + strings.Repeat("é", 256) + `"}`},
			422, errBody(422, "The password field must not be greater than 255 characters.")},
		{"email of the wrong type", req{method: "POST", path: "/api/login", body: `{"email":["ada@example.com"],"password":"correct horse"}`},
			422, errBody(422, "The email field must be a string.")},
		{"password of the wrong type", req{method: "POST", path: "/api/login", body: `{"email":"ada@example.com","password":true}`},
			422, errBody(422, "The password field must be a string.")},
		{"body that is not JSON", req{method: "POST", path: "/api/login", body: `{"email":`},
			400, errBody(400, "The request body is not valid JSON.")},
		{"GET is not a method of login", req{method: "GET", path: "/api/login"},
			405, errBody(405, "Method not allowed.")},
	})
}

func TestLoginCreatesAListedKeyThatWorks(t *testing.T) {
	e := newEnv(t)
	e.user("ada@example.com")
	r := e.do(req{method: "POST", path: "/api/login?email=ada@example.com&password=correct%20horse"})
	body := keysOf(t, r.json(t), "message", "status", "data")
	token := keysOf(t, body["data"], "token")["token"].(string)
	if id, secret, ok := strings.Cut(token, "|"); !ok || id == "" || len(secret) < 40 {
		t.Fatalf("token %q is not <id>|<secret of 40+ characters>", token)
	}
	if got := e.do(req{method: "GET", path: "/api/me", key: token}); got.code != 200 {
		t.Fatalf("the new key gets %d", got.code)
	}
	list := e.do(req{method: "GET", path: "/api/administration/api", key: token})
	if !strings.Contains(list.body, `"name":"API token for ada@example.com"`) {
		t.Errorf("the login key is not listed: %s", list.body)
	}
}

func TestLoginThrottle(t *testing.T) {
	e := newEnv(t)
	e.user("ada@example.com")
	login := func(password, remote string) resp {
		return e.do(req{method: "POST", path: "/api/login", remote: remote,
			body: `{"email":"ada@example.com","password":"` + password + `"}`})
	}
	for i := range 5 {
		if r := login("wrong horse", "192.0.2.1:1000"); r.code != 401 {
			t.Fatalf("failure %d: status %d", i+1, r.code)
		}
	}
	e.clock.Advance(20 * time.Second)
	r := login("correct horse", "192.0.2.1:1000")
	if r.code != 429 || !strings.Contains(r.body, `"message":"Too Many Attempts."`) {
		t.Fatalf("sixth attempt with the right password: %d %s, want 429", r.code, r.body)
	}
	if got := r.header.Get("Retry-After"); got != "40" {
		t.Errorf("Retry-After %q, want 40 (the rest of the minute)", got)
	}
	if r := login("correct horse", "192.0.2.2:1000"); r.code != 200 {
		t.Errorf("another client address is not throttled: %d", r.code)
	}
	e.clock.Advance(40 * time.Second)
	if r := login("correct horse", "192.0.2.1:1000"); r.code != 200 {
		t.Errorf("after the minute: %d, want 200", r.code)
	}
}

func TestLoginSuccessClearsFailures(t *testing.T) {
	e := newEnv(t)
	e.user("ada@example.com")
	for range 4 {
		e.do(req{method: "POST", path: "/api/login", body: `{"email":"ada@example.com","password":"wrong horse"}`})
	}
	e.do(req{method: "POST", path: "/api/login", body: `{"email":"ada@example.com","password":"correct horse"}`})
	for i := range 5 {
		r := e.do(req{method: "POST", path: "/api/login", body: `{"email":"ada@example.com","password":"wrong horse"}`})
		if r.code != 401 {
			t.Fatalf("failure %d after a success: %d, want 401", i+1, r.code)
		}
	}
}

func TestUnauthenticated(t *testing.T) {
	e := newEnv(t)
	u, token := e.user("ada@example.com")
	id, _, _ := strings.Cut(token, "|")
	_, other := e.user("bob@example.com")
	_, otherSecret, _ := strings.Cut(other, "|")
	revoked := func() string {
		_, tok, err := e.st.CreateAPIKey(context.Background(), u.ID, "revoked")
		if err != nil {
			t.Fatal(err)
		}
		if r := e.do(req{method: "DELETE", path: "/api/logout", key: tok}); r.code != 200 {
			t.Fatalf("logout: %d", r.code)
		}
		return tok
	}()
	want := errBody(401, "Unauthenticated.")
	e.run(t, []scenario{
		{"no key", req{method: "GET", path: "/api/me"}, 401, want},
		{"malformed key", req{method: "GET", path: "/api/me", key: "not-a-key"}, 401, want},
		{"key with a non-numeric id", req{method: "GET", path: "/api/me", key: "x|" + strings.Repeat("A", 52)}, 401, want},
		{"unknown key id", req{method: "GET", path: "/api/me", key: "999|" + strings.Repeat("A", 52)}, 401, want},
		{"right id, wrong secret", req{method: "GET", path: "/api/me", key: id + "|" + otherSecret}, 401, want},
		{"empty secret", req{method: "GET", path: "/api/me", key: id + "|"}, 401, want},
		{"revoked key", req{method: "GET", path: "/api/me", key: revoked}, 401, want},
		{"basic auth is not a key", req{method: "GET", path: "/api/me", header: map[string]string{"Authorization": "Basic YWRhOnB3"}}, 401, want},
		{"lower-case scheme is accepted", req{method: "GET", path: "/api/me", header: map[string]string{"Authorization": "bearer " + token}}, 200, nil},
	})
	r := e.do(req{method: "GET", path: "/api/me"})
	if r.header.Get("WWW-Authenticate") != "Bearer" {
		t.Errorf("a 401 should say WWW-Authenticate: Bearer, got %q", r.header.Get("WWW-Authenticate"))
	}
}

func TestLogout(t *testing.T) {
	e := newEnv(t)
	u, token := e.user("ada@example.com")
	_, second, err := e.st.CreateAPIKey(context.Background(), u.ID, "second")
	if err != nil {
		t.Fatal(err)
	}
	r := e.do(req{method: "DELETE", path: "/api/logout", key: token})
	if r.code != 200 || r.body != `{"message":"Logged out successfully","status":200}`+"\n" {
		t.Fatalf("logout: %d %q", r.code, r.body)
	}
	if r := e.do(req{method: "GET", path: "/api/me", key: token}); r.code != 401 {
		t.Errorf("the logged-out key gets %d, want 401", r.code)
	}
	if r := e.do(req{method: "DELETE", path: "/api/logout", key: token}); r.code != 401 {
		t.Errorf("logging out twice gets %d, want 401", r.code)
	}
	if r := e.do(req{method: "GET", path: "/api/me", key: second}); r.code != 200 {
		t.Errorf("the user's other key gets %d, want 200", r.code)
	}
}

func TestHealth(t *testing.T) {
	e := newEnv(t)
	r := e.do(req{method: "GET", path: "/api/health"})
	if r.code != 200 || r.body != `{"message":"ok","status":200}`+"\n" {
		t.Fatalf("health: %d %q", r.code, r.body)
	}
}

func TestHealthWhenTheDatabaseIsGone(t *testing.T) {
	allow5xx[t.Name()] = true
	e := newEnv(t)
	e.st.Close()
	r := e.do(req{method: "GET", path: "/api/health"})
	if r.code != http.StatusServiceUnavailable {
		t.Fatalf("health on a closed database: %d, want 503", r.code)
	}
	keysOf(t, r.json(t), "message", "status")
	if strings.Contains(r.body, "sql") {
		t.Errorf("the body leaks the cause: %s", r.body)
	}
	if !strings.Contains(e.logs.String(), "database is closed") {
		t.Errorf("the cause is not in the log: %s", e.logs.String())
	}
}

func TestKeyUseIsRecordedAtMostOnceAMinute(t *testing.T) {
	e := newEnv(t)
	_, token := e.user("ada@example.com")
	lastUsed := func() any {
		r := e.do(req{method: "GET", path: "/api/administration/api/" + strings.Split(token, "|")[0], key: token})
		return r.json(t)["data"].(map[string]any)["attributes"].(map[string]any)["last_used_at"]
	}
	first := lastUsed()
	if first != float64(e.clock.Now().Unix()) {
		t.Fatalf("last_used_at %v, want now %d", first, e.clock.Now().Unix())
	}
	e.clock.Advance(30 * time.Second)
	if got := lastUsed(); got != first {
		t.Errorf("after 30 s last_used_at moved to %v: writes are not coalesced", got)
	}
	e.clock.Advance(31 * time.Second)
	if got := lastUsed(); got != float64(e.clock.Now().Unix()) {
		t.Errorf("after a minute last_used_at is %v, want %d", got, e.clock.Now().Unix())
	}
}
