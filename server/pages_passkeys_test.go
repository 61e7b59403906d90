package server

import (
	"context"
	"crypto/rand"
	"fmt"
	"net/http"
	"net/url"
	"strings"
	"testing"
	"time"

	"kith/server/web"
	"kith/store"
)

// The test server is reached as http://example.com (httptest's host), so
// that is the relying party's origin and example.com its id.
var goodCeremony = ceremony{origin: "http://example.com", rpID: "example.com", flags: flagUP | flagUV}

// addPasskey adds a's credential to b's user under name, through the
// Security page's two requests, and returns the answer to the second.
func addPasskey(t *testing.T, b *browser, a *softAuthenticator, name string, c ceremony) page {
	t.Helper()
	b.get("/settings/security")
	opts := b.post("/settings/security/passkeys/options", nil)
	opts.status(t, http.StatusOK)
	return b.post("/settings/security/passkeys", url.Values{"name": {name}, "credential": {a.register(t, opts.body, c)}})
}

// passkeySignIn opens the sign-in page in a new browser and signs in with
// a's passkey, its answer spoiled as c says.
func passkeySignIn(t *testing.T, e *env, a *softAuthenticator, c ceremony) (*browser, page) {
	t.Helper()
	b := e.browser(t)
	b.get("/login").has(t, ">Sign in with a passkey<", `action="/login/passkey"`)
	opts := b.post("/login/passkey/options", nil)
	opts.status(t, http.StatusOK)
	if !strings.Contains(opts.body, `"userVerification":"required"`) || strings.Contains(opts.body, "allowCredentials") {
		t.Fatalf("sign-in options: %s", opts.body)
	}
	return b, b.post("/login/passkey", url.Values{"credential": {a.assert(t, opts.body, c)}})
}

// signedOut fails the test if b holds a session.
func signedOut(t *testing.T, b *browser) {
	t.Helper()
	if b.cookies[web.SessionCookie] != nil {
		t.Error("a session cookie")
	}
	if pg := b.get("/"); pg.code != http.StatusSeeOther || pg.header.Get("Location") != "/login" {
		t.Errorf("GET / after a refusal: %d %s", pg.code, pg.header.Get("Location"))
	}
}

func TestWebPasskeySignIn(t *testing.T) {
	e := newEnv(t)
	_, key := e.user("ada@example.com")
	ada := e.signIn(t, "ada@example.com")
	auth := newSoftAuthenticator(t)
	pg := addPasskey(t, ada, auth, "Laptop", goodCeremony)
	page := ada.follow(pg)
	page.has(t, "Passkey “Laptop” added.", "<strong>Laptop</strong>", "never used", ">Remove<")
	opts := ada.post("/settings/security/passkeys/options", nil)
	if !strings.Contains(opts.body, `"excludeCredentials":[{"type":"public-key","id":"`+b64url(auth.credID)+`"`) ||
		!strings.Contains(opts.body, `"residentKey":"required"`) || !strings.Contains(opts.body, `"userVerification":"required"`) ||
		!strings.Contains(opts.body, `"attestation":"none"`) || !strings.Contains(opts.body, `"alg":-7`) ||
		!strings.Contains(opts.body, `"alg":-257`) || !strings.Contains(opts.body, `"rp":{"name":"Kith","id":"example.com"}`) {
		t.Errorf("registration options: %s", opts.body)
	}
	if h := unb64(t, parseOptions(t, opts.body).PublicKey.User.ID); len(h) != 32 || string(h) != string(auth.handle) {
		t.Errorf("user handle %x, registered with %x: random, 32 bytes, the same each time", h, auth.handle)
	}

	// Two-factor on: a passkey still signs in at once, with no Code step.
	e.twoFactorOn(key)
	b, pg := passkeySignIn(t, e, auth, goodCeremony)
	if pg.code != http.StatusSeeOther || pg.header.Get("Location") != "/" {
		t.Fatalf("passkey sign-in: %d %s %s", pg.code, pg.header.Get("Location"), pg.body)
	}
	if b.cookies[web.SessionCookie] == nil || b.cookies[web.CodeCookie] != nil {
		t.Fatalf("cookies after a passkey sign-in: %v", b.cookies)
	}
	b.get("/").status(t, http.StatusOK)
	list := e.do(req{method: "GET", path: "/api/me/passkeys", key: key})
	if want := fmt.Sprintf(`"last_used_at":%d`, e.clock.Now().Unix()); !strings.Contains(list.body, want) {
		t.Errorf("last_used_at: %s, want %s", list.body, want)
	}
	if !strings.Contains(e.logs.String(), `"via":"passkey"`) {
		t.Errorf("no sign-in logged: %s", e.logs.String())
	}

	// Removed, it signs in no more.
	b.get("/settings/security")
	id := firstID(t, list)
	pg = b.post("/settings/security/passkeys/"+id+"/delete", nil)
	b.follow(pg).has(t, "Passkey removed.", "No passkeys.")
	out, pg := passkeySignIn(t, e, auth, goodCeremony)
	pg.status(t, http.StatusUnauthorized)
	signedOut(t, out)
}

// firstID is the id of the first item of a list's data.
func firstID(t *testing.T, r resp) string {
	t.Helper()
	data, ok := r.json(t)["data"].([]any)
	if !ok || len(data) == 0 {
		t.Fatalf("no data in %d %s", r.code, r.body)
	}
	return fmt.Sprint(data[0].(map[string]any)["id"])
}

// TestWebPasskeyRefusals: every way an assertion can be wrong is the
// sign-in page again with its error, no session, a counted failure, and
// the passkey not marked used.
func TestWebPasskeyRefusals(t *testing.T) {
	e := newEnv(t)
	_, key := e.user("ada@example.com")
	e.user("bob@example.com")
	auth, bobs := newSoftAuthenticator(t), newSoftAuthenticator(t)
	addPasskey(t, e.signIn(t, "ada@example.com"), auth, "Laptop", goodCeremony).status(t, http.StatusSeeOther)
	addPasskey(t, e.signIn(t, "bob@example.com"), bobs, "Phone", goodCeremony).status(t, http.StatusSeeOther)
	stranger := newSoftAuthenticator(t)
	stranger.handle = auth.handle

	spoil := func(f func(*ceremony)) ceremony { c := goodCeremony; f(&c); return c }
	random := make([]byte, 32)
	rand.Read(random)
	// A challenge Kith issued and a sign-in spent.
	b := e.browser(t)
	b.get("/login")
	spent := parseOptions(t, b.post("/login/passkey/options", nil).body).PublicKey.Challenge
	if pg := b.post("/login/passkey", url.Values{"credential": {auth.assert(t, `{"publicKey":{"challenge":"`+spent+`"}}`, goodCeremony)}}); pg.code != http.StatusSeeOther {
		t.Fatalf("the sign-in that spends the challenge: %d %s", pg.code, pg.body)
	}
	cases := []struct {
		name string
		a    *softAuthenticator
		c    ceremony
		late bool   // answered after five minutes
		why  string // in the log line of the refusal
	}{
		{"a challenge Kith never issued", auth, spoil(func(c *ceremony) { c.challenge = b64url(random) }), false, "challenge not issued"},
		{"a spent challenge", auth, spoil(func(c *ceremony) { c.challenge = spent }), false, "challenge not issued, used"},
		{"an expired challenge", auth, goodCeremony, true, "or expired"},
		{"another origin", auth, spoil(func(c *ceremony) { c.origin = "http://evil.example" }), false, "Received: http://evil.example"},
		{"another RP id", auth, spoil(func(c *ceremony) { c.rpID = "evil.example" }), false, "RP Hash mismatch"},
		{"no user verification", auth, spoil(func(c *ceremony) { c.flags = flagUP }), false, "User verification required"},
		{"no user presence", auth, spoil(func(c *ceremony) { c.flags = flagUV }), false, "User presence required"},
		{"an unknown credential", stranger, goodCeremony, false, "unknown credential"},
		{"another user's handle", auth, spoil(func(c *ceremony) { c.handle = bobs.handle }), false, "User handle and User ID do not match"},
		{"a bad signature", auth, spoil(func(c *ceremony) { c.badSignature = true }), false, "assertion signature"},
	}
	before, _ := e.scrape()
	used := e.do(req{method: "GET", path: "/api/me/passkeys", key: key}).body
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			b := e.browser(t)
			b.get("/login")
			opts := b.post("/login/passkey/options", nil)
			if tc.late {
				e.clock.Advance(store.PasskeyChallengeLife*time.Second + time.Second)
			}
			pg := b.post("/login/passkey", url.Values{"credential": {tc.a.assert(t, opts.body, tc.c)}})
			pg.status(t, http.StatusUnauthorized)
			pg.has(t, "That passkey did not sign you in.", ">Sign in with a passkey<", `name="password"`)
			signedOut(t, b)
			logs := e.logs.String()
			last, _, _ := strings.Cut(logs[strings.LastIndex(logs, `"via":"passkey"`):], "\n")
			if !strings.Contains(last, "sign-in refused") || !strings.Contains(last, tc.why) {
				t.Errorf("refusal logged as %s, want %q", last, tc.why)
			}
		})
	}
	after, _ := e.scrape()
	if n := after[`kith_login_failures_total{via="passkey"}`] - before[`kith_login_failures_total{via="passkey"}`]; n != float64(len(cases)) {
		t.Errorf("%v passkey failures counted, want %d", n, len(cases))
	}
	if n := after[`kith_sign_ins_total{via="passkey"}`] - before[`kith_sign_ins_total{via="passkey"}`]; n != 0 {
		t.Errorf("%v passkey sign-ins counted among the refusals", n)
	}
	if now := e.do(req{method: "GET", path: "/api/me/passkeys", key: key}).body; now != used {
		t.Errorf("a refusal marked the passkey used: %s, was %s", now, used)
	}
	// And the good answer still signs in: the refusals spoiled nothing.
	if _, pg := passkeySignIn(t, e, auth, goodCeremony); pg.code != http.StatusSeeOther {
		t.Errorf("the passkey after the refusals: %d %s", pg.code, pg.body)
	}
}

// TestWebPasskeyMetrics: a passkey sign-in counts as one, a refusal as a
// failure, each under via="passkey" only.
func TestWebPasskeyMetrics(t *testing.T) {
	e := newEnv(t)
	e.user("ada@example.com")
	auth := newSoftAuthenticator(t)
	addPasskey(t, e.signIn(t, "ada@example.com"), auth, "Laptop", goodCeremony).status(t, http.StatusSeeOther)
	before, _ := e.scrape()
	passkeySignIn(t, e, auth, goodCeremony)
	passkeySignIn(t, e, auth, ceremony{origin: "http://evil.example", rpID: "example.com", flags: flagUP | flagUV})
	after, _ := e.scrape()
	for series, want := range map[string]float64{
		`kith_sign_ins_total{via="passkey"}`:       1,
		`kith_login_failures_total{via="passkey"}`: 1,
		`kith_sign_ins_total{via="web"}`:           0,
		`kith_login_failures_total{via="web"}`:     0,
	} {
		if got := after[series] - before[series]; got != want {
			t.Errorf("%s went up by %v, want %v", series, got, want)
		}
	}
}

// TestWebPasskeyRegistration: a new credential is checked as an assertion
// is; a refused one is not saved, and the form explains what it needs.
func TestWebPasskeyRegistration(t *testing.T) {
	e := newEnv(t)
	_, key := e.user("ada@example.com")
	b := e.signIn(t, "ada@example.com")
	b.get("/settings/security").has(t, ">Passkey name", ">Add a passkey<", `data-passkey="register"`, "No passkeys.")

	pg := b.post("/settings/security/passkeys", url.Values{"name": {"Laptop"}})
	pg.status(t, http.StatusUnprocessableEntity)
	pg.has(t, "Passkeys need JavaScript")
	pg = b.post("/settings/security/passkeys", url.Values{"name": {""}, "credential": {"{}"}})
	pg.status(t, http.StatusUnprocessableEntity)
	pg.has(t, "The name field is required.")
	pg = b.post("/settings/security/passkeys", url.Values{"name": {strings.Repeat("n", 256)}, "credential": {"{}"}})
	pg.status(t, http.StatusUnprocessableEntity)

	spoil := func(f func(*ceremony)) ceremony { c := goodCeremony; f(&c); return c }
	random := make([]byte, 32)
	rand.Read(random)
	for name, c := range map[string]ceremony{
		"a challenge Kith never issued": spoil(func(c *ceremony) { c.challenge = b64url(random) }),
		"another origin":                spoil(func(c *ceremony) { c.origin = "http://evil.example" }),
		"another RP id":                 spoil(func(c *ceremony) { c.rpID = "evil.example" }),
		"no user verification":          spoil(func(c *ceremony) { c.flags = flagUP }),
		"no user presence":              spoil(func(c *ceremony) { c.flags = flagUV }),
	} {
		pg := addPasskey(t, b, newSoftAuthenticator(t), "Refused", c)
		if pg.code != http.StatusSeeOther {
			t.Errorf("%s: %d", name, pg.code)
			continue
		}
		b.follow(pg).has(t, "The passkey was not added")
	}
	// Another user's registration challenge does not register for Ada.
	bob := e.browser(t)
	e.user("bob@example.com")
	bob = e.signIn(t, "bob@example.com")
	bob.get("/settings/security")
	bobs := bob.post("/settings/security/passkeys/options", nil).body
	b.get("/settings/security")
	pg = b.post("/settings/security/passkeys", url.Values{"name": {"Bob's"}, "credential": {newSoftAuthenticator(t).register(t, bobs, goodCeremony)}})
	b.follow(pg).has(t, "The passkey was not added")
	// A challenge answered after five minutes.
	b.get("/settings/security")
	opts := b.post("/settings/security/passkeys/options", nil).body
	e.clock.Advance(store.PasskeyChallengeLife*time.Second + time.Second)
	pg = b.post("/settings/security/passkeys", url.Values{"name": {"Late"}, "credential": {newSoftAuthenticator(t).register(t, opts, goodCeremony)}})
	b.follow(pg).has(t, "The passkey was not added")
	if list := e.do(req{method: "GET", path: "/api/me/passkeys", key: key}); list.body != `{"data":[]}`+"\n" && list.body != `{"data":[]}` {
		t.Errorf("refused passkeys saved: %s", list.body)
	}
	// The same credential twice.
	auth := newSoftAuthenticator(t)
	addPasskey(t, b, auth, "Laptop", goodCeremony).status(t, http.StatusSeeOther)
	b.follow(addPasskey(t, b, auth, "Again", goodCeremony)).has(t, "That passkey is saved already.")
}

// TestWebPasskeyNeedsJavaScript: the sign-in button posted without a
// ceremony (no script, no WebAuthn) says what it needs, counting nothing.
func TestWebPasskeyNeedsJavaScript(t *testing.T) {
	e := newEnv(t)
	b := e.browser(t)
	b.get("/login")
	pg := b.post("/login/passkey", nil)
	pg.status(t, http.StatusBadRequest)
	pg.has(t, "Passkeys need JavaScript", ">Sign in with a passkey<")
	signedOut(t, b)
	// Without the sign-in page's cookie, neither request goes through.
	stranger := e.browser(t)
	if pg := stranger.post("/login/passkey/options", url.Values{"csrf": {"forged"}}); pg.code != http.StatusForbidden {
		t.Errorf("options without the sign-in cookie: %d", pg.code)
	}
	if pg := stranger.post("/login/passkey", url.Values{"csrf": {"forged"}, "credential": {"{}"}}); pg.code != http.StatusForbidden {
		t.Errorf("sign-in without the sign-in cookie: %d", pg.code)
	}
	if n, _ := e.st.Passkeys(context.Background(), 1); len(n) != 0 {
		t.Errorf("passkeys: %v", n)
	}
}
