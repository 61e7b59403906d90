package server

import (
	"context"
	"crypto/tls"
	"fmt"
	"time"

	gomail "github.com/wneessen/go-mail"
)

// Mail is one email, in a plain-text and an HTML part that say the same.
type Mail struct {
	To, Subject, Text, HTML string
}

// Mailer delivers mail. A nil Mailer in Options means there is no mail
// server: verification links then go to the log.
type Mailer interface {
	Send(ctx context.Context, m Mail) error
}

// SMTPOptions say how to reach the mail server.
type SMTPOptions struct {
	Host               string
	Port               int
	Username, Password string // both empty: no login
	From               string // "Kith <kith@example.com>" or a bare address
	// Timeout bounds connecting and each exchange with the server;
	// zero means 15 seconds.
	Timeout time.Duration
	// TLSConfig replaces the system's trust store; tests use it. Nil is
	// what a real deployment wants.
	TLSConfig *tls.Config
}

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
	return &SMTP{o: o}
}

// Send delivers m. STARTTLS is used whenever the server offers it, and
// port 465 speaks TLS from the first byte; a login is only ever sent
// encrypted.
func (s *SMTP) Send(ctx context.Context, m Mail) error {
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
	if s.o.Port == 465 {
		opts = append(opts, gomail.WithSSL())
	} else {
		opts = append(opts, gomail.WithTLSPolicy(gomail.TLSOpportunistic))
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
		return fmt.Errorf("smtp %s:%d: %w", s.o.Host, s.o.Port, err)
	}
	return nil
}
