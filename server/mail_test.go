package server

import (
	"context"
	"strings"
	"testing"
	"time"

	"kith/server/mail"
)

// TestStrippedSTARTTLSSendsNothing: a server that does not offer STARTTLS,
// as one behind an attacker who strips the offer looks, gets neither the
// login nor the link, and the refusal is logged with its cause.
func TestStrippedSTARTTLSSendsNothing(t *testing.T) {
	mb := newMailboxTLS(t, plainOnly)
	e := newEnv(t, withSMTP(mb))
	_, key := e.user("ada@example.com")
	e.changeEmail(key, "new@example.com")
	e.waitMail()
	if n, a := mb.count(), mb.auths.Load(); n != 0 || a != 0 {
		t.Errorf("%d emails and %d AUTH commands went out in clear", n, a)
	}
	logs := e.logs.String()
	if !strings.Contains(logs, "sending the verification email failed") || !strings.Contains(logs, "does not offer STARTTLS, so nothing was sent") {
		t.Errorf("the refusal is not logged with its cause:\n%s", logs)
	}
	if r := e.do(req{method: "GET", path: "/api/me", key: key}); r.code != 403 {
		t.Errorf("the change did not stand: %d", r.code)
	}
}

// TestSMTPSecurity: what each smtp.tls does against each kind of server.
func TestSMTPSecurity(t *testing.T) {
	cases := []struct {
		name    string
		server  int
		open    bool // the server takes mail without a login
		tls     string
		login   bool
		wantErr string // "" when the mail must arrive
		wantTLS bool
	}{
		{"starttls by default logs in encrypted", offersSTARTTLS, false, "", true, "", true},
		{"starttls logs in encrypted", offersSTARTTLS, false, mail.SMTPStartTLS, true, "", true},
		{"starttls not offered: no login, nothing sent", plainOnly, false, "", true, "does not offer STARTTLS", false},
		{"starttls not offered, no login: nothing sent either", plainOnly, true, mail.SMTPStartTLS, false, "does not offer STARTTLS", false},
		{"tls from the first byte", implicitTLS, false, mail.SMTPImplicitTLS, true, "", true},
		{"tls against a plain server: nothing sent", plainOnly, true, mail.SMTPImplicitTLS, true, "smtp.tls tls", false},
		{"none with a login is refused before connecting", plainOnly, false, mail.SMTPNoTLS, true, "refusing to send the login without TLS", false},
		{"none without a login reaches a plain relay", plainOnly, true, mail.SMTPNoTLS, false, "", false},
		{"none does not start TLS when offered", offersSTARTTLS, true, mail.SMTPNoTLS, false, "", false},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			mb := newMailboxTLS(t, tc.server)
			mb.open.Store(tc.open)
			o := mb.options()
			o.TLS = tc.tls
			if !tc.login {
				o.Username, o.Password = "", ""
			}
			ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
			defer cancel()
			err := mail.NewSMTP(o).Send(ctx, mail.Message{To: "ada@example.com", Subject: "s", Text: "t", HTML: "<p>h</p>"})
			if tc.wantErr != "" {
				if err == nil || !strings.Contains(err.Error(), tc.wantErr) {
					t.Errorf("error %v, want one saying %q", err, tc.wantErr)
				}
				if n, a := mb.count(), mb.auths.Load(); n != 0 || a != 0 {
					t.Errorf("%d emails and %d AUTH commands went out", n, a)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			m := mb.next(t)
			if m.tls != tc.wantTLS || m.authed != tc.login {
				t.Errorf("sent with TLS %v and login %v, want %v and %v", m.tls, m.authed, tc.wantTLS, tc.login)
			}
		})
	}
}
