package server

import (
	"context"
	"errors"
	"fmt"
	"html"
	"net/http"
	"strconv"
	"strings"
	"time"

	"github.com/labstack/echo/v4"

	"kith/server/input"
	"kith/server/mail"
	"kith/store"
)

var (
	errUnverified  = &input.Error{Status: http.StatusForbidden, Message: "Your email address is not verified."}
	errInvalidLink = &input.Error{Status: http.StatusForbidden, Message: "This verification link is invalid or has expired."}
)

// mailSendTimeout bounds one email's delivery in the background.
const mailSendTimeout = time.Minute

// handleVerifyEmail opens a verification link. It needs no key: the link's
// secret is the proof, and the user may have no key left.
func (s *Server) handleVerifyEmail(c echo.Context) error {
	_, err := s.store.VerifyEmail(c.Request().Context(), c.QueryParam("token"))
	if strings.Contains(c.Request().Header.Get(echo.HeaderAccept), "text/html") {
		// The emailed link, opened in a browser.
		return s.web.VerifiedPage(c, err)
	}
	if errors.Is(err, store.ErrVerificationInvalid) {
		return errInvalidLink
	}
	if err != nil {
		return err
	}
	return c.JSON(http.StatusOK, messageBody{"Email verified", http.StatusOK})
}

// verificationBudget is the user's key in s.resends: one budget, spent by
// sendVerification and asked by resendWait, for the API and the pages.
func verificationBudget(userID int64) string { return strconv.FormatInt(userID, 10) }

// resendWait is how long the user must wait for another verification
// email, and whether they must.
func (s *Server) resendWait(userID int64) (time.Duration, bool) {
	return s.resends.Blocked(verificationBudget(userID))
}

// handleVerificationResend sends a fresh link to an unverified user; the
// last link stops working. A few links per user per window, so that the
// route cannot be used to flood an address.
func (s *Server) handleVerificationResend(c echo.Context) error {
	sess, _ := input.Session(c)
	// A verified user is told so, spent budget or not.
	if wait, blocked := s.resendWait(sess.UserID); blocked && !sess.Verified {
		setRetryAfter(c, wait)
		return input.ErrTooManyAttempts
	}
	u, secret, err := s.store.NewVerification(c.Request().Context(), sess.UserID)
	if errors.Is(err, store.ErrAlreadyVerified) {
		return c.JSON(http.StatusOK, messageBody{"Email already verified", http.StatusOK})
	}
	if err != nil {
		return err
	}
	s.sendVerification(c, u, secret)
	return c.JSON(http.StatusAccepted, messageBody{"Verification link sent", http.StatusAccepted})
}

// sendVerification mails the link for secret to the user's (new) address.
// A failure is logged, and the user can ask for a new link.
func (s *Server) sendVerification(c echo.Context, u store.User, secret string) {
	s.resends.Fail(verificationBudget(u.ID))
	link := s.base(c) + "/api/verify-email?token=" + secret
	s.deliver(c, u.ID, "verification", "the user can ask for a new link", link, verificationMail(u, link))
}

// deliver sends m, which carries the link of a kind (what) to the user
// userID, in the background: a slow or failing mail server must neither
// hold the response nor undo the change. A failure is logged with what the
// user can do then (remedy). Without a mail server the link goes to the log.
func (s *Server) deliver(c echo.Context, userID int64, what, remedy, link string, m mail.Message) {
	log := s.log.With().Str("request_id", requestID(c)).Int64("user_id", userID).Str("to", m.To).Logger()
	if s.mailer == nil {
		log.Warn().Str("link", link).Msg("SMTP is not configured (smtp.host), so the " + what + " link is logged instead of emailed")
		return
	}
	s.mail.Add(1)
	go func() {
		defer s.mail.Done()
		ctx, cancel := context.WithTimeout(context.Background(), mailSendTimeout)
		defer cancel()
		if err := s.mailer.Send(ctx, m); err != nil {
			log.Error().Err(err).Msg("sending the " + what + " email failed; " + remedy)
			return
		}
		log.Info().Msg(what + " email sent")
	}()
}

// WaitForMail waits until the emails being sent are out, or ctx ends.
func (s *Server) WaitForMail(ctx context.Context) error {
	done := make(chan struct{})
	go func() {
		s.mail.Wait()
		close(done)
	}()
	select {
	case <-done:
		return nil
	case <-ctx.Done():
		return ctx.Err()
	}
}

// The verification email is built with fmt rather than text/template or
// html/template: their use of reflection keeps every exported method in
// the binary, several megabytes on a Raspberry Pi, for four values.
const verificationText = `Hello %[1]s,

The email address of your Kith account was changed to %[2]s.
To confirm that this address is yours, open this link within %[4]d minutes:

%[3]s

Until then your Kith account is locked: it answers "Your email address is
not verified." If the link has expired, ask Kith for a new one
(POST /api/me/verification) or ask the administrator of your Kith server.

Not your change? Then do not open the link. Someone may have typed your
address by mistake, or be using it without your consent; if you ignore this
email, your address stays unconfirmed. If you have a Kith account and did
not make this change, tell the administrator of your Kith server: someone
else may know your password.

-- Kith, your personal relationship manager
`

const verificationHTML = `<!DOCTYPE html>
<html lang="en">
<head><meta charset="utf-8"><title>Confirm your new email address</title></head>
<body style="font-family: sans-serif; line-height: 1.5; max-width: 36em;">
<p>Hello %[1]s,</p>
<p>The email address of your Kith account was changed to <strong>%[2]s</strong>.
To confirm that this address is yours, open this link within %[4]d minutes:</p>
<p><a href="%[3]s">Confirm my email address</a></p>
<p style="font-size: smaller;">Or copy it into your browser: %[3]s</p>
<p>Until then your Kith account is locked. If the link has expired, ask Kith for a new one
or ask the administrator of your Kith server.</p>
<p><strong>Not your change?</strong> Then do not open the link. Someone may have typed your
address by mistake, or be using it without your consent; if you ignore this email, your address
stays unconfirmed. If you have a Kith account and did not make this change, tell the
administrator of your Kith server: someone else may know your password.</p>
<p>&mdash; Kith, your personal relationship manager</p>
</body>
</html>
`

// verificationMail is the email that carries a verification link.
func verificationMail(u store.User, link string) mail.Message {
	minutes := store.VerificationTTL / 60
	esc := html.EscapeString
	return mail.Message{
		To:      u.Email,
		Subject: "Kith: confirm your new email address",
		Text:    fmt.Sprintf(verificationText, u.FirstName, u.Email, link, minutes),
		HTML:    fmt.Sprintf(verificationHTML, esc(u.FirstName), esc(u.Email), esc(link), minutes),
	}
}
