// Package rate limits requests per key (a user, a client address) with
// token buckets, and counts failed attempts for throttling logins.
package rate

import (
	"math"
	"sync"
	"time"

	xrate "golang.org/x/time/rate"
)

// idleAfter is how long a key may go unused before its bucket is dropped.
// After a minute without requests a bucket is full again, so dropping it
// forgets nothing.
const idleAfter = time.Minute

// Limiter gives each key a bucket of perMinute tokens that refills
// continuously. The zero perMinute turns limiting off.
type Limiter struct {
	perMinute int
	// Now is the clock; tests replace it.
	Now func() time.Time

	mu        sync.Mutex
	buckets   map[string]*bucket
	lastSweep time.Time
}

type bucket struct {
	lim  *xrate.Limiter
	seen time.Time
}

// Result is the outcome of one request against its key's bucket.
type Result struct {
	Allowed   bool
	Limit     int
	Remaining int
	// RetryAfter is how long to wait when the request was refused; Reset is
	// the moment that wait ends.
	RetryAfter time.Duration
	Reset      time.Time
}

// New returns a limiter of perMinute requests a minute per key.
func New(perMinute int) *Limiter {
	return &Limiter{perMinute: perMinute, Now: time.Now, buckets: make(map[string]*bucket)}
}

// Enabled reports whether the limiter limits anything.
func (l *Limiter) Enabled() bool { return l.perMinute > 0 }

// Allow takes one token from key's bucket if it has one.
func (l *Limiter) Allow(key string) Result {
	now := l.Now()
	l.mu.Lock()
	defer l.mu.Unlock()
	l.sweep(now)
	b, ok := l.buckets[key]
	if !ok {
		b = &bucket{lim: xrate.NewLimiter(xrate.Limit(float64(l.perMinute)/60), l.perMinute)}
		l.buckets[key] = b
	}
	b.seen = now
	res := Result{Limit: l.perMinute}
	if b.lim.AllowN(now, 1) {
		res.Allowed = true
		res.Remaining = int(math.Floor(b.lim.TokensAt(now)))
		return res
	}
	missing := 1 - b.lim.TokensAt(now)
	res.RetryAfter = ceilSeconds(time.Duration(missing / float64(b.lim.Limit()) * float64(time.Second)))
	res.Reset = now.Add(res.RetryAfter)
	return res
}

// ceilSeconds rounds d up to whole seconds, at least one: Retry-After
// counts whole seconds, and an early retry would only be refused again.
func ceilSeconds(d time.Duration) time.Duration {
	s := time.Duration(math.Ceil(d.Seconds())) * time.Second
	return max(time.Second, s)
}

// sweep drops idle buckets, at most once per idleAfter, so that a flood of
// client addresses cannot grow the map without end.
func (l *Limiter) sweep(now time.Time) {
	if now.Sub(l.lastSweep) < idleAfter {
		return
	}
	l.lastSweep = now
	for k, b := range l.buckets {
		if now.Sub(b.seen) >= idleAfter {
			delete(l.buckets, k)
		}
	}
}

// Len returns how many keys have a bucket.
func (l *Limiter) Len() int {
	l.mu.Lock()
	defer l.mu.Unlock()
	return len(l.buckets)
}
