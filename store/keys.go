package store

import (
	"context"
	"crypto/rand"
	"crypto/sha256"
	"crypto/subtle"
	"database/sql"
	"errors"
	"fmt"
	"strconv"
	"strings"
)

// ErrUnauthenticated is returned for a key that is malformed, unknown or
// revoked.
var ErrUnauthenticated = errors.New("store: unauthenticated")

// touchInterval is how stale last_used_at may get: writing it on every
// request would put each read behind the single writer.
const touchInterval = 60

// APIKey is a user's key, without its secret.
type APIKey struct {
	ID         int64
	UserID     int64
	Name       string
	LastUsedAt *int64
	CreatedAt  int64
	UpdatedAt  int64
}

// Session is who an authenticated request is: the key, and what of its
// user every request needs. The rest of the user is a query away
// (Store.User): reading it on every request cost a third of a task read.
type Session struct {
	KeyID      int64
	LastUsedAt *int64
	UserID     int64
	AccountID  int64
	Timezone   string
	Verified   bool
	Email      string // the user's, which CardDAV's Basic auth names
}

const keyColumns = `id, user_id, name, last_used_at, created_at, updated_at`

func scanKey(sc scanner, k *APIKey) error {
	return sc.Scan(&k.ID, &k.UserID, &k.Name, &k.LastUsedAt, &k.CreatedAt, &k.UpdatedAt)
}

// newSecret returns 52 random characters (256 bits).
func newSecret() string { return rand.Text() + rand.Text() }

// hashSecret is what the database keeps of a secret. The secret is random
// and long, so a fast hash is enough; a copy of the database then holds
// nothing that authenticates.
func hashSecret(secret string) []byte {
	h := sha256.Sum256([]byte(secret))
	return h[:]
}

// CreateAPIKey creates a key for the user and returns it with its token,
// "<id>|<secret>", which exists nowhere else after this call.
func (s *Store) CreateAPIKey(ctx context.Context, userID int64, name string) (APIKey, string, error) {
	var k APIKey
	var token string
	err := s.withTx(ctx, func(ctx context.Context, tx *txn) error {
		var err error
		k, token, err = s.createAPIKey(ctx, tx, userID, name)
		if err != nil {
			return err
		}
		return s.logAction(ctx, tx, "api_key_creation", "Created an API key")
	})
	return k, token, err
}

func (s *Store) createAPIKey(ctx context.Context, tx *txn, userID int64, name string) (APIKey, string, error) {
	secret := newSecret()
	now := s.now()
	var k APIKey
	err := scanKey(tx.QueryRowContext(ctx, `
		INSERT INTO api_keys (user_id, name, secret_hash, created_at, updated_at)
		VALUES (?, ?, ?, ?, ?)
		RETURNING `+keyColumns,
		userID, name, hashSecret(secret), now, now), &k)
	if isForeignKeyViolation(err) {
		return APIKey{}, "", ErrUserNotFound
	}
	if err != nil {
		return APIKey{}, "", fmt.Errorf("store: create api key: %w", err)
	}
	return k, strconv.FormatInt(k.ID, 10) + "|" + secret, nil
}

// APIKeys lists the user's keys by id.
func (s *Store) APIKeys(ctx context.Context, userID int64) ([]APIKey, error) {
	rows, err := s.r.QueryContext(ctx, `SELECT `+keyColumns+` FROM api_keys WHERE user_id = ? ORDER BY id`, userID)
	if err != nil {
		return nil, fmt.Errorf("store: list api keys: %w", err)
	}
	defer rows.Close()
	keys := []APIKey{}
	for rows.Next() {
		var k APIKey
		if err := scanKey(rows, &k); err != nil {
			return nil, fmt.Errorf("store: scan api key: %w", err)
		}
		keys = append(keys, k)
	}
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("store: list api keys: %w", err)
	}
	return keys, nil
}

// APIKey returns one of the user's keys; another user's key is not found.
func (s *Store) APIKey(ctx context.Context, userID, id int64) (APIKey, error) {
	var k APIKey
	err := scanKey(s.r.QueryRowContext(ctx, `SELECT `+keyColumns+` FROM api_keys WHERE id = ? AND user_id = ?`, id, userID), &k)
	if errors.Is(err, sql.ErrNoRows) {
		return APIKey{}, ErrAPIKeyNotFound
	}
	if err != nil {
		return APIKey{}, fmt.Errorf("store: get api key: %w", err)
	}
	return k, nil
}

// DeleteAPIKey revokes one of the user's keys.
func (s *Store) DeleteAPIKey(ctx context.Context, userID, id int64) error {
	return s.withSessionTx(ctx, func(ctx context.Context, tx *txn) error {
		res, err := tx.ExecContext(ctx, `DELETE FROM api_keys WHERE id = ? AND user_id = ?`, id, userID)
		if err != nil {
			return fmt.Errorf("store: delete api key: %w", err)
		}
		if err := mustAffect(res, ErrAPIKeyNotFound); err != nil {
			return err
		}
		return s.logAction(ctx, tx, "api_key_deletion", "Deleted an API key")
	})
}

// Authenticate returns the session of a token "<id>|<secret>": one lookup
// by primary key, then a constant-time comparison of the secret's hash;
// or, for a key authenticated by the same secret less than KeyCacheTTL ago, the
// session then found.
func (s *Store) Authenticate(ctx context.Context, token string) (Session, error) {
	return s.authenticate(token, func(id int64, want []byte) (Session, error) {
		return s.lookupKey(ctx, id, want)
	})
}

// lookupKey reads key id and its user, and checks that the key's secret
// hashes to want.
func (s *Store) lookupKey(ctx context.Context, id int64, want []byte) (Session, error) {
	var sess Session
	var hash []byte
	var verifiedAt *int64
	err := s.r.QueryRowContext(ctx, `SELECT `+sessionColumns+` FROM api_keys k JOIN users u ON u.id = k.user_id
		WHERE k.id = ?`, id).Scan(&sess.LastUsedAt, &hash, &sess.UserID, &sess.AccountID, &sess.Timezone, &verifiedAt, &sess.Email)
	return checkSession(err, id, sess, hash, want, verifiedAt)
}

// authenticate answers from the key cache, or else from lookup, whose
// session the cache then keeps.
func (s *Store) authenticate(token string, lookup func(id int64, want []byte) (Session, error)) (Session, error) {
	id, secret, ok := parseToken(token)
	if !ok {
		return Session{}, ErrUnauthenticated
	}
	hash := sha256.Sum256([]byte(secret))
	sess, gen, hit := s.keys.get(id, hash, s.Now())
	if hit {
		return sess, nil
	}
	sess, err := lookup(id, hash[:])
	if err == nil {
		s.keys.put(gen, id, hash, sess, s.Now())
	}
	return sess, err
}

const sessionColumns = `k.last_used_at, k.secret_hash, u.id, u.account_id, u.timezone, u.email_verified_at, u.email`

// parseToken splits a token "<id>|<secret>"; ok is false for one that can
// name no key.
func parseToken(token string) (id int64, secret string, ok bool) {
	idText, secret, ok := strings.Cut(token, "|")
	id, err := strconv.ParseInt(idText, 10, 64)
	return id, secret, ok && err == nil && id > 0 && secret != "" && len(secret) <= 256
}

// checkSession finishes an authentication from the row of key id: its
// secret's hash must be want, compared in constant time.
func checkSession(err error, id int64, sess Session, hash, want []byte, verifiedAt *int64) (Session, error) {
	if errors.Is(err, sql.ErrNoRows) {
		return Session{}, ErrUnauthenticated
	}
	if err != nil {
		return Session{}, fmt.Errorf("store: authenticate: %w", err)
	}
	sess.KeyID, sess.Verified = id, verifiedAt != nil
	if subtle.ConstantTimeCompare(hash, want) != 1 {
		return Session{}, ErrUnauthenticated
	}
	return sess, nil
}

// NeedsTouch reports whether the session's last_used_at is stale enough to
// be written again.
func (s *Store) NeedsTouch(sess Session) bool {
	return sess.LastUsedAt == nil || s.now()-*sess.LastUsedAt >= touchInterval
}

// TouchAPIKey records that the key was used now. The WHERE clause keeps
// concurrent requests of one key to one write a minute.
func (s *Store) TouchAPIKey(ctx context.Context, keyID int64) error {
	now := s.now()
	err := s.withTx(ctx, func(ctx context.Context, tx *txn) error {
		_, err := tx.ExecContext(ctx, `UPDATE api_keys SET last_used_at = ?
			WHERE id = ? AND (last_used_at IS NULL OR last_used_at <= ?)`, now, keyID, now-touchInterval)
		if err != nil {
			return fmt.Errorf("store: touch api key: %w", err)
		}
		return nil
	})
	if err == nil {
		s.keys.touched(keyID, now)
	}
	return err
}
