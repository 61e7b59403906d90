package store

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
)

// DefaultReminderDays is how many days ahead a digest looks when the user
// has not said.
const DefaultReminderDays = 7

// ReminderSettings are a user's digest settings.
type ReminderSettings struct {
	// SendAt is "HH:MM" in the user's zone; nil is the server's default.
	SendAt *string
	// Days is how many days after today the digest's dates reach.
	Days int64
}

// ReminderSettings returns the user's settings, or the defaults.
func (s *Store) ReminderSettings(ctx context.Context, userID int64) (ReminderSettings, error) {
	rs := ReminderSettings{Days: DefaultReminderDays}
	err := s.r.QueryRowContext(ctx, `SELECT send_at, days FROM reminder_settings WHERE user_id = ?`, userID).Scan(&rs.SendAt, &rs.Days)
	if err != nil && !errors.Is(err, sql.ErrNoRows) {
		return rs, fmt.Errorf("store: reminder settings: %w", err)
	}
	return rs, nil
}

// SetReminderSettings replaces the user's settings.
func (s *Store) SetReminderSettings(ctx context.Context, userID int64, rs ReminderSettings) error {
	return s.withTx(ctx, func(ctx context.Context, tx *txn) error {
		_, err := tx.ExecContext(ctx, `INSERT INTO reminder_settings (user_id, send_at, days, updated_at) VALUES (?, ?, ?, ?)
			ON CONFLICT (user_id) DO UPDATE SET send_at = excluded.send_at, days = excluded.days, updated_at = excluded.updated_at`,
			userID, rs.SendAt, rs.Days, s.now())
		if isForeignKeyViolation(err) {
			return ErrUserNotFound
		}
		if err != nil {
			return fmt.Errorf("store: set reminder settings: %w", err)
		}
		return nil
	})
}

// ReminderTarget is a user with channels to send a digest to.
type ReminderTarget struct {
	UserID, AccountID int64
	Email, FirstName  string
	Timezone          string
	Verified          bool
	Settings          ReminderSettings
	Channels          []Channel // enabled ones, oldest first
}

// ReminderTargets lists every user with an enabled channel, in one query:
// the scheduler asks every minute.
func (s *Store) ReminderTargets(ctx context.Context) ([]ReminderTarget, error) {
	rows, err := s.r.QueryContext(ctx, `SELECT u.id, u.account_id, u.email, u.first_name, u.timezone,
			u.email_verified_at, rs.send_at, coalesce(rs.days, `+fmt.Sprint(DefaultReminderDays)+`),
			c.id, c.user_id, c.kind, c.name, c.url, c.token, c.enabled, c.done_day, c.fail_day, c.failures, c.retry_at,
			c.last_sent_at, c.last_error, c.last_error_at, c.created_at, c.updated_at, c.chat_id, c.user_key, c.room_id
		FROM channels c
		JOIN users u ON u.id = c.user_id
		LEFT JOIN reminder_settings rs ON rs.user_id = u.id
		WHERE c.enabled
		ORDER BY u.id, c.id`)
	if err != nil {
		return nil, fmt.Errorf("store: reminder targets: %w", err)
	}
	defer rows.Close()
	var out []ReminderTarget
	for rows.Next() {
		var t ReminderTarget
		var verifiedAt *int64
		var ch Channel
		dest := []any{&t.UserID, &t.AccountID, &t.Email, &t.FirstName, &t.Timezone, &verifiedAt, &t.Settings.SendAt, &t.Settings.Days}
		if err := scanChannel(extraScanner{rows, dest}, &ch); err != nil {
			return nil, fmt.Errorf("store: scan reminder target: %w", err)
		}
		if n := len(out); n > 0 && out[n-1].UserID == t.UserID {
			out[n-1].Channels = append(out[n-1].Channels, ch)
			continue
		}
		t.Verified = verifiedAt != nil
		t.Channels = []Channel{ch}
		out = append(out, t)
	}
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("store: reminder targets: %w", err)
	}
	return out, nil
}

// extraScanner scans columns into before, then the rest into what Scan
// is given: one row holds a user and one of their channels.
type extraScanner struct {
	sc     scanner
	before []any
}

func (e extraScanner) Scan(dest ...any) error { return e.sc.Scan(append(e.before, dest...)...) }

// ChannelDelivered records that the channel accepted day's digest at at:
// from now on no pass sends it that day's again.
func (s *Store) ChannelDelivered(ctx context.Context, id int64, day string, at int64) error {
	return s.channelWrite(ctx, `UPDATE channels SET done_day = ?, last_sent_at = ?, failures = 0, fail_day = NULL,
		retry_at = NULL, claimed_until = NULL, last_error = NULL, last_error_at = NULL WHERE id = ?`, day, at, id)
}

// ChannelIdle records that day's digest had nothing for the channel.
func (s *Store) ChannelIdle(ctx context.Context, id int64, day string) error {
	return s.channelWrite(ctx, `UPDATE channels SET done_day = ?, failures = 0, fail_day = NULL, retry_at = NULL, claimed_until = NULL WHERE id = ?`, day, id)
}

// ChannelFailed records a failed try at day's digest: the next waits
// until retryAt, or, when giveUp, none comes that day.
func (s *Store) ChannelFailed(ctx context.Context, id int64, day, msg string, at, retryAt int64, giveUp bool) error {
	return s.channelWrite(ctx, `UPDATE channels SET
			failures = CASE WHEN fail_day = ? THEN failures + 1 ELSE 1 END, fail_day = ?,
			retry_at = ?, claimed_until = NULL, last_error = ?, last_error_at = ?,
			done_day = CASE WHEN CAST(? AS BOOLEAN) THEN CAST(? AS TEXT) ELSE done_day END
		WHERE id = ?`, day, day, retryAt, msg, at, giveUp, day, id)
}

func (s *Store) channelWrite(ctx context.Context, query string, args ...any) error {
	return s.withTx(ctx, func(ctx context.Context, tx *txn) error {
		if _, err := tx.ExecContext(ctx, query, args...); err != nil {
			return fmt.Errorf("store: record delivery: %w", err)
		}
		return nil
	})
}

// ClaimChannel takes the channel for a send of day's digest until until,
// unless it has had that day's or another server holds it: with several
// servers on one database, one sends.
func (s *Store) ClaimChannel(ctx context.Context, id int64, day string, now, until int64) (bool, error) {
	var ok bool
	err := s.withTx(ctx, func(ctx context.Context, tx *txn) error {
		res, err := tx.ExecContext(ctx, `UPDATE channels SET claimed_until = ?
			WHERE id = ? AND enabled AND (done_day IS NULL OR done_day < ?) AND (claimed_until IS NULL OR claimed_until <= ?)`,
			until, id, day, now)
		if err != nil {
			return fmt.Errorf("store: claim channel: %w", err)
		}
		n, err := res.RowsAffected()
		ok = n == 1
		return err
	})
	return ok, err
}
