package server

import (
	"encoding/json"
	"net/http"
	"net/url"
	"regexp"
	"strings"
	"testing"
	"time"

	"kith/server/totp"
	"kith/server/web"
)

var tokenField = regexp.MustCompile(`"token":"([^"]+)"`)

// TestSignInLogsNoSecrets: each way of signing in (the API's login with
// and without two-factor, the web's password form and its Code step)
// writes one "signed in" line saying how, and the log holds none of what
// signed in: the password, a TOTP code, a recovery code, the API token or
// the session cookie.
func TestSignInLogsNoSecrets(t *testing.T) {
	e := newEnv(t)
	_, adaKey := e.user("ada@example.com")
	e.user("bob@example.com")
	secret, codes := e.twoFactorOn(adaKey)
	before := len(signedInLines(t, e))
	var secrets []string // what must never be logged, beside the password
	token := func(r resp) {
		t.Helper()
		m := tokenField.FindStringSubmatch(r.body)
		if r.code != http.StatusOK || m == nil {
			t.Fatalf("login: %d %s", r.code, r.body)
		}
		secrets = append(secrets, m[1])
	}

	// The API: refused, then without and with two-factor.
	e.login(`{"email":"bob@example.com","password":"wrong horse"}`)
	token(e.login(`{"email":"bob@example.com","password":"correct horse"}`))
	// The reference client sends them in the query string.
	token(e.do(req{method: "POST", path: "/api/login?email=bob%40example.com&password=correct+horse", remote: "192.0.2.1:1000"}))
	e.login(`{"email":"ada@example.com","password":"correct horse","code":"000000"}`)
	e.clock.Advance(time.Minute) // past the failure's block
	apiCode := e.code(secret)
	secrets = append(secrets, apiCode)
	token(e.login(`{"email":"ada@example.com","password":"correct horse","code":"` + apiCode + `"}`))
	secrets = append(secrets, codes[0])
	token(e.login(`{"email":"ada@example.com","password":"correct horse","code":"` + codes[0] + `"}`))

	// The web: the password form, and the Code step with a TOTP code and
	// with a recovery code.
	session := func(b *browser) {
		t.Helper()
		ck := b.cookies[web.SessionCookie]
		if ck == nil {
			t.Fatal("not signed in")
		}
		_, s, _ := strings.Cut(ck.Value, "|")
		secrets = append(secrets, ck.Value, url.QueryEscape(ck.Value), s)
	}
	bob := e.browser(t)
	loginWith(bob, "bob@example.com", "wrong horse")
	loginWith(bob, "bob@example.com", "correct horse").redirects(t, "/")
	session(bob)
	e.clock.Advance(totp.Period * time.Second)
	code := e.code(secret)
	secrets = append(secrets, code)
	ada := e.browser(t)
	codeStep(t, e, ada)
	ada.post("/login/code", url.Values{"code": {code}}).redirects(t, "/")
	session(ada)
	again := e.browser(t)
	codeStep(t, e, again)
	secrets = append(secrets, codes[1])
	again.post("/login/code", url.Values{"code": {strings.ToUpper(codes[1])}}).redirects(t, "/")
	session(again)

	lines := signedInLines(t, e)[before:]
	var via []string
	for _, l := range lines {
		if l["user_id"] == nil || l["ip"] != "192.0.2.1" {
			t.Errorf("signed in without who or from where: %v", l)
		}
		via = append(via, l["via"].(string))
	}
	if got := strings.Join(via, " "); got != "api api api api web web web" {
		t.Errorf("signed in lines by way in: %q, want the API's four then the web's three", got)
	}
	logs := e.logs.String()
	for _, s := range append(secrets, "correct horse", "correct+horse", "wrong horse", secret, strings.ToUpper(codes[1]), codes[2]) {
		if strings.Contains(logs, s) {
			t.Errorf("the log holds %q:\n%s", s, logs)
		}
	}
	// A TOTP code is six digits, which a number in a log line may hold by
	// chance: as a value of its own it is a leak.
	for _, c := range []string{apiCode, code} {
		if regexp.MustCompile(`(^|[^0-9])` + c + `([^0-9]|$)`).MatchString(logs) {
			t.Errorf("the log holds the code %s:\n%s", c, logs)
		}
	}
}

// signedInLines are the log's "signed in" lines, decoded.
func signedInLines(t *testing.T, e *env) []map[string]any {
	t.Helper()
	var out []map[string]any
	for line := range strings.Lines(e.logs.String()) {
		var m map[string]any
		if err := json.Unmarshal([]byte(line), &m); err != nil {
			t.Fatalf("a log line is not JSON: %q", line)
		}
		if m["message"] == "signed in" {
			out = append(out, m)
		}
	}
	return out
}

// TestSignInMetricsOfTheWeb: a sign-in on the web's password form counts
// kith_sign_ins_total{via="web"}, a joined invitation {via="invitation"}.
func TestSignInMetricsOfTheWeb(t *testing.T) {
	e := newEnv(t)
	_, key := e.user("ada@example.com")
	e.invite(key, "pam@example.com")
	link := pathOf(e.loggedLink())
	series := func() (float64, float64, float64) {
		m, _ := e.scrape()
		return m[`kith_sign_ins_total{via="web"}`], m[`kith_sign_ins_total{via="invitation"}`], m[`kith_sign_ins_total{via="api"}`]
	}
	if w, i, a := series(); w != 0 || i != 0 || a != 0 {
		t.Fatalf("before: web %v, invitation %v, api %v", w, i, a)
	}
	b := e.browser(t)
	loginWith(b, "ada@example.com", "wrong horse")
	if w, _, _ := series(); w != 0 {
		t.Errorf("a refused sign-in counted: %v", w)
	}
	loginWith(b, "ada@example.com", "correct horse").redirects(t, "/")
	if w, i, a := series(); w != 1 || i != 0 || a != 0 {
		t.Errorf("after a web sign-in: web %v, invitation %v, api %v", w, i, a)
	}
	pam := e.browser(t)
	pam.get(link).status(t, http.StatusOK)
	pam.post("/join", url.Values{"password": {"new password"}, "password_confirmation": {"new password"}}).redirects(t, "/")
	if w, i, a := series(); w != 1 || i != 1 || a != 0 {
		t.Errorf("after joining: web %v, invitation %v, api %v", w, i, a)
	}
}
