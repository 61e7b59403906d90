package rate

import (
	"testing"
	"time"
)

type fakeClock struct{ t time.Time }

func (c *fakeClock) Now() time.Time { return c.t }

func TestLimiterBucket(t *testing.T) {
	clk := &fakeClock{time.Unix(1_800_000_000, 0)}
	l := New(60)
	l.Now = clk.Now
	for i := range 60 {
		r := l.Allow("a")
		if !r.Allowed || r.Limit != 60 || r.Remaining != 59-i {
			t.Fatalf("request %d: %+v", i+1, r)
		}
	}
	r := l.Allow("a")
	if r.Allowed || r.Remaining != 0 || r.RetryAfter != time.Second || !r.Reset.Equal(clk.t.Add(time.Second)) {
		t.Fatalf("61st: %+v", r)
	}
	if !l.Allow("b").Allowed {
		t.Errorf("another key shares the bucket")
	}
	clk.t = clk.t.Add(1500 * time.Millisecond) // one and a half tokens back
	if !l.Allow("a").Allowed {
		t.Errorf("the bucket does not refill")
	}
	if r := l.Allow("a"); r.Allowed || r.RetryAfter != time.Second {
		t.Errorf("half a token left: %+v, want refused for 1 s", r)
	}
}

func TestLimiterRetryAfterRoundsUp(t *testing.T) {
	clk := &fakeClock{time.Unix(1_800_000_000, 0)}
	l := New(7) // a token every 8.57 s
	l.Now = clk.Now
	for range 7 {
		l.Allow("a")
	}
	if r := l.Allow("a"); r.RetryAfter != 9*time.Second {
		t.Errorf("RetryAfter %v, want 9s", r.RetryAfter)
	}
}

func TestLimiterEvictsIdleBuckets(t *testing.T) {
	clk := &fakeClock{time.Unix(1_800_000_000, 0)}
	l := New(10)
	l.Now = clk.Now
	for _, k := range []string{"a", "b", "c"} {
		l.Allow(k)
	}
	clk.t = clk.t.Add(30 * time.Second)
	l.Allow("a")
	clk.t = clk.t.Add(40 * time.Second)
	l.Allow("d")
	if n := l.Len(); n != 2 {
		t.Errorf("%d buckets, want 2 (a, used 40 s ago, and d)", n)
	}
}

func TestLimiterOff(t *testing.T) {
	if New(0).Enabled() || !New(1).Enabled() {
		t.Errorf("0 is off, 1 is on")
	}
}

func TestAttempts(t *testing.T) {
	clk := &fakeClock{time.Unix(1_800_000_000, 0)}
	a := NewAttempts(5, time.Minute)
	a.Now = clk.Now
	for range 4 {
		a.Fail("k")
	}
	if _, blocked := a.Blocked("k"); blocked {
		t.Fatal("blocked after 4 failures")
	}
	a.Fail("k")
	clk.t = clk.t.Add(10*time.Second + 500*time.Millisecond)
	wait, blocked := a.Blocked("k")
	if !blocked || wait != 50*time.Second {
		t.Fatalf("after 5 failures: %v %v, want blocked for 50s", wait, blocked)
	}
	if _, blocked := a.Blocked("other"); blocked {
		t.Errorf("another key is blocked")
	}
	clk.t = clk.t.Add(50 * time.Second)
	if _, blocked := a.Blocked("k"); blocked {
		t.Errorf("still blocked after the window")
	}
	a.Fail("k")
	if _, blocked := a.Blocked("k"); blocked {
		t.Errorf("a new window starts from one failure")
	}
	for range 4 {
		a.Fail("k")
	}
	a.Clear("k")
	if _, blocked := a.Blocked("k"); blocked {
		t.Errorf("blocked after Clear")
	}
}

func TestBackoffDoublesToACeilingAndExpires(t *testing.T) {
	clk := &fakeClock{time.Unix(1_800_000_000, 0)}
	b := NewBackoff(3, time.Second, 8*time.Second, 15*time.Minute)
	b.Now = clk.Now
	for range 3 {
		b.Fail("k")
	}
	if _, blocked := b.Blocked("k"); blocked {
		t.Fatal("blocked within the free failures")
	}
	for i, want := range []time.Duration{1, 2, 4, 8, 8} {
		b.Fail("k")
		wait, blocked := b.Blocked("k")
		if !blocked || wait != want*time.Second {
			t.Fatalf("failure %d past the free ones: %v %v, want blocked for %v", i+1, wait, blocked, want*time.Second)
		}
		if _, blocked := b.Blocked("other"); blocked {
			t.Fatal("another key is blocked")
		}
		clk.t = clk.t.Add(wait)
		if _, blocked := b.Blocked("k"); blocked {
			t.Fatalf("still blocked after %v", wait)
		}
	}
	clk.t = clk.t.Add(15 * time.Minute)
	b.Fail("k")
	if _, blocked := b.Blocked("k"); blocked {
		t.Error("the count was not forgotten after a quiet spell")
	}
	for range 5 {
		b.Fail("k")
	}
	b.Clear("k")
	if _, blocked := b.Blocked("k"); blocked || b.Len() != 0 {
		t.Error("blocked after Clear")
	}
}
