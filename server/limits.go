package server

import (
	"context"
	"time"

	"github.com/rs/zerolog"

	"kith/rate"
	"kith/store"
)

// RequestLimiter limits requests per key (a user, a client address):
// *rate.Limiter counts in this server's memory; SharedLimiter in the
// database, for several servers on one PostgreSQL database.
type RequestLimiter interface {
	Enabled() bool
	Allow(key string) rate.Result
}

// Throttle counts failures per key and says when a key is blocked:
// *rate.Attempts and *rate.Backoff in memory, SharedAttempts and
// SharedBackoff in the database.
type Throttle interface {
	Blocked(key string) (time.Duration, bool)
	Fail(key string)
	Clear(key string)
}

// The throttles' limits, in memory or shared. Logins have no default in
// New: the caller gives them (loginMax in loginWindow in kith serve).
const (
	loginMax    = 5
	loginWindow = time.Minute
	// accountFree failures per email from anywhere, then blocks of
	// accountBase doubling to accountCeiling; forgotten after accountForget.
	accountFree    = 10
	accountBase    = time.Second
	accountCeiling = time.Minute
	accountForget  = 15 * time.Minute
	// resendMax verification or invitation emails per user in resendWindow.
	resendMax    = 3
	resendWindow = 15 * time.Minute
	// inviteMax invitations (new or sent again) per inviting user in
	// inviteWindow: a household's worth, not a mailing list's.
	inviteMax    = 10
	inviteWindow = 24 * time.Hour
)

// ShareLimits makes the server count its rate limits (perMinute API
// requests and pagesPerMinute pages a minute per key), login throttles and
// email budgets in st's database, so that every server on one PostgreSQL
// database counts together. Its failures are logged through o.Logger.
func (o *Options) ShareLimits(st *store.Store, perMinute, pagesPerMinute int) {
	o.Limiter = NewSharedLimiter(st, perMinute, o.Logger)
	o.PageLimiter = NewSharedLimiter(st, pagesPerMinute, o.Logger)
	o.Logins = NewSharedAttempts(st, "logins", loginMax, loginWindow, o.Logger)
	o.Accounts = NewSharedBackoff(st, "accounts", accountFree, accountBase, accountCeiling, accountForget, o.Logger)
	o.Resends = NewSharedAttempts(st, "resends", resendMax, resendWindow, o.Logger)
	o.Invitations = NewSharedAttempts(st, "invitations", inviteMax, inviteWindow, o.Logger)
}

// limitTimeout bounds a shared count's round trip; one that fails or takes
// longer lets the request through (and is logged): a limit is no reason
// to refuse the users when the database stutters, and a request that needs
// the database then fails on its own.
const limitTimeout = 2 * time.Second

// shared is what the database-backed limits have in common.
type shared struct {
	st  *store.Store
	log zerolog.Logger
}

func (s shared) ctx() (context.Context, context.CancelFunc) {
	return context.WithTimeout(context.Background(), limitTimeout)
}

func (s shared) failed(err error, what string) {
	s.log.Warn().Err(err).Msg("a shared " + what + " count failed, so the request went through uncounted")
}

// SharedLimiter is a RequestLimiter whose buckets are rows of the database.
type SharedLimiter struct {
	shared
	perMinute int
}

// NewSharedLimiter limits each key to perMinute requests a minute across
// every server on st's database; 0 turns limiting off.
func NewSharedLimiter(st *store.Store, perMinute int, log zerolog.Logger) *SharedLimiter {
	return &SharedLimiter{shared{st, log}, perMinute}
}

func (l *SharedLimiter) Enabled() bool { return l.perMinute > 0 }

func (l *SharedLimiter) Allow(key string) rate.Result {
	ctx, cancel := l.ctx()
	defer cancel()
	b, err := l.st.TakeToken(ctx, key, l.perMinute)
	if err != nil {
		l.failed(err, "rate limit")
		return rate.Result{Allowed: true, Limit: l.perMinute, Remaining: l.perMinute - 1}
	}
	return l.result(b)
}

// result is what a bucket's answer says in headers.
func (l *SharedLimiter) result(b store.Bucket) rate.Result {
	res := rate.Result{Allowed: b.Allowed, Limit: l.perMinute, Remaining: b.Remaining}
	if !b.Allowed {
		res.RetryAfter = ceilSeconds(b.RetryAfter)
		res.Reset = l.st.Now().Add(res.RetryAfter)
	}
	return res
}

// ceilSeconds rounds a wait up to whole seconds, at least one, as the
// in-memory limits do: an early retry would only be refused again.
func ceilSeconds(d time.Duration) time.Duration {
	return max(time.Second, (d+time.Second-1)/time.Second*time.Second)
}

// SharedAttempts is a Throttle like rate.Attempts: max failures per key
// in a window that the first failure opens.
type SharedAttempts struct {
	shared
	kind   string
	max    int64
	window time.Duration
}

// NewSharedAttempts allows max failures of kind per key within window,
// counted across every server on st's database.
func NewSharedAttempts(st *store.Store, kind string, max int, window time.Duration, log zerolog.Logger) *SharedAttempts {
	return &SharedAttempts{shared{st, log}, kind, int64(max), window}
}

func (a *SharedAttempts) Blocked(key string) (time.Duration, bool) {
	return a.blocked(a.kind, key, func(f store.Failures) bool { return f.Count >= a.max })
}

func (a *SharedAttempts) Fail(key string) {
	ctx, cancel := a.ctx()
	defer cancel()
	if _, err := a.st.CountFailure(ctx, a.kind, key, a.window, false); err != nil {
		a.failed(err, a.kind)
	}
}

func (a *SharedAttempts) Clear(key string) { clearFailures(a.shared, a.kind, key) }

// SharedBackoff is a Throttle like rate.Backoff: past free failures, each
// blocks the key for a delay that doubles from base up to ceiling; a key's
// count is forgotten after forget without a failure.
type SharedBackoff struct {
	shared
	kind                  string
	free                  int64
	base, ceiling, forget time.Duration
}

// NewSharedBackoff is rate.NewBackoff across every server on st's database.
func NewSharedBackoff(st *store.Store, kind string, free int, base, ceiling, forget time.Duration, log zerolog.Logger) *SharedBackoff {
	return &SharedBackoff{shared{st, log}, kind, int64(free), base, ceiling, forget}
}

func (b *SharedBackoff) Blocked(key string) (time.Duration, bool) {
	return b.blocked(b.kind, key, func(store.Failures) bool { return true })
}

func (b *SharedBackoff) Fail(key string) {
	ctx, cancel := b.ctx()
	defer cancel()
	f, err := b.st.CountFailure(ctx, b.kind, key, b.forget, true)
	if err != nil {
		b.failed(err, b.kind)
		return
	}
	over := f.Count - b.free
	if over <= 0 {
		return
	}
	d := b.ceiling
	if over <= 30 && b.base<<(over-1) < b.ceiling {
		d = b.base << (over - 1)
	}
	if err := b.st.BlockFailures(ctx, b.kind, key, b.st.Now().Add(d)); err != nil {
		b.failed(err, b.kind)
	}
}

func (b *SharedBackoff) Clear(key string) { clearFailures(b.shared, b.kind, key) }

// blocked is how long key's failures block it yet, when counts says they
// count, in whole seconds and at least one, as the in-memory throttles
// say it. A failed read blocks nothing.
func (s shared) blocked(kind, key string, counts func(store.Failures) bool) (time.Duration, bool) {
	ctx, cancel := s.ctx()
	defer cancel()
	f, err := s.st.FailuresOf(ctx, kind, key)
	if err != nil {
		s.failed(err, kind)
		return 0, false
	}
	now := s.st.Now()
	if !counts(f) || !now.Before(f.Until) {
		return 0, false
	}
	return ceilSeconds(f.Until.Sub(now)), true
}

func clearFailures(s shared, kind, key string) {
	ctx, cancel := s.ctx()
	defer cancel()
	if err := s.st.ClearFailures(ctx, kind, key); err != nil {
		s.failed(err, kind)
	}
}
