package store

import (
	"context"
	"fmt"
	"strconv"
)

// WebSessionLife is how long a web sign-in lasts, in seconds: 30 days.
const WebSessionLife = 30 * 24 * 60 * 60

// CreateWebSession signs the user in to the web app and returns the
// cookie's value, "<id>|<secret>", which exists nowhere else after this
// call. The user's expired sessions go at the same time.
func (s *Store) CreateWebSession(ctx context.Context, userID int64) (string, error) {
	secret := newSecret()
	var id int64
	err := s.withTx(ctx, func(ctx context.Context, tx *txn) error {
		now := s.now()
		if _, err := tx.ExecContext(ctx, `DELETE FROM web_sessions WHERE user_id = ? AND expires_at <= ?`, userID, now); err != nil {
			return fmt.Errorf("store: prune web sessions: %w", err)
		}
		err := tx.QueryRowContext(ctx, `INSERT INTO web_sessions (user_id, secret_hash, created_at, expires_at)
			VALUES (?, ?, ?, ?) RETURNING id`, userID, hashSecret(secret), now, now+WebSessionLife).Scan(&id)
		if err != nil {
			return fmt.Errorf("store: create web session: %w", err)
		}
		return nil
	})
	if err != nil {
		return "", err
	}
	return strconv.FormatInt(id, 10) + "|" + secret, nil
}

// WebSession returns the session of a cookie's value, as Authenticate does
// for a key: one lookup by primary key, then a constant-time comparison of
// the secret's hash. An expired session is ErrUnauthenticated. KeyID is
// the web session's id.
func (s *Store) WebSession(ctx context.Context, token string) (Session, error) {
	id, secret, ok := parseToken(token)
	if !ok {
		return Session{}, ErrUnauthenticated
	}
	var sess Session
	var hash []byte
	var verifiedAt *int64
	err := s.r.QueryRowContext(ctx, `SELECT w.secret_hash, u.id, u.account_id, u.timezone, u.email_verified_at, u.email
		FROM web_sessions w JOIN users u ON u.id = w.user_id
		WHERE w.id = ? AND w.expires_at > ?`, id, s.now()).Scan(&hash, &sess.UserID, &sess.AccountID, &sess.Timezone, &verifiedAt, &sess.Email)
	return checkSession(err, id, sess, hash, hashSecret(secret), verifiedAt)
}

// DeleteWebSession signs a session out; one already gone is no error.
func (s *Store) DeleteWebSession(ctx context.Context, userID, id int64) error {
	return s.withTx(ctx, func(ctx context.Context, tx *txn) error {
		if _, err := tx.ExecContext(ctx, `DELETE FROM web_sessions WHERE id = ? AND user_id = ?`, id, userID); err != nil {
			return fmt.Errorf("store: delete web session: %w", err)
		}
		return nil
	})
}
