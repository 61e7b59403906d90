package server

import (
	"context"
	"crypto/tls"
	"crypto/x509"
	"errors"
	"fmt"
	"mime"
	"net"
	"net/smtp"
	"net/textproto"
	"regexp"
	"strings"
	"testing"
	"time"

	"kith/server/mailin"
)

const mailInDomain = "in.example.com"

// mailInEnv is a server with mail-in on, and its receiver listening on
// 127.0.0.1:0 over the same store and clock.
type mailInEnv struct {
	*env
	addr string
}

func newMailInEnv(t *testing.T, tlsConf *tls.Config) *mailInEnv {
	t.Helper()
	e := newEnv(t, func(o *Options) { o.MailInDomain = mailInDomain })
	return &mailInEnv{env: e, addr: startReceiver(t, e, mailin.Options{TLS: tlsConf})}
}

// startReceiver runs a receiver over e's store and clock until the test
// ends, and returns its address.
func startReceiver(t *testing.T, e *env, o mailin.Options) string {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	o.Store, o.Domain, o.Now = e.st, mailInDomain, e.clock.Now
	r := mailin.New(o)
	done := make(chan error, 1)
	go func() { done <- r.Serve(ln) }()
	t.Cleanup(func() {
		ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		defer cancel()
		r.Shutdown(ctx)
		if err := <-done; err != nil {
			t.Errorf("Serve: %v", err)
		}
	})
	return ln.Addr().String()
}

// address is the user's mail-in address, from the API.
func (e *mailInEnv) address(key string) string {
	e.t.Helper()
	r := e.do(req{method: "GET", path: "/api/me/mail-in", key: key})
	if r.code != 200 {
		e.t.Fatalf("GET /api/me/mail-in: %d %s", r.code, r.body)
	}
	return r.json(e.t)["data"].(map[string]any)["address"].(string)
}

// mailMessage is a message with these header lines and a short body.
func mailMessage(headers ...string) string {
	return strings.Join(headers, "\r\n") + "\r\n\r\nSee you soon.\r\n"
}

// send delivers msg to rcpts with net/smtp, and returns the first
// refusal, or nil when the message was taken.
func send(addr string, rcpts []string, msg string, tlsConf *tls.Config) error {
	c, err := smtp.Dial(addr)
	if err != nil {
		return err
	}
	defer c.Close()
	if err := c.Hello("client.example.org"); err != nil {
		return err
	}
	if tlsConf != nil {
		if err := c.StartTLS(tlsConf); err != nil {
			return err
		}
	}
	if err := c.Mail("ada@example.com"); err != nil {
		return err
	}
	for _, r := range rcpts {
		if err := c.Rcpt(r); err != nil {
			return err
		}
	}
	w, err := c.Data()
	if err != nil {
		return err
	}
	if _, err := w.Write([]byte(msg)); err != nil {
		return err
	}
	if err := w.Close(); err != nil {
		return err
	}
	return c.Quit()
}

// code is an SMTP refusal's code; 0 for none, -1 for another error.
func code(err error) int {
	var te *textproto.Error
	switch {
	case err == nil:
		return 0
	case errors.As(err, &te):
		return te.Code
	}
	return -1
}

// interactions are the person's interactions as the API lists them,
// newest first, each as "DATE KIND NOTE" (NOTE "null" when none).
func (e *env) interactions(key, personID string) []string {
	e.t.Helper()
	r := e.do(req{method: "GET", path: "/api/persons/" + personID + "/interactions", key: key})
	if r.code != 200 {
		e.t.Fatalf("interactions: %d %s", r.code, r.body)
	}
	out := []string{}
	for _, it := range r.json(e.t)["data"].([]any) {
		m := it.(map[string]any)
		note := "null"
		if n, ok := m["note"].(string); ok {
			note = n
		}
		out = append(out, fmt.Sprintf("%s %s %s", m["happened_on"], m["kind"], note))
	}
	return out
}

func TestMailInAPI(t *testing.T) {
	t.Run("off", func(t *testing.T) {
		e := newEnv(t)
		_, key := e.user("ada@example.com")
		off := []string{`{"data":{"object":"mail_in","enabled":false,"address":null}}`}
		e.run(t, []scenario{
			{"GET says off", req{method: "GET", path: "/api/me/mail-in", key: key}, 200, off},
			{"POST says off", req{method: "POST", path: "/api/me/mail-in", key: key}, 200, off},
			{"no key", req{method: "GET", path: "/api/me/mail-in"}, 401, errBody(401, "Unauthenticated.")},
		})
		if n := e.count(`SELECT count(*) FROM mail_in`); n != 0 {
			t.Errorf("%d secrets made while off", n)
		}
	})
	e := newMailInEnv(t, nil)
	ada, key := e.user("ada@example.com")
	_, grace := e.userIn(ada.AccountID, "grace@example.com")
	shape := regexp.MustCompile(`^\{"data":\{"object":"mail_in","enabled":true,"address":"log-[a-z0-9]{20,}@in\.example\.com"\}\}\n?$`)
	first := e.do(req{method: "GET", path: "/api/me/mail-in", key: key})
	if first.code != 200 || !shape.MatchString(first.body) {
		t.Fatalf("GET: %d %s", first.code, first.body)
	}
	if again := e.do(req{method: "GET", path: "/api/me/mail-in", key: key}); again.body != first.body {
		t.Errorf("a second GET gives %s, the first gave %s", again.body, first.body)
	}
	if e.address(grace) == e.address(key) {
		t.Error("two users of one account share an address")
	}
	rotated := e.do(req{method: "POST", path: "/api/me/mail-in", key: key})
	if rotated.code != 200 || !shape.MatchString(rotated.body) || rotated.body == first.body {
		t.Fatalf("POST: %d %s", rotated.code, rotated.body)
	}
	if now := e.do(req{method: "GET", path: "/api/me/mail-in", key: key}); now.body != rotated.body {
		t.Errorf("GET after POST gives %s, want %s", now.body, rotated.body)
	}
	e.run(t, []scenario{
		{"POST without a key", req{method: "POST", path: "/api/me/mail-in"}, 401, errBody(401, "Unauthenticated.")},
		{"PUT is no method of it", req{method: "PUT", path: "/api/me/mail-in", key: key}, 405, errBody(405, "Method not allowed.")},
	})
	if !strings.Contains(e.do(req{method: "GET", path: "/api/administration/logs", key: key}).body, "Replaced the mail-in address") {
		t.Error("the rotation is not in the user's log")
	}
}

// TestMailInReceiver holds a real SMTP conversation, net/smtp against the
// receiver, and reads what it recorded through the API.
func TestMailInReceiver(t *testing.T) {
	e := newMailInEnv(t, nil) // the clock: 2026-03-15 12:00 UTC
	ada, key := e.user("ada@example.com")
	_, bobKey := e.user("bob@example.com") // another account
	log := e.address(key)
	anna, ben, carl := e.person(key, "first_name=Anna"), e.person(key, "first_name=Ben"), e.person(key, "first_name=Carl")
	e.contactDetail(key, anna, "kind=email&value=anna@example.com")
	e.contactDetail(key, anna, "kind=email&value=Anna.Work@Example.org")
	e.contactDetail(key, ben, "kind=email&value=ben@example.com")
	e.contactDetail(key, carl, "kind=phone&value=555")
	theirAnna := e.person(bobKey, "first_name=Anna")
	e.contactDetail(bobKey, theirAnna, "kind=email&value=anna@example.com")
	dated := "Date: Sun, 15 Mar 2026 09:00:00 +0000"

	step := func(name string, rcpts []string, msg string, wantCode int) {
		t.Helper()
		if got := code(send(e.addr, rcpts, msg, nil)); got != wantCode {
			t.Errorf("%s: SMTP %d, want %d", name, got, wantCode)
		}
	}
	want := func(name, personKey, person string, list ...string) {
		t.Helper()
		if got := e.interactions(personKey, person); strings.Join(got, "|") != strings.Join(list, "|") {
			t.Errorf("%s:\n got %q\nwant %q", name, got, list)
		}
	}

	step("the BCC pattern: the address only in the envelope", []string{log},
		mailMessage("From: Ada <ada@example.com>", "To: Anna <anna@example.com>", dated, "Subject:  Lunch on Friday?  "), 0)
	want("Anna gets the email", key, anna, "2026-03-15 email Lunch on Friday?")
	want("the other account's Anna is untouched", bobKey, theirAnna)
	want("Ben is not in it", key, ben)

	step("display names, a group, two persons, one of them twice", []string{strings.ToUpper(log)},
		mailMessage(`To: Friends: "Smith, Anna" <ANNA@example.com>, ben@example.com;`,
			`Cc: =?UTF-8?Q?Anna_B=C3=BCro?= <anna.work@example.org>, nobody@example.net`,
			"Bcc: carl@example.com", dated, "Subject: =?UTF-8?B?R3LDvMOfZSB2b20gU2Ftc3RhZw==?="), 0)
	want("Anna once more, not twice", key, anna, "2026-03-15 email Grüße vom Samstag", "2026-03-15 email Lunch on Friday?")
	want("Ben from the group", key, ben, "2026-03-15 email Grüße vom Samstag")
	want("Carl, a phone only and in Bcc, nothing", key, carl)

	step("ISO-8859-1 and an empty subject", []string{log},
		mailMessage("To: ben@example.com", dated, "Subject: =?ISO-8859-1?Q?Caf=E9?="), 0)
	step("no subject at all", []string{log}, mailMessage("To: ben@example.com", dated, "Subject:   "), 0)
	want("Ben's notes", key, ben, "2026-03-15 email null", "2026-03-15 email Café", "2026-03-15 email Grüße vom Samstag")

	long := strings.Repeat("é", 1999) + " and more"
	// Folded as mail clients fold it: encoded words on lines of their own.
	folded := strings.ReplaceAll(mime.BEncoding.Encode("UTF-8", long), " =?", "\r\n =?")
	step("a long subject, and a To that is not RFC 5322", []string{log},
		mailMessage("To: Ben, the one from work <ben@example.com>", dated, "Subject: "+folded), 0)
	if got := e.interactions(key, ben); len(got) != 4 || got[0] != "2026-03-15 email "+strings.Repeat("é", 1999) {
		t.Errorf("a subject of %d characters is kept as %d", len([]rune(long)), len([]rune(got[0]))-len("2026-03-15 email "))
	}

	before := e.count(`SELECT count(*) FROM interactions`)
	other := strings.Replace(log, mailInDomain, "elsewhere.example.com", 1)
	local, _, _ := strings.Cut(log, "@")
	for _, tc := range []struct{ name, rcpt string }{
		{"an unknown secret", "log-abcdefghijklmnopqrstuvwxyz@" + mailInDomain},
		{"another domain", other},
		{"no log- prefix", strings.TrimPrefix(local, "log-") + "@" + mailInDomain},
		{"a short secret", "log-abc@" + mailInDomain},
	} {
		step(tc.name+" is 550", []string{tc.rcpt}, mailMessage("To: anna@example.com", dated), 550)
	}
	e.do(req{method: "POST", path: "/api/me/mail-in", key: key})
	step("the rotated address is 550", []string{log}, mailMessage("To: anna@example.com", dated), 550)
	if n := e.count(`SELECT count(*) FROM interactions`); n != before {
		t.Errorf("refused messages stored %d interactions", n-before)
	}
	log = e.address(key)

	t.Run("SIZE= over the cap is 552 at MAIL FROM", func(t *testing.T) {
		c, err := smtp.Dial(e.addr)
		if err != nil {
			t.Fatal(err)
		}
		defer c.Close()
		if err := c.Hello("client.example.org"); err != nil {
			t.Fatal(err)
		}
		if ok, size := c.Extension("SIZE"); !ok || size != "1048576" {
			t.Errorf("EHLO: SIZE %v %q", ok, size)
		}
		if ok, _ := c.Extension("AUTH"); ok {
			t.Error("EHLO offers AUTH")
		}
		id, _ := c.Text.Cmd("MAIL FROM:<ada@example.com> SIZE=1048577")
		c.Text.StartResponse(id)
		_, _, err = c.Text.ReadResponse(250)
		c.Text.EndResponse(id)
		if code(err) != 552 {
			t.Errorf("MAIL FROM with SIZE=1048577: %v", err)
		}
	})
	t.Run("a message over the cap is 552, read to its end, and nothing is stored", func(t *testing.T) {
		before := e.count(`SELECT count(*) FROM interactions`)
		big := mailMessage("To: anna@example.com", dated, "Subject: big", "X-Pad: "+strings.Repeat("x", 900)) +
			strings.Repeat(strings.Repeat("y", 998)+"\r\n", 1100)
		step("too big", []string{log}, big, 552)
		if n := e.count(`SELECT count(*) FROM interactions`); n != before {
			t.Errorf("stored %d", n-before)
		}
		step("the next message on a new connection is fine", []string{log}, mailMessage("To: nobody@example.net", dated), 0)
	})

	t.Run("dates in the user's time zone", func(t *testing.T) {
		if r := e.do(req{method: "PUT", path: "/api/me/timezone?timezone=Europe/Berlin", key: key}); r.code != 200 {
			t.Fatalf("timezone: %d %s", r.code, r.body)
		}
		dora := e.person(key, "first_name=Dora")
		e.contactDetail(key, dora, "kind=email&value=dora@example.com")
		for _, m := range []struct{ date, subject string }{
			{"Date: Sun, 15 Mar 2026 23:30:00 +0000", "late in UTC, the next day in Berlin"},
			{"Date: Sun, 15 Mar 2026 22:30:00 -0100", "the same instant written in another zone"},
			{"Date: Fri, 20 Mar 2026 10:00:00 +0000", "days ahead: today"},
			{"Date: yesterday", "unparseable: today"},
			{"X-No-Date: 1", "missing: today"},
			{"Date: Sat, 14 Mar 2026 10:00:00 +0000", "a day before"},
		} {
			step(m.subject, []string{log}, mailMessage("To: dora@example.com", m.date, "Subject: "+m.subject), 0)
		}
		want("Dora", key, dora,
			"2026-03-16 email the same instant written in another zone",
			"2026-03-16 email late in UTC, the next day in Berlin",
			"2026-03-15 email missing: today", "2026-03-15 email unparseable: today", "2026-03-15 email days ahead: today",
			"2026-03-14 email a day before")
	})

	t.Run("each recipient user gets their own, and a recipient twice is one", func(t *testing.T) {
		_, graceKey := e.userIn(ada.AccountID, "grace@example.com")
		graceLog := e.address(graceKey)
		bobLog := e.address(bobKey)
		step("to Ada, Ada again, Grace of her account and Bob of another", []string{log, strings.ToUpper(log), graceLog, bobLog},
			mailMessage("To: anna@example.com", dated, "Subject: all of us"), 0)
		want("Ada's Anna: one from Ada and one from Grace", key, anna,
			"2026-03-15 email all of us", "2026-03-15 email all of us",
			"2026-03-15 email Grüße vom Samstag", "2026-03-15 email Lunch on Friday?")
		want("Bob's Anna: one", bobKey, theirAnna, "2026-03-15 email all of us")
		logs := e.do(req{method: "GET", path: "/api/administration/logs", key: graceKey}).body
		if !strings.Contains(logs, "Logged an interaction with Anna") {
			t.Errorf("Grace's log lacks the interaction: %s", logs)
		}
	})

	t.Run("the stay-in-touch clock restarts", func(t *testing.T) {
		eve := e.person(key, "first_name=Eve")
		e.contactDetail(key, eve, "kind=email&value=eve@example.com")
		path := "/api/persons/" + eve + "/stay-in-touch"
		e.do(req{method: "PUT", path: path + "?every_days=2", key: key})
		e.clock.Advance(3 * 24 * time.Hour)
		if r := e.do(req{method: "GET", path: path, key: key}); !strings.Contains(r.body, `"due":true`) {
			t.Fatalf("not due: %s", r.body)
		}
		step("to Eve", []string{log}, mailMessage("To: Eve <eve@example.com>", "Subject: hello"), 0)
		if r := e.do(req{method: "GET", path: path, key: key}); !strings.Contains(r.body, `"last_interaction_on":"2026-03-18"`) ||
			!strings.Contains(r.body, `"due":false`) {
			t.Errorf("after the email: %s", r.body)
		}
	})
}

// TestMailInRefusesWhatTheSessionHasNoRoomFor: recipients, line length,
// and a whole session are bounded.
func TestMailInLimits(t *testing.T) {
	e := newMailInEnv(t, nil)
	_, key := e.user("ada@example.com")
	log := e.address(key)
	t.Run("21 recipients: the 21st is 452", func(t *testing.T) {
		rcpts := make([]string, 21)
		for i := range rcpts {
			rcpts[i] = log
		}
		if got := code(send(e.addr, rcpts, mailMessage("To: a@example.com"), nil)); got != 452 {
			t.Errorf("SMTP %d", got)
		}
	})
	t.Run("a line too long ends the session", func(t *testing.T) {
		c, err := smtp.Dial(e.addr)
		if err != nil {
			t.Fatal(err)
		}
		defer c.Close()
		id, _ := c.Text.Cmd("HELO %s", strings.Repeat("h", 3000))
		c.Text.StartResponse(id)
		_, _, err = c.Text.ReadResponse(250)
		c.Text.EndResponse(id)
		if code(err) != 500 {
			t.Errorf("a 3000-byte line: %v", err)
		}
	})
	t.Run("a session ends at its time however busy", func(t *testing.T) {
		addr := startReceiver(t, e.env, mailin.Options{SessionLength: 300 * time.Millisecond})
		c, err := smtp.Dial(addr)
		if err != nil {
			t.Fatal(err)
		}
		defer c.Close()
		start := time.Now()
		for time.Since(start) < 5*time.Second {
			if err := c.Noop(); err != nil {
				if time.Since(start) < 250*time.Millisecond {
					t.Errorf("cut after %v: %v", time.Since(start), err)
				}
				return
			}
			time.Sleep(50 * time.Millisecond)
		}
		t.Error("a session of NOOPs is still open after 5 s")
	})
	t.Run("past 10 connections from one address: 421", func(t *testing.T) {
		var open []*smtp.Client
		defer func() {
			for _, c := range open {
				c.Close()
			}
		}()
		for i := range 10 {
			c, err := smtp.Dial(e.addr)
			if err != nil {
				t.Fatalf("connection %d: %v", i+1, err)
			}
			open = append(open, c)
		}
		_, err := smtp.Dial(e.addr)
		if code(err) != 421 {
			t.Errorf("the 11th: %v", err)
		}
		open[0].Close()
		open = open[1:]
		deadline := time.Now().Add(5 * time.Second)
		for {
			c, err := smtp.Dial(e.addr)
			if err == nil {
				c.Close()
				break
			}
			if time.Now().After(deadline) {
				t.Fatalf("a slot freed is not given back: %v", err)
			}
			time.Sleep(20 * time.Millisecond)
		}
	})
}

// TestMailInSTARTTLS: offered only with a certificate, and it works; plain
// sessions are still taken.
func TestMailInSTARTTLS(t *testing.T) {
	plain := newMailInEnv(t, nil)
	c, err := smtp.Dial(plain.addr)
	if err != nil {
		t.Fatal(err)
	}
	if err := c.Hello("client.example.org"); err != nil {
		t.Fatal(err)
	}
	if ok, _ := c.Extension("STARTTLS"); ok {
		t.Error("STARTTLS offered without a certificate")
	}
	c.Close()

	cert, pool := selfSigned(t)
	e := newMailInEnv(t, &tls.Config{Certificates: []tls.Certificate{cert}, MinVersion: tls.VersionTLS12})
	_, key := e.user("ada@example.com")
	anna := e.person(key, "first_name=Anna")
	e.contactDetail(key, anna, "kind=email&value=anna@example.com")
	log := e.address(key)
	c, err = smtp.Dial(e.addr)
	if err != nil {
		t.Fatal(err)
	}
	if err := c.Hello("client.example.org"); err != nil {
		t.Fatal(err)
	}
	if ok, _ := c.Extension("STARTTLS"); !ok {
		t.Error("STARTTLS not offered with a certificate")
	}
	c.Close()
	client := &tls.Config{RootCAs: pool, ServerName: "127.0.0.1"}
	if err := send(e.addr, []string{log}, mailMessage("To: anna@example.com", "Subject: over TLS"), client); err != nil {
		t.Fatalf("over STARTTLS: %v", err)
	}
	if err := send(e.addr, []string{log}, mailMessage("To: anna@example.com", "Subject: in clear"), nil); err != nil {
		t.Fatalf("in clear: %v", err)
	}
	if got := e.interactions(key, anna); strings.Join(got, "|") != "2026-03-15 email in clear|2026-03-15 email over TLS" {
		t.Errorf("Anna: %q", got)
	}
	bad := &tls.Config{RootCAs: x509.NewCertPool(), ServerName: "127.0.0.1"}
	if err := send(e.addr, []string{log}, mailMessage("To: anna@example.com"), bad); err == nil {
		t.Error("a certificate the client does not trust passed")
	}
}
