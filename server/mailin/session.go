package mailin

import (
	"bytes"
	"context"
	"errors"
	"io"
	"time"

	"github.com/emersion/go-smtp"

	"kith/store"
)

// Replies of the receiver's own refusals; go-smtp words the rest.
var (
	errNoSuchUser = &smtp.SMTPError{Code: 550, EnhancedCode: smtp.EnhancedCode{5, 1, 1},
		Message: "No such mailbox here"}
	errTooBig = &smtp.SMTPError{Code: 552, EnhancedCode: smtp.EnhancedCode{5, 3, 4},
		Message: "Message too large"}
	errTryLater = &smtp.SMTPError{Code: 451, EnhancedCode: smtp.EnhancedCode{4, 3, 0},
		Message: "Could not record the message, try again later"}
)

// storeTimeout bounds one store call of a session.
const storeTimeout = 30 * time.Second

// session is one SMTP transaction after another on one connection.
type session struct {
	r      *Receiver
	remote string
	users  []store.MailInUser // the accepted recipients', once each
}

// Mail takes any sender: the message names the user by its recipient.
// A declared SIZE over the cap is go-smtp's 552 already; this checks it
// again in case that ever changes.
func (s *session) Mail(from string, opts *smtp.MailOptions) error {
	if opts != nil && opts.Size > MaxMessageBytes {
		return errTooBig
	}
	return nil
}

// Rcpt takes a user's current address and nothing else.
func (s *session) Rcpt(to string, _ *smtp.RcptOptions) error {
	ctx, cancel := context.WithTimeout(context.Background(), storeTimeout)
	defer cancel()
	u, ok, err := s.r.user(ctx, to)
	if err != nil {
		s.r.o.Log.Error().Err(err).Str("component", "mail_in").Msg("could not look up a recipient")
		return errTryLater
	}
	if !ok {
		return errNoSuchUser
	}
	for _, have := range s.users {
		if have.UserID == u.UserID {
			return nil
		}
	}
	s.users = append(s.users, u)
	return nil
}

// Data reads the whole message, up to the cap, and records it for every
// accepted recipient: all of them, or (on a store error) a 451 that
// asks the sender to try again. A recipient recorded before the error
// would then count twice; that is rarer and less harmful than a lost one.
func (s *session) Data(r io.Reader) error {
	raw, err := io.ReadAll(r)
	if errors.Is(err, smtp.ErrDataTooLarge) {
		return errTooBig
	}
	if err != nil {
		return err
	}
	msg := parseMessage(bytes.NewReader(raw))
	now := s.r.o.Now()
	for _, u := range s.users {
		ctx, cancel := context.WithTimeout(store.WithActor(context.Background(), u.UserID), storeTimeout)
		persons, err := s.r.o.Store.LogEmailInteractions(ctx, u.AccountID, msg.addrs, msg.day(now, u.Timezone), msg.subject)
		cancel()
		if err != nil {
			s.r.o.Log.Error().Err(err).Str("component", "mail_in").Int64("user", u.UserID).Msg("could not record a message")
			return errTryLater
		}
		s.r.o.Log.Info().Str("component", "mail_in").Int64("user", u.UserID).Int("persons", len(persons)).
			Str("remote", s.remote).Msg("message logged as email interactions")
	}
	return nil
}

// Reset forgets the transaction's recipients (RSET, or after DATA).
func (s *session) Reset() { s.users = nil }

// Logout ends the session.
func (s *session) Logout() error { return nil }
