package server

import (
	"crypto/rand"
	"crypto/rsa"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strings"
	"testing"
	"time"

	"github.com/go-jose/go-jose/v4"

	"kith/server/web"
	"kith/store"
)

// ssoEnv is a server whose single sign-on goes to a fake provider; opts
// change the server's options after that.
func ssoEnv(t *testing.T, opts ...func(*Options)) (*env, *idp) {
	t.Helper()
	var p *idp
	e := newEnv(t, append([]func(*Options){func(o *Options) {
		st := o.Store
		p = newIdP(t, func() time.Time { return st.Now() })
		o.SSO = p.client()
	}}, opts...)...)
	return e, p
}

// ssoSignIn goes through the provider and back; the callback's page.
func ssoSignIn(t *testing.T, p *idp, b *browser) page {
	t.Helper()
	return b.get(p.ssoTo(t, b.get("/auth/oidc/login")))
}

// refused checks a refused callback: the status, a page with the message
// and the way back, no session, no token anywhere, and the state cookie
// gone.
func refused(t *testing.T, e *env, p *idp, b *browser, pg page, status int, message string) {
	t.Helper()
	pg.status(t, status)
	if !strings.HasPrefix(pg.header.Get("Content-Type"), "text/html") {
		t.Errorf("content type %q", pg.header.Get("Content-Type"))
	}
	pg.has(t, message, `href="/login"`)
	if cookieOf(pg, web.SessionCookie) != nil {
		t.Error("a session cookie on a refusal")
	}
	if _, kept := b.cookies[web.SSOCookie]; kept {
		t.Error("the state cookie was kept")
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	for _, tok := range p.issued {
		if strings.Contains(pg.body, tok) || strings.Contains(e.logs.String(), tok) {
			t.Error("the ID token is on the page or in the log")
		}
	}
	b.get("/").redirects(t, "/login")
}

func TestSSOSignIn(t *testing.T) {
	e, p := ssoEnv(t)
	ada, _ := e.user("ada@example.com")

	login := e.browser(t).get("/login")
	login.has(t, `href="/auth/oidc/login"`, "Sign in with Home SSO", "Password")

	b := e.browser(t)
	start := b.get("/auth/oidc/login")
	ck := cookieOf(start, web.SSOCookie)
	if ck == nil || !ck.HttpOnly || ck.SameSite != http.SameSiteLaxMode || ck.MaxAge <= 0 || ck.MaxAge > 600 ||
		ck.Path != "/auth/oidc" || ck.Secure {
		t.Fatalf("state cookie %+v", ck)
	}
	back := p.ssoTo(t, start)
	pg := b.get(back)
	pg.redirects(t, "/")
	if cookieOf(pg, web.SessionCookie) == nil {
		t.Fatal("no session")
	}
	if c := cookieOf(pg, web.SSOCookie); c == nil || c.MaxAge >= 0 {
		t.Error("the state cookie outlived its callback")
	}
	b.get("/").has(t, "Log out")
	if n := e.count(`SELECT count(*) FROM web_sessions WHERE user_id = ?`, ada.ID); n != 1 {
		t.Errorf("%d sessions of ada", n)
	}

	// The same callback again, with a copy of the cookie: refused.
	replay := e.browser(t)
	replay.cookies[web.SSOCookie] = ck
	refused(t, e, p, replay, replay.get(back), http.StatusBadRequest, "This sign-in has been used already.")

	series, _ := e.scrape()
	if series[`kith_sign_ins_total{via="oidc"}`] != 1 || series[`kith_login_failures_total{via="oidc"}`] != 1 {
		t.Errorf("sign-ins %v, failures %v", series[`kith_sign_ins_total{via="oidc"}`], series[`kith_login_failures_total{via="oidc"}`])
	}
	if !strings.Contains(e.logs.String(), `"why":"state already used"`) {
		t.Errorf("the refusal is not logged:\n%s", e.logs.String())
	}
}

// TestSSOClientSecretPost: a provider that takes the secret only in the
// form gets it there.
func TestSSOClientSecretPost(t *testing.T) {
	e, p := ssoEnv(t)
	p.set(func(p *idp) { p.authMethods = []string{"client_secret_post"} })
	e.user("ada@example.com")
	ssoSignIn(t, p, e.browser(t)).redirects(t, "/")
}

// TestSSOCallbackRefusals: whatever comes back that is not this browser's
// sign-in, answered, is refused with a 400 page.
func TestSSOCallbackRefusals(t *testing.T) {
	e, p := ssoEnv(t)
	e.user("ada@example.com")
	callback := func(t *testing.T, edit func(q url.Values), keepCookie bool) (*browser, page) {
		b := e.browser(t)
		back := p.ssoTo(t, b.get("/auth/oidc/login"))
		u, _ := url.Parse(back)
		q := u.Query()
		edit(q)
		if !keepCookie {
			delete(b.cookies, web.SSOCookie)
		}
		return b, b.get(u.Path + "?" + q.Encode())
	}
	t.Run("wrong state", func(t *testing.T) {
		b, pg := callback(t, func(q url.Values) { q.Set("state", strings.Repeat("A", 43)) }, true)
		refused(t, e, p, b, pg, http.StatusBadRequest, "This sign-in was not begun in this browser")
	})
	t.Run("no state", func(t *testing.T) {
		b, pg := callback(t, func(q url.Values) { q.Del("state") }, true)
		refused(t, e, p, b, pg, http.StatusBadRequest, "This sign-in was not begun in this browser")
	})
	t.Run("no cookie", func(t *testing.T) {
		b, pg := callback(t, func(url.Values) {}, false)
		refused(t, e, p, b, pg, http.StatusBadRequest, "This sign-in was not begun in this browser")
	})
	t.Run("a forged cookie", func(t *testing.T) {
		b := e.browser(t)
		back := p.ssoTo(t, b.get("/auth/oidc/login"))
		ck := *b.cookies[web.SSOCookie]
		ck.Value = ck.Value[:len(ck.Value)-2] + "AA"
		b.cookies[web.SSOCookie] = &ck
		refused(t, e, p, b, b.get(back), http.StatusBadRequest, "This sign-in was not begun in this browser")
	})
	t.Run("cookie older than 10 minutes", func(t *testing.T) {
		b := e.browser(t)
		back := p.ssoTo(t, b.get("/auth/oidc/login"))
		e.clock.Advance(10*time.Minute + time.Second)
		refused(t, e, p, b, b.get(back), http.StatusBadRequest, "took more than 10 minutes")
	})
	t.Run("provider error", func(t *testing.T) {
		b, pg := callback(t, func(q url.Values) { q.Del("code"); q.Set("error", "access_denied") }, true)
		refused(t, e, p, b, pg, http.StatusBadRequest, "The sign-in at Home SSO was cancelled or refused.")
	})
	t.Run("no code", func(t *testing.T) {
		b, pg := callback(t, func(q url.Values) { q.Del("code") }, true)
		refused(t, e, p, b, pg, http.StatusBadRequest, "The sign-in at Home SSO was cancelled or refused.")
	})
	t.Run("refused exchange", func(t *testing.T) {
		p.set(func(p *idp) { p.refuse = true })
		defer p.set(func(p *idp) { p.refuse = false })
		b := e.browser(t)
		refused(t, e, p, b, ssoSignIn(t, p, b), http.StatusBadRequest, "Home SSO did not accept the sign-in.")
	})
	if n := e.count(`SELECT count(*) FROM web_sessions`); n != 0 {
		t.Errorf("%d sessions", n)
	}
}

// TestSSOTokenRefusals: an ID token that does not verify, or names no
// verified email, is refused with a 403 page.
func TestSSOTokenRefusals(t *testing.T) {
	e, p := ssoEnv(t)
	e.user("ada@example.com")
	other, err := rsa.GenerateKey(rand.Reader, 2048)
	if err != nil {
		t.Fatal(err)
	}
	const unverifiable = "The answer from Home SSO could not be verified"
	const unverified = "Home SSO did not confirm that your email address is verified"
	cases := []struct {
		name    string
		edit    func(c map[string]any)
		sign    func(payload []byte) string
		message string
	}{
		{"wrong nonce", func(c map[string]any) { c["nonce"] = "not-this-sign-in" }, nil, unverifiable},
		{"no nonce", func(c map[string]any) { delete(c, "nonce") }, nil, unverifiable},
		{"wrong audience", func(c map[string]any) { c["aud"] = "another-client" }, nil, unverifiable},
		{"wrong issuer", func(c map[string]any) { c["iss"] = "https://evil.example" }, nil, unverifiable},
		{"expired beyond the leeway", func(c map[string]any) {
			c["exp"] = e.clock.Now().Add(-2*time.Minute - 5*time.Second).Unix()
		}, nil, unverifiable},
		{"another key", nil, func(b []byte) string { return signJWT(t, jose.RS256, other, b) }, unverifiable},
		{"alg none", nil, unsignedJWT, unverifiable},
		{"HS256 with the client secret", nil, func(b []byte) string { return signJWT(t, jose.HS256, []byte(p.secret), b) }, unverifiable},
		{"a tampered payload", nil, func(b []byte) string {
			parts := strings.Split(signJWT(t, jose.RS256, p.key, b), ".")
			parts[1] = strings.Replace(parts[1], parts[1][:8], "eyJlbWFp", 1)
			return strings.Join(parts, ".")
		}, unverifiable},
		{"email_verified false", func(c map[string]any) { c["email_verified"] = false }, nil, unverified},
		{"email_verified missing", func(c map[string]any) { delete(c, "email_verified") }, nil, unverified},
		{`email_verified "true"`, func(c map[string]any) { c["email_verified"] = "true" }, nil, unverified},
		{"no email", func(c map[string]any) { delete(c, "email") }, nil, unverified},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			p.set(func(p *idp) { p.edit, p.sign = tc.edit, tc.sign })
			b := e.browser(t)
			refused(t, e, p, b, ssoSignIn(t, p, b), http.StatusForbidden, tc.message)
		})
	}
	if n := e.count(`SELECT count(*) FROM web_sessions`); n != 0 {
		t.Errorf("%d sessions", n)
	}
	series, _ := e.scrape()
	if got := series[`kith_login_failures_total{via="oidc"}`]; got != float64(len(cases)) {
		t.Errorf("oidc failures %v, want %d", got, len(cases))
	}

	// Within the leeway, an expired token still signs in.
	p.set(func(p *idp) {
		p.edit = func(c map[string]any) { c["exp"] = e.clock.Now().Add(-time.Minute).Unix() }
		p.sign = nil
	})
	ssoSignIn(t, p, e.browser(t)).redirects(t, "/")
}

// TestSSOUnknownEmail: without auto_create, a verified email Kith does not
// know is told so, in lower case, and no user is made.
func TestSSOUnknownEmail(t *testing.T) {
	e, p := ssoEnv(t)
	p.set(func(p *idp) { p.claims["email"] = "New.Comer@Example.com" })
	b := e.browser(t)
	refused(t, e, p, b, ssoSignIn(t, p, b), http.StatusForbidden, "There is no account for new.comer@example.com.")
	if n := e.count(`SELECT count(*) FROM users`); n != 0 {
		t.Errorf("%d users", n)
	}

	// An invited user who has not joined is told to join first.
	inviter, _ := e.user("ada@example.com")
	if _, err := e.st.InviteUser(t.Context(), inviter.ID, store.Invitee{Email: "new.comer@example.com"}); err != nil {
		t.Fatal(err)
	}
	b = e.browser(t)
	refused(t, e, p, b, ssoSignIn(t, p, b), http.StatusForbidden, "new.comer@example.com has been invited but has not joined yet")
}

// TestSSOAutoCreate: with auto_create, a verified email Kith does not know
// becomes a user in a new account, verified, named from the token, whose
// password nobody knows.
func TestSSOAutoCreate(t *testing.T) {
	e, p := ssoEnv(t, func(o *Options) { o.SSOAutoCreate = true })
	ada, _ := e.user("ada@example.com")
	cases := []struct {
		name        string
		claims      map[string]any
		first, last string
	}{
		{"given and family names", map[string]any{"email": "Grace@Example.com", "given_name": "Grace", "family_name": "Hopper", "name": "Rear Admiral"}, "Grace", "Hopper"},
		{"name alone", map[string]any{"email": "alan@example.com", "name": "Alan Turing"}, "Alan Turing", ""},
		{"nothing but the email", map[string]any{"email": "kay@example.org"}, "kay", ""},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			p.set(func(p *idp) {
				p.claims = map[string]any{"email_verified": true}
				for k, v := range tc.claims {
					p.claims[k] = v
				}
			})
			b := e.browser(t)
			ssoSignIn(t, p, b).redirects(t, "/")
			b.get("/").has(t, "Log out")
			email := strings.ToLower(tc.claims["email"].(string))
			u, err := e.st.UserByEmail(t.Context(), email)
			if err != nil {
				t.Fatal(err)
			}
			if u.FirstName != tc.first || u.LastName != tc.last || !u.Verified() || u.AccountID == ada.AccountID || !u.Joined() {
				t.Errorf("user %+v", u)
			}
			for _, pw := range []string{"", "correct horse", email} {
				if _, err := e.st.Login(t.Context(), email, pw); err == nil {
					t.Errorf("password %q signs in", pw)
				}
			}
		})
	}
	// A known email is signed in, not made again.
	p.set(func(p *idp) { p.claims = map[string]any{"email": "ADA@example.com", "email_verified": true} })
	ssoSignIn(t, p, e.browser(t)).redirects(t, "/")
	if n := e.count(`SELECT count(*) FROM users`); n != 4 {
		t.Errorf("%d users, want 4", n)
	}
}

// TestSSOTwoFactor: a user with two-factor on gets the Code step after the
// provider, and the session only with the code.
func TestSSOTwoFactor(t *testing.T) {
	e, p := ssoEnv(t)
	_, key := e.user("ada@example.com")
	secret, _ := e.twoFactorOn(key)
	b := e.browser(t)
	pg := ssoSignIn(t, p, b)
	pg.status(t, http.StatusOK)
	pg.has(t, ">Code", ">Verify<", `action="/login/code"`)
	if cookieOf(pg, web.SessionCookie) != nil {
		t.Fatal("a session before the code")
	}
	b.get("/").redirects(t, "/login")
	b.post("/login/code", url.Values{"code": {"000000"}}).status(t, http.StatusUnauthorized)
	b.post("/login/code", url.Values{"code": {e.code(secret)}}).redirects(t, "/")
	b.get("/").has(t, "Log out")
	series, _ := e.scrape()
	if series[`kith_sign_ins_total{via="oidc"}`] != 1 || series[`kith_sign_ins_total{via="web"}`] != 0 {
		t.Errorf("sign-ins: oidc %v, web %v", series[`kith_sign_ins_total{via="oidc"}`], series[`kith_sign_ins_total{via="web"}`])
	}
}

// TestSSOProviderDown: a provider that cannot be reached is a 502 page at
// either end; discovery is tried again at the next sign-in, and Kith
// starts (and answers) meanwhile.
func TestSSOProviderDown(t *testing.T) {
	e, p := ssoEnv(t)
	e.user("ada@example.com")
	p.set(func(p *idp) { p.down = true })
	b := e.browser(t)
	refused(t, e, p, b, b.get("/auth/oidc/login"), http.StatusBadGateway, "Home SSO cannot be reached just now.")
	e.browser(t).get("/login").status(t, http.StatusOK)

	p.set(func(p *idp) { p.down = false })
	b = e.browser(t)
	back := p.ssoTo(t, b.get("/auth/oidc/login"))
	p.srv.Close() // gone between the redirect and the callback
	refused(t, e, p, b, b.get(back), http.StatusBadGateway, "Home SSO cannot be reached just now.")
}

// TestSSOOff: without an issuer the sign-in page has no link and the
// routes answer 404.
func TestSSOOff(t *testing.T) {
	e := newEnv(t)
	b := e.browser(t)
	b.get("/login").lacks(t, "/auth/oidc/login", "Sign in with SSO")
	b.get("/auth/oidc/login").status(t, http.StatusNotFound)
	b.get("/auth/oidc/callback?code=x&state=y").status(t, http.StatusNotFound)
}

// TestPasswordOff: with oidc.allow_password false, the sign-in page has no
// password form, its POST and POST /api/login are refused before any
// password is checked, and keys and single sign-on keep working.
func TestPasswordOff(t *testing.T) {
	e, p := ssoEnv(t, func(o *Options) { o.PasswordOff = true })
	_, key := e.user("ada@example.com")
	b := e.browser(t)
	pg := b.get("/login")
	pg.has(t, "Sign in with Home SSO")
	pg.lacks(t, "Password", `type="password"`, `action="/login"`)

	pg = b.post("/login", url.Values{"email": {"ada@example.com"}, "password": {"correct horse"}})
	pg.status(t, http.StatusForbidden)
	pg.has(t, "Password sign-in is turned off.")
	if cookieOf(pg, web.SessionCookie) != nil {
		t.Fatal("a session from a password")
	}
	b.get("/").redirects(t, "/login")

	for _, body := range []string{`{"email":"ada@example.com","password":"correct horse"}`, `{"email":"ada@example.com","password":"wrong one"}`} {
		r := e.login(body)
		if r.code != 403 || strings.TrimSpace(r.body) != `{"message":"Password sign-in is turned off.","status":403}` {
			t.Errorf("API login: %d %s", r.code, r.body)
		}
	}
	if r := e.login(`{"email":"ada@example.com"}`); r.code != 422 {
		t.Errorf("a missing password: %d, want the parameters' 422 first", r.code)
	}
	if r := e.do(req{method: "GET", path: "/api/me", key: key}); r.code != 200 {
		t.Errorf("a key: %d", r.code)
	}
	dav := httptest.NewRequest("PROPFIND", "/dav/", nil)
	dav.Header.Set("Depth", "0")
	dav.SetBasicAuth("ada@example.com", key)
	w := httptest.NewRecorder()
	e.srv.ServeHTTP(w, dav)
	if w.Code != 207 {
		t.Errorf("CardDAV with a key: %d %s", w.Code, w.Body)
	}
	ssoSignIn(t, p, e.browser(t)).redirects(t, "/")
}
