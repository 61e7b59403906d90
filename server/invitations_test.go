package server

import (
	"context"
	"fmt"
	"kith/store"
	"net/url"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"
)

const invalidInvitation = "This invitation link is invalid or has expired."

// invite invites email into the account of key and returns the new user's id.
func (e *env) invite(key, email string) string {
	e.t.Helper()
	r := e.do(req{method: "POST", path: "/api/administration/users?first_name=New&last_name=Comer&email=" + url.QueryEscape(email), key: key})
	if r.code != 201 {
		e.t.Fatalf("invite %s: %d %s", email, r.code, r.body)
	}
	return fmt.Sprint(r.json(e.t)["id"])
}

// loggedLink is the newest invitation link written to the log.
func (e *env) loggedLink() string {
	e.t.Helper()
	var line string
	for _, l := range strings.Split(e.logs.String(), "\n") {
		if strings.Contains(l, "/api/invitations/accept?token=") {
			line = l
		}
	}
	link := linkPattern.FindString(line)
	if link == "" {
		e.t.Fatalf("no invitation link in the log:\n%s", e.logs.String())
	}
	return link
}

func TestInvite(t *testing.T) {
	e := newEnv(t)
	ada, key := e.user("ada@example.com")
	_, bob := e.user("bob@example.com")
	base := "/api/administration/users"
	post := func(q string) req { return req{method: "POST", path: base + "?" + q, key: key} }
	e.run(t, []scenario{
		{"invite, query string only, the email lower-cased", post("email=Dwight@Example.com&first_name=Dwight&last_name=Schrute"), 201,
			[]string{`"object":"user"`, `"email":"dwight@example.com"`}},
		{"invite with JSON", req{method: "POST", path: base, key: key, body: `{"email":"jim@example.com","first_name":"Jim","last_name":"Halpert"}`}, 201,
			[]string{`"email":"jim@example.com"`}},
		{"an email taken by an invited user, ignoring case", post("email=DWIGHT@example.com&first_name=D&last_name=S"), 422,
			errBody(422, "The email has already been taken.")},
		{"an email taken by another account's user", post("email=bob@example.com&first_name=B&last_name=S"), 422,
			errBody(422, "The email has already been taken.")},
		{"nothing", post(""), 422, []string{`"message":"The email field is required. (and 2 more errors)"`,
			`"first_name":["The first name field is required."]`, `"last_name":["The last name field is required."]`}},
		{"not an email", post("email=dwight&first_name=D&last_name=S"), 422, errBody(422, "The email field must be a valid email address.")},
		{"an email over 255 characters", post("email=" + strings.Repeat("d", 250) + "@example.com&first_name=D&last_name=S"), 422,
			errBody(422, "The email field must not be greater than 255 characters.")},
		{"a first name over 255 characters", post("email=x@example.com&last_name=S&first_name=" + strings.Repeat("é", 256)), 422,
			errBody(422, "The first name field must not be greater than 255 characters.")},
		{"an email of the wrong type", req{method: "POST", path: base, key: key, body: `{"email":["x@example.com"],"first_name":"D","last_name":"S"}`}, 422,
			errBody(422, "The email field must be a string.")},
		{"without a key", req{method: "POST", path: base + "?email=x@example.com&first_name=D&last_name=S"}, 401, errBody(401, "Unauthenticated.")},
	})
	r := e.do(post("email=pam@example.com&first_name=Pam&last_name=Beesly"))
	keysOf(t, r.json(t), "id", "object", "email")
	id := fmt.Sprint(r.json(t)["id"])
	if n := e.count(`SELECT count(*) FROM users WHERE id = ? AND account_id = ? AND password_hash = '' AND timezone = 'UTC' AND email_verified_at IS NULL`, id, ada.AccountID); n != 1 {
		t.Errorf("the invited user is not an invited user of Ada's account")
	}
	if n := e.count(`SELECT count(*) FROM users WHERE email = 'x@example.com'`); n != 0 {
		t.Errorf("a refused invitation made a user")
	}
	// Without SMTP the link goes to the log, at warn level, with the address.
	var line string
	for _, l := range strings.Split(e.logs.String(), "\n") {
		if strings.Contains(l, "pam@example.com") && strings.Contains(l, "invitations/accept") {
			line = l
		}
	}
	if !strings.Contains(line, `"level":"warn"`) || !strings.Contains(line, "smtp.host") || !strings.Contains(line, "http://example.com/api/invitations/accept?token=") {
		t.Errorf("log line %q: want a warning with the link and smtp.host", line)
	}
	// Bob is not told of Ada's account, but of his own: his invitee is his.
	if r := e.do(req{method: "POST", path: base + "?email=kevin@example.com&first_name=Kevin&last_name=M", key: bob}); r.code != 201 {
		t.Fatalf("Bob invites: %d %s", r.code, r.body)
	}
	if n := e.count(`SELECT count(*) FROM users u JOIN users b ON b.account_id = u.account_id WHERE u.email = 'kevin@example.com' AND b.email = 'bob@example.com'`); n != 1 {
		t.Errorf("Bob's invitee is not in Bob's account")
	}
}

func TestAcceptInvitation(t *testing.T) {
	e := newEnv(t)
	ada, key := e.user("ada@example.com")
	jim := e.person(key, "first_name=Jim")
	e.invite(key, "pam@example.com")
	link := e.loggedLink()
	token := strings.SplitN(link, "token=", 2)[1]
	accept := "/api/invitations/accept"
	invalid := errBody(403, invalidInvitation)
	// A GET is the browser's page (TestWebJoin), which spends nothing.
	if r := e.plainGet(pathOf(link)); r.code != 200 || !strings.HasPrefix(r.header.Get("Content-Type"), "text/html") {
		t.Errorf("GET the link: %d %s", r.code, r.header.Get("Content-Type"))
	}
	e.run(t, []scenario{
		{"login before accepting", req{method: "POST", path: "/api/login?email=pam@example.com&password=anything+at+all"}, 401, errBody(401, "Invalid credentials")},
		{"login with an empty password", req{method: "POST", path: "/api/login", body: `{"email":"pam@example.com","password":""}`}, 422, nil},
		{"nothing", req{method: "POST", path: accept}, 422, []string{`"token":["The token field is required."]`, `"password":["The password field is required."]`}},
		{"a bad token with a short password: the parameters first", req{method: "POST", path: accept + "?token=nope&password=short"}, 422,
			errBody(422, "The password field must be at least 8 characters.")},
		{"a password of 37 characters and 74 bytes", req{method: "POST", path: accept, body: `{"token":"` + token + `","password":"` + strings.Repeat("é", 37) + `"}`}, 422,
			errBody(422, "The password field must not be greater than 72 characters.")},
		{"a password of 73 characters", req{method: "POST", path: pathOf(link) + "&password=" + strings.Repeat("p", 73)}, 422,
			errBody(422, "The password field must not be greater than 72 characters.")},
		{"a password that is not a string", req{method: "POST", path: accept, body: `{"token":"` + token + `","password":true}`}, 422,
			errBody(422, "The password field must be a string.")},
		{"an unknown token", req{method: "POST", path: accept + "?token=AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA&password=new+password"}, 403, invalid},
		{"a token over 256 characters", req{method: "POST", path: accept + "?token=" + strings.Repeat("A", 300) + "&password=new+password"}, 403, invalid},
		{"a token of 5000 characters", req{method: "POST", path: accept, body: `{"token":"` + strings.Repeat("A", 5000) + `","password":"new password"}`}, 403, invalid},
		{"a token with control characters", req{method: "POST", path: accept, body: `{"token":"A\u0001B","password":"new password"}`}, 403, invalid},
		{"a token that is not a string", req{method: "POST", path: accept, body: `{"token":["A"],"password":"new password"}`}, 422,
			errBody(422, "The token field must be a string.")},
		{"another method", req{method: "PUT", path: pathOf(link)}, 405, errBody(405, "Method not allowed.")},
		{"the link, query string only", req{method: "POST", path: pathOf(link) + "&password=new+password"}, 200,
			[]string{`{"message":"Invitation accepted","status":200}`}},
		{"the link again", req{method: "POST", path: pathOf(link) + "&password=other+password"}, 403, invalid},
		{"a wrong password", req{method: "POST", path: "/api/login?email=pam@example.com&password=other+password"}, 401, errBody(401, "Invalid credentials")},
	})
	// Pam has joined: she logs in, verified, into Ada's account.
	r := e.do(req{method: "POST", path: "/api/login?email=pam@example.com&password=new+password"})
	if r.code != 200 {
		t.Fatalf("login after accepting: %d %s", r.code, r.body)
	}
	pam := r.json(t)["data"].(map[string]any)["token"].(string)
	if r := e.do(req{method: "GET", path: "/api/persons/" + jim, key: pam}); r.code != 200 {
		t.Errorf("Pam does not see Ada's person: %d %s", r.code, r.body)
	}
	if n := e.count(`SELECT count(*) FROM users WHERE email = 'pam@example.com' AND account_id = ? AND email_verified_at IS NOT NULL`, ada.AccountID); n != 1 {
		t.Errorf("Pam is not a verified user of Ada's account")
	}
	if n := e.count(`SELECT count(*) FROM invitations`); n != 0 {
		t.Errorf("%d invitations left after accepting", n)
	}
	if logs, _ := e.logsOf(pam); len(logs) != 0 {
		t.Errorf("accepting was logged: %v", logs)
	}

	// A link expires after 72 hours.
	e.invite(key, "late@example.com")
	late := e.loggedLink()
	e.clock.Advance(72 * time.Hour)
	e.run(t, []scenario{{"an expired link", req{method: "POST", path: pathOf(late) + "&password=new+password"}, 403, invalid}})
}

func TestResendInvitation(t *testing.T) {
	e := newEnv(t)
	ada, key := e.user("ada@example.com")
	mate, mateKey := e.userIn(ada.AccountID, "grace@example.com")
	bobUser, bob := e.user("bob@example.com")
	pam := e.invite(key, "pam@example.com")
	first := e.loggedLink()
	kevin := e.invite(bob, "kevin@example.com")
	path := func(id string) string { return "/api/administration/users/" + id + "/invite" }
	notFound := errBody(404, "User not found.")
	joined := errBody(409, "This user has already joined the account.")
	e.run(t, []scenario{
		{"another account's invited user", req{method: "PUT", path: path(kevin), key: key}, 404, notFound},
		{"another account's joined user", req{method: "PUT", path: path(fmt.Sprint(bobUser.ID)), key: key}, 404, notFound},
		{"a missing user", req{method: "PUT", path: path("999"), key: key}, 404, notFound},
		{"not an id", req{method: "PUT", path: path("pam"), key: key}, 404, notFound},
		{"the caller, who has joined", req{method: "PUT", path: path(fmt.Sprint(ada.ID)), key: key}, 409, joined},
		{"a teammate who has joined", req{method: "PUT", path: path(fmt.Sprint(mate.ID)), key: key}, 409, joined},
		{"without a key", req{method: "PUT", path: path(pam)}, 401, errBody(401, "Unauthenticated.")},
		{"a teammate resends, parameters ignored", req{method: "PUT", path: path(pam) + "?email=x@example.com", key: mateKey}, 200,
			[]string{`{"id":` + pam + `,"object":"user","email":"pam@example.com"}`}},
	})
	second := e.loggedLink()
	if second == first {
		t.Fatal("no new link")
	}
	e.run(t, []scenario{
		{"the first link is void", req{method: "POST", path: pathOf(first) + "&password=new+password"}, 403, errBody(403, invalidInvitation)},
		// The invitation and this resend were two emails; a third is allowed, a fourth not.
		{"a third email", req{method: "PUT", path: path(pam), key: key}, 200, nil},
		{"a fourth email within 15 minutes", req{method: "PUT", path: path(pam), key: key}, 429, errBody(429, "Too Many Attempts.")},
		{"another invitee's budget is their own", req{method: "PUT", path: path(kevin), key: bob}, 200, nil},
	})
	e.clock.Advance(15 * time.Minute)
	e.run(t, []scenario{{"after the window", req{method: "PUT", path: path(pam), key: key}, 200, nil}})
	e.run(t, []scenario{
		{"the newest link works", req{method: "POST", path: pathOf(e.loggedLink()) + "&password=new+password"}, 200, nil},
		{"once joined, no more invitations", req{method: "PUT", path: path(pam), key: key}, 409, joined},
	})
}

func TestInvitationOverSMTP(t *testing.T) {
	mb := newMailbox(t)
	e := newEnv(t, withSMTP(mb), func(o *Options) { o.BaseURL = "https://kith.example.org" })
	_, key := e.user("ada@example.com")
	e.do(req{method: "PUT", path: "/api/me?first_name=Ada&last_name=<Lovelace>&email=ada@example.com", key: key})
	e.invite(key, "Pam@Example.com")
	e.waitMail()
	m := mb.next(t)
	if len(m.to) != 1 || m.to[0] != "pam@example.com" {
		t.Errorf("sent to %v, want the invited address", m.to)
	}
	p := m.parse(t)
	// The inviter's chosen name stays out of the subject (issue 27, L1); the
	// body names them, escaped.
	if subj := p.header.Get("Subject"); !strings.Contains(subj, "Kith") || strings.Contains(subj, "Lovelace") {
		t.Errorf("Subject %q", subj)
	}
	link := p.link(t)
	if !strings.HasPrefix(link, "https://kith.example.org/api/invitations/accept?token=") || len(link) < len("https://kith.example.org/api/invitations/accept?token=")+32 {
		t.Errorf("link %s", link)
	}
	for part, body := range map[string]string{"text": p.text, "html": p.html} {
		for _, want := range []string{"Kith", "pam@example.com", "72 hours", "works once"} {
			if !strings.Contains(body, want) {
				t.Errorf("the %s part lacks %q:\n%s", part, want, body)
			}
		}
	}
	if !strings.Contains(p.text, "Ada <Lovelace>") || !strings.Contains(p.html, "Ada &lt;Lovelace&gt;") || strings.Contains(p.html, "<Lovelace>") {
		t.Errorf("the inviter's name is not escaped in HTML, or missing in text:\n%s\n%s", p.text, p.html)
	}
	if strings.Contains(e.logs.String(), "token=") {
		t.Errorf("with SMTP the link is in the log:\n%s", e.logs.String())
	}
	if r := e.do(req{method: "POST", path: pathOf(link) + "&password=new+password"}); r.code != 200 {
		t.Errorf("the emailed link: %d %s", r.code, r.body)
	}
}

// TestReinvitesAtOnce: invitations sent at once (two servers, or
// PostgreSQL's concurrent transactions) leave one link live, as one after
// the other would.
func TestReinvitesAtOnce(t *testing.T) {
	e := newEnv(t)
	ada, key := e.user("ada@example.com")
	id := e.invite(key, "pam@example.com")
	var wg sync.WaitGroup
	for range 8 {
		wg.Go(func() {
			if _, err := e.st.Reinvite(context.Background(), ada.ID, mustInt(t, id)); err != nil {
				t.Error(err)
			}
		})
	}
	wg.Wait()
	if n := e.count(`SELECT count(*) FROM invitations WHERE user_id = ?`, id); n != 1 {
		t.Errorf("%d live invitations, want 1", n)
	}
}

func mustInt(t *testing.T, s string) int64 {
	t.Helper()
	n, err := strconv.ParseInt(s, 10, 64)
	if err != nil {
		t.Fatal(err)
	}
	return n
}

// TestInvitationsPerInviter: a user sends at most 10 invitations a day, new
// ones and ones sent again alike; the 11th is 429 with Retry-After, and
// another user of the account keeps their own budget.
func TestInvitationsPerInviter(t *testing.T) {
	e := newEnv(t)
	ada, key := e.user("ada@example.com")
	for i := range 9 {
		if r := e.do(req{method: "POST", path: fmt.Sprintf("/api/administration/users?email=guest%d@example.com&first_name=G&last_name=%d", i, i), key: key}); r.code != 201 {
			t.Fatalf("invitation %d: %d %s", i+1, r.code, r.body)
		}
	}
	pam := e.do(req{method: "POST", path: "/api/administration/users?email=pam@example.com&first_name=Pam&last_name=B", key: key})
	if pam.code != 201 {
		t.Fatalf("the 10th invitation: %d %s", pam.code, pam.body)
	}
	over := e.do(req{method: "POST", path: "/api/administration/users?email=one-more@example.com&first_name=O&last_name=M", key: key})
	if over.code != 429 || over.header.Get("Retry-After") == "" || !strings.Contains(over.body, "Too Many Attempts.") {
		t.Errorf("the 11th invitation: %d %v %s", over.code, over.header, over.body)
	}
	pamID := fmt.Sprint(pam.json(t)["id"])
	again := e.do(req{method: "PUT", path: "/api/administration/users/" + pamID + "/invite", key: key})
	if again.code != 429 {
		t.Errorf("sending one again past the budget: %d %s", again.code, again.body)
	}
	// Another user of the account has a budget of their own.
	u, err := e.st.CreateUser(t.Context(), store.NewUser{FirstName: "Bob", LastName: "B", Email: "bob@example.com", Password: "correct horse", AccountID: ada.AccountID})
	if err != nil {
		t.Fatal(err)
	}
	_, bobKey, err := e.st.CreateAPIKey(t.Context(), u.ID, "test")
	if err != nil {
		t.Fatal(err)
	}
	if r := e.do(req{method: "POST", path: "/api/administration/users?email=bobs-guest@example.com&first_name=G&last_name=B", key: bobKey}); r.code != 201 {
		t.Errorf("another user's invitation: %d %s", r.code, r.body)
	}
}
