package store

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"
)

// WebSessionLife is how long a web sign-in lasts, in seconds: 30 days.
const WebSessionLife = 30 * 24 * 60 * 60

// webSeenEvery is how stale a session's last_seen_at may get, in seconds:
// writing it on every page would put each read behind the single writer,
// and "seen 3 minutes ago" tells a person as much as "just now".
const webSeenEvery = 5 * 60

// Longest kept of what a browser says about itself: a User-Agent is a few
// hundred bytes at most from any real browser, and anything longer is
// someone filling the table.
const (
	maxUserAgent = 512
	maxClientIP  = 64
)

// ErrWebSessionNotFound is a web session that is not one of the user's,
// or no longer is.
var ErrWebSessionNotFound = &NotFoundError{What: "web session"}

// WebClient is the browser a session is made or used from, as the request
// shows it: its User-Agent and its address (the server's idea of it, which
// trusts a proxy's X-Forwarded-For only when configured to).
type WebClient struct {
	UserAgent string
	IP        string
}

// WebSession is one of a user's web sign-ins, without its secret.
type WebSession struct {
	ID         int64
	UserAgent  string
	CreatedIP  string
	LastSeenIP string
	CreatedAt  int64
	LastSeenAt int64
	ExpiresAt  int64
}

const webSessionColumns = `id, user_agent, created_ip, last_seen_ip, created_at, last_seen_at, expires_at`

func scanWebSession(sc scanner, w *WebSession) error {
	return sc.Scan(&w.ID, &w.UserAgent, &w.CreatedIP, &w.LastSeenIP, &w.CreatedAt, &w.LastSeenAt, &w.ExpiresAt)
}

// CreateWebSession signs the user in to the web app from the client and
// returns the cookie's value, "<id>|<secret>", which exists nowhere else
// after this call. The user's expired sessions go at the same time.
func (s *Store) CreateWebSession(ctx context.Context, userID int64, from WebClient) (string, error) {
	secret := newSecret()
	ua, ip := clientText(from.UserAgent, maxUserAgent), clientText(from.IP, maxClientIP)
	var id int64
	err := s.withTx(ctx, func(ctx context.Context, tx *txn) error {
		now := s.now()
		if _, err := tx.ExecContext(ctx, `DELETE FROM web_sessions WHERE user_id = ? AND expires_at <= ?`, userID, now); err != nil {
			return fmt.Errorf("store: prune web sessions: %w", err)
		}
		err := tx.QueryRowContext(ctx, `INSERT INTO web_sessions
			(user_id, secret_hash, created_at, expires_at, user_agent, created_ip, last_seen_ip, last_seen_at)
			VALUES (?, ?, ?, ?, ?, ?, ?, ?) RETURNING id`,
			userID, hashSecret(secret), now, now+WebSessionLife, ua, ip, ip, now).Scan(&id)
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

// clientText is what a client said, made fit to keep: valid UTF-8 (which
// PostgreSQL's text insists on) without control characters, at most max
// bytes, cut between characters.
func clientText(s string, max int) string {
	s = strings.Map(func(r rune) rune {
		if unicode.IsControl(r) {
			return -1
		}
		return r
	}, strings.ToValidUTF8(s, ""))
	if len(s) <= max {
		return s
	}
	cut := max
	for cut > 0 && !utf8.RuneStart(s[cut]) {
		cut--
	}
	return s[:cut]
}

// WebSession returns the session of a cookie's value, as Authenticate does
// for a key: one lookup by primary key, then a constant-time comparison of
// the secret's hash. An expired session is ErrUnauthenticated. KeyID is
// the web session's id and LastUsedAt its last_seen_at.
func (s *Store) WebSession(ctx context.Context, token string) (Session, error) {
	id, secret, ok := parseToken(token)
	if !ok {
		return Session{}, ErrUnauthenticated
	}
	var sess Session
	var hash []byte
	var verifiedAt *int64
	var seen int64
	err := s.r.QueryRowContext(ctx, `SELECT w.secret_hash, w.last_seen_at, u.id, u.account_id, u.timezone, u.email_verified_at, u.email
		FROM web_sessions w JOIN users u ON u.id = w.user_id
		WHERE w.id = ? AND w.expires_at > ?`, id, s.now()).Scan(&hash, &seen, &sess.UserID, &sess.AccountID, &sess.Timezone, &verifiedAt, &sess.Email)
	sess.LastUsedAt = &seen
	return checkSession(err, id, sess, hash, hashSecret(secret), verifiedAt)
}

// WebSessionStale reports whether a web session's last_seen_at is old
// enough to be written again (TouchWebSession).
func (s *Store) WebSessionStale(sess Session) bool {
	return sess.LastUsedAt == nil || s.now()-*sess.LastUsedAt >= webSeenEvery
}

// TouchWebSession records that the session was seen now, from ip. The
// WHERE clause keeps concurrent pages of one session to one write.
func (s *Store) TouchWebSession(ctx context.Context, id int64, ip string) error {
	return s.withTx(ctx, func(ctx context.Context, tx *txn) error {
		now := s.now()
		_, err := tx.ExecContext(ctx, `UPDATE web_sessions SET last_seen_at = ?, last_seen_ip = ?
			WHERE id = ? AND last_seen_at <= ?`, now, clientText(ip, maxClientIP), id, now-webSeenEvery)
		if err != nil {
			return fmt.Errorf("store: touch web session: %w", err)
		}
		return nil
	})
}

// WebSessions lists the user's live sessions, the most recently seen first.
func (s *Store) WebSessions(ctx context.Context, userID int64) ([]WebSession, error) {
	rows, err := s.r.QueryContext(ctx, `SELECT `+webSessionColumns+` FROM web_sessions
		WHERE user_id = ? AND expires_at > ? ORDER BY last_seen_at DESC, id DESC`, userID, s.now())
	if err != nil {
		return nil, fmt.Errorf("store: list web sessions: %w", err)
	}
	defer rows.Close()
	out := []WebSession{}
	for rows.Next() {
		var w WebSession
		if err := scanWebSession(rows, &w); err != nil {
			return nil, fmt.Errorf("store: scan web session: %w", err)
		}
		out = append(out, w)
	}
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("store: list web sessions: %w", err)
	}
	return out, nil
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

// RevokeWebSession signs out one of the user's live sessions from another
// (Settings → Security) and returns it. Unlike DeleteWebSession, a session
// that is not the user's, or has ended, is ErrWebSessionNotFound: the page
// says so.
func (s *Store) RevokeWebSession(ctx context.Context, userID, id int64) (WebSession, error) {
	var w WebSession
	err := s.withTx(ctx, func(ctx context.Context, tx *txn) error {
		err := scanWebSession(tx.QueryRowContext(ctx, `DELETE FROM web_sessions WHERE id = ? AND user_id = ? AND expires_at > ?
			RETURNING `+webSessionColumns, id, userID, s.now()), &w)
		if errors.Is(err, sql.ErrNoRows) {
			return ErrWebSessionNotFound
		}
		if err != nil {
			return fmt.Errorf("store: revoke web session: %w", err)
		}
		return nil
	})
	return w, err
}

// RevokeOtherWebSessions signs out every session of the user's but keep,
// and returns how many it ended.
func (s *Store) RevokeOtherWebSessions(ctx context.Context, userID, keep int64) (int64, error) {
	var n int64
	err := s.withTx(ctx, func(ctx context.Context, tx *txn) error {
		res, err := tx.ExecContext(ctx, `DELETE FROM web_sessions WHERE user_id = ? AND id <> ? AND expires_at > ?`, userID, keep, s.now())
		if err != nil {
			return fmt.Errorf("store: revoke other web sessions: %w", err)
		}
		n, err = res.RowsAffected()
		return err
	})
	return n, err
}
