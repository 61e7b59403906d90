package server

import (
	"fmt"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strings"
	"testing"
	"time"
)

// invitedLink is the newest invitation link logged for email.
func (e *env) invitedLink(email string) string {
	e.t.Helper()
	var link string
	for _, l := range strings.Split(e.logs.String(), "\n") {
		if strings.Contains(l, `"to":"`+email+`"`) && strings.Contains(l, "/api/invitations/accept?token=") {
			link = linkPattern.FindString(l)
		}
	}
	if link == "" {
		e.t.Fatalf("no invitation link for %s in the log:\n%s", email, e.logs.String())
	}
	return link
}

// plainGet sends a GET as a script would: no cookie, no Accept.
func (e *env) plainGet(path string) resp {
	w := httptest.NewRecorder()
	e.srv.ServeHTTP(w, httptest.NewRequest(http.MethodGet, path, nil))
	return resp{code: w.Code, header: w.Header(), body: w.Body.String()}
}

// TestWebSettingsUsers: the Users page lists who shares the account, and
// no other account's users; its form invites as the API does, with the
// API's refusals beside Email.
func TestWebSettingsUsers(t *testing.T) {
	e := newEnv(t)
	ada, _ := e.user("ada@example.com")
	e.userIn(ada.AccountID, "grace@example.com")
	e.user("bob@example.com")
	b := e.signIn(t, "ada@example.com")
	pg := b.get("/settings/users")
	pg.status(t, http.StatusOK)
	pg.has(t, "ada@example.com", "(you)", "grace@example.com", "joined", `<label for="invite-email">Email`,
		`<label for="invite-first_name">First name`, `<label for="invite-last_name">Last name`, `action="/settings/users"`)
	pg.lacks(t, "bob@example.com")

	invite := url.Values{"email": {"Pam@Example.com"}, "first_name": {"Pam"}, "last_name": {"Beesly"}}
	if pg := b.post("/settings/users", url.Values{"csrf": {"forged"}, "email": {"eve@example.com"}, "first_name": {"E"}, "last_name": {"V"}}); pg.code != http.StatusForbidden {
		t.Errorf("without the form's token: %d", pg.code)
	}
	pg = b.post("/settings/users", invite)
	pg.redirects(t, "/settings/users")
	link := e.invitedLink("pam@example.com")
	if !strings.HasPrefix(link, "http://example.com/api/invitations/accept?token=") {
		t.Errorf("link %s", link)
	}
	pg = b.follow(pg)
	pg.has(t, "Invitation sent to pam@example.com.", "Pam Beesly", "pam@example.com", "invited, not joined yet")
	if n := e.count(`SELECT count(*) FROM users WHERE email = 'pam@example.com' AND account_id = ? AND password_hash = ''`, ada.AccountID); n != 1 {
		t.Errorf("Pam is not an invited user of Ada's account")
	}

	// Refused, with the API's words beside Email and the input kept.
	for _, c := range []struct {
		name string
		form url.Values
		want []string
	}{
		{"a taken email", url.Values{"email": {"PAM@example.com"}, "first_name": {"P"}, "last_name": {"B"}},
			[]string{`id="invite-email-err">The email has already been taken.`, `value="PAM@example.com"`}},
		{"another account's user", url.Values{"email": {"bob@example.com"}, "first_name": {"Bob"}, "last_name": {"B"}},
			[]string{`id="invite-email-err">The email has already been taken.`, `value="Bob"`}},
		{"not an email", url.Values{"email": {"pam"}, "first_name": {"P"}, "last_name": {"B"}},
			[]string{`id="invite-email-err">The email field must be a valid email address.`}},
		{"no names", url.Values{"email": {"kevin@example.com"}},
			[]string{`id="invite-first_name-err">The first name field is required.`, `id="invite-last_name-err">The last name field is required.`,
				`value="kevin@example.com"`}},
	} {
		pg := b.post("/settings/users", c.form)
		if pg.code != http.StatusUnprocessableEntity {
			t.Errorf("%s: %d", c.name, pg.code)
			continue
		}
		pg.has(t, append(c.want, "<h1>Users</h1>", `aria-current="page">Users`)...)
	}
	if n := e.count(`SELECT count(*) FROM users WHERE email IN ('pam', 'kevin@example.com')`); n != 0 {
		t.Errorf("a refused invitation made a user")
	}

	// Bob sees his account only.
	bob := e.signIn(t, "bob@example.com")
	bob.get("/settings/users").lacks(t, "ada@example.com", "pam@example.com", "grace@example.com")
}

// TestWebSettingsInviteBudget: the form spends the API's daily budget of
// invitations, and its refusal is the API's, beside Email, with a 429.
func TestWebSettingsInviteBudget(t *testing.T) {
	e := newEnv(t)
	_, key := e.user("ada@example.com")
	for i := range 10 {
		e.invite(key, "guest"+string(rune('a'+i))+"@example.com")
	}
	b := e.signIn(t, "ada@example.com")
	b.get("/settings/users")
	pg := b.post("/settings/users", url.Values{"email": {"one-more@example.com"}, "first_name": {"O"}, "last_name": {"M"}})
	pg.status(t, http.StatusTooManyRequests)
	pg.has(t, `id="invite-email-err">Too Many Attempts.`, `value="one-more@example.com"`)
	if pg.header.Get("Retry-After") == "" {
		t.Errorf("no Retry-After")
	}
	if n := e.count(`SELECT count(*) FROM users WHERE email = 'one-more@example.com'`); n != 0 {
		t.Errorf("the invitation over the budget was made")
	}
}

// TestWebJoin: the invitation link opened in a browser is a page with
// Password, Confirm password and Join; joining signs the person in, once.
// A used, voided or unknown link is an HTML 403 with the API's words.
func TestWebJoin(t *testing.T) {
	e := newEnv(t)
	ada, key := e.user("ada@example.com")
	jim := e.person(key, "first_name=Jim")
	e.invite(key, "pam@example.com")
	link := pathOf(e.loggedLink())

	b := e.browser(t)
	pg := b.get(link)
	pg.status(t, http.StatusOK)
	if ct := pg.header.Get("Content-Type"); !strings.HasPrefix(ct, "text/html") {
		t.Errorf("Content-Type %q", ct)
	}
	if pg.header.Get("Cache-Control") != "no-store" || !strings.Contains(pg.header.Get("Content-Security-Policy"), "script-src 'self'") {
		t.Errorf("headers %v", pg.header)
	}
	pg.has(t, `<label for="join-password">Password`, `<label for="join-password_confirmation">Confirm password`, ">Join</button>", `action="/join"`)
	if n := strings.Count(pg.body, "<h1"); n != 1 {
		t.Errorf("%d h1", n)
	}
	token := strings.SplitN(link, "token=", 2)[1]
	pg.lacks(t, token) // the token travels in the cookie, not in the form
	if b.get(link).code != http.StatusOK {
		t.Errorf("opening the page spent the link")
	}

	// The form's token is needed, and the cookie that holds the link.
	if pg := b.post("/join", url.Values{"csrf": {"forged"}, "password": {"new password"}, "password_confirmation": {"new password"}}); pg.code != http.StatusForbidden {
		t.Errorf("a forged token: %d", pg.code)
	}
	stranger := e.browser(t)
	if pg := stranger.post("/join", url.Values{"csrf": {b.csrf}, "password": {"new password"}, "password_confirmation": {"new password"}}); pg.code != http.StatusForbidden {
		t.Errorf("without the cookie: %d", pg.code)
	}

	pg = b.post("/join", url.Values{"password": {"new password"}, "password_confirmation": {"new passwort"}})
	pg.status(t, http.StatusUnprocessableEntity)
	pg.has(t, `id="join-password_confirmation-err">The password field confirmation does not match.`)
	pg = b.post("/join", url.Values{"password": {"short"}, "password_confirmation": {"short"}})
	pg.status(t, http.StatusUnprocessableEntity)
	pg.has(t, `id="join-password-err">The password field must be at least 8 characters.`)
	pg.lacks(t, "join-password_confirmation-err", `value="short"`)
	pg = b.post("/join", url.Values{"password": {strings.Repeat("p", 73)}, "password_confirmation": {strings.Repeat("p", 73)}})
	pg.has(t, `id="join-password-err">The password field must not be greater than 72 characters.`)
	if r := e.do(req{method: "POST", path: "/api/login?email=pam@example.com&password=new+password"}); r.code != 401 {
		t.Fatalf("a refused form joined: %d", r.code)
	}

	pg = b.post("/join", url.Values{"password": {"new password"}, "password_confirmation": {"new password"}})
	pg.redirects(t, "/")
	home := b.follow(pg)
	home.status(t, http.StatusOK)
	home.has(t, "Dashboard", "Log out", "Welcome to Kith")
	b.get("/people").has(t, "Jim")
	if r := e.do(req{method: "POST", path: "/api/login?email=pam@example.com&password=new+password"}); r.code != 200 {
		t.Errorf("API login with the chosen password: %d %s", r.code, r.body)
	}
	if n := e.count(`SELECT count(*) FROM users WHERE email = 'pam@example.com' AND account_id = ? AND email_verified_at IS NOT NULL`, ada.AccountID); n != 1 {
		t.Errorf("Pam is not a verified user of Ada's account")
	}
	_ = jim

	invalid := func(name string, pg page) {
		t.Helper()
		if pg.code != http.StatusForbidden || !strings.HasPrefix(pg.header.Get("Content-Type"), "text/html") {
			t.Errorf("%s: %d %s", name, pg.code, pg.header.Get("Content-Type"))
		}
		pg.has(t, "This invitation link is invalid or has expired.")
		pg.lacks(t, ">Join</button>", `name="password"`)
		if n := strings.Count(pg.body, "<h1"); n != 1 {
			t.Errorf("%s: %d h1", name, n)
		}
	}
	invalid("the used link", e.browser(t).get(link))
	invalid("no token", e.browser(t).get("/api/invitations/accept"))
	invalid("an unknown token", e.browser(t).get("/api/invitations/accept?token=AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA"))
	// Without Accept: text/html too, never JSON.
	if r := e.plainGet(link); r.code != http.StatusForbidden || !strings.HasPrefix(r.header.Get("Content-Type"), "text/html") ||
		!strings.Contains(r.body, "This invitation link is invalid or has expired.") {
		t.Errorf("the used link without Accept: %d %s", r.code, r.header.Get("Content-Type"))
	}

	// A newer invitation voids the link: opened, and posted from a page
	// opened before.
	id := e.invite(key, "kevin@example.com")
	first := pathOf(e.loggedLink())
	early := e.browser(t)
	early.get(first).status(t, http.StatusOK)
	e.do(req{method: "PUT", path: "/api/administration/users/" + id + "/invite", key: key})
	invalid("a voided link", e.browser(t).get(first))
	invalid("a voided link's form", early.post("/join", url.Values{"password": {"new password"}, "password_confirmation": {"new password"}}))
	// An expired one too.
	late := e.browser(t)
	late.get(pathOf(e.loggedLink())).status(t, http.StatusOK)
	e.clock.Advance(72 * time.Hour)
	invalid("an expired link", e.browser(t).get(pathOf(e.loggedLink())))
}

// TestWebSettingsReinvite: Send a new link, beside an invited user, sends
// one as the API's resend does and voids the last; refusals are the API's,
// beside the user; another account's user is a 404.
func TestWebSettingsReinvite(t *testing.T) {
	e := newEnv(t)
	ada, key := e.user("ada@example.com")
	_, bobKey := e.user("bob@example.com")
	pam := e.invite(key, "pam@example.com")
	first := pathOf(e.loggedLink())
	kevin := e.invite(bobKey, "kevin@example.com")
	b := e.signIn(t, "ada@example.com")
	pg := b.get("/settings/users")
	pg.has(t, `action="/settings/users/`+pam+`/invite"`, ">Send a new link</button>")
	pg.lacks(t, fmt.Sprintf(`action="/settings/users/%d/invite"`, ada.ID)) // joined: no link to send

	if pg := b.post("/settings/users/"+pam+"/invite", url.Values{"csrf": {"forged"}}); pg.code != http.StatusForbidden {
		t.Errorf("without the form's token: %d", pg.code)
	}
	pg = b.post("/settings/users/"+pam+"/invite", nil)
	pg.redirects(t, "/settings/users")
	b.follow(pg).has(t, "A new invitation is on its way to pam@example.com")
	second := pathOf(e.loggedLink())
	if second == first {
		t.Fatal("no new link")
	}
	e.browser(t).get(first).status(t, http.StatusForbidden)
	e.browser(t).get(second).status(t, http.StatusOK)

	// The invitation and this one were two emails; a third is allowed, a
	// fourth not, as by the API.
	b.post("/settings/users/"+pam+"/invite", nil).redirects(t, "/settings/users")
	pg = b.post("/settings/users/"+pam+"/invite", nil)
	pg.status(t, http.StatusTooManyRequests)
	pg.has(t, `<p class="error" role="alert">Too Many Attempts.</p>`, "<h1>Users</h1>")
	pg = b.post(fmt.Sprintf("/settings/users/%d/invite", ada.ID), nil)
	pg.status(t, http.StatusConflict)
	pg.has(t, "This user has already joined the account.")
	for _, id := range []string{kevin, "999", "pam"} {
		if pg := b.post("/settings/users/"+id+"/invite", nil); pg.code != http.StatusNotFound {
			t.Errorf("user %s: %d", id, pg.code)
		}
	}
}
