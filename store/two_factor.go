package store

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
)

// TwoFactor is a user's two-factor sign-in: a pending secret waiting for
// its first code, or the active one with its unused recovery codes.
type TwoFactor struct {
	Pending      string // "" when nothing waits for a confirmation
	Secret       string // "" while two-factor is off
	LastStep     int64  // the last TOTP step accepted; codes at or before it are refused
	RecoveryLeft int
}

// Enabled reports whether a sign-in by password needs a second factor.
func (t TwoFactor) Enabled() bool { return t.Secret != "" }

// ErrTwoFactorChanged is a confirmation whose pending secret was replaced
// or confirmed by another request in between.
var ErrTwoFactorChanged = errors.New("store: the two-factor setup changed")

// UserTwoFactor returns the user's two-factor state; a user without any is
// the zero TwoFactor.
func (s *Store) UserTwoFactor(ctx context.Context, userID int64) (TwoFactor, error) {
	var t TwoFactor
	var pending, secret sql.NullString
	err := s.r.QueryRowContext(ctx, `SELECT pending_secret, secret, last_step,
			(SELECT count(*) FROM two_factor_recovery r WHERE r.user_id = t.user_id)
		FROM two_factor t WHERE t.user_id = ?`, userID).Scan(&pending, &secret, &t.LastStep, &t.RecoveryLeft)
	if errors.Is(err, sql.ErrNoRows) {
		return TwoFactor{}, nil
	}
	if err != nil {
		return TwoFactor{}, fmt.Errorf("store: read two-factor: %w", err)
	}
	t.Pending, t.Secret = pending.String, secret.String
	return t, nil
}

// SetPendingTwoFactor keeps secret as the user's pending one, replacing any
// earlier pending secret. It changes nothing while two-factor is on and
// reports whether it kept the secret.
func (s *Store) SetPendingTwoFactor(ctx context.Context, userID int64, secret string) (bool, error) {
	var kept bool
	err := s.withTx(ctx, func(ctx context.Context, tx *txn) error {
		res, err := tx.ExecContext(ctx, `INSERT INTO two_factor (user_id, pending_secret) VALUES (?, ?)
			ON CONFLICT (user_id) DO UPDATE SET pending_secret = excluded.pending_secret
			WHERE two_factor.secret IS NULL`, userID, secret)
		if err != nil {
			return fmt.Errorf("store: set two-factor setup: %w", err)
		}
		n, err := res.RowsAffected()
		kept = n == 1
		return err
	})
	return kept, err
}

// ConfirmTwoFactor turns two-factor on with the pending secret (which must
// still be pending), step as its last accepted step and the recovery
// codes' hashes, and signs out every web session of the user's but keep
// (0 for none): a session opened with the password alone must not outlive
// the second factor's arrival.
func (s *Store) ConfirmTwoFactor(ctx context.Context, userID int64, pending string, step int64, codeHashes [][]byte, keep int64) error {
	return s.withSessionTx(ctx, func(ctx context.Context, tx *txn) error {
		res, err := tx.ExecContext(ctx, `UPDATE two_factor SET secret = pending_secret, pending_secret = NULL, last_step = ?
			WHERE user_id = ? AND secret IS NULL AND pending_secret = ?`, step, userID, pending)
		if err != nil {
			return fmt.Errorf("store: confirm two-factor: %w", err)
		}
		if n, err := res.RowsAffected(); err != nil || n != 1 {
			return errors.Join(ErrTwoFactorChanged, err)
		}
		if _, err := tx.ExecContext(ctx, `DELETE FROM two_factor_recovery WHERE user_id = ?`, userID); err != nil {
			return fmt.Errorf("store: confirm two-factor: %w", err)
		}
		for _, h := range codeHashes {
			if _, err := tx.ExecContext(ctx, `INSERT INTO two_factor_recovery (user_id, code_hash) VALUES (?, ?)`, userID, h); err != nil {
				return fmt.Errorf("store: confirm two-factor: recovery code: %w", err)
			}
		}
		if _, err := tx.ExecContext(ctx, `DELETE FROM web_sessions WHERE user_id = ? AND id <> ?`, userID, keep); err != nil {
			return fmt.Errorf("store: confirm two-factor: sign out: %w", err)
		}
		return nil
	})
}

// UseTwoFactorStep records step as accepted and reports whether it was
// later than the last accepted one: of two requests with the same code,
// only one wins.
func (s *Store) UseTwoFactorStep(ctx context.Context, userID, step int64) (bool, error) {
	var ok bool
	err := s.withTx(ctx, func(ctx context.Context, tx *txn) error {
		res, err := tx.ExecContext(ctx, `UPDATE two_factor SET last_step = ?
			WHERE user_id = ? AND secret IS NOT NULL AND last_step < ?`, step, userID, step)
		if err != nil {
			return fmt.Errorf("store: use two-factor code: %w", err)
		}
		n, err := res.RowsAffected()
		ok = n == 1
		return err
	})
	return ok, err
}

// UseRecoveryCode deletes the user's recovery code of this hash and
// reports whether there was one.
func (s *Store) UseRecoveryCode(ctx context.Context, userID int64, hash []byte) (bool, error) {
	var ok bool
	err := s.withTx(ctx, func(ctx context.Context, tx *txn) error {
		res, err := tx.ExecContext(ctx, `DELETE FROM two_factor_recovery WHERE user_id = ? AND code_hash = ?`, userID, hash)
		if err != nil {
			return fmt.Errorf("store: use recovery code: %w", err)
		}
		n, err := res.RowsAffected()
		ok = n == 1
		return err
	})
	return ok, err
}

// DisableTwoFactor deletes the user's secrets, recovery codes and used
// step, and reports whether two-factor was on.
func (s *Store) DisableTwoFactor(ctx context.Context, userID int64) (bool, error) {
	var was bool
	err := s.withTx(ctx, func(ctx context.Context, tx *txn) error {
		var n int
		if err := tx.QueryRowContext(ctx, `SELECT count(*) FROM two_factor WHERE user_id = ? AND secret IS NOT NULL`, userID).Scan(&n); err != nil {
			return fmt.Errorf("store: disable two-factor: %w", err)
		}
		was = n == 1
		if _, err := tx.ExecContext(ctx, `DELETE FROM two_factor_recovery WHERE user_id = ?`, userID); err != nil {
			return fmt.Errorf("store: disable two-factor: %w", err)
		}
		if _, err := tx.ExecContext(ctx, `DELETE FROM two_factor WHERE user_id = ?`, userID); err != nil {
			return fmt.Errorf("store: disable two-factor: %w", err)
		}
		return nil
	})
	return was, err
}

// DisableTwoFactorByEmail is DisableTwoFactor for the command line, which
// names users by email; an unknown email is ErrUserNotFound.
func (s *Store) DisableTwoFactorByEmail(ctx context.Context, email string) (bool, error) {
	u, err := userWithEmail(ctx, s.r, email)
	if err != nil {
		return false, err
	}
	return s.DisableTwoFactor(ctx, u.ID)
}
