package server

import (
	"net/http"
	"net/http/httptest"
	"net/url"
	"strings"
	"testing"
	"time"

	"kith/server/web"
	"kith/store"
)

const (
	firefoxLinux  = "Mozilla/5.0 (X11; Linux x86_64; rv:133.0) Gecko/20100101 Firefox/133.0"
	safariIPhone  = "Mozilla/5.0 (iPhone; CPU iPhone OS 18_1 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/18.1 Mobile/15E148 Safari/604.1"
	chromeAndroid = "Mozilla/5.0 (Linux; Android 10; K) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Mobile Safari/537.36"
)

// signInFrom signs email in with a browser of that User-Agent and address.
func (e *env) signInFrom(t *testing.T, email, ua, remote string) *browser {
	t.Helper()
	b := e.browser(t)
	b.ua, b.remote = ua, remote
	loginWith(b, email, "correct horse").redirects(t, "/")
	return b
}

// sessionID is the id of the browser's web session, from its cookie.
func (b *browser) sessionID() string {
	b.t.Helper()
	ck := b.cookies[web.SessionCookie]
	if ck == nil {
		b.t.Fatal("no session cookie")
	}
	id, _, _ := strings.Cut(ck.Value, "|")
	return id
}

// webSessionID signs the key's user in to the web app elsewhere and
// returns that session's id.
func (e *env) webSessionID(t *testing.T, key string) string {
	t.Helper()
	sess, err := e.st.Authenticate(t.Context(), key)
	if err != nil {
		t.Fatal(err)
	}
	token, err := e.st.CreateWebSession(t.Context(), sess.UserID, store.WebClient{UserAgent: firefoxLinux, IP: "192.0.2.77"})
	if err != nil {
		t.Fatal(err)
	}
	id, _, _ := strings.Cut(token, "|")
	return id
}

// TestWebSessionsList: Settings → Security lists the user's browsers by
// device, last sight and address, this one marked; last seen is written
// only once it is 5 minutes old, from the address the server trusts.
func TestWebSessionsList(t *testing.T) {
	e := newEnv(t)
	ada, _ := e.user("ada@example.com")
	e.user("bob@example.com")
	laptop := e.signInFrom(t, "ada@example.com", firefoxLinux, "198.51.100.7:4000")
	e.clock.Advance(time.Minute)
	phone := e.signInFrom(t, "ada@example.com", safariIPhone, "203.0.113.9:5000")
	e.signInFrom(t, "bob@example.com", chromeAndroid, "192.0.2.50:6000")
	phoneID := phone.sessionID()

	pg := laptop.get("/settings/security")
	pg.status(t, http.StatusOK)
	part := pg.body[strings.Index(pg.body, `id="sessions"`):]
	part = part[:strings.Index(part, "</section>")]
	page{body: part}.has(t, ">Sessions</h2>", "<strong>Firefox on Linux</strong>", "This browser", "Active now · 198.51.100.7",
		"<strong>Safari on iPhone</strong>", "Last seen just now · 203.0.113.9",
		`action="/settings/sessions/`+phoneID+`/delete"`, ">Sign out<", ">Sign out all other sessions<")
	page{body: part}.lacks(t, `action="/settings/sessions/`+laptop.sessionID()+`/delete"`, "Chrome on Android", "192.0.2.50")
	if strings.Index(part, "Firefox on Linux") > strings.Index(part, "Safari on iPhone") {
		t.Error("this browser is not listed first")
	}
	if n := strings.Count(part, "This browser"); n != 1 {
		t.Errorf("%d sessions marked as this browser", n)
	}

	seen := func() int { return e.count(`SELECT last_seen_at FROM web_sessions WHERE id = ?`, phoneID) }
	signedIn := seen()
	// Within 5 minutes a page writes nothing, from wherever it comes.
	e.clock.Advance(4 * time.Minute)
	phone.remote = "203.0.113.10:5000"
	phone.get("/").status(t, http.StatusOK)
	if seen() != signedIn {
		t.Error("last seen written within 5 minutes")
	}
	// Then the next page writes it, with the address: the client's own,
	// not what it says it forwards for (no proxy is trusted here).
	e.clock.Advance(time.Minute)
	r := httptest.NewRequest(http.MethodGet, "/", nil)
	r.Header.Set("X-Forwarded-For", "6.6.6.6")
	phone.send(r).status(t, http.StatusOK)
	if seen() != signedIn+300 {
		t.Errorf("last seen %d, want %d", seen(), signedIn+300)
	}
	e.clock.Advance(2 * time.Hour)
	pg = laptop.get("/settings/security")
	pg.has(t, "Last seen 2 hours ago · 203.0.113.10", "from 203.0.113.9")
	pg.lacks(t, "6.6.6.6")
	e.clock.Advance(8 * 24 * time.Hour)
	laptop.get("/settings/security").has(t, "Last seen on ")

	// A session from before sessions knew their browser.
	if _, err := e.st.CreateWebSession(t.Context(), ada.ID, store.WebClient{}); err != nil {
		t.Fatal(err)
	}
	laptop.get("/settings/security").has(t, "<strong>Unknown browser</strong>")
}

// TestWebSessionsSignOut: Sign out ends another browser's session and
// Sign out all other sessions every one but this; another user's session
// is a 404 page and stays, and each form needs its token.
func TestWebSessionsSignOut(t *testing.T) {
	e := newEnv(t)
	e.user("ada@example.com")
	e.user("bob@example.com")
	laptop := e.signInFrom(t, "ada@example.com", firefoxLinux, "198.51.100.7:4000")
	phone := e.signInFrom(t, "ada@example.com", safariIPhone, "203.0.113.9:5000")
	tablet := e.signInFrom(t, "ada@example.com", chromeAndroid, "203.0.113.11:5000")
	bob := e.signInFrom(t, "bob@example.com", chromeAndroid, "192.0.2.50:6000")
	laptop.get("/settings/security")

	for _, c := range []struct{ name, path string }{
		{"another user's session", "/settings/sessions/" + bob.sessionID() + "/delete"},
		{"no such session", "/settings/sessions/999999/delete"},
		{"not an id", "/settings/sessions/abc/delete"},
		{"a negative id", "/settings/sessions/-1/delete"},
	} {
		pg := laptop.post(c.path, nil)
		if pg.code != http.StatusNotFound || !strings.Contains(pg.header.Get("Content-Type"), "text/html") || !strings.Contains(pg.body, "Session not found.") {
			t.Errorf("%s: %d %s", c.name, pg.code, pg.header.Get("Content-Type"))
		}
	}
	bob.get("/").status(t, http.StatusOK)
	if pg := laptop.post("/settings/sessions/"+phone.sessionID()+"/delete", url.Values{"csrf": {"forged"}}); pg.code != http.StatusForbidden {
		t.Errorf("without the form's token: %d", pg.code)
	}
	if pg := laptop.post("/settings/sessions/others/delete", url.Values{"csrf": {"forged"}}); pg.code != http.StatusForbidden {
		t.Errorf("all others without the form's token: %d", pg.code)
	}
	phone.get("/").status(t, http.StatusOK)

	laptop.get("/settings/security")
	pg := laptop.post("/settings/sessions/"+phone.sessionID()+"/delete", nil)
	pg.redirects(t, "/settings/security#sessions")
	pg = laptop.follow(pg)
	pg.has(t, "Safari on iPhone is signed out.", "Chrome on Android")
	if strings.Count(pg.body, "<strong>Safari on iPhone</strong>") != 0 {
		t.Error("the signed-out phone is still listed")
	}
	phone.get("/").redirects(t, "/login")
	tablet.get("/").status(t, http.StatusOK)

	pg = laptop.post("/settings/sessions/others/delete", nil)
	pg.redirects(t, "/settings/security#sessions")
	pg = laptop.follow(pg)
	pg.has(t, "Every other session is signed out.", "This browser")
	pg.lacks(t, "Chrome on Android", "Sign out all other sessions")
	tablet.get("/").redirects(t, "/login")
	laptop.get("/").status(t, http.StatusOK)
	bob.get("/").status(t, http.StatusOK)
	laptop.follow(laptop.post("/settings/sessions/others/delete", nil)).has(t, "There were no other sessions.")
	if n := e.count(`SELECT count(*) FROM web_sessions`); n != 2 {
		t.Errorf("%d web sessions, want the laptop's and bob's", n)
	}
	// A GET of a form's address goes to its page.
	if pg := laptop.get("/settings/sessions/others/delete"); pg.code != http.StatusSeeOther || pg.location() != "/settings/security" {
		t.Errorf("GET of the form's address: %d %s", pg.code, pg.location())
	}
}
