package server

import (
	"net/http"
	"net/url"
	"regexp"
	"strings"
	"testing"
	"time"

	"kith/server/totp"
	"kith/server/web"
)

// codeStep signs in to the Code step and checks that it is no session yet.
func codeStep(t *testing.T, e *env, b *browser) page {
	t.Helper()
	pg := loginWith(b, "ada@example.com", "correct horse")
	pg.status(t, http.StatusOK)
	pg.has(t, ">Code", ">Verify<", `action="/login/code"`)
	pg.lacks(t, `type="password"`, "Password")
	if cookieOf(pg, web.SessionCookie) != nil {
		t.Fatal("a session before the code")
	}
	ck := cookieOf(pg, web.CodeCookie)
	if ck == nil || !ck.HttpOnly || ck.MaxAge <= 0 || ck.MaxAge > 300 || ck.Path != "/login" {
		t.Fatalf("code cookie %+v", ck)
	}
	return pg
}

func TestWebTwoFactorSignIn(t *testing.T) {
	e := newEnv(t)
	_, key := e.user("ada@example.com")
	secret, codes := e.twoFactorOn(key)
	b := e.browser(t)
	codeStep(t, e, b)

	// The Code step's cookie alone answers as no cookie does.
	alone := e.browser(t)
	alone.cookies[web.CodeCookie] = b.cookies[web.CodeCookie]
	alone.get("/").redirects(t, "/login")
	if n := e.count(`SELECT count(*) FROM web_sessions`); n != 0 {
		t.Fatalf("%d sessions before the code", n)
	}

	pg := b.post("/login/code", url.Values{"code": {"000000"}})
	pg.status(t, http.StatusUnauthorized)
	pg.has(t, "That code is not right", ">Verify<")
	if cookieOf(pg, web.SessionCookie) != nil {
		t.Fatal("a session after a wrong code")
	}
	pg = b.post("/login/code", url.Values{"code": {" " + e.code(secret) + " "}})
	pg.redirects(t, "/")
	if cookieOf(pg, web.SessionCookie) == nil || cookieOf(pg, web.CodeCookie).MaxAge >= 0 {
		t.Fatal("no session, or the code cookie kept")
	}
	b.get("/").has(t, "Log out")

	// The same code in another browser: refused (a code works once).
	other := e.browser(t)
	codeStep(t, e, other)
	other.post("/login/code", url.Values{"code": {e.code(secret)}}).status(t, http.StatusUnauthorized)
	// A recovery code signs in once.
	other.post("/login/code", url.Values{"code": {codes[0]}}).redirects(t, "/")
	third := e.browser(t)
	codeStep(t, e, third)
	third.post("/login/code", url.Values{"code": {codes[0]}}).status(t, http.StatusUnauthorized)
	third.post("/login/code", url.Values{"code": {strings.ToUpper(codes[1])}}).redirects(t, "/")
}

func TestWebTwoFactorCodeStepExpires(t *testing.T) {
	e := newEnv(t)
	_, key := e.user("ada@example.com")
	secret, _ := e.twoFactorOn(key)
	b := e.browser(t)
	codeStep(t, e, b)
	e.clock.Advance(5*time.Minute + time.Second)
	pg := b.post("/login/code", url.Values{"code": {e.code(secret)}})
	pg.status(t, http.StatusUnauthorized)
	pg.has(t, "more than 5 minutes", `name="password"`)
	if cookieOf(pg, web.SessionCookie) != nil {
		t.Fatal("a session after 5 minutes")
	}
	// A forged cookie is no better.
	forged := e.browser(t)
	codeStep(t, e, forged)
	ck := *forged.cookies[web.CodeCookie]
	ck.Value = strings.Replace(ck.Value, "1.", "2.", 1)
	forged.cookies[web.CodeCookie] = &ck
	forged.post("/login/code", url.Values{"code": {e.code(secret)}}).status(t, http.StatusUnauthorized)
}

// Wrong codes count as failed logins: the fifth blocks, the page saying
// how long to wait, and the API's login too.
func TestWebTwoFactorThrottle(t *testing.T) {
	e := newEnv(t)
	_, key := e.user("ada@example.com")
	secret, _ := e.twoFactorOn(key)
	b := e.browser(t)
	codeStep(t, e, b)
	for range 5 {
		b.post("/login/code", url.Values{"code": {"000000"}}).status(t, http.StatusUnauthorized)
	}
	pg := b.post("/login/code", url.Values{"code": {e.code(secret)}})
	pg.status(t, http.StatusTooManyRequests)
	if !regexp.MustCompile(`Too many attempts\. Try again in \d+ seconds\.`).MatchString(pg.body) {
		t.Errorf("throttle page:\n%s", pg.body)
	}
	if r := e.login(`{"email":"ada@example.com","password":"correct horse","code":"` + e.code(secret) + `"}`); r.code != 429 {
		t.Errorf("API login: %d", r.code)
	}
	e.clock.Advance(time.Minute)
	loginWith(b, "ada@example.com", "wrong horse").status(t, http.StatusUnauthorized)
	codeStep(t, e, b)
	b.post("/login/code", url.Values{"code": {e.code(secret)}}).redirects(t, "/")
}

func TestWebTwoFactorSettings(t *testing.T) {
	e := newEnv(t)
	e.user("ada@example.com")
	elsewhere := e.signIn(t, "ada@example.com")
	b := e.signIn(t, "ada@example.com")
	pg := b.get("/settings/security")
	pg.has(t, "Two-factor authentication", "<strong>off</strong>", ">Turn on<", ">Create key<")

	pg = b.post("/settings/two-factor", nil)
	pg.status(t, http.StatusOK)
	m := regexp.MustCompile(`id="two-factor-secret">([A-Z2-7]{32})<`).FindStringSubmatch(pg.body)
	if m == nil {
		t.Fatalf("no secret:\n%s", pg.body)
	}
	secret := m[1]
	pg.has(t, `src="data:image/png;base64,`, "otpauth://totp/Kith:ada@example.com?secret="+secret, ">Confirm<", `data-copy="two-factor-secret"`)
	if cc := pg.header.Get("Cache-Control"); cc != "no-store" {
		t.Errorf("Cache-Control %q", cc)
	}
	pg = b.post("/settings/two-factor/confirm", url.Values{"code": {"000000"}})
	pg.status(t, http.StatusUnprocessableEntity)
	pg.has(t, "The code is invalid.", secret)

	pg = b.post("/settings/two-factor/confirm", url.Values{"code": {e.code(secret)}})
	pg.status(t, http.StatusOK)
	codes := regexp.MustCompile(`[a-z0-9]{5}-[a-z0-9]{5}`).FindAllString(pg.body[strings.Index(pg.body, `id="two-factor-codes"`):], -1)
	if len(codes) < 10 {
		t.Fatalf("recovery codes %v:\n%s", codes, pg.body)
	}
	pg.has(t, `data-copy="two-factor-codes"`, "shown only now")
	elsewhere.get("/").redirects(t, "/login")
	pg = b.get("/settings/security")
	pg.has(t, "<strong>on</strong>", "Recovery codes left: 10.", ">Turn off<")
	pg.lacks(t, secret, codes[0])

	e.clock.Advance(totp.Period * time.Second)
	pg = b.post("/settings/two-factor/delete", url.Values{"password": {"wrong horse"}, "code": {e.code(secret)}})
	pg.status(t, http.StatusUnprocessableEntity)
	pg.has(t, "The password is incorrect.")
	pg = b.post("/settings/two-factor/delete", url.Values{"password": {"correct horse"}, "code": {"000000"}})
	pg.status(t, http.StatusUnprocessableEntity)
	pg.has(t, "The code is invalid.")
	pg = b.post("/settings/two-factor/delete", url.Values{"password": {"correct horse"}, "code": {codes[9]}})
	b.follow(pg).has(t, "Two-factor authentication is off.", "<strong>off</strong>")
	loginWith(e.browser(t), "ada@example.com", "correct horse").redirects(t, "/")
}
