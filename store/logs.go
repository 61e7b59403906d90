package store

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
)

// ErrLogNotFound reports a log entry that is not the user's.
var ErrLogNotFound = &NotFoundError{What: "log"}

// Log is one action of a user. Name is the user's name when read.
type Log struct {
	ID          int64
	UserID      int64
	Name        string
	Action      string
	Description string
	CreatedAt   int64
	UpdatedAt   int64
}

type actorKey struct{}

// WithActor returns ctx carrying the user who acts: the writes made with
// it are logged as that user's. Without an actor (the command line, setup)
// nothing is logged.
func WithActor(ctx context.Context, userID int64) context.Context {
	return context.WithValue(ctx, actorKey{}, userID)
}

// WithoutActor returns ctx without an actor, for the writes that are no
// user's logged action (login, logout).
func WithoutActor(ctx context.Context) context.Context {
	return context.WithValue(ctx, actorKey{}, nil)
}

func actor(ctx context.Context) (int64, bool) {
	id, ok := ctx.Value(actorKey{}).(int64)
	return id, ok
}

// logAction records, inside the write's own transaction, that the acting
// user of ctx did action; it does nothing without an actor.
func (s *Store) logAction(ctx context.Context, tx *txn, action, description string) error {
	userID, ok := actor(ctx)
	if !ok {
		return nil
	}
	now := s.now()
	_, err := tx.ExecContext(ctx, `INSERT INTO logs (account_id, user_id, action, description, created_at, updated_at)
		SELECT account_id, id, CAST(? AS TEXT), CAST(? AS TEXT), CAST(? AS BIGINT), CAST(? AS BIGINT) FROM users WHERE id = ?`,
		action, description, now, now, userID)
	if err != nil {
		return fmt.Errorf("store: log %s: %w", action, err)
	}
	return nil
}

const logColumns = `l.id, l.user_id, u.first_name, u.last_name, l.action, l.description, l.created_at, l.updated_at`

func scanLog(sc scanner, l *Log) error {
	var first, last string
	if err := sc.Scan(&l.ID, &l.UserID, &first, &last, &l.Action, &l.Description, &l.CreatedAt, &l.UpdatedAt); err != nil {
		return err
	}
	l.Name = FullName(first, &last)
	return nil
}

// Logs returns one page of the user's own log entries, newest first
// (created_at, then id, descending), and how many the user has in all,
// which log_counts keeps (migration 0041).
func (s *Store) Logs(ctx context.Context, userID, limit, offset int64) ([]Log, int64, error) {
	tx, err := s.r.BeginTx(ctx, &sql.TxOptions{ReadOnly: true}) // one snapshot for the page and its total
	if err != nil {
		return nil, 0, fmt.Errorf("store: list logs: %w", err)
	}
	defer tx.end(ctx, false)
	var total int64
	if err := tx.QueryRowContext(ctx, `SELECT coalesce((SELECT logs FROM log_counts WHERE user_id = ?), 0)`, userID).Scan(&total); err != nil {
		return nil, 0, fmt.Errorf("store: count logs: %w", err)
	}
	rows, err := tx.QueryContext(ctx, `SELECT `+logColumns+` FROM logs l JOIN users u ON u.id = l.user_id
		WHERE l.user_id = ? ORDER BY l.created_at DESC, l.id DESC LIMIT ? OFFSET ?`, userID, limit, offset)
	if err != nil {
		return nil, 0, fmt.Errorf("store: list logs: %w", err)
	}
	defer rows.Close()
	logs := []Log{}
	for rows.Next() {
		var l Log
		if err := scanLog(rows, &l); err != nil {
			return nil, 0, fmt.Errorf("store: scan log: %w", err)
		}
		logs = append(logs, l)
	}
	if err := rows.Err(); err != nil {
		return nil, 0, fmt.Errorf("store: list logs: %w", err)
	}
	return logs, total, nil
}

// Log returns one of the user's own log entries.
func (s *Store) Log(ctx context.Context, userID, id int64) (Log, error) {
	var l Log
	err := scanLog(s.r.QueryRowContext(ctx, `SELECT `+logColumns+` FROM logs l JOIN users u ON u.id = l.user_id
		WHERE l.id = ? AND l.user_id = ?`, id, userID), &l)
	if errors.Is(err, sql.ErrNoRows) {
		return Log{}, ErrLogNotFound
	}
	if err != nil {
		return Log{}, fmt.Errorf("store: get log: %w", err)
	}
	return l, nil
}

// logForPerson logs action with the description that the person's name,
// read in the same transaction, completes.
func (s *Store) logForPerson(ctx context.Context, tx *txn, accountID, personID int64, action, description string) error {
	if _, ok := actor(ctx); !ok {
		return nil
	}
	var first string
	var last *string
	err := tx.QueryRowContext(ctx, `SELECT first_name, last_name FROM persons WHERE id = ? AND account_id = ?`,
		personID, accountID).Scan(&first, &last)
	if err != nil {
		return fmt.Errorf("store: log %s: %w", action, err)
	}
	return s.logAction(ctx, tx, action, description+FullName(first, last))
}
