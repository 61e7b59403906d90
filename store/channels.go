package store

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
)

// Errors of reminder channels.
var (
	ErrChannelNotFound = &NotFoundError{What: "channel"}
	// ErrEmailChannelTaken: a user has one email channel, to their own address.
	ErrEmailChannelTaken = errors.New("store: the user has an email channel already")
	// ErrTooManyChannels: the user has MaxChannels channels already.
	ErrTooManyChannels = fmt.Errorf("store: the user has %d channels already", MaxChannels)
)

// MaxChannels is how many channels a user may have, their email channel
// included. Each is a request a day, and up to 15 seconds of the
// scheduler's, for that user's digest: enough for a phone, a desktop and
// a few automations, not for a flood of them.
const MaxChannels = 10

// Channel is one place a user's daily digest goes.
type Channel struct {
	ID     int64
	UserID int64
	Kind   string // email, ntfy, gotify, webhook, telegram, pushover, matrix
	Name   *string
	// URL is ntfy's topic URL, Gotify's server, the webhook's target, the
	// Telegram, Pushover or Matrix server; nil for email, and for Telegram
	// and Pushover's public servers.
	URL *string
	// Token is ntfy's access token, Gotify's application token, the
	// webhook's signing key, Telegram's bot token, Pushover's application
	// token or Matrix's access token; it is never shown back after it is
	// set.
	Token *string
	// ChatID, UserKey and RoomID address a Telegram, Pushover and Matrix
	// message; nil for the other kinds.
	ChatID, UserKey, RoomID *string
	Enabled                 bool
	// DoneDay is the last day (YYYY-MM-DD in the user's zone) whose digest
	// the channel was given, or had nothing to give.
	DoneDay     *string
	FailDay     *string
	Failures    int64
	RetryAt     *int64
	LastSentAt  *int64
	LastError   *string
	LastErrorAt *int64
	CreatedAt   int64
	UpdatedAt   int64
}

// ChannelInput is what creating or replacing a channel takes. On update a
// nil Token keeps the one there.
type ChannelInput struct {
	Kind           string
	Name, URL      *string
	Token          *string
	Enabled        bool
	KeepOlderToken bool
	// ChatID, UserKey and RoomID are set for their kind only.
	ChatID, UserKey, RoomID *string
}

const channelColumns = `id, user_id, kind, name, url, token, enabled, done_day, fail_day, failures, retry_at,
	last_sent_at, last_error, last_error_at, created_at, updated_at, chat_id, user_key, room_id`

func scanChannel(sc scanner, ch *Channel) error {
	return sc.Scan(&ch.ID, &ch.UserID, &ch.Kind, &ch.Name, &ch.URL, &ch.Token, &ch.Enabled, &ch.DoneDay, &ch.FailDay,
		&ch.Failures, &ch.RetryAt, &ch.LastSentAt, &ch.LastError, &ch.LastErrorAt, &ch.CreatedAt, &ch.UpdatedAt,
		&ch.ChatID, &ch.UserKey, &ch.RoomID)
}

// Channels lists the user's channels, oldest first.
func (s *Store) Channels(ctx context.Context, userID int64) ([]Channel, error) {
	rows, err := s.r.QueryContext(ctx, `SELECT `+channelColumns+` FROM channels WHERE user_id = ? ORDER BY id`, userID)
	if err != nil {
		return nil, fmt.Errorf("store: list channels: %w", err)
	}
	defer rows.Close()
	out := []Channel{}
	for rows.Next() {
		var ch Channel
		if err := scanChannel(rows, &ch); err != nil {
			return nil, fmt.Errorf("store: scan channel: %w", err)
		}
		out = append(out, ch)
	}
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("store: list channels: %w", err)
	}
	return out, nil
}

// Channel returns one of the user's channels.
func (s *Store) Channel(ctx context.Context, userID, id int64) (Channel, error) {
	var ch Channel
	err := scanChannel(s.r.QueryRowContext(ctx, `SELECT `+channelColumns+` FROM channels WHERE id = ? AND user_id = ?`, id, userID), &ch)
	if errors.Is(err, sql.ErrNoRows) {
		return Channel{}, ErrChannelNotFound
	}
	if err != nil {
		return Channel{}, fmt.Errorf("store: get channel: %w", err)
	}
	return ch, nil
}

// CreateChannel adds a channel for the user, unless they have
// MaxChannels already (ErrTooManyChannels).
func (s *Store) CreateChannel(ctx context.Context, userID int64, in ChannelInput) (Channel, error) {
	var ch Channel
	err := s.withTx(ctx, func(ctx context.Context, tx *txn) error {
		// The user's row is locked first, so that on PostgreSQL two
		// creates at once count one after the other (SQLite has one
		// writer: the count is the transaction's).
		if _, err := tx.ExecContext(ctx, `UPDATE users SET updated_at = updated_at WHERE id = ?`, userID); err != nil {
			return fmt.Errorf("store: create channel: %w", err)
		}
		var n int
		if err := tx.QueryRowContext(ctx, `SELECT count(*) FROM channels WHERE user_id = ?`, userID).Scan(&n); err != nil {
			return fmt.Errorf("store: count channels: %w", err)
		}
		if n >= MaxChannels {
			return ErrTooManyChannels
		}
		now := s.now()
		err := scanChannel(tx.QueryRowContext(ctx, `INSERT INTO channels (user_id, kind, name, url, token, enabled, created_at, updated_at,
				chat_id, user_key, room_id)
			VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
			RETURNING `+channelColumns, userID, in.Kind, in.Name, in.URL, in.Token, in.Enabled, now, now,
			in.ChatID, in.UserKey, in.RoomID), &ch)
		if isUniqueViolation(err) {
			return ErrEmailChannelTaken
		}
		if isForeignKeyViolation(err) {
			return ErrUserNotFound
		}
		if err != nil {
			return fmt.Errorf("store: create channel: %w", err)
		}
		return nil
	})
	return ch, err
}

// UpdateChannel replaces the channel's settings. Its delivery record
// stays: a channel edited after today's digest does not get it twice.
func (s *Store) UpdateChannel(ctx context.Context, userID, id int64, in ChannelInput) (Channel, error) {
	var ch Channel
	err := s.withTx(ctx, func(ctx context.Context, tx *txn) error {
		err := scanChannel(tx.QueryRowContext(ctx, `UPDATE channels SET kind = ?, name = ?, url = ?,
				token = CASE WHEN CAST(? AS BOOLEAN) THEN coalesce(CAST(? AS TEXT), token) ELSE CAST(? AS TEXT) END,
				enabled = ?, updated_at = ?, chat_id = ?, user_key = ?, room_id = ?
			WHERE id = ? AND user_id = ?
			RETURNING `+channelColumns,
			in.Kind, in.Name, in.URL, in.KeepOlderToken, in.Token, in.Token, in.Enabled, s.now(),
			in.ChatID, in.UserKey, in.RoomID, id, userID), &ch)
		if errors.Is(err, sql.ErrNoRows) {
			return ErrChannelNotFound
		}
		if isUniqueViolation(err) {
			return ErrEmailChannelTaken
		}
		if err != nil {
			return fmt.Errorf("store: update channel: %w", err)
		}
		return nil
	})
	return ch, err
}

// DeleteChannel deletes one of the user's channels.
func (s *Store) DeleteChannel(ctx context.Context, userID, id int64) error {
	return s.withTx(ctx, func(ctx context.Context, tx *txn) error {
		res, err := tx.ExecContext(ctx, `DELETE FROM channels WHERE id = ? AND user_id = ?`, id, userID)
		if err != nil {
			return fmt.Errorf("store: delete channel: %w", err)
		}
		return mustAffect(res, ErrChannelNotFound)
	})
}

// addEmailChannel gives a new user the email channel every user starts
// with.
func addEmailChannel(ctx context.Context, tx *txn, userID, now int64) error {
	if _, err := tx.ExecContext(ctx, `INSERT INTO channels (user_id, kind, created_at, updated_at) VALUES (?, 'email', ?, ?)`,
		userID, now, now); err != nil {
		return fmt.Errorf("store: add email channel: %w", err)
	}
	return nil
}
