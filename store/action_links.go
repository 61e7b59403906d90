package store

import (
	"context"
	"crypto/rand"
	"database/sql"
	"errors"
	"fmt"
)

// What an action link does (ActionLink.Do).
const (
	ActionMarkDone = "done"
	ActionLogCall  = "call"
	ActionSnooze   = "snooze"
)

// ActionLinkLife is how long an action link works, in seconds: 7 days
// from the digest that carries it.
const ActionLinkLife = 7 * 24 * 60 * 60

// ErrActionLinkUsed is UseActionLink's answer for a link that already did
// its action.
var ErrActionLinkUsed = errors.New("store: action link already used")

// ActionLink is one use of a digest's action link: the user whose digest
// it was in, what it does, and to what.
type ActionLink struct {
	// Hash is the SHA-256 of the link's token, what makes it single use.
	Hash   []byte
	UserID int64
	Do     string
	// TaskID is the task ActionMarkDone completes.
	TaskID int64
	// PersonID is the person ActionLogCall logs a call with.
	PersonID int64
	// Day is the call's day (the user's today) for ActionLogCall, the
	// occurrence's day for ActionSnooze, YYYY-MM-DD.
	Day string
	// Kind and RefID name the snoozed item: its digest kind and its row.
	Kind  string
	RefID int64
}

// ActionSecret is the key action links are signed with, the same for
// every server on the database: the first to ask makes it.
func (s *Store) ActionSecret(ctx context.Context) ([]byte, error) {
	var key []byte
	err := s.r.QueryRowContext(ctx, `SELECT value FROM server_secrets WHERE name = 'action_links'`).Scan(&key)
	if err == nil {
		return key, nil
	}
	if !errors.Is(err, sql.ErrNoRows) {
		return nil, fmt.Errorf("store: read action secret: %w", err)
	}
	fresh := make([]byte, 32)
	rand.Read(fresh)
	err = s.withTx(ctx, func(ctx context.Context, tx *txn) error {
		if _, err := tx.ExecContext(ctx, `INSERT INTO server_secrets (name, value) VALUES ('action_links', ?)
			ON CONFLICT (name) DO NOTHING`, fresh); err != nil {
			return fmt.Errorf("store: make action secret: %w", err)
		}
		// Another server may have made it first: its key wins.
		return tx.QueryRowContext(ctx, `SELECT value FROM server_secrets WHERE name = 'action_links'`).Scan(&key)
	})
	return key, err
}

// ActionLinkUsed reports whether the link of hash did its action already.
func (s *Store) ActionLinkUsed(ctx context.Context, hash []byte) (bool, error) {
	var n int
	err := s.r.QueryRowContext(ctx, `SELECT count(*) FROM action_links_used WHERE token_hash = ?`, hash).Scan(&n)
	if err != nil {
		return false, fmt.Errorf("store: read action link: %w", err)
	}
	return n > 0, nil
}

// UseActionLink does a link's action as its user, in their account, and
// marks the link used, in one transaction: a link used already is
// ErrActionLinkUsed and changes nothing; a task or person gone since is
// ErrTaskNotFound or ErrPersonNotFound and leaves the link usable; a user
// gone is ErrUserNotFound.
func (s *Store) UseActionLink(ctx context.Context, a ActionLink) error {
	ctx = WithActor(ctx, a.UserID)
	return s.withTx(ctx, func(ctx context.Context, tx *txn) error {
		var accountID int64
		err := tx.QueryRowContext(ctx, `SELECT account_id FROM users WHERE id = ?`, a.UserID).Scan(&accountID)
		if errors.Is(err, sql.ErrNoRows) {
			return ErrUserNotFound
		}
		if err != nil {
			return fmt.Errorf("store: action link's user: %w", err)
		}
		if err := s.pruneActionLinks(ctx, tx); err != nil {
			return err
		}
		_, err = tx.ExecContext(ctx, `INSERT INTO action_links_used (token_hash, user_id, used_at) VALUES (?, ?, ?)`,
			a.Hash, a.UserID, s.now())
		if isUniqueViolation(err) {
			return ErrActionLinkUsed
		}
		if err != nil {
			return fmt.Errorf("store: mark action link used: %w", err)
		}
		switch a.Do {
		case ActionMarkDone:
			return s.markDone(ctx, tx, accountID, a.TaskID)
		case ActionLogCall:
			_, err := s.createInteraction(ctx, tx, accountID, a.PersonID, InteractionInput{HappenedOn: a.Day, Kind: "call"})
			return err
		case ActionSnooze:
			return s.snooze(ctx, tx, a)
		}
		return fmt.Errorf("store: unknown action %q", a.Do)
	})
}

// snoozeKept is how long a snooze is kept, in seconds: its occurrence is
// at most a digest's days ahead of a link that lives a week, and shows a
// week after that; 60 days is well past all three.
const snoozeKept = 60 * 24 * 60 * 60

// pruneActionLinks forgets used links that have expired anyway, and
// snoozes long shown: what a use writes, its uses clear, so the tables
// stay the size of a few weeks' digests.
func (s *Store) pruneActionLinks(ctx context.Context, tx *txn) error {
	now := s.now()
	if _, err := tx.ExecContext(ctx, `DELETE FROM action_links_used WHERE used_at < ?`, now-ActionLinkLife); err != nil {
		return fmt.Errorf("store: prune used action links: %w", err)
	}
	if _, err := tx.ExecContext(ctx, `DELETE FROM snoozes WHERE created_at < ?`, now-snoozeKept); err != nil {
		return fmt.Errorf("store: prune snoozes: %w", err)
	}
	return nil
}

// markDone completes a task of the account; one completed already stays
// as it is, its completed_at too.
func (s *Store) markDone(ctx context.Context, tx *txn, accountID, taskID int64) error {
	now := s.now()
	var name string
	var done bool
	err := tx.QueryRowContext(ctx, `SELECT name, is_completed FROM tasks WHERE id = ? AND account_id = ?`,
		taskID, accountID).Scan(&name, &done)
	if errors.Is(err, sql.ErrNoRows) {
		return ErrTaskNotFound
	}
	if err != nil {
		return fmt.Errorf("store: read task: %w", err)
	}
	if done {
		return nil
	}
	if _, err := tx.ExecContext(ctx, `UPDATE tasks SET is_completed = TRUE, completed_at = ?, updated_at = ?
		WHERE id = ? AND account_id = ?`, now, now, taskID, accountID); err != nil {
		return fmt.Errorf("store: complete task: %w", err)
	}
	return s.logAction(ctx, tx, "task_toggle", "Completed a task called "+name)
}

// snooze moves one occurrence of an item a week on, for the user only.
func (s *Store) snooze(ctx context.Context, tx *txn, a ActionLink) error {
	_, err := tx.ExecContext(ctx, `INSERT INTO snoozes (user_id, kind, ref_id, occurs_on, created_at)
		VALUES (?, ?, ?, ?, ?) ON CONFLICT (user_id, kind, ref_id, occurs_on) DO NOTHING`,
		a.UserID, a.Kind, a.RefID, a.Day, s.now())
	if err != nil {
		return fmt.Errorf("store: snooze: %w", err)
	}
	return nil
}

// Snooze is an occurrence a user moved a week on.
type Snooze struct {
	Kind     string
	RefID    int64
	OccursOn string // YYYY-MM-DD, the day it would have fallen on
}

// Snoozes lists the user's snoozed occurrences from day from on.
func (s *Store) Snoozes(ctx context.Context, userID int64, from string) ([]Snooze, error) {
	rows, err := s.r.QueryContext(ctx, `SELECT kind, ref_id, occurs_on FROM snoozes
		WHERE user_id = ? AND occurs_on >= ? ORDER BY occurs_on, id`, userID, from)
	if err != nil {
		return nil, fmt.Errorf("store: list snoozes: %w", err)
	}
	defer rows.Close()
	out := []Snooze{}
	for rows.Next() {
		var z Snooze
		if err := rows.Scan(&z.Kind, &z.RefID, &z.OccursOn); err != nil {
			return nil, fmt.Errorf("store: scan snooze: %w", err)
		}
		out = append(out, z)
	}
	return out, rows.Err()
}
