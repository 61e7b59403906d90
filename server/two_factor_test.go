package server

import (
	"context"
	"regexp"
	"slices"
	"strings"
	"testing"
	"time"

	"kith/server/totp"
	"kith/store"
)

var recoveryPattern = regexp.MustCompile(`^[a-z0-9]{5}-[a-z0-9]{5}$`)

// code is the TOTP code of secret now, by the test's clock.
func (e *env) code(secret string) string {
	return totp.Code(secret, totp.Step(e.clock.Now()))
}

// twoFactorOn turns two-factor on for the key's user and returns the
// secret and the recovery codes; the clock moves on a step, so that the
// next code is a new one.
func (e *env) twoFactorOn(key string) (string, []string) {
	e.t.Helper()
	r := e.do(req{method: "POST", path: "/api/me/two-factor", key: key})
	if r.code != 201 {
		e.t.Fatalf("setup: %d %s", r.code, r.body)
	}
	secret := r.json(e.t)["data"].(map[string]any)["secret"].(string)
	r = e.do(req{method: "POST", path: "/api/me/two-factor/confirm", key: key, body: `{"code":"` + e.code(secret) + `"}`})
	if r.code != 200 {
		e.t.Fatalf("confirm: %d %s", r.code, r.body)
	}
	var codes []string
	for _, c := range r.json(e.t)["data"].(map[string]any)["recovery_codes"].([]any) {
		codes = append(codes, c.(string))
	}
	e.clock.Advance(totp.Period * time.Second)
	return secret, codes
}

func (e *env) login(body string) resp {
	e.t.Helper()
	return e.do(req{method: "POST", path: "/api/login", body: body, remote: "192.0.2.1:1000"})
}

func TestTwoFactorSetUpAndConfirm(t *testing.T) {
	e := newEnv(t)
	ada, key := e.user("ada@example.com")
	_, other := e.user("bob@example.com")
	ctx := context.Background()
	web, err := e.st.CreateWebSession(ctx, ada.ID, store.WebClient{})
	if err != nil {
		t.Fatal(err)
	}
	off := `{"data":{"object":"two_factor","enabled":false,"recovery_codes_left":0}}`
	if r := e.do(req{method: "GET", path: "/api/me/two-factor", key: key}); r.code != 200 || r.body != off+"\n" && r.body != off {
		t.Fatalf("off: %d %s", r.code, r.body)
	}
	if r := e.do(req{method: "GET", path: "/api/me/two-factor"}); r.code != 401 {
		t.Errorf("no key: %d", r.code)
	}
	e.run(t, []scenario{
		{"confirm with nothing pending", req{method: "POST", path: "/api/me/two-factor/confirm", key: key, body: `{"code":"123456"}`},
			409, errBody(409, "There is no two-factor setup to confirm.")},
	})

	setup := func() (string, string) {
		r := e.do(req{method: "POST", path: "/api/me/two-factor", key: key})
		if r.code != 201 {
			t.Fatalf("setup: %d %s", r.code, r.body)
		}
		d := keysOf(t, r.json(t)["data"], "object", "secret", "otpauth_url")
		return d["secret"].(string), d["otpauth_url"].(string)
	}
	first, _ := setup()
	secret, url := setup()
	if !regexp.MustCompile(`^[A-Z2-7]{32}$`).MatchString(secret) || secret == first {
		t.Fatalf("secrets %q then %q", first, secret)
	}
	if url != "otpauth://totp/Kith:ada@example.com?secret="+secret+"&issuer=Kith" {
		t.Errorf("otpauth_url %q", url)
	}
	confirm := func(body string) resp {
		return e.do(req{method: "POST", path: "/api/me/two-factor/confirm", key: key, body: body})
	}
	e.run(t, []scenario{
		{"no code", req{method: "POST", path: "/api/me/two-factor/confirm", key: key, body: `{}`},
			422, []string{`"code":["The code field is required."]`}},
		{"the replaced secret's code", req{method: "POST", path: "/api/me/two-factor/confirm", key: key, body: `{"code":"` + e.code(first) + `"}`},
			422, []string{`"message":"The code is invalid."`, `"code":["The code is invalid."]`}},
		{"an expired code", req{method: "POST", path: "/api/me/two-factor/confirm", key: key,
			body: `{"code":"` + totp.Code(secret, totp.Step(e.clock.Now())-2) + `"}`},
			422, []string{`"code":["The code is invalid."]`}},
	})
	if r := e.do(req{method: "GET", path: "/api/me/two-factor", key: key}); !strings.Contains(r.body, `"enabled":false`) {
		t.Fatalf("on after wrong codes: %s", r.body)
	}
	r := confirm(`{"code":"` + totp.Code(secret, totp.Step(e.clock.Now())+1) + `"}`) // the next step's: a clock behind
	if r.code != 200 {
		t.Fatalf("confirm: %d %s", r.code, r.body)
	}
	d := keysOf(t, r.json(t)["data"], "object", "enabled", "recovery_codes_left", "recovery_codes")
	codes := d["recovery_codes"].([]any)
	seen := map[string]bool{}
	for _, c := range codes {
		if !recoveryPattern.MatchString(c.(string)) || seen[c.(string)] {
			t.Errorf("recovery code %q", c)
		}
		seen[c.(string)] = true
	}
	if len(codes) != 10 || d["enabled"] != true || d["recovery_codes_left"] != 10.0 {
		t.Errorf("confirmed: %s", r.body)
	}
	r = e.do(req{method: "GET", path: "/api/me/two-factor", key: key})
	if want := `{"data":{"object":"two_factor","enabled":true,"recovery_codes_left":10}}`; strings.TrimSpace(r.body) != want {
		t.Errorf("on: %s", r.body)
	}
	if _, err := e.st.WebSession(ctx, web); err == nil {
		t.Error("the web session outlived turning two-factor on")
	}
	e.run(t, []scenario{
		{"setup while on", req{method: "POST", path: "/api/me/two-factor", key: key}, 409, errBody(409, "Two-factor authentication is already enabled.")},
		{"confirm while on", req{method: "POST", path: "/api/me/two-factor/confirm", key: key, body: `{"code":"123456"}`},
			409, errBody(409, "Two-factor authentication is already enabled.")},
		{"the key made before still works", req{method: "GET", path: "/api/me", key: key}, 200, []string{`"email":"ada@example.com"`}},
		{"another user is unaffected", req{method: "GET", path: "/api/me/two-factor", key: other}, 200, []string{`"enabled":false`}},
	})
	if r := e.do(req{method: "GET", path: "/api/me", key: key}); strings.Contains(r.body, "two") {
		t.Errorf("GET /api/me changed: %s", r.body)
	}
	if r := e.login(`{"email":"bob@example.com","password":"correct horse"}`); r.code != 200 {
		t.Errorf("the other user's login: %d %s", r.code, r.body)
	}
}

func TestTwoFactorLogin(t *testing.T) {
	e := newEnv(t)
	_, key := e.user("ada@example.com")
	secret, codes := e.twoFactorOn(key)
	cred := `"email":"ada@example.com","password":"correct horse"`
	e.run(t, []scenario{
		{"no code", req{method: "POST", path: "/api/login", body: `{` + cred + `}`}, 401, errBody(401, "A two-factor code is required.")},
		{"an empty code", req{method: "POST", path: "/api/login", body: `{` + cred + `,"code":""}`}, 401, errBody(401, "A two-factor code is required.")},
		{"a wrong password without a code", req{method: "POST", path: "/api/login", body: `{"email":"ada@example.com","password":"wrong horse"}`},
			401, errBody(401, "Invalid credentials")},
		{"a wrong password with the right code", req{method: "POST", path: "/api/login",
			body: `{"email":"ada@example.com","password":"wrong horse","code":"` + e.code(secret) + `"}`}, 401, errBody(401, "Invalid credentials")},
		{"a wrong code", req{method: "POST", path: "/api/login", body: `{` + cred + `,"code":"000000"}`}, 401, errBody(401, "The two-factor code is invalid.")},
		{"an expired code", req{method: "POST", path: "/api/login", body: `{` + cred + `,"code":"` + totp.Code(secret, totp.Step(e.clock.Now())-2) + `"}`},
			401, errBody(401, "The two-factor code is invalid.")},
		{"the confirming step's code", req{method: "POST", path: "/api/login", body: `{` + cred + `,"code":"` + totp.Code(secret, totp.Step(e.clock.Now())-1) + `"}`},
			401, errBody(401, "The two-factor code is invalid.")},
	})
	e.clock.Advance(time.Minute) // past the failures' block
	now := e.code(secret)
	if r := e.login(`{` + cred + `,"code":"` + now + `"}`); r.code != 200 || !strings.Contains(r.body, `"token"`) {
		t.Fatalf("the right code: %d %s", r.code, r.body)
	}
	if r := e.login(`{` + cred + `,"code":"` + now + `"}`); r.code != 401 || !strings.Contains(r.body, "The two-factor code is invalid.") {
		t.Errorf("the same code again: %d %s", r.code, r.body)
	}
	e.clock.Advance(totp.Period * time.Second)
	if r := e.login(`{` + cred + `,"code":"` + e.code(secret) + `"}`); r.code != 200 {
		t.Errorf("the next step's code: %d %s", r.code, r.body)
	}
	shouted := strings.ToUpper(strings.ReplaceAll(codes[3], "-", " "))
	if r := e.login(`{` + cred + `,"code":"` + shouted + `"}`); r.code != 200 {
		t.Errorf("a recovery code, upper case with a space: %d %s", r.code, r.body)
	}
	if r := e.login(`{` + cred + `,"code":"` + codes[3] + `"}`); r.code != 401 || !strings.Contains(r.body, "The two-factor code is invalid.") {
		t.Errorf("a used recovery code: %d %s", r.code, r.body)
	}
	if r := e.do(req{method: "GET", path: "/api/me/two-factor", key: key}); !strings.Contains(r.body, `"recovery_codes_left":9`) {
		t.Errorf("after one recovery code: %s", r.body)
	}
	if r := e.do(req{method: "GET", path: "/api/me", key: key}); r.code != 200 {
		t.Errorf("the key made before two-factor: %d", r.code)
	}
	if strings.Contains(e.logs.String(), secret) || strings.Contains(e.logs.String(), codes[3]) {
		t.Error("a secret in the log")
	}
	if !strings.Contains(e.logs.String(), `"second_factor":"recovery"`) {
		t.Errorf("no log line of the sign-in with a recovery code:\n%s", e.logs.String())
	}
}

// Wrong codes count as failed logins, code-less requests neither count nor
// clear: interleaved, five wrong codes still reach the 429.
func TestTwoFactorLoginThrottle(t *testing.T) {
	e := newEnv(t)
	_, key := e.user("ada@example.com")
	secret, _ := e.twoFactorOn(key)
	cred := `"email":"ada@example.com","password":"correct horse"`
	for range 10 {
		if r := e.login(`{` + cred + `}`); r.code != 401 {
			t.Fatalf("code-less: %d %s", r.code, r.body)
		}
	}
	for i := range 5 {
		if r := e.login(`{` + cred + `,"code":"000000"}`); r.code != 401 {
			t.Fatalf("wrong code %d: %d %s", i+1, r.code, r.body)
		}
		if r := e.login(`{` + cred + `}`); r.code != 401 && !(i == 4 && r.code == 429) {
			t.Fatalf("code-less %d: %d %s", i+1, r.code, r.body)
		}
	}
	r := e.login(`{` + cred + `,"code":"` + e.code(secret) + `"}`)
	if r.code != 429 || !strings.Contains(r.body, "Too Many Attempts.") || r.header.Get("Retry-After") == "" {
		t.Fatalf("the right code after five wrong ones: %d %s", r.code, r.body)
	}
	e.clock.Advance(time.Minute)
	if r := e.login(`{` + cred + `,"code":"` + e.code(secret) + `"}`); r.code != 200 {
		t.Fatalf("after the minute: %d %s", r.code, r.body)
	}
	// A whole sign-in cleared the counts: four failures do not block.
	for range 4 {
		e.login(`{` + cred + `,"code":"000000"}`)
	}
	e.clock.Advance(totp.Period * time.Second)
	if r := e.login(`{` + cred + `,"code":"` + e.code(secret) + `"}`); r.code != 200 {
		t.Errorf("after four failures: %d %s", r.code, r.body)
	}
}

func TestTwoFactorDisable(t *testing.T) {
	e := newEnv(t)
	_, key := e.user("ada@example.com")
	del := func(body string) req {
		return req{method: "DELETE", path: "/api/me/two-factor", key: key, body: body, remote: "192.0.2.1:1000"}
	}
	e.run(t, []scenario{{"while off", del(`{"password":"correct horse","code":"123456"}`), 409, errBody(409, "Two-factor authentication is not enabled.")}})
	secret, codes := e.twoFactorOn(key)
	e.run(t, []scenario{
		{"nothing", del(`{}`), 422, []string{`"password":["The password field is required."]`, `"code":["The code field is required."]`}},
		{"no code", del(`{"password":"correct horse"}`), 422, []string{`"code":["The code field is required."]`}},
		{"a wrong password", del(`{"password":"wrong horse","code":"` + e.code(secret) + `"}`), 422,
			[]string{`"message":"The password is incorrect."`, `"errors":{"password":["The password is incorrect."]}}`}},
		{"a wrong code", del(`{"password":"correct horse","code":"000000"}`), 422,
			[]string{`"message":"The code is invalid."`, `"errors":{"code":["The code is invalid."]}}`}},
	})
	// Two failures above, three more: the email's throttle blocks here and at the login.
	for range 3 {
		e.do(del(`{"password":"wrong horse","code":"000000"}`))
	}
	e.run(t, []scenario{{"blocked", del(`{"password":"correct horse","code":"` + e.code(secret) + `"}`), 429, errBody(429, "Too Many Attempts.")}})
	if r := e.login(`{"email":"ada@example.com","password":"correct horse","code":"` + e.code(secret) + `"}`); r.code != 429 {
		t.Errorf("the login after five failures at DELETE: %d", r.code)
	}
	e.clock.Advance(time.Minute)
	if r := e.do(del(`{"password":"correct horse","code":"` + codes[0] + `"}`)); r.code != 204 || r.body != "" {
		t.Fatalf("disable with a recovery code: %d %s", r.code, r.body)
	}
	if r := e.do(req{method: "GET", path: "/api/me/two-factor", key: key}); !strings.Contains(r.body, `"enabled":false,"recovery_codes_left":0`) {
		t.Errorf("after: %s", r.body)
	}
	if r := e.login(`{"email":"ada@example.com","password":"correct horse"}`); r.code != 200 {
		t.Errorf("login without a code after: %d %s", r.code, r.body)
	}
	if n := e.count(`SELECT count(*) FROM two_factor_recovery`) + e.count(`SELECT count(*) FROM two_factor`); n != 0 {
		t.Errorf("%d rows left", n)
	}
	// On again: new secret, new codes; the old ones are gone.
	secret2, codes2 := e.twoFactorOn(key)
	if secret2 == secret || slices.Contains(codes2, codes[1]) {
		t.Error("the old secret or codes came back")
	}
	if r := e.do(del(`{"password":"correct horse","code":"` + codes[1] + `"}`)); r.code != 422 {
		t.Errorf("an old recovery code: %d", r.code)
	}
	e.clock.Advance(time.Minute)
	if r := e.do(del(`{"password":"correct horse","code":"` + e.code(secret2) + `"}`)); r.code != 204 {
		t.Errorf("disable with a TOTP code: %d %s", r.code, r.body)
	}
}
