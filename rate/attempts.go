package rate

import (
	"sync"
	"time"
)

// Attempts counts failures per key in a window that opens with the first
// failure. Once max failures are in, the key is blocked until the window
// closes, whatever the next attempt would have been.
type Attempts struct {
	max    int
	window time.Duration
	// Now is the clock; tests replace it.
	Now func() time.Time

	mu        sync.Mutex
	keys      map[string]*attempt
	lastSweep time.Time
}

type attempt struct {
	count int
	ends  time.Time
}

// NewAttempts allows max failures per key within window.
func NewAttempts(max int, window time.Duration) *Attempts {
	return &Attempts{max: max, window: window, Now: time.Now, keys: make(map[string]*attempt)}
}

// Blocked reports whether key has used up its failures, and for how long
// it stays blocked (whole seconds, at least one).
func (a *Attempts) Blocked(key string) (time.Duration, bool) {
	now := a.Now()
	a.mu.Lock()
	defer a.mu.Unlock()
	at, ok := a.keys[key]
	if !ok || !now.Before(at.ends) || at.count < a.max {
		return 0, false
	}
	return ceilSeconds(at.ends.Sub(now)), true
}

// Fail counts one failure for key.
func (a *Attempts) Fail(key string) {
	now := a.Now()
	a.mu.Lock()
	defer a.mu.Unlock()
	a.sweep(now)
	at, ok := a.keys[key]
	if !ok || !now.Before(at.ends) {
		at = &attempt{ends: now.Add(a.window)}
		a.keys[key] = at
	}
	at.count++
}

// Clear forgets key's failures, as after a successful attempt.
func (a *Attempts) Clear(key string) {
	a.mu.Lock()
	defer a.mu.Unlock()
	delete(a.keys, key)
}

// sweep drops closed windows, at most once per window.
func (a *Attempts) sweep(now time.Time) {
	if now.Sub(a.lastSweep) < a.window {
		return
	}
	a.lastSweep = now
	for k, at := range a.keys {
		if !now.Before(at.ends) {
			delete(a.keys, k)
		}
	}
}
