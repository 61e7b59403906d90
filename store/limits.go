package store

import (
	"context"
	"fmt"
	"strconv"
	"time"
)

// The counts of rate limits and login throttles, in the database so that
// every server on it counts together (see migration 0015). Each call is
// one statement outside any transaction: a request pays one round trip for
// its limit. Times are the store's clock in Unix milliseconds. A bucket
// holds token-milliseconds (the millis column): a token is 60,000 of them
// and perMinute come back each millisecond, so a refill needs no division
// and nothing is lost however often a key is used.

// Bucket is what one request got from its key's bucket.
type Bucket struct {
	Allowed    bool
	Remaining  int
	RetryAfter time.Duration // when refused: until a whole token is back
}

// TakeToken takes one token from key's bucket of perMinute tokens, which
// refills continuously and starts full.
func (s *Store) TakeToken(ctx context.Context, key string, perMinute int) (Bucket, error) {
	now := s.Now().UnixMilli()
	var millis int64
	var allowed bool
	err := s.w.QueryRowContext(ctx, `INSERT INTO rate_buckets AS b (key, millis, at_ms, allowed)
		VALUES (?, CAST(? AS BIGINT), CAST(? AS BIGINT), TRUE) `+takeToken,
		append([]any{key, int64(perMinute)*tokenUnits - tokenUnits, now}, takeArgs(perMinute)...)...).Scan(&millis, &allowed)
	if err != nil {
		return Bucket{}, fmt.Errorf("store: take a token: %w", err)
	}
	return s.bucket(ctx, now, perMinute, millis, allowed), nil
}

// takeToken is the rest of the upsert of a new bucket row: one statement
// decides, so that two servers taking the last token cannot both get it.
// avail is the bucket refilled up to now, at most full (takeArgs).
// A server whose clock is behind the row's refills nothing and leaves
// at_ms where it was, rather than taking tokens back.
const takeToken = `ON CONFLICT (key) DO UPDATE SET
			millis = CASE WHEN ` + avail + ` >= 60000 THEN ` + avail + ` - 60000 ELSE ` + avail + ` END,
			allowed = ` + avail + ` >= 60000,
			at_ms = CASE WHEN EXCLUDED.at_ms > b.at_ms THEN EXCLUDED.at_ms ELSE b.at_ms END
		RETURNING millis, allowed`

// tokenUnits is one token in token-milliseconds.
const tokenUnits = 60000

const avail = `CASE WHEN b.millis + ` + elapsed + ` * CAST(? AS BIGINT) > CAST(? AS BIGINT) THEN CAST(? AS BIGINT)
		ELSE b.millis + ` + elapsed + ` * CAST(? AS BIGINT) END`

const elapsed = `(CASE WHEN EXCLUDED.at_ms > b.at_ms THEN EXCLUDED.at_ms - b.at_ms ELSE 0 END)`

// takeArgs are takeToken's parameters: avail's, four times.
func takeArgs(perMinute int) []any {
	per, full := int64(perMinute), int64(perMinute)*tokenUnits
	var args []any
	for range 4 {
		args = append(args, per, full, full, per)
	}
	return args
}

// bucket is what a request got, from the row it left.
func (s *Store) bucket(ctx context.Context, now int64, perMinute int, millis int64, allowed bool) Bucket {
	b := Bucket{Allowed: allowed, Remaining: int(millis / tokenUnits)}
	if !allowed {
		b.RetryAfter = time.Duration((tokenUnits-millis+int64(perMinute)-1)/int64(perMinute)) * time.Millisecond
	}
	go s.pruneLimits(context.WithoutCancel(ctx), now) // off the request's time
	return b
}

// AuthenticateTaking is Authenticate and, for a valid key, TakeToken of
// its user's bucket ("user:<id>"), in one round trip on PostgreSQL: a
// request with a key pays nothing for a shared limit but the statement's
// work. taken is false when no token was asked for (an invalid key).
func (s *Store) AuthenticateTaking(ctx context.Context, token string, perMinute int) (sess Session, b Bucket, taken bool, err error) {
	sess, err = s.authenticate(token, func(id int64, want []byte) (Session, error) {
		pg, ok := s.eng.(postgresEngine)
		if !ok {
			return s.lookupKey(ctx, id, want)
		}
		var sess Session
		var err error
		sess, b, taken, err = pg.authenticateTaking(ctx, s, id, want, perMinute)
		return sess, err
	})
	if err != nil || taken {
		return sess, b, taken, err
	}
	// From the key cache, or SQLite's lookup: the token is a statement of
	// its own.
	b, err = s.TakeToken(ctx, "user:"+strconv.FormatInt(sess.UserID, 10), perMinute)
	return sess, b, err == nil, err
}

// Failures is what a key's failures are now.
type Failures struct {
	Count int64
	Until time.Time // the window's end (CountFailure), or a block's (BlockFailures)
}

// CountFailure counts one failure of key, in a window of its own that the
// first failure opens and that lasts window (sinceLast false), or that
// each failure renews (sinceLast true: a count forgotten after window
// without a failure).
func (s *Store) CountFailure(ctx context.Context, kind, key string, window time.Duration, sinceLast bool) (Failures, error) {
	now := s.Now().UnixMilli()
	w := window.Milliseconds()
	var f Failures
	var until int64
	err := s.w.QueryRowContext(ctx, `INSERT INTO rate_failures AS f (kind, key, count, first_ms, last_ms, until_ms)
		VALUES (?, ?, 1, CAST(? AS BIGINT), CAST(? AS BIGINT), CAST(? AS BIGINT))
		ON CONFLICT (kind, key) DO UPDATE SET
			count = CASE WHEN (CASE WHEN CAST(? AS BOOLEAN) THEN f.last_ms + CAST(? AS BIGINT) ELSE f.until_ms END) <= EXCLUDED.last_ms
				THEN 1 ELSE f.count + 1 END,
			first_ms = CASE WHEN (CASE WHEN CAST(? AS BOOLEAN) THEN f.last_ms + CAST(? AS BIGINT) ELSE f.until_ms END) <= EXCLUDED.last_ms
				THEN EXCLUDED.first_ms ELSE f.first_ms END,
			until_ms = CASE WHEN CAST(? AS BOOLEAN) THEN f.until_ms
				WHEN f.until_ms <= EXCLUDED.last_ms THEN EXCLUDED.until_ms ELSE f.until_ms END,
			last_ms = EXCLUDED.last_ms
		RETURNING count, until_ms`,
		kind, key, now, now, windowEnd(now, w, sinceLast),
		sinceLast, w, sinceLast, w, sinceLast).Scan(&f.Count, &until)
	if err != nil {
		return Failures{}, fmt.Errorf("store: count a failure: %w", err)
	}
	// Failures are counted with the limit off too (logins), so they prune
	// as well as the buckets do.
	go s.pruneLimits(context.WithoutCancel(ctx), now)
	f.Until = time.UnixMilli(until)
	return f, nil
}

// windowEnd is where a new row's until_ms starts: the window's end, or
// for counts since the last failure, no block yet.
func windowEnd(now, window int64, sinceLast bool) int64 {
	if sinceLast {
		return 0
	}
	return now + window
}

// BlockFailures blocks key until until.
func (s *Store) BlockFailures(ctx context.Context, kind, key string, until time.Time) error {
	_, err := s.w.ExecContext(ctx, `UPDATE rate_failures SET until_ms = CAST(? AS BIGINT) WHERE kind = ? AND key = ?`,
		until.UnixMilli(), kind, key)
	if err != nil {
		return fmt.Errorf("store: block: %w", err)
	}
	return nil
}

// FailuresOf returns key's failures; none is a zero count.
func (s *Store) FailuresOf(ctx context.Context, kind, key string) (Failures, error) {
	var f Failures
	var until int64
	err := s.r.QueryRowContext(ctx, `SELECT coalesce(max(count), 0), coalesce(max(until_ms), 0) FROM rate_failures
		WHERE kind = ? AND key = ?`, kind, key).Scan(&f.Count, &until)
	if err != nil {
		return Failures{}, fmt.Errorf("store: read failures: %w", err)
	}
	f.Until = time.UnixMilli(until)
	return f, nil
}

// ClearFailures forgets key's failures, as after a success.
func (s *Store) ClearFailures(ctx context.Context, kind, key string) error {
	if _, err := s.w.ExecContext(ctx, `DELETE FROM rate_failures WHERE kind = ? AND key = ?`, kind, key); err != nil {
		return fmt.Errorf("store: clear failures: %w", err)
	}
	return nil
}

// pruneEvery is how often a server prunes the counts: a bucket unused for
// a minute is full again, and failures are forgotten well within an hour.
const pruneEvery = time.Minute

// pruneLimits deletes the rows that say nothing any more, at most once a
// minute per server, and on one server at a time: the others skip a round
// that one of them is doing. Its failure only delays it.
func (s *Store) pruneLimits(ctx context.Context, now int64) {
	last := s.limitsPruned.Load()
	if now-last < pruneEvery.Milliseconds() || !s.limitsPruned.CompareAndSwap(last, now) {
		return
	}
	s.withTx(ctx, func(ctx context.Context, tx *txn) error {
		if ok, err := s.eng.tryJobLock(ctx, tx, jobPruneLimits); err != nil || !ok {
			return err
		}
		if _, err := tx.ExecContext(ctx, `DELETE FROM rate_buckets WHERE at_ms < CAST(? AS BIGINT)`, now-pruneEvery.Milliseconds()); err != nil {
			return err
		}
		_, err := tx.ExecContext(ctx, `DELETE FROM rate_failures WHERE until_ms < CAST(? AS BIGINT) AND last_ms < CAST(? AS BIGINT)`,
			now, now-time.Hour.Milliseconds())
		return err
	})
}
