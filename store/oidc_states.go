package store

import (
	"context"
	"errors"
	"fmt"
)

// ErrOIDCStateUsed is SpendOIDCState's answer for a state that came back
// before.
var ErrOIDCStateUsed = errors.New("store: single sign-on state already used")

// SpendOIDCState records that a single sign-on's state came back, or says
// ErrOIDCStateUsed if it came back before: its cookie, replayed, then
// signs nobody in, whichever server of the database it reaches. The
// record lasts until expiresAt, the cookie's end, after which the cookie
// is refused anyway; records past theirs go at the same time.
func (s *Store) SpendOIDCState(ctx context.Context, state string, expiresAt int64) error {
	return s.withTx(ctx, func(ctx context.Context, tx *txn) error {
		if _, err := tx.ExecContext(ctx, `DELETE FROM oidc_states WHERE expires_at <= ?`, s.now()); err != nil {
			return fmt.Errorf("store: prune oidc states: %w", err)
		}
		res, err := tx.ExecContext(ctx, `INSERT INTO oidc_states (state_hash, expires_at) VALUES (?, ?)
			ON CONFLICT (state_hash) DO NOTHING`, hashSecret(state), expiresAt)
		if err != nil {
			return fmt.Errorf("store: spend oidc state: %w", err)
		}
		n, err := res.RowsAffected()
		if err != nil {
			return fmt.Errorf("store: spend oidc state: %w", err)
		}
		if n == 0 {
			return ErrOIDCStateUsed
		}
		return nil
	})
}
