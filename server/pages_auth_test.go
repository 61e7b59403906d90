package server

import (
	"crypto/sha256"
	"crypto/tls"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strings"
	"testing"
	"time"

	"kith/server/web"
	"kith/store"
)

// cookieOf is the cookie name a page sets, or nil.
func cookieOf(pg page, name string) *http.Cookie {
	for _, c := range (&http.Response{Header: pg.header}).Cookies() {
		if c.Name == name {
			return c
		}
	}
	return nil
}

// location is where a redirect points.
func (pg page) location() string { return pg.header.Get("Location") }

// status fails the test unless the page has the status.
func (pg page) status(t testing.TB, want int) {
	t.Helper()
	if pg.code != want {
		t.Fatalf("status %d, want %d:\n%.2000s", pg.code, want, pg.body)
	}
}

// redirects fails the test unless the page is a 303 to want.
func (pg page) redirects(t testing.TB, want string) {
	t.Helper()
	if pg.code != http.StatusSeeOther || pg.location() != want {
		t.Fatalf("got %d to %q, want a 303 to %q:\n%.2000s", pg.code, pg.location(), want, pg.body)
	}
}

// loginWith posts the sign-in form from a fresh sign-in page.
func loginWith(b *browser, email, password string) page {
	b.t.Helper()
	b.get("/login")
	return b.post("/login", url.Values{"email": {email}, "password": {password}})
}

func TestWebSignedOutGoesToLogin(t *testing.T) {
	e := newEnv(t)
	b := e.browser(t)
	for _, path := range []string{"/", "/people", "/people/new", "/people/1", "/people/1/edit"} {
		b.get(path).redirects(t, "/login")
	}
	pg := b.post("/people", url.Values{"first_name": {"Eve"}})
	pg.redirects(t, "/login")
}

func TestWebLoginPage(t *testing.T) {
	e := newEnv(t)
	b := e.browser(t)
	pg := b.get("/login")
	pg.status(t, http.StatusOK)
	pg.has(t, `<label for="login-email">Email`, `<label for="login-password">Password`, `type="email"`, `type="password"`,
		`autocomplete="current-password"`, `<button type="submit">Log in</button>`, `name="csrf"`)
	pg.lacks(t, "Log out")
	ck := cookieOf(pg, web.LoginCookie)
	if ck == nil || !ck.HttpOnly || ck.Path != "/login" {
		t.Errorf("login cookie %+v", ck)
	}
}

func TestWebLoginSetsASessionCookie(t *testing.T) {
	e := newEnv(t)
	u, _ := e.user("ada@example.com")
	b := e.browser(t)
	pg := loginWith(b, "Ada@Example.com", "correct horse")
	pg.redirects(t, "/")
	ck := cookieOf(pg, web.SessionCookie)
	if ck == nil {
		t.Fatalf("no session cookie: %v", pg.header)
	}
	if !ck.HttpOnly || ck.SameSite != http.SameSiteLaxMode || ck.Path != "/" || ck.Secure {
		t.Errorf("session cookie %+v: want HttpOnly, SameSite=Lax, Path=/ and not Secure over HTTP", ck)
	}
	if ck.MaxAge != store.WebSessionLife {
		t.Errorf("max age %d, want %d", ck.MaxAge, store.WebSessionLife)
	}
	if gone := cookieOf(pg, web.LoginCookie); gone == nil || gone.MaxAge >= 0 {
		t.Errorf("the login cookie is not cleared: %+v", gone)
	}
	_, secret, ok := strings.Cut(ck.Value, "|")
	if !ok || len(secret) < 20 {
		t.Fatalf("cookie value %q is not id|secret", ck.Value)
	}
	// Only a hash of the secret is kept.
	if n := e.count(`SELECT count(*) FROM web_sessions WHERE user_id = ?`, u.ID); n != 1 {
		t.Fatalf("%d sessions", n)
	}
	if n := e.count(`SELECT count(*) FROM web_sessions WHERE secret_hash = ?`, []byte(secret)); n != 0 {
		t.Error("the secret is stored as is")
	}
	sum := sha256.Sum256([]byte(secret))
	if n := e.count(`SELECT count(*) FROM web_sessions WHERE secret_hash = ?`, sum[:]); n != 1 {
		t.Error("the secret's SHA-256 is not what is stored")
	}
	home := b.get("/")
	home.status(t, http.StatusOK)
	home.has(t, "Dashboard", "Log out")
}

func TestWebLoginCookieSecureOverHTTPS(t *testing.T) {
	check := func(t *testing.T, e *env, prepare func(r *http.Request)) {
		e.user("ada@example.com")
		b := e.browser(t)
		r := httptest.NewRequest(http.MethodGet, "/login", nil)
		prepare(r)
		pg := b.send(r)
		if ck := cookieOf(pg, web.LoginCookie); ck == nil || !ck.Secure {
			t.Errorf("login cookie %+v is not Secure", ck)
		}
		form := url.Values{"email": {"ada@example.com"}, "password": {"correct horse"}, "csrf": {b.csrf}}
		r = httptest.NewRequest(http.MethodPost, "/login", strings.NewReader(form.Encode()))
		r.Header.Set("Content-Type", "application/x-www-form-urlencoded")
		prepare(r)
		pg = b.send(r)
		pg.redirects(t, "/")
		ck := cookieOf(pg, web.SecureSessionCookie)
		if ck == nil || !ck.Secure || !ck.HttpOnly || ck.SameSite != http.SameSiteLaxMode || ck.Path != "/" || ck.Domain != "" {
			t.Errorf("session cookie %+v over HTTPS", ck)
		}
		if pg.header.Get("Strict-Transport-Security") != "max-age=31536000" {
			t.Errorf("Strict-Transport-Security over HTTPS: %q", pg.header.Get("Strict-Transport-Security"))
		}
		if ck == nil {
			return
		}
		// The session works under its __Host- name, and only under it: a
		// kith_session cookie a sibling subdomain planted signs nobody in.
		home := httptest.NewRequest(http.MethodGet, "/", nil)
		prepare(home)
		home.AddCookie(&http.Cookie{Name: ck.Name, Value: ck.Value})
		if got := serveHTML(e, home); got.Code != http.StatusOK || !strings.Contains(got.Body.String(), "Log out") {
			t.Errorf("the __Host- session over HTTPS: %d", got.Code)
		}
		tossed := httptest.NewRequest(http.MethodGet, "/", nil)
		prepare(tossed)
		tossed.AddCookie(&http.Cookie{Name: web.SessionCookie, Value: ck.Value})
		if got := serveHTML(e, tossed); got.Code != http.StatusSeeOther {
			t.Errorf("a plain kith_session cookie over HTTPS: %d, want the sign-in page's 303", got.Code)
		}
	}
	t.Run("TLS", func(t *testing.T) {
		check(t, newEnv(t), func(r *http.Request) { r.TLS = &tls.ConnectionState{} })
	})
	t.Run("trusted proxy", func(t *testing.T) {
		e := newEnv(t, func(o *Options) { o.TrustedProxies = []string{"10.0.0.0/8"} })
		check(t, e, func(r *http.Request) {
			r.RemoteAddr = "10.1.2.3:4567"
			r.Header.Set("X-Forwarded-Proto", "https")
		})
	})
	t.Run("untrusted X-Forwarded-Proto", func(t *testing.T) {
		e := newEnv(t)
		e.user("ada@example.com")
		b := e.browser(t)
		r := httptest.NewRequest(http.MethodGet, "/login", nil)
		r.Header.Set("X-Forwarded-Proto", "https")
		pg := b.send(r)
		if ck := cookieOf(pg, web.LoginCookie); ck == nil || ck.Secure {
			t.Errorf("a client's own X-Forwarded-Proto made the cookie %+v", ck)
		}
		if h := pg.header.Get("Strict-Transport-Security"); h != "" {
			t.Errorf("Strict-Transport-Security over plain HTTP: %q", h)
		}
	})
}

func TestWebLoginWrongPassword(t *testing.T) {
	e := newEnv(t)
	e.user("ada@example.com")
	for name, pw := range map[string]string{"wrong password": "wrong horse", "no such user": "correct horse"} {
		t.Run(name, func(t *testing.T) {
			b := e.browser(t)
			email := "ada@example.com"
			if name == "no such user" {
				email = "nobody@example.com"
			}
			pg := loginWith(b, email, pw)
			pg.status(t, http.StatusUnauthorized)
			pg.has(t, "That email and password do not match an account.", `<label for="login-email">Email`, `value="`+email+`"`)
			pg.lacks(t, pw)
			if cookieOf(pg, web.SessionCookie) != nil {
				t.Error("a session cookie after a refused sign-in")
			}
			if n := e.count(`SELECT count(*) FROM web_sessions`); n != 0 {
				t.Errorf("%d sessions", n)
			}
		})
	}
}

func TestWebLoginCSRF(t *testing.T) {
	e := newEnv(t)
	e.user("ada@example.com")
	form := func() url.Values { return url.Values{"email": {"ada@example.com"}, "password": {"correct horse"}} }

	b := e.browser(t)
	b.get("/login")
	delete(b.cookies, web.LoginCookie)
	pg := b.post("/login", form())
	pg.status(t, http.StatusForbidden)
	pg.has(t, "This form has expired.")
	if cookieOf(pg, web.SessionCookie) != nil {
		t.Error("a session without the login cookie")
	}

	b = e.browser(t)
	b.get("/login")
	f := form()
	f.Set("csrf", "not-the-token")
	b.post("/login", f).status(t, http.StatusForbidden)

	b = e.browser(t)
	b.get("/login")
	f = form()
	f.Set("csrf", "")
	b.post("/login", f).status(t, http.StatusForbidden)

	// A cookie and a token of their own, from another browser, do not go
	// together either.
	b1, b2 := e.browser(t), e.browser(t)
	b1.get("/login")
	b2.get("/login")
	b1.csrf = b2.csrf
	b1.post("/login", form()).status(t, http.StatusForbidden)
	if n := e.count(`SELECT count(*) FROM web_sessions`); n != 0 {
		t.Errorf("%d sessions", n)
	}
}

func TestWebLoginThrottle(t *testing.T) {
	e := newEnv(t)
	e.user("ada@example.com")
	b := e.browser(t)
	for i := 0; i < 5; i++ {
		loginWith(b, "ada@example.com", "wrong horse").status(t, http.StatusUnauthorized)
	}
	pg := loginWith(b, "ada@example.com", "correct horse")
	pg.status(t, http.StatusTooManyRequests)
	pg.has(t, "Too many attempts.")
	if pg.header.Get("Retry-After") == "" {
		t.Error("no Retry-After")
	}
	if cookieOf(pg, web.SessionCookie) != nil {
		t.Error("a session despite the throttle")
	}
	// The API's login counts the same failures.
	if r := e.do(req{method: "POST", path: "/api/login", body: `{"email":"ada@example.com","password":"correct horse"}`}); r.code != http.StatusTooManyRequests {
		t.Errorf("API login after 5 web failures: %d", r.code)
	}
	e.clock.Advance(time.Hour)
	loginWith(b, "ada@example.com", "correct horse").redirects(t, "/")
}

func TestWebLoginMalformed(t *testing.T) {
	e := newEnv(t)
	e.user("ada@example.com")
	b := e.browser(t)
	pg := loginWith(b, "not an email", "correct horse")
	pg.status(t, http.StatusUnprocessableEntity)
	pg.has(t, `<p class="error" id="login-email-err">The email field must be a valid email address.</p>`, `value="not an email"`)

	pg = loginWith(b, "", "")
	pg.status(t, http.StatusUnprocessableEntity)
	pg.has(t, `id="login-email-err">The email field is required.`, `id="login-password-err">The password field is required.`)

	pg = loginWith(b, "ada@example.com", strings.Repeat("x", 300))
	pg.status(t, http.StatusUnprocessableEntity)
	pg.has(t, `id="login-password-err">The password field must not be greater than 255 characters.`)

	pg = loginWith(b, "ada\xff@example.com", "correct horse")
	if pg.code != http.StatusUnprocessableEntity {
		t.Errorf("non-UTF-8 email: %d", pg.code)
	}
}

func TestWebLogout(t *testing.T) {
	e := newEnv(t)
	e.user("ada@example.com")
	b := e.signIn(t, "ada@example.com")
	old := *b.cookies[web.SessionCookie]
	if n := e.count(`SELECT count(*) FROM web_sessions`); n != 1 {
		t.Fatalf("%d sessions", n)
	}

	// Without the token: refused, still signed in.
	pg := b.post("/logout", url.Values{"csrf": {""}})
	pg.status(t, http.StatusForbidden)
	b.post("/logout", url.Values{"csrf": {"forged"}}).status(t, http.StatusForbidden)
	b.get("/").status(t, http.StatusOK)
	if n := e.count(`SELECT count(*) FROM web_sessions`); n != 1 {
		t.Fatalf("%d sessions after refused logouts", n)
	}

	pg = b.post("/logout", nil)
	pg.redirects(t, "/login")
	if ck := cookieOf(pg, web.SessionCookie); ck == nil || ck.MaxAge >= 0 {
		t.Errorf("the session cookie is not cleared: %+v", ck)
	}
	if n := e.count(`SELECT count(*) FROM web_sessions`); n != 0 {
		t.Errorf("%d sessions after logout", n)
	}
	b.follow(pg).has(t, "You are logged out.")

	// The old cookie, replayed, signs nobody in.
	replay := e.browser(t)
	replay.cookies[web.SessionCookie] = &old
	replay.get("/").redirects(t, "/login")
	replay.get("/people").redirects(t, "/login")
}

func TestWebSessionExpires(t *testing.T) {
	e := newEnv(t)
	e.user("ada@example.com")
	b := e.signIn(t, "ada@example.com")
	e.clock.Advance(store.WebSessionLife*time.Second - time.Second)
	b.get("/").status(t, http.StatusOK)
	e.clock.Advance(time.Second)
	b.get("/").redirects(t, "/login")
	// The next sign-in prunes the expired row.
	e.signIn(t, "ada@example.com")
	if n := e.count(`SELECT count(*) FROM web_sessions`); n != 1 {
		t.Errorf("%d sessions, want only the new one", n)
	}
}

func TestWebUnverified(t *testing.T) {
	e := newEnv(t)
	_, key := e.user("ada@example.com")
	person := e.person(key, "first_name=Grace")
	e.changeEmail(key, "ada.new@example.com")
	b := e.signIn(t, "ada.new@example.com")
	for _, path := range []string{"/", "/people", "/people/new", "/people/" + person, "/people/" + person + "/edit"} {
		pg := b.get(path)
		pg.status(t, http.StatusForbidden)
		pg.has(t, "Verify your email", "Send a new link", "ada.new@example.com", `action="/verification"`)
		pg.lacks(t, "Grace")
	}
	pg := b.post("/people", url.Values{"first_name": {"Eve"}})
	pg.status(t, http.StatusForbidden)
	pg.has(t, "Verify your email")
	if n := e.count(`SELECT count(*) FROM persons WHERE first_name = 'Eve'`); n != 0 {
		t.Error("an unverified user added a person")
	}

	before := strings.Count(e.logs.String(), "verify-email?token=")
	pg = b.post("/verification", nil)
	pg.redirects(t, "/")
	if after := strings.Count(e.logs.String(), "verify-email?token="); after != before+1 {
		t.Fatalf("no new link in the log (%d then %d)", before, after)
	}
	pg = b.follow(pg)
	pg.has(t, "A new link is on its way to ada.new@example.com.")
	link := pathOf(regexpLink(t, e.logs.String()))

	// Asking again at once: the budget.
	pg = b.post("/verification", nil)
	if pg.code != http.StatusTooManyRequests && pg.code != http.StatusSeeOther {
		t.Errorf("second resend: %d", pg.code)
	}

	// A bad token: a page.
	bad := b.get("/api/verify-email?token=1%7Cnope")
	bad.status(t, http.StatusForbidden)
	bad.has(t, "Link not valid")
	checkSecurityHeaders(t, bad)
	// Without Accept: text/html, the API's JSON.
	r := e.do(req{method: "GET", path: "/api/verify-email?token=1%7Cnope"})
	if r.code != http.StatusForbidden || !strings.Contains(r.body, invalidLink) {
		t.Errorf("API answer to a bad link: %d %s", r.code, r.body)
	}

	link = regexpLink(t, e.logs.String())
	pg = b.get(pathOf(link))
	pg.status(t, http.StatusOK)
	pg.has(t, "Email verified")
	checkSecurityHeaders(t, pg)

	home := b.get("/")
	home.status(t, http.StatusOK)
	home.has(t, "Dashboard")
	b.get("/people/"+person).has(t, "Grace")
}

func TestWebVerifyLinkJSON(t *testing.T) {
	e := newEnv(t)
	_, key := e.user("ada@example.com")
	e.changeEmail(key, "ada.new@example.com")
	r := e.do(req{method: "GET", path: pathOf(regexpLink(t, e.logs.String()))})
	if r.code != http.StatusOK || !strings.Contains(r.body, `"Email verified"`) {
		t.Errorf("%d %s", r.code, r.body)
	}
}

func checkSecurityHeaders(t testing.TB, pg page) {
	t.Helper()
	csp := pg.header.Get("Content-Security-Policy")
	if csp == "" || strings.Contains(csp, "unsafe-inline") || strings.Contains(csp, "unsafe-eval") || !strings.Contains(csp, "frame-ancestors 'none'") {
		t.Errorf("Content-Security-Policy %q", csp)
	}
	if got := pg.header.Get("X-Frame-Options"); got != "DENY" {
		t.Errorf("X-Frame-Options %q", got)
	}
	if got := pg.header.Get("Referrer-Policy"); got == "" || got == "unsafe-url" {
		t.Errorf("Referrer-Policy %q", got)
	}
}

func TestWebSecurityHeaders(t *testing.T) {
	e := newEnv(t)
	_, key := e.user("ada@example.com")
	person := e.person(key, "first_name=Grace")
	checkSecurityHeaders(t, e.browser(t).get("/login"))
	checkSecurityHeaders(t, e.browser(t).get("/"))
	b := e.signIn(t, "ada@example.com")
	for _, path := range []string{"/", "/people", "/people?q=gr", "/people/new", "/people/" + person, "/people/" + person + "/edit",
		"/people/999999", "/nowhere"} {
		pg := b.get(path)
		if pg.code >= 500 {
			t.Errorf("%s: %d", path, pg.code)
		}
		t.Run(path, func(t *testing.T) { checkSecurityHeaders(t, pg) })
		if ct := pg.header.Get("Content-Type"); !strings.HasPrefix(ct, "text/html") {
			t.Errorf("%s: Content-Type %q", path, ct)
		}
	}
	pg := b.post("/people", url.Values{"first_name": {""}})
	checkSecurityHeaders(t, pg)
	pg = b.post("/people", url.Values{"first_name": {"Eve"}})
	checkSecurityHeaders(t, pg)
}

// TestWebCookieAndKeyStayApart: the API takes no cookie, the web app no key.
func TestWebCookieAndKeyStayApart(t *testing.T) {
	e := newEnv(t)
	_, key := e.user("ada@example.com")
	b := e.signIn(t, "ada@example.com")
	ck := b.cookies[web.SessionCookie]

	for _, path := range []string{"/api/me", "/api/persons"} {
		r := httptest.NewRequest(http.MethodGet, path, nil)
		r.Header.Set("Accept", "application/json")
		r.AddCookie(ck)
		w := httptest.NewRecorder()
		e.srv.ServeHTTP(w, r)
		if w.Code != http.StatusUnauthorized {
			t.Errorf("GET %s with only the session cookie: %d %s", path, w.Code, w.Body)
		}
	}
	r := httptest.NewRequest(http.MethodPost, "/api/persons?first_name=Eve", nil)
	r.AddCookie(ck)
	w := httptest.NewRecorder()
	e.srv.ServeHTTP(w, r)
	if w.Code != http.StatusUnauthorized {
		t.Errorf("POST /api/persons with only the session cookie: %d %s", w.Code, w.Body)
	}

	for _, path := range []string{"/", "/people"} {
		r := httptest.NewRequest(http.MethodGet, path, nil)
		r.Header.Set("Accept", "text/html")
		r.Header.Set("Authorization", "Bearer "+key)
		w := httptest.NewRecorder()
		e.srv.ServeHTTP(w, r)
		if w.Code != http.StatusSeeOther || w.Header().Get("Location") != "/login" {
			t.Errorf("GET %s with only a key: %d %s", path, w.Code, w.Header().Get("Location"))
		}
	}
	form := url.Values{"first_name": {"Eve"}}
	r = httptest.NewRequest(http.MethodPost, "/people", strings.NewReader(form.Encode()))
	r.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	r.Header.Set("Authorization", "Bearer "+key)
	w = httptest.NewRecorder()
	e.srv.ServeHTTP(w, r)
	if w.Code != http.StatusSeeOther || w.Header().Get("Location") != "/login" {
		t.Errorf("POST /people with only a key: %d", w.Code)
	}
	if n := e.count(`SELECT count(*) FROM persons WHERE first_name = 'Eve'`); n != 0 {
		t.Error("Eve was added")
	}
}

func TestWebHead(t *testing.T) {
	e := newEnv(t)
	_, key := e.user("ada@example.com")
	person := e.person(key, "first_name=Grace")
	b := e.signIn(t, "ada@example.com")
	for _, path := range []string{"/", "/people", "/people?q=gr", "/people/new", "/people/" + person, "/people/" + person + "/edit",
		"/people/999999", "/login"} {
		get := b.get(path)
		head := b.send(httptest.NewRequest(http.MethodHead, path, nil))
		if head.code != get.code {
			t.Errorf("HEAD %s: %d, GET %d", path, head.code, get.code)
		}
		if head.body != "" {
			t.Errorf("HEAD %s has a body: %.200s", path, head.body)
		}
	}
	signedOut := e.browser(t)
	head := signedOut.send(httptest.NewRequest(http.MethodHead, "/", nil))
	if head.code != http.StatusSeeOther || head.body != "" {
		t.Errorf("HEAD / signed out: %d %q", head.code, head.body)
	}
}

// serveHTML sends r as a browser would, with no cookie but its own.
func serveHTML(e *env, r *http.Request) *httptest.ResponseRecorder {
	r.Header.Set("Accept", "text/html")
	w := httptest.NewRecorder()
	e.srv.ServeHTTP(w, r)
	return w
}
