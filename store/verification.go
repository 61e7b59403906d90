package store

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"strings"
)

// VerificationTTL is how long a verification link stays valid, in seconds.
const VerificationTTL = 60 * 60

// Errors of email verification.
var (
	// ErrVerificationInvalid is returned for a link that is unknown, used,
	// expired, or sent to an address the user no longer has.
	ErrVerificationInvalid = errors.New("store: verification link invalid or expired")
	ErrAlreadyVerified     = errors.New("store: email already verified")
)

// createVerification replaces the user's pending links with a new one for
// their current email and returns its secret. Only one link is live at a
// time: asking for a fresh one voids the last.
func (s *Store) createVerification(ctx context.Context, tx *txn, u User) (string, error) {
	if _, err := tx.ExecContext(ctx, `DELETE FROM email_verifications WHERE user_id = ?`, u.ID); err != nil {
		return "", fmt.Errorf("store: clear verifications: %w", err)
	}
	secret := newSecret()
	now := s.now()
	_, err := tx.ExecContext(ctx, `
		INSERT INTO email_verifications (user_id, email, secret_hash, expires_at, created_at)
		VALUES (?, ?, ?, ?, ?)`,
		u.ID, u.Email, hashSecret(secret), now+VerificationTTL, now)
	if err != nil {
		return "", fmt.Errorf("store: create verification: %w", err)
	}
	return secret, nil
}

// NewVerification makes a fresh link for an unverified user and returns
// the user and the link's secret; ErrAlreadyVerified for a verified user.
func (s *Store) NewVerification(ctx context.Context, userID int64) (User, string, error) {
	var u User
	var secret string
	err := s.withTx(ctx, func(ctx context.Context, tx *txn) error {
		err := scanUser(tx.QueryRowContext(ctx, `SELECT `+userColumns+` FROM users WHERE id = ?`, userID), &u)
		switch {
		case errors.Is(err, sql.ErrNoRows):
			return ErrUserNotFound
		case err != nil:
			return fmt.Errorf("store: new verification: %w", err)
		case u.Verified():
			return ErrAlreadyVerified
		}
		secret, err = s.createVerification(ctx, tx, u)
		return err
	})
	return u, secret, err
}

// VerifyEmail uses up a link's secret and marks its user verified. The
// link must be unexpired and sent to the user's current email; a link that
// is not is deleted all the same, so that it cannot be tried again.
func (s *Store) VerifyEmail(ctx context.Context, secret string) (User, error) {
	if secret == "" || len(secret) > 256 {
		return User{}, ErrVerificationInvalid
	}
	var u User
	valid := false
	err := s.withSessionTx(ctx, func(ctx context.Context, tx *txn) error {
		var userID int64
		err := tx.QueryRowContext(ctx, `
			DELETE FROM email_verifications
			WHERE secret_hash = ?
			RETURNING user_id, expires_at > ? AND email = (SELECT u.email FROM users u WHERE u.id = user_id)`,
			hashSecret(secret), s.now()).Scan(&userID, &valid)
		if errors.Is(err, sql.ErrNoRows) {
			return nil
		}
		if err != nil {
			return fmt.Errorf("store: verify email: %w", err)
		}
		if !valid {
			return nil
		}
		u, err = s.markVerified(ctx, tx, `id = ?`, userID)
		return err
	})
	if err == nil && !valid {
		err = ErrVerificationInvalid
	}
	return u, err
}

// MarkVerified marks the user with this email verified, whatever links are
// pending: the command line's way for an administrator to unlock a user.
// A user already verified stays as they were.
func (s *Store) MarkVerified(ctx context.Context, email string) (User, error) {
	var u User
	err := s.withSessionTx(ctx, func(ctx context.Context, tx *txn) error {
		var err error
		u, err = s.markVerified(ctx, tx, `email = ?`, strings.ToLower(strings.TrimSpace(email)))
		return err
	})
	return u, err
}

// SetEmail gives the user with email the address to, verified (an
// operator's kith user set-email vouches for it): their pending links go,
// and every server beside sees it at once. to taken by another user is
// ErrEmailTaken.
func (s *Store) SetEmail(ctx context.Context, email, to string) (User, error) {
	to = strings.ToLower(strings.TrimSpace(to))
	if !ValidEmail(to) {
		return User{}, ErrInvalidEmail
	}
	var u User
	err := s.withSessionTx(ctx, func(ctx context.Context, tx *txn) error {
		res, err := tx.ExecContext(ctx, `UPDATE users SET email = ?, email_verified_at = NULL, updated_at = ? WHERE email = ?`,
			to, s.now(), strings.ToLower(strings.TrimSpace(email)))
		if isUniqueViolation(err) {
			return ErrEmailTaken
		}
		if err != nil {
			return fmt.Errorf("store: set email: %w", err)
		}
		if n, err := res.RowsAffected(); err != nil || n == 0 {
			return errors.Join(ErrUserNotFound, err)
		}
		u, err = s.markVerified(ctx, tx, `email = ?`, to)
		return err
	})
	return u, err
}

// markVerified verifies the user that where (on users) selects and drops
// their pending links.
func (s *Store) markVerified(ctx context.Context, tx *txn, where string, arg any) (User, error) {
	var u User
	err := scanUser(tx.QueryRowContext(ctx, `
		UPDATE users SET email_verified_at = coalesce(email_verified_at, ?)
		WHERE `+where+`
		RETURNING `+userColumns, s.now(), arg), &u)
	if errors.Is(err, sql.ErrNoRows) {
		return User{}, ErrUserNotFound
	}
	if err != nil {
		return User{}, fmt.Errorf("store: mark verified: %w", err)
	}
	if _, err := tx.ExecContext(ctx, `DELETE FROM email_verifications WHERE user_id = ?`, u.ID); err != nil {
		return User{}, fmt.Errorf("store: clear verifications: %w", err)
	}
	return u, nil
}
