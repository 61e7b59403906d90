package store

import (
	"context"
	"crypto/rand"
	"database/sql"
	"errors"
	"fmt"
	"strings"
)

// ErrUnknownMailIn reports a mail-in secret that is no user's (unknown,
// or rotated away). The receiver answers it with 550; no HTTP route
// meets it, so it is no NotFoundError.
var ErrUnknownMailIn = errors.New("store: no user has this mail-in address")

// MaxMailInAddresses is the most To and Cc addresses one message is
// searched for: a header of thousands costs one query of that many
// parameters, within what both engines take (SQLite's default is 32766).
const MaxMailInAddresses = 1000

// MailInUser is the user a mail-in secret names, with what the receiver
// needs to date the message in their time zone.
type MailInUser struct {
	UserID    int64
	AccountID int64
	Timezone  string
}

// newMailInSecret is 26 characters of [a-z2-7] (130 bits): lower case, so
// that an address a mail system changed the case of still finds its user.
func newMailInSecret() string { return strings.ToLower(rand.Text()) }

// MailInSecret returns the user's mail-in secret, making it on the first
// call: a user who never looks has none, and nothing reaches them.
func (s *Store) MailInSecret(ctx context.Context, userID int64) (string, error) {
	var secret string
	err := s.r.QueryRowContext(ctx, `SELECT secret FROM mail_in WHERE user_id = ?`, userID).Scan(&secret)
	if err == nil {
		return secret, nil
	}
	if !errors.Is(err, sql.ErrNoRows) {
		return "", fmt.Errorf("store: get mail-in secret: %w", err)
	}
	err = s.withTx(ctx, func(ctx context.Context, tx *txn) error {
		// Two first GETs at once: the second one's insert does nothing,
		// and both read the one secret.
		_, err := tx.ExecContext(ctx, `INSERT INTO mail_in (user_id, secret, created_at)
			SELECT id, ?, ? FROM users WHERE id = ? ON CONFLICT (user_id) DO NOTHING`,
			newMailInSecret(), s.now(), userID)
		if err != nil {
			return fmt.Errorf("store: create mail-in secret: %w", err)
		}
		err = tx.QueryRowContext(ctx, `SELECT secret FROM mail_in WHERE user_id = ?`, userID).Scan(&secret)
		if errors.Is(err, sql.ErrNoRows) {
			return ErrUserNotFound
		}
		return err
	})
	return secret, err
}

// RotateMailInSecret gives the user a new mail-in secret: the old address
// is refused from then on.
func (s *Store) RotateMailInSecret(ctx context.Context, userID int64) (string, error) {
	secret := newMailInSecret()
	err := s.withTx(ctx, func(ctx context.Context, tx *txn) error {
		_, err := tx.ExecContext(ctx, `INSERT INTO mail_in (user_id, secret, created_at)
			SELECT id, ?, ? FROM users WHERE id = ?
			ON CONFLICT (user_id) DO UPDATE SET secret = excluded.secret, created_at = excluded.created_at`,
			secret, s.now(), userID)
		if err != nil {
			return fmt.Errorf("store: rotate mail-in secret: %w", err)
		}
		var n int
		if err := tx.QueryRowContext(ctx, `SELECT count(*) FROM mail_in WHERE user_id = ? AND secret = ?`,
			userID, secret).Scan(&n); err != nil {
			return fmt.Errorf("store: rotate mail-in secret: %w", err)
		}
		if n == 0 {
			return ErrUserNotFound
		}
		return s.logAction(ctx, tx, "mail_in_rotation", "Replaced the mail-in address")
	})
	return secret, err
}

// MailInUserBySecret finds the user whose current secret this is, in any
// case; ErrUnknownMailIn when it is nobody's.
func (s *Store) MailInUserBySecret(ctx context.Context, secret string) (MailInUser, error) {
	var u MailInUser
	err := s.r.QueryRowContext(ctx, `SELECT u.id, u.account_id, u.timezone FROM mail_in m
		JOIN users u ON u.id = m.user_id WHERE m.secret = ?`, strings.ToLower(secret)).
		Scan(&u.UserID, &u.AccountID, &u.Timezone)
	if errors.Is(err, sql.ErrNoRows) {
		return MailInUser{}, ErrUnknownMailIn
	}
	if err != nil {
		return MailInUser{}, fmt.Errorf("store: find mail-in secret: %w", err)
	}
	return u, nil
}

// MailInKey is how the receiver and the index compare an email address:
// trimmed of spaces and lower case. SQLite's lower() folds ASCII letters
// only, so the key does too, and both engines match alike.
func MailInKey(addr string) string {
	b := []byte(strings.Trim(addr, " "))
	for i, c := range b {
		if 'A' <= c && c <= 'Z' {
			b[i] = c + 'a' - 'A'
		}
	}
	return string(b)
}

// LogEmailInteractions records, in one transaction, one email interaction
// on happenedOn with note for every person of the account who has an
// email contact detail equal to one of addrs (see MailInKey), once per
// person however many of addrs are theirs. It returns the persons, by id.
// The writes are logged as the actor's of ctx.
func (s *Store) LogEmailInteractions(ctx context.Context, accountID int64, addrs []string, happenedOn string, note *string) ([]int64, error) {
	keys := make([]any, 0, len(addrs))
	seen := make(map[string]bool, len(addrs))
	for _, a := range addrs {
		k := MailInKey(a)
		if k == "" || seen[k] {
			continue
		}
		seen[k] = true
		keys = append(keys, k)
		if len(keys) == MaxMailInAddresses {
			break
		}
	}
	persons := []int64{}
	if len(keys) == 0 {
		return persons, nil
	}
	err := s.withTx(ctx, func(ctx context.Context, tx *txn) error {
		now := s.now()
		args := append([]any{happenedOn, note, now, now, accountID, accountID}, keys...)
		err := eachRow(ctx, tx, `INSERT INTO interactions (account_id, person_id, happened_on, kind, note,
				created_at, updated_at)
			SELECT p.account_id, p.id, CAST(? AS TEXT), 'email', CAST(? AS TEXT), CAST(? AS BIGINT), CAST(? AS BIGINT)
			FROM persons p WHERE p.account_id = ? AND p.id IN (`+emailPersonsQuery(len(keys))+`)
			ORDER BY p.id
			RETURNING person_id`, args, func(sc scanner) error {
			var id int64
			err := sc.Scan(&id)
			persons = append(persons, id)
			return err
		})
		if err != nil {
			return fmt.Errorf("store: log email interactions: %w", err)
		}
		for _, id := range persons {
			if err := s.logForPerson(ctx, tx, accountID, id, "interaction_creation", "Logged an interaction with "); err != nil {
				return err
			}
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	return persons, nil
}

// emailPersonsQuery finds the persons of an account (the first parameter)
// with an email among n keys (the next ones). The index
// contact_details_email answers it: a lookup per key.
func emailPersonsQuery(n int) string {
	return `SELECT d.person_id FROM contact_details d
		WHERE d.account_id = ? AND d.kind = 'email' AND lower(trim(d.value)) IN (?` + strings.Repeat(", ?", n-1) + `)`
}
