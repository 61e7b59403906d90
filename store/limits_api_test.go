package store_test

import (
	"errors"
	"fmt"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"kith/store"
)

// TestTakeToken: a bucket of 60 a minute gives 60 at once, then one a
// second, refills to full and no further, and two stores on one database
// (two servers) share it.
func TestTakeToken(t *testing.T) {
	s, where := newStoreAt(t)
	other := openRaw(t, where) // another server on the same database
	take := func(st *store.Store) store.Bucket {
		t.Helper()
		b, err := st.TakeToken(t.Context(), "user:1", 60)
		if err != nil {
			t.Fatal(err)
		}
		return b
	}
	for i := range 60 {
		st := s
		if i%2 == 1 {
			st = other
		}
		if b := take(st); !b.Allowed || b.Remaining != 59-i {
			t.Fatalf("request %d: %+v", i+1, b)
		}
	}
	if b := take(other); b.Allowed || b.RetryAfter != time.Second {
		t.Fatalf("the 61st, on the other server: %+v, want refused for 1 s", b)
	}
	advance(s, time.Second) // the test clocks count whole seconds
	if b := take(s); !b.Allowed || b.Remaining != 0 {
		t.Errorf("a second later: %+v", b)
	}
	if b := take(s); b.Allowed || b.RetryAfter != time.Second {
		t.Errorf("at once again: %+v", b)
	}
	advance(s, time.Hour)
	if b := take(s); !b.Allowed || b.Remaining != 59 {
		t.Errorf("an hour later the bucket is full, no fuller: %+v", b)
	}
	if b, err := s.TakeToken(t.Context(), "user:2", 60); err != nil || !b.Allowed || b.Remaining != 59 {
		t.Errorf("another key has its own bucket: %+v %v", b, err)
	}
}

// TestTakeTokenConcurrently: 40 requests at once on a bucket of 30 get
// exactly 30 tokens, across two servers.
func TestTakeTokenConcurrently(t *testing.T) {
	s, where := newStoreAt(t)
	other := openRaw(t, where)
	setClock(other, s.Now())
	var mu sync.Mutex
	allowed := 0
	var wg sync.WaitGroup
	for i := range 40 {
		st := s
		if i%2 == 1 {
			st = other
		}
		wg.Go(func() {
			b, err := st.TakeToken(t.Context(), "ip:203.0.113.9", 30)
			if err != nil {
				t.Error(err)
				return
			}
			if b.Allowed {
				mu.Lock()
				allowed++
				mu.Unlock()
			}
		})
	}
	wg.Wait()
	if allowed != 30 {
		t.Errorf("%d of 40 allowed, want 30", allowed)
	}
}

func TestCountFailure(t *testing.T) {
	s := newStore(t)
	ctx := t.Context()
	count := func(key string, window time.Duration, sinceLast bool) store.Failures {
		t.Helper()
		f, err := s.CountFailure(ctx, "logins", key, window, sinceLast)
		if err != nil {
			t.Fatal(err)
		}
		return f
	}
	t.Run("a window opened by the first failure", func(t *testing.T) {
		start := s.Now()
		for i := range 3 {
			if f := count("a", time.Minute, false); f.Count != int64(i+1) || !f.Until.Equal(start.Add(time.Minute)) {
				t.Fatalf("failure %d: %+v", i+1, f)
			}
			advance(s, 10*time.Second)
		}
		advance(s, time.Minute)
		if f := count("a", time.Minute, false); f.Count != 1 || !f.Until.Equal(s.Now().Add(time.Minute)) {
			t.Errorf("after the window a new one: %+v", f)
		}
	})
	t.Run("a count forgotten after a quiet spell, and a block", func(t *testing.T) {
		for i := range 3 {
			if f := count("b", time.Minute, true); f.Count != int64(i+1) {
				t.Fatalf("failure %d: %+v", i+1, f)
			}
			advance(s, 50*time.Second) // each within a minute of the last
		}
		until := s.Now().Add(8 * time.Second)
		if err := s.BlockFailures(ctx, "logins", "b", until); err != nil {
			t.Fatal(err)
		}
		if f, err := s.FailuresOf(ctx, "logins", "b"); err != nil || f.Count != 3 || !f.Until.Equal(until) {
			t.Errorf("state %+v %v", f, err)
		}
		if f := count("b", time.Minute, true); f.Count != 4 || !f.Until.Equal(until) {
			t.Errorf("a failure keeps the block: %+v", f)
		}
		advance(s, time.Minute)
		if f := count("b", time.Minute, true); f.Count != 1 {
			t.Errorf("after a quiet minute: %+v", f)
		}
	})
	t.Run("kinds and keys apart, cleared", func(t *testing.T) {
		if f, err := s.FailuresOf(ctx, "resends", "a"); err != nil || f.Count != 0 {
			t.Errorf("another kind: %+v %v", f, err)
		}
		if err := s.ClearFailures(ctx, "logins", "a"); err != nil {
			t.Fatal(err)
		}
		if f, err := s.FailuresOf(ctx, "logins", "a"); err != nil || f.Count != 0 {
			t.Errorf("after clearing: %+v %v", f, err)
		}
	})
}

// BenchmarkTakeToken is the shared rate limit's cost per request: one
// statement, one round trip (on PostgreSQL, with KITH_TEST_ENGINE=postgres).
func BenchmarkTakeToken(b *testing.B) {
	s, _ := newStoreAt(b)
	var users atomic.Int64
	b.RunParallel(func(pb *testing.PB) {
		key := fmt.Sprint("user:", users.Add(1)) // a user per client, as in use
		for pb.Next() {
			if _, err := s.TakeToken(b.Context(), key, 1_000_000_000); err != nil {
				b.Error(err)
				return
			}
		}
	})
}

// TestAuthenticateTaking: a valid key's request authenticates and takes a
// token of its user's bucket at once; a wrong secret takes none.
func TestAuthenticateTaking(t *testing.T) {
	s := newStore(t)
	u := newUser(t, s)
	_, token, err := s.CreateAPIKey(t.Context(), u.ID, "k")
	if err != nil {
		t.Fatal(err)
	}
	userKey := fmt.Sprint("user:", u.ID)
	for i := range 3 {
		sess, b, taken, err := s.AuthenticateTaking(t.Context(), token, 10)
		if err != nil || !taken || sess.UserID != u.ID || sess.AccountID != u.AccountID || !sess.Verified || !b.Allowed || b.Remaining != 9-i {
			t.Fatalf("request %d: %+v %+v %t %v", i+1, sess, b, taken, err)
		}
	}
	id, _, _ := strings.Cut(token, "|")
	for _, bad := range []string{id + "|wrong", "999999|" + strings.Repeat("A", 52), "nonsense", ""} {
		if _, _, taken, err := s.AuthenticateTaking(t.Context(), bad, 10); !errors.Is(err, store.ErrUnauthenticated) || taken {
			t.Errorf("%q: taken %t, %v", bad, taken, err)
		}
	}
	if b, err := s.TakeToken(t.Context(), userKey, 10); err != nil || b.Remaining != 6 {
		t.Errorf("the user's bucket after 3 requests and 4 bad keys: %+v %v, want 6 left", b, err)
	}
}

// TestTakeTokenRefillsUnderFastUse: a key polled more often than its
// limit refills still gets its perMinute a minute, as in memory.
func TestTakeTokenRefillsUnderFastUse(t *testing.T) {
	s := newStore(t)
	allowed := 0
	for range 120 { // one a second for two minutes, limit 10 a minute
		b, err := s.TakeToken(t.Context(), "user:1", 10)
		if err != nil {
			t.Fatal(err)
		}
		if b.Allowed {
			allowed++
		}
		advance(s, time.Second)
	}
	if allowed < 29 || allowed > 31 { // 10 at once, then 10 a minute
		t.Errorf("%d allowed in two minutes, want about 30", allowed)
	}
}
