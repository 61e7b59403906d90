// Package mail sends Kith's emails: a Message, in a plain-text and an
// HTML part, through a Mailer, which SMTP is for a real mail server. What
// the emails say is their senders' (the server's verification and
// invitation links, remind's digests).
package mail

import (
	"context"
	"crypto/tls"
	"fmt"
	"strings"
	"time"

	gomail "github.com/wneessen/go-mail"
)

// Message is one email, in a plain-text and an HTML part that say the same.
type Message struct {
	To, Subject, Text, HTML string
}

// Mailer delivers mail. A nil Mailer in server.Options means there is no
// mail server: verification and invitation links then go to the log.
type Mailer interface {
	Send(ctx context.Context, m Message) error
}

// SMTPOptions say how to reach the mail server.
type SMTPOptions struct {
	Host               string
	Port               int
	Username, Password string // both empty: no login
	From               string // "Kith <kith@example.com>" or a bare address
	// TLS is how the connection is encrypted: SMTPStartTLS, SMTPImplicitTLS
	// or SMTPNoTLS; empty means implicit TLS on port 465, else STARTTLS.
	TLS string
	// Timeout bounds connecting and each exchange with the server;
	// zero means 15 seconds.
	Timeout time.Duration
	// TLSConfig replaces the system's trust store; tests use it. Nil is
	// what a real deployment wants.
	TLSConfig *tls.Config
}

// The values of SMTPOptions.TLS, as smtp.tls spells them.
const (
	SMTPStartTLS    = "starttls" // plain first, then STARTTLS, which the server must offer
	SMTPImplicitTLS = "tls"      // TLS from the first byte, as on port 465
	SMTPNoTLS       = "none"     // never encrypted: a relay on this host that has no TLS
)

// SMTP sends mail through one server, a new connection per message: Kith
// sends a few emails a day, not enough to keep a connection open for.
type SMTP struct {
	o SMTPOptions
}

// NewSMTP returns a mailer for the server o describes.
func NewSMTP(o SMTPOptions) *SMTP {
	if o.Timeout == 0 {
		o.Timeout = 15 * time.Second
	}
	if o.TLS == "" {
		o.TLS = SMTPStartTLS
		if o.Port == 465 {
			o.TLS = SMTPImplicitTLS
		}
	}
	return &SMTP{o: o}
}

// Send delivers m. With SMTPStartTLS a server that does not offer
// STARTTLS gets nothing, not even the login: an attacker on the path can
// strip the offer, and falling back to plain would hand them the password
// and the link. A login is only ever sent encrypted.
func (s *SMTP) Send(ctx context.Context, m Message) error {
	if s.o.TLS == SMTPNoTLS && s.o.Username != "" {
		return fmt.Errorf("smtp %s:%d: refusing to send the login without TLS (smtp.tls is none)", s.o.Host, s.o.Port)
	}
	msg := gomail.NewMsg()
	if err := msg.From(s.o.From); err != nil {
		return fmt.Errorf("smtp.from: %w", err)
	}
	if err := msg.To(m.To); err != nil {
		return fmt.Errorf("recipient: %w", err)
	}
	msg.Subject(m.Subject)
	msg.SetDate()
	msg.SetMessageID()
	msg.SetUserAgent("Kith")
	msg.SetBodyString(gomail.TypeTextPlain, m.Text)
	msg.AddAlternativeString(gomail.TypeTextHTML, m.HTML)

	opts := []gomail.Option{gomail.WithPort(s.o.Port), gomail.WithTimeout(s.o.Timeout)}
	switch s.o.TLS {
	case SMTPImplicitTLS:
		opts = append(opts, gomail.WithSSL())
	case SMTPNoTLS:
		opts = append(opts, gomail.WithTLSPolicy(gomail.NoTLS))
	case SMTPStartTLS:
		opts = append(opts, gomail.WithTLSPolicy(gomail.TLSMandatory))
	default:
		return fmt.Errorf("smtp.tls: %q is not one of starttls, tls, none", s.o.TLS)
	}
	if s.o.TLSConfig != nil {
		tc := s.o.TLSConfig.Clone()
		if tc.ServerName == "" {
			tc.ServerName = s.o.Host
		}
		opts = append(opts, gomail.WithTLSConfig(tc))
	}
	if s.o.Username != "" {
		opts = append(opts, gomail.WithSMTPAuth(gomail.SMTPAuthAutoDiscover),
			gomail.WithUsername(s.o.Username), gomail.WithPassword(s.o.Password))
	}
	client, err := gomail.NewClient(s.o.Host, opts...)
	if err != nil {
		return fmt.Errorf("smtp client: %w", err)
	}
	if err := client.DialAndSendWithContext(ctx, msg); err != nil {
		// go-mail has no error value for this one; a test pins its text.
		if s.o.TLS == SMTPStartTLS && strings.Contains(err.Error(), "does not support STARTTLS") {
			return fmt.Errorf("smtp %s:%d: the server does not offer STARTTLS, so nothing was sent, not even the login "+
				"(smtp.tls is starttls; for a relay without TLS set smtp.tls to none, without smtp.username): %w", s.o.Host, s.o.Port, err)
		}
		return fmt.Errorf("smtp %s:%d (smtp.tls %s): %w", s.o.Host, s.o.Port, s.o.TLS, err)
	}
	return nil
}
