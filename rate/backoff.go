package rate

import (
	"sync"
	"time"
)

// Backoff counts failures per key and, past free failures, blocks the key
// after each further failure for a delay that doubles from base up to
// ceiling. A key's failures are forgotten after forget without a new one.
//
// It is meant for one account attacked from many addresses: the ceiling
// keeps how long an attacker can lock the owner out after their last
// failure short, and still lets through only one guess per ceiling.
type Backoff struct {
	free          int
	base, ceiling time.Duration
	forget        time.Duration
	// Now is the clock; tests replace it.
	Now func() time.Time

	mu        sync.Mutex
	keys      map[string]*backoff
	lastSweep time.Time
}

type backoff struct {
	count int
	last  time.Time // of the latest failure
	until time.Time // blocked before this
}

// NewBackoff allows free failures per key, then blocks for base, 2*base,
// 4*base … at most ceiling after each failure; forget is how long a key
// keeps its count without a failure.
func NewBackoff(free int, base, ceiling, forget time.Duration) *Backoff {
	return &Backoff{free: free, base: base, ceiling: ceiling, forget: forget, Now: time.Now, keys: make(map[string]*backoff)}
}

// Blocked reports whether key is blocked, and for how long yet (whole
// seconds, at least one).
func (b *Backoff) Blocked(key string) (time.Duration, bool) {
	now := b.Now()
	b.mu.Lock()
	defer b.mu.Unlock()
	k, ok := b.keys[key]
	if !ok || !now.Before(k.until) {
		return 0, false
	}
	return ceilSeconds(k.until.Sub(now)), true
}

// Fail counts one failure for key and blocks it when it is past its free
// failures.
func (b *Backoff) Fail(key string) {
	now := b.Now()
	b.mu.Lock()
	defer b.mu.Unlock()
	b.sweep(now)
	k, ok := b.keys[key]
	if !ok || now.Sub(k.last) >= b.forget {
		k = &backoff{}
		b.keys[key] = k
	}
	k.count++
	k.last = now
	if over := k.count - b.free; over > 0 {
		d := b.ceiling
		if over <= 30 && b.base<<(over-1) < b.ceiling {
			d = b.base << (over - 1)
		}
		k.until = now.Add(d)
	}
}

// Clear forgets key's failures, as after a successful attempt.
func (b *Backoff) Clear(key string) {
	b.mu.Lock()
	defer b.mu.Unlock()
	delete(b.keys, key)
}

// sweep drops forgotten keys, at most once per forget.
func (b *Backoff) sweep(now time.Time) {
	if now.Sub(b.lastSweep) < b.forget {
		return
	}
	b.lastSweep = now
	for key, k := range b.keys {
		if now.Sub(k.last) >= b.forget && !now.Before(k.until) {
			delete(b.keys, key)
		}
	}
}

// Len returns how many keys have failures counted.
func (b *Backoff) Len() int {
	b.mu.Lock()
	defer b.mu.Unlock()
	return len(b.keys)
}
