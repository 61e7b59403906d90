package server

import (
	"context"
	"net"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"kith/server/mail"
	"kith/store"
)

const invalidLink = "This verification link is invalid or has expired."

func withSMTP(mb *mailbox) func(*Options) {
	return func(o *Options) { o.Mailer = mail.NewSMTP(mb.options()) }
}

// changeEmail changes the user's email through PUT /api/me.
func (e *env) changeEmail(key, email string) {
	e.t.Helper()
	r := e.do(req{method: "PUT", path: "/api/me?first_name=Ada&last_name=Lovelace&email=" + email, key: key})
	if r.code != 200 || !strings.Contains(r.body, `"email":"`+strings.ToLower(email)+`"`) {
		e.t.Fatalf("changing the email to %s: %d %s", email, r.code, r.body)
	}
}

// waitMail waits until the server has finished sending.
func (e *env) waitMail() {
	e.t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 15*time.Second)
	defer cancel()
	if err := e.srv.WaitForMail(ctx); err != nil {
		e.t.Fatal("mail still being sent after 15 s")
	}
}

// pathOf is a link's path and query, for e.do.
func pathOf(link string) string {
	return link[strings.Index(link, "/api/"):]
}

func TestEmailChangeSendsALinkOverSMTP(t *testing.T) {
	mb := newMailbox(t)
	e := newEnv(t, withSMTP(mb), func(o *Options) { o.BaseURL = "https://kith.example.org" })
	_, key := e.user("ada@example.com")
	e.changeEmail(key, "Ada.New@Example.org")

	m := mb.next(t)
	if !m.tls || !m.authed {
		t.Errorf("the email went without STARTTLS (%v) or without logging in (%v)", m.tls, m.authed)
	}
	if m.from != "kith@example.com" || len(m.to) != 1 || m.to[0] != "ada.new@example.org" {
		t.Errorf("envelope from %q to %v: want the new address only", m.from, m.to)
	}
	p := m.parse(t)
	if got := p.header.Get("To"); !strings.Contains(got, "ada.new@example.org") {
		t.Errorf("To: %q", got)
	}
	if got := p.header.Get("From"); !strings.Contains(got, "Kith") || !strings.Contains(got, "kith@example.com") {
		t.Errorf("From: %q", got)
	}
	if subj := p.header.Get("Subject"); !strings.Contains(subj, "Kith") {
		t.Errorf("Subject %q does not name the product", subj)
	}
	link := p.link(t)
	if !strings.HasPrefix(link, "https://kith.example.org/api/verify-email?token=") {
		t.Errorf("the link does not start with base_url: %s", link)
	}
	for part, body := range map[string]string{"text": p.text, "html": p.html} {
		for _, want := range []string{"Kith", link, "ada.new@example.org", "60 minutes", "Not your change?", "do not open the link"} {
			if !strings.Contains(body, want) {
				t.Errorf("the %s part lacks %q:\n%s", part, want, body)
			}
		}
	}
	if !strings.Contains(p.html, `<a href="`+link+`">`) {
		t.Errorf("the HTML part has no clickable link:\n%s", p.html)
	}

	// Locked until the link is opened.
	if r := e.do(req{method: "GET", path: "/api/me", key: key}); r.code != 403 {
		t.Fatalf("before verifying: %d", r.code)
	}
	r := e.do(req{method: "GET", path: pathOf(link)})
	if r.code != 200 || r.body != `{"message":"Email verified","status":200}`+"\n" {
		t.Fatalf("opening the link: %d %q", r.code, r.body)
	}
	if r := e.do(req{method: "GET", path: "/api/me", key: key}); r.code != 200 {
		t.Fatalf("after verifying: %d %s", r.code, r.body)
	}
	// Single use.
	e.run(t, []scenario{{"the link again", req{method: "GET", path: pathOf(link)}, 403, errBody(403, invalidLink)}})
	if n := e.count(`SELECT count(*) FROM email_verifications`); n != 0 {
		t.Errorf("%d links left after verifying", n)
	}
}

// TestUnverifiedUserIsLockedOut calls every route of the router with an
// unverified user's key: each answers 403, but logout and a fresh link.
func TestUnverifiedUserIsLockedOut(t *testing.T) {
	e := newEnv(t)
	_, key := e.user("ada@example.com")
	person := e.person(key, "first_name=Jim")
	e.changeEmail(key, "new@example.com")

	exempt := map[string]bool{
		"GET /api/health": true, "POST /api/login": true, "GET /api/verify-email": true, "GET /api/openapi.json": true,
		"DELETE /api/logout": true, "POST /api/me/verification": true, "POST /api/invitations/accept": true,
		// The invitation's page takes no key: the link's secret is the proof.
		"GET /api/invitations/accept": true, "HEAD /api/invitations/accept": true,
		"HEAD /api/health": true, "HEAD /api/openapi.json": true,
		// A calendar feed takes no key: its secret is the credential.
		"GET /ical/:feed": true, "HEAD /ical/:feed": true,
	}
	tried := 0
	for _, rt := range e.srv.Routes() {
		if exempt[rt.Method+" "+rt.Path] || davRoute(rt.Method, rt.Path) || webPath(rt.Path) {
			// CardDAV takes Basic auth: TestCardDAVAuth locks the unverified
			// out there; the web app takes no key (TestWebUnverified).
			continue
		}
		path := strings.NewReplacer(":person", person, ":task", "1", ":id", "1").Replace(rt.Path)
		r := e.do(req{method: rt.Method, path: path + "?" + everything, key: key})
		if r.code != 403 || rt.Method != "HEAD" && r.body != `{"message":"Your email address is not verified.","status":403}`+"\n" {
			t.Errorf("%s %s while unverified: %d %s", rt.Method, path, r.code, r.body)
		}
		tried++
	}
	if tried < 25 {
		t.Errorf("only %d routes tried", tried)
	}
	if n := e.count(`SELECT count(*) FROM persons`); n != 1 {
		t.Errorf("a locked-out user changed data: %d persons", n)
	}

	e.run(t, []scenario{
		{"login with the right password", req{method: "POST", path: "/api/login?email=new@example.com&password=correct+horse"},
			403, errBody(403, "Your email address is not verified.")},
		{"login with a wrong password is still 401", req{method: "POST", path: "/api/login?email=new@example.com&password=wrong+horse"},
			401, errBody(401, "Invalid credentials")},
		{"login with the old email", req{method: "POST", path: "/api/login?email=ada@example.com&password=correct+horse"},
			401, errBody(401, "Invalid credentials")},
		{"a fresh link", req{method: "POST", path: "/api/me/verification", key: key},
			202, []string{`{"message":"Verification link sent","status":202}`}},
		{"logout", req{method: "DELETE", path: "/api/logout", key: key},
			200, []string{`{"message":"Logged out successfully","status":200}`}},
		{"the key is gone", req{method: "POST", path: "/api/me/verification", key: key}, 401, errBody(401, "Unauthenticated.")},
	})
	if n := e.count(`SELECT count(*) FROM api_keys`); n != 0 {
		t.Errorf("an unverified login made a key: %d keys", n)
	}
}

func TestOtherChangesKeepVerification(t *testing.T) {
	mb := newMailbox(t)
	e := newEnv(t, withSMTP(mb))
	_, key := e.user("ada@example.com")
	for _, q := range []string{
		"first_name=Augusta&last_name=King&email=ada@example.com&nickname=Ada",
		"first_name=Augusta&last_name=King&email=ADA@Example.COM",
		"first_name=Augusta&last_name=King&email=+ada@example.com+",
	} {
		if r := e.do(req{method: "PUT", path: "/api/me?" + q, key: key}); r.code != 200 {
			t.Fatalf("%s: %d %s", q, r.code, r.body)
		}
		if r := e.do(req{method: "GET", path: "/api/me", key: key}); r.code != 200 {
			t.Fatalf("after %s the user is locked: %d", q, r.code)
		}
	}
	// Failed changes change nothing either.
	e.user("bob@example.com")
	e.do(req{method: "PUT", path: "/api/me?first_name=A&last_name=B&email=bob@example.com", key: key})
	e.do(req{method: "PUT", path: "/api/me?first_name=A&email=c@example.com", key: key})
	e.waitMail()
	if n := mb.count(); n != 0 {
		t.Errorf("%d emails sent for changes that were not email changes", n)
	}
	if n := e.count(`SELECT count(*) FROM email_verifications`); n != 0 {
		t.Errorf("%d links made", n)
	}
	if r := e.do(req{method: "GET", path: "/api/me", key: key}); r.code != 200 || !strings.Contains(r.body, `"email":"ada@example.com"`) {
		t.Errorf("after failed changes: %d %s", r.code, r.body)
	}
	e.run(t, []scenario{
		{"a verified user asking for a link", req{method: "POST", path: "/api/me/verification", key: key},
			200, []string{`{"message":"Email already verified","status":200}`}},
	})
}

func TestVerificationLinks(t *testing.T) {
	mb := newMailbox(t)
	e := newEnv(t, withSMTP(mb))
	_, key := e.user("ada@example.com")
	e.changeEmail(key, "new@example.com")
	first := pathOf(mb.next(t).parse(t).link(t))
	token := first[strings.Index(first, "=")+1:]

	e.run(t, []scenario{
		{"no token", req{method: "GET", path: "/api/verify-email"}, 403, errBody(403, invalidLink)},
		{"empty token", req{method: "GET", path: "/api/verify-email?token="}, 403, errBody(403, invalidLink)},
		{"unknown token", req{method: "GET", path: "/api/verify-email?token=" + strings.Repeat("A", 52)}, 403, errBody(403, invalidLink)},
		{"the token in another case", req{method: "GET", path: "/api/verify-email?token=" + strings.ToLower(token)}, 403, errBody(403, invalidLink)},
		{"a huge token", req{method: "GET", path: "/api/verify-email?token=" + strings.Repeat("A", 5000)}, 403, errBody(403, invalidLink)},
		{"wrong method", req{method: "POST", path: first}, 405, errBody(405, "Method not allowed.")},
	})

	// A fresh link voids the one before it.
	if r := e.do(req{method: "POST", path: "/api/me/verification", key: key}); r.code != 202 {
		t.Fatalf("fresh link: %d %s", r.code, r.body)
	}
	second := pathOf(mb.next(t).parse(t).link(t))
	if second == first {
		t.Fatal("the fresh link is the old one")
	}
	e.run(t, []scenario{{"the voided link", req{method: "GET", path: first}, 403, errBody(403, invalidLink)}})

	// Valid for 60 minutes, not one second more.
	e.clock.Advance(60 * time.Minute)
	e.run(t, []scenario{{"the expired link", req{method: "GET", path: second}, 403, errBody(403, invalidLink)}})
	if r := e.do(req{method: "POST", path: "/api/me/verification", key: key}); r.code != 202 {
		t.Fatalf("fresh link: %d %s", r.code, r.body)
	}
	third := pathOf(mb.next(t).parse(t).link(t))
	e.clock.Advance(60*time.Minute - time.Second)
	if r := e.do(req{method: "GET", path: third}); r.code != 200 {
		t.Fatalf("a link at 59:59: %d %s", r.code, r.body)
	}
}

// TestLinkForAnOldAddress: a link sent to an address the user has since
// left behind does not verify the new one.
func TestLinkForAnOldAddress(t *testing.T) {
	e := newEnv(t)
	u, key := e.user("ada@example.com")
	e.changeEmail(key, "first@example.com")
	link := pathOf(regexpLink(t, e.logs.String()))
	// The administrator unlocks the user, who then changes again.
	if _, err := e.st.MarkVerified(context.Background(), "first@example.com"); err != nil {
		t.Fatal(err)
	}
	e.changeEmail(key, "second@example.com")
	e.run(t, []scenario{{"the first address's link", req{method: "GET", path: link}, 403, errBody(403, invalidLink)}})
	if r := e.do(req{method: "GET", path: "/api/me", key: key}); r.code != 403 {
		t.Errorf("user %d unlocked by an old link: %d", u.ID, r.code)
	}
}

func regexpLink(t *testing.T, logs string) string {
	t.Helper()
	links := linkPattern.FindAllString(logs, -1)
	if len(links) == 0 {
		t.Fatalf("no link in the log:\n%s", logs)
	}
	return links[len(links)-1]
}

func TestWithoutSMTPTheLinkIsLogged(t *testing.T) {
	e := newEnv(t)
	_, key := e.user("ada@example.com")
	e.changeEmail(key, "new@example.com")
	var line string
	for _, l := range strings.Split(e.logs.String(), "\n") {
		if strings.Contains(l, "verify-email") {
			line = l
		}
	}
	if !strings.Contains(line, `"level":"warn"`) || !strings.Contains(line, `"to":"new@example.com"`) || !strings.Contains(line, "smtp.host") {
		t.Fatalf("log line %q: want a warning naming the address and smtp.host", line)
	}
	if r := e.do(req{method: "GET", path: pathOf(regexpLink(t, line))}); r.code != 200 {
		t.Fatalf("the logged link: %d %s", r.code, r.body)
	}
}

// TestFreshLinksAreLimited: three emails per user per 15 minutes, the
// email change's own included, so the route cannot flood an address.
func TestFreshLinksAreLimited(t *testing.T) {
	mb := newMailbox(t)
	e := newEnv(t, withSMTP(mb))
	_, key := e.user("ada@example.com")
	_, other := e.user("bob@example.com")
	e.changeEmail(key, "new@example.com")
	e.changeEmail(other, "bob.new@example.com")
	resend := func(k string) resp { return e.do(req{method: "POST", path: "/api/me/verification", key: k}) }
	for i := 0; i < 2; i++ {
		if r := resend(key); r.code != 202 {
			t.Fatalf("link %d: %d %s", i+2, r.code, r.body)
		}
	}
	r := resend(key)
	if r.code != 429 || r.header.Get("Retry-After") != "900" || !strings.Contains(r.body, `"message":"Too Many Attempts."`) {
		t.Fatalf("the fourth email in a window: %d %q %s", r.code, r.header.Get("Retry-After"), r.body)
	}
	if r := resend(other); r.code != 202 {
		t.Errorf("another user's budget was spent: %d", r.code)
	}
	e.waitMail()
	if n := mb.count(); n != 5 {
		t.Errorf("%d emails sent, want 5 (3 for Ada, 2 for Bob)", n)
	}
	e.clock.Advance(15 * time.Minute)
	if r := resend(key); r.code != 202 {
		t.Errorf("after the window: %d %s", r.code, r.body)
	}
}

// TestRefusingMailServer: the change stands, the failure is logged, and
// a fresh link goes out once the server accepts again.
func TestRefusingMailServer(t *testing.T) {
	mb := newMailbox(t)
	mb.refuse.Store(true)
	e := newEnv(t, withSMTP(mb))
	_, key := e.user("ada@example.com")
	e.changeEmail(key, "new@example.com")
	e.waitMail()
	if !strings.Contains(e.logs.String(), "sending the verification email failed") || !strings.Contains(e.logs.String(), "relaying denied") {
		t.Fatalf("the failure is not logged with its cause:\n%s", e.logs.String())
	}
	if r := e.do(req{method: "GET", path: "/api/me", key: key}); r.code != 403 {
		t.Fatalf("the change did not stand: %d", r.code)
	}
	if n := e.count(`SELECT count(*) FROM users WHERE email = 'new@example.com'`); n != 1 {
		t.Fatal("the new email was lost")
	}

	mb.refuse.Store(false)
	if r := e.do(req{method: "POST", path: "/api/me/verification", key: key}); r.code != 202 {
		t.Fatalf("fresh link: %d %s", r.code, r.body)
	}
	if r := e.do(req{method: "GET", path: pathOf(mb.next(t).parse(t).link(t))}); r.code != 200 {
		t.Fatalf("the fresh link: %d %s", r.code, r.body)
	}
}

// TestSilentMailServer: a server that accepts the connection and never
// answers costs the request nothing. The send cannot end before the test
// hangs up, so a mail still in flight after the response proves the
// response did not wait for it; then the send fails and is logged.
func TestSilentMailServer(t *testing.T) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	var mu sync.Mutex
	var conns []net.Conn
	go func() {
		for {
			c, err := ln.Accept()
			if err != nil {
				return
			}
			mu.Lock()
			conns = append(conns, c) // held open, silent
			mu.Unlock()
		}
	}()
	hangUp := func() {
		ln.Close()
		mu.Lock()
		defer mu.Unlock()
		for _, c := range conns {
			c.Close()
		}
	}
	defer hangUp()
	host, port, _ := net.SplitHostPort(ln.Addr().String())
	opts := mail.SMTPOptions{Host: host, From: "kith@example.com", Timeout: time.Minute}
	opts.Port, _ = strconv.Atoi(port)
	e := newEnv(t, func(o *Options) { o.Mailer = mail.NewSMTP(opts) })
	_, key := e.user("ada@example.com")

	e.changeEmail(key, "new@example.com")
	pending, cancel := context.WithTimeout(context.Background(), 50*time.Millisecond)
	defer cancel()
	if err := e.srv.WaitForMail(pending); err == nil {
		t.Fatal("the email was done when the response came: the response waited for the mail server")
	}
	hangUp()
	e.waitMail()
	if !strings.Contains(e.logs.String(), "sending the verification email failed") {
		t.Fatalf("the failure is not logged:\n%s", e.logs.String())
	}
	if r := e.do(req{method: "GET", path: "/api/me", key: key}); r.code != 403 {
		t.Fatalf("the change did not stand: %d", r.code)
	}
}

// TestVerificationMailEscapesHTML: a name is the user's own text and must
// not become markup in the HTML part.
func TestVerificationMailEscapesHTML(t *testing.T) {
	u := store.User{FirstName: `<img src=x onerror="alert(1)">`, Email: "a&b@example.com"}
	m := verificationMail(u, "https://kith.example.org/api/verify-email?token=T&x=1")
	if strings.Contains(m.HTML, "<img") || !strings.Contains(m.HTML, "&lt;img src=x onerror=&#34;alert(1)&#34;&gt;") ||
		!strings.Contains(m.HTML, "a&amp;b@example.com") || !strings.Contains(m.HTML, `href="https://kith.example.org/api/verify-email?token=T&amp;x=1"`) {
		t.Errorf("HTML part:\n%s", m.HTML)
	}
	if !strings.Contains(m.Text, `Hello <img src=x onerror="alert(1)">,`) || m.To != "a&b@example.com" {
		t.Errorf("text part:\n%s", m.Text)
	}
}
