package server

import (
	"errors"
	"fmt"
	"html"
	"net/http"
	"strconv"

	"github.com/labstack/echo/v4"

	"kith/server/input"
	"kith/server/mail"
	"kith/store"
)

var (
	errUserJoined        = &input.Error{Status: http.StatusConflict, Message: "This user has already joined the account."}
	errInvalidInvitation = &input.Error{Status: http.StatusForbidden, Message: "This invitation link is invalid or has expired."}
)

// invitedUser is the answer to an invitation, without a data envelope, as
// the reference system's.
type invitedUser struct {
	ID     int64  `json:"id"`
	Object string `json:"object"`
	Email  string `json:"email"`
}

func invitedJSON(u store.User) invitedUser { return invitedUser{u.ID, "user", u.Email} }

// handleUserInvite creates an invited user in the caller's account and
// sends them the invitation.
func (s *Server) handleUserInvite(c echo.Context) error {
	sess, _ := input.Session(c)
	p, err := input.ReadParams(c)
	if err != nil {
		return err
	}
	in := input.Invitee(p)
	if err := p.Err(); err != nil {
		return err
	}
	u, err := s.invite(c, sess.UserID, in)
	if err != nil {
		return err
	}
	return c.JSON(http.StatusCreated, invitedJSON(u))
}

// invite makes the invited user in the inviter's account and sends the
// invitation, under the inviter's daily budget: the API's invitation and
// the Users page's. A taken email is a validation error on email; a spent
// budget is input.ErrTooManyAttempts, with Retry-After set.
func (s *Server) invite(c echo.Context, inviterID int64, in store.Invitee) (store.User, error) {
	if err := s.inviteBudget(c, inviterID); err != nil {
		return store.User{}, err
	}
	inv, err := s.store.InviteUser(c.Request().Context(), inviterID, in)
	if errors.Is(err, store.ErrEmailTaken) {
		return store.User{}, input.Invalid("email", "The email has already been taken.")
	}
	if err != nil {
		return store.User{}, err
	}
	s.invites.Fail(strconv.FormatInt(inviterID, 10))
	s.sendInvitation(c, inv)
	return inv.User, nil
}

// handleInvitationResend sends a user of the account who has not joined a
// new invitation; their earlier links stop working.
func (s *Server) handleInvitationResend(c echo.Context) error {
	id, err := input.PathID(c, "user", store.ErrUserNotFound)
	if err != nil {
		return err
	}
	u, err := s.reinvite(c, id)
	if err != nil {
		return err
	}
	return c.JSON(http.StatusOK, invitedJSON(u))
}

// reinvite sends the caller's account's user id, who has not joined, a new
// invitation, voiding their earlier links: the API's resend and the Users
// page's. A few emails per invited user per window, so that it cannot
// flood an address, and within the caller's daily budget. Another
// account's user is store.ErrUserNotFound; one who has joined is
// errUserJoined; a spent budget input.ErrTooManyAttempts, with Retry-After.
func (s *Server) reinvite(c echo.Context, id int64) (store.User, error) {
	ctx := c.Request().Context()
	sess, _ := input.Session(c)
	// Who the user is comes before the budget, which would otherwise tell
	// an outsider that another account's user exists.
	u, err := s.store.User(ctx, id)
	switch {
	case errors.Is(err, store.ErrUserNotFound) || err == nil && u.AccountID != sess.AccountID:
		return store.User{}, store.ErrUserNotFound
	case err != nil:
		return store.User{}, err
	case u.Joined():
		return store.User{}, errUserJoined
	}
	if wait, blocked := s.resends.Blocked(invitationBudget(id)); blocked {
		setRetryAfter(c, wait)
		return store.User{}, input.ErrTooManyAttempts
	}
	if err := s.inviteBudget(c, sess.UserID); err != nil {
		return store.User{}, err
	}
	inv, err := s.store.Reinvite(ctx, sess.UserID, id)
	if errors.Is(err, store.ErrUserJoined) {
		return store.User{}, errUserJoined
	}
	if err != nil {
		return store.User{}, err
	}
	s.invites.Fail(strconv.FormatInt(sess.UserID, 10))
	s.sendInvitation(c, inv)
	return inv.User, nil
}

// inviteBudget refuses a user who has sent their invitations for the day
// (new ones and ones sent again alike): each is an email to an address
// they chose.
func (s *Server) inviteBudget(c echo.Context, inviterID int64) error {
	if wait, blocked := s.invites.Blocked(strconv.FormatInt(inviterID, 10)); blocked {
		setRetryAfter(c, wait)
		return input.ErrTooManyAttempts
	}
	return nil
}

// handleInvitationAccept spends an invitation link: its user chooses a
// password and has joined. It needs no key: the link's secret is the proof.
func (s *Server) handleInvitationAccept(c echo.Context) error {
	p, err := input.ReadParams(c)
	if err != nil {
		return err
	}
	// Any text, as long as a body may be: a wrong token, whatever its
	// length or characters, is the 403 below, not a 422.
	token := p.Password("token", input.MaxBodyBytes)
	password := p.NewPassword("password")
	if err := p.Err(); err != nil {
		return err
	}
	if _, err := s.acceptInvitation(c, token, password); err != nil {
		return err
	}
	return c.JSON(http.StatusOK, messageBody{"Invitation accepted", http.StatusOK})
}

// acceptInvitation spends the link's token for its user, who then has
// password, in one of the password slots: the API's accept and the
// invitation's page. A token that no live invitation has is
// errInvalidInvitation; every slot busy is input.ErrTooManyAttempts, with
// Retry-After set.
func (s *Server) acceptInvitation(c echo.Context, token, password string) (store.User, error) {
	ctx := c.Request().Context()
	u, err := s.inPasswordSlot(ctx, func() (store.User, error) {
		return s.store.AcceptInvitation(ctx, token, password)
	})
	switch {
	case errors.Is(err, errChecksBusy):
		setRetryAfter(c, s.checkWait)
		return store.User{}, input.ErrTooManyAttempts
	case errors.Is(err, store.ErrInvitationInvalid):
		return store.User{}, errInvalidInvitation
	}
	return u, err
}

// invitationBudget is the key that counts the invitation emails to a user.
func invitationBudget(userID int64) string { return "invitation " + strconv.FormatInt(userID, 10) }

// sendInvitation mails the invitation's link to the invited address.
func (s *Server) sendInvitation(c echo.Context, inv store.Invitation) {
	s.resends.Fail(invitationBudget(inv.User.ID))
	link := s.base(c) + "/api/invitations/accept?token=" + inv.Secret
	s.deliver(c, inv.User.ID, "invitation", "any user of the account can send a new invitation", link, invitationMail(inv, link))
}

// The invitation is built with fmt for the reason verificationText gives.
const invitationText = `Hello %[1]s,

%[2]s invited you to join their Kith, a personal relationship manager:
the people in one's life, what one knows about them, and what one owes them.

To join, open this link in your browser within %[4]d hours and choose a
password (8 to 72 characters):

%[3]s

Or, from a terminal, send the password with the link:

curl -X POST --data-urlencode 'password=your new password' '%[3]s'

Then log in as %[5]s with that password. The link works once; if it has
expired, ask %[2]s to send you a new invitation.

Not expecting this? Then ignore this email: without the link nobody can
use the account, and it has no password until you choose one.

-- Kith, your personal relationship manager
`

const invitationHTML = `<!DOCTYPE html>
<html lang="en">
<head><meta charset="utf-8"><title>You are invited to Kith</title></head>
<body style="font-family: sans-serif; line-height: 1.5; max-width: 36em;">
<p>Hello %[1]s,</p>
<p><strong>%[2]s</strong> invited you to join their Kith, a personal relationship manager:
the people in one's life, what one knows about them, and what one owes them.</p>
<p>To join, open this link in your browser within %[4]d hours and choose a password (8 to 72 characters):</p>
<p><a href="%[3]s">%[3]s</a></p>
<p>Or, from a terminal, send the password with the link:</p>
<pre>curl -X POST --data-urlencode 'password=your new password' '%[3]s'</pre>
<p>Then log in as <strong>%[5]s</strong> with that password. The link works once; if it has
expired, ask %[2]s to send you a new invitation.</p>
<p><strong>Not expecting this?</strong> Then ignore this email: without the link nobody can
use the account, and it has no password until you choose one.</p>
<p>&mdash; Kith, your personal relationship manager</p>
</body>
</html>
`

// invitationMail is the email that carries an invitation link.
func invitationMail(inv store.Invitation, link string) mail.Message {
	hours := store.InvitationTTL / 3600
	u, esc := inv.User, html.EscapeString
	return mail.Message{
		To: u.Email,
		// The inviter's name, which they chose, stays out of the subject,
		// where a mail client shows it as the sender's own words.
		Subject: "Kith: you are invited to share an address book",
		Text:    fmt.Sprintf(invitationText, u.FirstName, inv.InvitedBy, link, hours, u.Email),
		HTML:    fmt.Sprintf(invitationHTML, esc(u.FirstName), esc(inv.InvitedBy), esc(link), hours, esc(u.Email)),
	}
}
