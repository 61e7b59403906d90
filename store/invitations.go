package store

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"strings"
)

// InvitationTTL is how long an invitation link stays valid, in seconds.
const InvitationTTL = 72 * 60 * 60

// Errors of invitations.
var (
	// ErrInvitationInvalid is returned for a link that is unknown, used,
	// expired or replaced by a newer one.
	ErrInvitationInvalid = errors.New("store: invitation link invalid or expired")
	// ErrUserJoined is returned for an invitation to a user who has a
	// password already.
	ErrUserJoined = errors.New("store: user has already joined")
)

// Invitee is who is invited.
type Invitee struct {
	Email, FirstName, LastName string
}

// Invitation is an invitation just made: the invited user, the name of
// the user who invited them, and the secret of the link, which exists
// nowhere else after the call.
type Invitation struct {
	User      User
	InvitedBy string
	Secret    string
}

// Joined reports whether the user has a password, rather than being
// invited and not yet arrived.
func (u User) Joined() bool { return len(u.PasswordHash) > 0 }

// InviteUser creates an invited user, without a password, in the account of
// the inviter, and their invitation.
func (s *Store) InviteUser(ctx context.Context, inviterID int64, in Invitee) (Invitation, error) {
	email := strings.ToLower(strings.TrimSpace(in.Email))
	if !ValidEmail(email) {
		return Invitation{}, ErrInvalidEmail
	}
	var inv Invitation
	err := s.withTx(ctx, func(ctx context.Context, tx *txn) error {
		var accountID int64
		var first, last string
		err := tx.QueryRowContext(ctx, `SELECT account_id, first_name, last_name FROM users WHERE id = ?`, inviterID).
			Scan(&accountID, &first, &last)
		if errors.Is(err, sql.ErrNoRows) {
			return ErrUserNotFound
		}
		if err != nil {
			return fmt.Errorf("store: find inviter: %w", err)
		}
		inv.InvitedBy = FullName(first, &last)
		now := s.now()
		err = scanUser(tx.QueryRowContext(ctx, `
			INSERT INTO users (account_id, first_name, last_name, email, password_hash, created_at, updated_at)
			VALUES (?, ?, ?, ?, '', ?, ?)
			RETURNING `+userColumns,
			accountID, in.FirstName, in.LastName, email, now, now), &inv.User)
		if isUniqueViolation(err) {
			return ErrEmailTaken
		}
		if err != nil {
			return fmt.Errorf("store: invite user: %w", err)
		}
		if err := addEmailChannel(ctx, tx, inv.User.ID, now); err != nil {
			return err
		}
		if inv.Secret, err = s.createInvitation(ctx, tx, inv.User.ID); err != nil {
			return err
		}
		return s.logAction(ctx, tx, "user_invitation", "Invited "+email+" to the account")
	})
	return inv, err
}

// Reinvite makes a new invitation for a user of the inviter's account who
// has not joined; the earlier links stop working. ErrUserNotFound for a
// user of another account, ErrUserJoined for one who has joined.
func (s *Store) Reinvite(ctx context.Context, inviterID, userID int64) (Invitation, error) {
	var inv Invitation
	err := s.withTx(ctx, func(ctx context.Context, tx *txn) error {
		var first, last string
		err := scanUser(tx.QueryRowContext(ctx, `SELECT `+inviteeColumns+`, i.first_name, i.last_name
			FROM users u JOIN users i ON i.account_id = u.account_id
			WHERE u.id = ? AND i.id = ?`, userID, inviterID), &inv.User, &first, &last)
		switch {
		case errors.Is(err, sql.ErrNoRows):
			return ErrUserNotFound
		case err != nil:
			return fmt.Errorf("store: reinvite: %w", err)
		case inv.User.Joined():
			return ErrUserJoined
		}
		inv.InvitedBy = FullName(first, &last)
		if inv.Secret, err = s.createInvitation(ctx, tx, userID); err != nil {
			return err
		}
		return s.logAction(ctx, tx, "user_invitation_resend", "Resent invitation to "+inv.User.Email)
	})
	return inv, err
}

// createInvitation replaces the user's invitations with a new one and
// returns its secret. It locks the user's row first (a write that changes
// nothing), so that two invitations at once on PostgreSQL take turns and
// the second voids the first, as one after the other would.
func (s *Store) createInvitation(ctx context.Context, tx *txn, userID int64) (string, error) {
	if _, err := tx.ExecContext(ctx, `UPDATE users SET updated_at = updated_at WHERE id = ?`, userID); err != nil {
		return "", fmt.Errorf("store: lock the user: %w", err)
	}
	if _, err := tx.ExecContext(ctx, `DELETE FROM invitations WHERE user_id = ?`, userID); err != nil {
		return "", fmt.Errorf("store: clear invitations: %w", err)
	}
	secret := newSecret()
	now := s.now()
	_, err := tx.ExecContext(ctx, `INSERT INTO invitations (user_id, secret_hash, expires_at, created_at) VALUES (?, ?, ?, ?)`,
		userID, hashSecret(secret), now+InvitationTTL, now)
	if err != nil {
		return "", fmt.Errorf("store: create invitation: %w", err)
	}
	return secret, nil
}

// AcceptInvitation spends an invitation's secret: its user gets password,
// which they log in with from now on, and their email counts as verified.
// A secret that names no live invitation costs one read and no password
// hash, so that guessing links cannot keep a core busy.
func (s *Store) AcceptInvitation(ctx context.Context, secret, password string) (User, error) {
	if secret == "" || len(secret) > 256 {
		return User{}, ErrInvitationInvalid
	}
	if err := checkPassword(password); err != nil {
		return User{}, err
	}
	hash := hashSecret(secret)
	live, err := s.InvitationLive(ctx, secret)
	if err != nil {
		return User{}, err
	}
	if !live {
		return User{}, ErrInvitationInvalid
	}
	pw, err := s.hashPassword(password)
	if err != nil {
		return User{}, err
	}
	var u User
	err = s.withSessionTx(ctx, func(ctx context.Context, tx *txn) error {
		// The read above was outside this transaction: the link may have
		// been spent or replaced since, and only this DELETE decides.
		now := s.now()
		var userID int64
		err := tx.QueryRowContext(ctx, `DELETE FROM invitations WHERE secret_hash = ? AND expires_at > ? RETURNING user_id`,
			hash, now).Scan(&userID)
		if errors.Is(err, sql.ErrNoRows) {
			return ErrInvitationInvalid
		}
		if err != nil {
			return fmt.Errorf("store: accept invitation: %w", err)
		}
		err = scanUser(tx.QueryRowContext(ctx, `
			UPDATE users SET password_hash = ?, email_verified_at = coalesce(email_verified_at, ?), updated_at = ?
			WHERE id = ? AND password_hash = ''
			RETURNING `+userColumns, pw, now, now, userID), &u)
		if errors.Is(err, sql.ErrNoRows) {
			return ErrInvitationInvalid // joined meanwhile, by the command line
		}
		if err != nil {
			return fmt.Errorf("store: accept invitation: %w", err)
		}
		return nil
	})
	return u, err
}

// InvitationLive reports whether secret is a link that AcceptInvitation
// would take now: known, unused, not expired, not replaced. It reads and
// writes nothing else, so that the page a link opens can say whether it
// still works before anyone chooses a password.
func (s *Store) InvitationLive(ctx context.Context, secret string) (bool, error) {
	if secret == "" || len(secret) > 256 {
		return false, nil
	}
	var live int
	err := s.r.QueryRowContext(ctx, `SELECT count(*) FROM invitations WHERE secret_hash = ? AND expires_at > ?`,
		hashSecret(secret), s.now()).Scan(&live)
	if err != nil {
		return false, fmt.Errorf("store: find invitation: %w", err)
	}
	return live > 0, nil
}

// AccountUsers are the users of an account, joined and invited, in the
// order they came.
func (s *Store) AccountUsers(ctx context.Context, accountID int64) ([]User, error) {
	rows, err := s.r.QueryContext(ctx, `SELECT `+userColumns+` FROM users WHERE account_id = ? ORDER BY id`, accountID)
	if err != nil {
		return nil, fmt.Errorf("store: list the account's users: %w", err)
	}
	defer rows.Close()
	users := []User{}
	for rows.Next() {
		var u User
		if err := scanUser(rows, &u); err != nil {
			return nil, fmt.Errorf("store: scan user: %w", err)
		}
		users = append(users, u)
	}
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("store: list the account's users: %w", err)
	}
	return users, nil
}

// inviteeColumns are userColumns of the invited user u, beside the inviter i.
var inviteeColumns = func() string {
	cols := strings.Split(userColumns, ",")
	for i, c := range cols {
		cols[i] = "u." + strings.TrimSpace(c)
	}
	return strings.Join(cols, ", ")
}()
