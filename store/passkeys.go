package store

import (
	"context"
	"crypto/rand"
	"database/sql"
	"errors"
	"fmt"
	"strings"
)

// Passkeys (WebAuthn credentials), each user's random handle, and the
// challenges Kith issued for a ceremony. The store keeps bytes and
// numbers; checking a ceremony is the server's.

var (
	ErrPasskeyNotFound = &NotFoundError{What: "passkey"}
	// ErrPasskeyTaken is a credential id already saved, for this user or
	// another: an authenticator never makes the same one twice.
	ErrPasskeyTaken = errors.New("store: the passkey is already saved")
)

// PasskeyChallengeLife is how long an issued challenge can be answered,
// in seconds.
const PasskeyChallengeLife = 5 * 60

// The ceremonies a challenge is issued for.
const (
	PasskeyRegister = "register"
	PasskeyLogin    = "login"
)

// Passkey is a saved credential. Its key material stays out of JSON.
type Passkey struct {
	ID           int64    `json:"id"`
	UserID       int64    `json:"-"`
	CredentialID []byte   `json:"-"`
	PublicKey    []byte   `json:"-"`
	SignCount    uint32   `json:"-"`
	Flags        byte     `json:"-"`
	Transports   []string `json:"-"`
	AAGUID       []byte   `json:"-"`
	Name         string   `json:"name"`
	CreatedAt    int64    `json:"created_at"`
	LastUsedAt   *int64   `json:"last_used_at"`
}

const passkeyColumns = `id, user_id, credential_id, public_key, sign_count, flags, transports, aaguid, name, created_at, last_used_at`

// scanPasskey scans passkeyColumns, then extra.
func scanPasskey(sc scanner, p *Passkey, extra ...any) error {
	var count, flags int64
	var transports string
	dest := append([]any{&p.ID, &p.UserID, &p.CredentialID, &p.PublicKey, &count, &flags, &transports, &p.AAGUID,
		&p.Name, &p.CreatedAt, &p.LastUsedAt}, extra...)
	if err := sc.Scan(dest...); err != nil {
		return err
	}
	p.SignCount, p.Flags = uint32(count), byte(flags)
	if transports != "" {
		p.Transports = strings.Split(transports, " ")
	}
	return nil
}

// PasskeyHandle returns the user's WebAuthn user handle, made on first
// use: 32 random bytes, never derived from the email, so that a handle
// an authenticator shows says nothing about its owner.
func (s *Store) PasskeyHandle(ctx context.Context, userID int64) ([]byte, error) {
	var handle []byte
	err := s.withTx(ctx, func(ctx context.Context, tx *txn) error {
		fresh := make([]byte, 32)
		rand.Read(fresh)
		if _, err := tx.ExecContext(ctx, `INSERT INTO passkey_handles (user_id, handle) VALUES (?, ?)
			ON CONFLICT (user_id) DO NOTHING`, userID, fresh); err != nil {
			return fmt.Errorf("store: make passkey handle: %w", err)
		}
		if err := tx.QueryRowContext(ctx, `SELECT handle FROM passkey_handles WHERE user_id = ?`, userID).Scan(&handle); err != nil {
			return fmt.Errorf("store: read passkey handle: %w", err)
		}
		return nil
	})
	return handle, err
}

// Passkeys lists the user's passkeys by id.
func (s *Store) Passkeys(ctx context.Context, userID int64) ([]Passkey, error) {
	rows, err := s.r.QueryContext(ctx, `SELECT `+passkeyColumns+` FROM passkeys WHERE user_id = ? ORDER BY id`, userID)
	if err != nil {
		return nil, fmt.Errorf("store: list passkeys: %w", err)
	}
	defer rows.Close()
	keys := []Passkey{}
	for rows.Next() {
		var p Passkey
		if err := scanPasskey(rows, &p); err != nil {
			return nil, fmt.Errorf("store: scan passkey: %w", err)
		}
		keys = append(keys, p)
	}
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("store: list passkeys: %w", err)
	}
	return keys, nil
}

// PasskeyByCredential returns the passkey of a credential id, whoever's it
// is, with its user's handle: a discoverable sign-in names no user first.
func (s *Store) PasskeyByCredential(ctx context.Context, credentialID []byte) (Passkey, []byte, error) {
	var p Passkey
	var handle []byte
	row := s.r.QueryRowContext(ctx, `SELECT `+passkeyColumns+`,
			(SELECT h.handle FROM passkey_handles h WHERE h.user_id = passkeys.user_id)
		FROM passkeys WHERE credential_id = ?`, credentialID)
	err := scanPasskey(row, &p, &handle)
	if errors.Is(err, sql.ErrNoRows) {
		return Passkey{}, nil, ErrPasskeyNotFound
	}
	if err != nil {
		return Passkey{}, nil, fmt.Errorf("store: read passkey: %w", err)
	}
	return p, handle, nil
}

// AddPasskey saves a new passkey of p.UserID, named p.Name; a credential
// id saved already is ErrPasskeyTaken.
func (s *Store) AddPasskey(ctx context.Context, p Passkey) (Passkey, error) {
	err := s.withTx(ctx, func(ctx context.Context, tx *txn) error {
		row := tx.QueryRowContext(ctx, `INSERT INTO passkeys
			(user_id, credential_id, public_key, sign_count, flags, transports, aaguid, name, created_at)
			VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?) RETURNING `+passkeyColumns,
			p.UserID, p.CredentialID, p.PublicKey, int64(p.SignCount), int64(p.Flags), strings.Join(p.Transports, " "),
			p.AAGUID, p.Name, s.now())
		err := scanPasskey(row, &p)
		if isUniqueViolation(err) {
			return ErrPasskeyTaken
		}
		if err != nil {
			return fmt.Errorf("store: add passkey: %w", err)
		}
		return nil
	})
	return p, err
}

// UsePasskey records a sign-in with the passkey: when, and the
// authenticator's new signature count and flags.
func (s *Store) UsePasskey(ctx context.Context, id int64, signCount uint32, flags byte) error {
	return s.withTx(ctx, func(ctx context.Context, tx *txn) error {
		res, err := tx.ExecContext(ctx, `UPDATE passkeys SET last_used_at = ?, sign_count = ?, flags = ? WHERE id = ?`,
			s.now(), int64(signCount), int64(flags), id)
		if err != nil {
			return fmt.Errorf("store: use passkey: %w", err)
		}
		return mustAffect(res, ErrPasskeyNotFound)
	})
}

// DeletePasskey deletes the user's passkey id; another user's is
// ErrPasskeyNotFound, as a missing one.
func (s *Store) DeletePasskey(ctx context.Context, userID, id int64) error {
	return s.withTx(ctx, func(ctx context.Context, tx *txn) error {
		res, err := tx.ExecContext(ctx, `DELETE FROM passkeys WHERE id = ? AND user_id = ?`, id, userID)
		if err != nil {
			return fmt.Errorf("store: delete passkey: %w", err)
		}
		return mustAffect(res, ErrPasskeyNotFound)
	})
}

// IssuePasskeyChallenge keeps challenge for one ceremony of kind, by
// userID for a registration (0 for a sign-in, which names nobody yet).
// Expired challenges go at the same time, so that unanswered ones do not
// pile up.
func (s *Store) IssuePasskeyChallenge(ctx context.Context, kind string, userID int64, challenge []byte) error {
	return s.withTx(ctx, func(ctx context.Context, tx *txn) error {
		now := s.now()
		if _, err := tx.ExecContext(ctx, `DELETE FROM passkey_challenges WHERE created_at <= ?`, now-PasskeyChallengeLife); err != nil {
			return fmt.Errorf("store: prune passkey challenges: %w", err)
		}
		var user any
		if userID != 0 {
			user = userID
		}
		if _, err := tx.ExecContext(ctx, `INSERT INTO passkey_challenges (challenge, kind, user_id, created_at) VALUES (?, ?, ?, ?)`,
			challenge, kind, user, now); err != nil {
			return fmt.Errorf("store: issue passkey challenge: %w", err)
		}
		return nil
	})
}

// ConsumePasskeyChallenge spends a challenge issued for kind (and userID,
// 0 for a sign-in) and reports whether it was there and younger than
// PasskeyChallengeLife. The DELETE is the check: of two requests with one
// challenge, on one server or two, only one gets its row.
func (s *Store) ConsumePasskeyChallenge(ctx context.Context, kind string, userID int64, challenge []byte) (bool, error) {
	var ok bool
	err := s.withTx(ctx, func(ctx context.Context, tx *txn) error {
		var created int64
		err := tx.QueryRowContext(ctx, `DELETE FROM passkey_challenges
			WHERE challenge = ? AND kind = ? AND coalesce(user_id, 0) = ? RETURNING created_at`,
			challenge, kind, userID).Scan(&created)
		if errors.Is(err, sql.ErrNoRows) {
			return nil
		}
		if err != nil {
			return fmt.Errorf("store: use passkey challenge: %w", err)
		}
		ok = s.now()-created < PasskeyChallengeLife
		return nil
	})
	return ok, err
}
