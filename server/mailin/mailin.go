// Package mailin receives mail: an SMTP server (emersion/go-smtp) that
// takes messages for users' private addresses, log-SECRET@DOMAIN, and
// records an email interaction with each of the user's people named in
// the message's To or Cc. It faces the internet, so every session is
// bounded: connections overall and per client address, read and write
// deadlines, a whole session's length, recipients, line length and size.
package mailin

import (
	"context"
	"crypto/tls"
	"errors"
	"fmt"
	"net"
	"strings"
	"time"

	"github.com/emersion/go-smtp"
	"github.com/rs/zerolog"

	"kith/store"
)

// MaxMessageBytes is the largest message taken, advertised in EHLO (SIZE).
const MaxMessageBytes = 1 << 20

// Limits of one session; the tests shorten some.
const (
	maxRecipients  = 20
	maxLineLength  = 2000 // RFC 5321's 1000, doubled as go-smtp does
	commandTimeout = time.Minute
	sessionLength  = 10 * time.Minute
	maxConns       = 100
	maxConnsPerIP  = 10
)

// Store is what the receiver needs of the store.
type Store interface {
	MailInUserBySecret(ctx context.Context, secret string) (store.MailInUser, error)
	LogEmailInteractions(ctx context.Context, accountID int64, addrs []string, happenedOn string, note *string) ([]int64, error)
}

// Options are what a Receiver is built from.
type Options struct {
	Store  Store
	Domain string // of the addresses, lower case
	// TLS, when set, offers STARTTLS with it; plain sessions are still
	// taken, as mail servers fall back to them.
	TLS *tls.Config
	Log zerolog.Logger
	// Now is the clock; nil is time.Now.
	Now func() time.Time
	// SessionLength bounds a whole session, however busy; 0 is 10 minutes.
	SessionLength time.Duration
}

// Receiver is the SMTP server of mail-in.
type Receiver struct {
	o   Options
	srv *smtp.Server
}

// New builds a receiver; Serve runs it.
func New(o Options) *Receiver {
	if o.Now == nil {
		o.Now = time.Now
	}
	if o.SessionLength <= 0 {
		o.SessionLength = sessionLength
	}
	r := &Receiver{o: o}
	s := smtp.NewServer(r)
	s.Domain = o.Domain
	s.MaxMessageBytes = MaxMessageBytes
	s.MaxRecipients = maxRecipients
	s.MaxLineLength = maxLineLength
	s.ReadTimeout = commandTimeout
	s.WriteTimeout = commandTimeout
	s.TLSConfig = o.TLS
	s.ErrorLog = smtpLog{o.Log}
	r.srv = s
	return r
}

// Serve takes connections on ln until Close; it returns nil then.
func (r *Receiver) Serve(ln net.Listener) error {
	err := r.srv.Serve(newLimitedListener(ln, maxConns, maxConnsPerIP, r.o.SessionLength))
	if errors.Is(err, smtp.ErrServerClosed) {
		return nil
	}
	return err
}

// Shutdown stops taking connections and waits for the sessions under way
// until ctx ends, then closes them.
func (r *Receiver) Shutdown(ctx context.Context) error {
	err := r.srv.Shutdown(ctx)
	if err != nil {
		r.srv.Close()
	}
	return err
}

// NewSession starts a session: go-smtp's Backend.
func (r *Receiver) NewSession(c *smtp.Conn) (smtp.Session, error) {
	return &session{r: r, remote: c.Conn().RemoteAddr().String()}, nil
}

// user finds the user of an envelope recipient: log-SECRET at the
// domain, in any case. An address of anyone else is nobody.
func (r *Receiver) user(ctx context.Context, rcpt string) (store.MailInUser, bool, error) {
	at := strings.LastIndexByte(rcpt, '@')
	if at < 0 || !strings.EqualFold(rcpt[at+1:], r.o.Domain) {
		return store.MailInUser{}, false, nil
	}
	local := rcpt[:at]
	if len(local) < 4 || !strings.EqualFold(local[:4], "log-") {
		return store.MailInUser{}, false, nil
	}
	secret := local[4:]
	if len(secret) < 20 || len(secret) > 64 {
		return store.MailInUser{}, false, nil
	}
	u, err := r.o.Store.MailInUserBySecret(ctx, secret)
	if errors.Is(err, store.ErrUnknownMailIn) {
		return store.MailInUser{}, false, nil
	}
	return u, err == nil, err
}

// smtpLog writes go-smtp's complaints (a failed handshake, a panic) to
// Kith's log.
type smtpLog struct{ log zerolog.Logger }

func (l smtpLog) Printf(format string, v ...any) {
	l.log.Warn().Str("component", "mail_in").Msgf(format, v...)
}

func (l smtpLog) Println(v ...any) {
	l.log.Warn().Str("component", "mail_in").Msg(strings.TrimSuffix(fmt.Sprintln(v...), "\n"))
}
