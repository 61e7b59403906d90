package server

import (
	"context"
	"net/http"
	"net/http/httptest"
	"sync"
	"sync/atomic"
	"testing"
	"time"
)

// guard is how long a test waits for what must happen before it calls it
// a failure: a deadline for a hung test, not a measure of speed.
const guard = 10 * time.Second

// TestSlowChannelsDelayNoOneElse: while one user's webhooks hang, the
// scheduler's next pass still sends another user's digest when its hour
// comes. Run is driven by ticks beside the store's clock.
func TestSlowChannelsDelayNoOneElse(t *testing.T) {
	release := make(chan struct{})
	var releaseOnce sync.Once
	unblock := func() { releaseOnce.Do(func() { close(release) }) }
	arrived := make(chan struct{}, 100)
	var hanging atomic.Int64 // requests to the slow host that have not been answered
	slow := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		hanging.Add(1)
		defer hanging.Add(-1)
		arrived <- struct{}{}
		select {
		case <-release:
		case <-r.Context().Done():
		}
	}))
	t.Cleanup(slow.Close)
	t.Cleanup(unblock) // runs before slow.Close, which waits for the handlers
	bobGot := make(chan int64, 10)
	fast := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		bobGot <- hanging.Load()
	}))
	t.Cleanup(fast.Close)

	// A client that waits a minute: the slow host hangs for the test's length.
	e := newEnv(t, func(o *Options) { o.Notify = &http.Client{Timeout: time.Minute} })
	_, ada := e.user("ada@example.com")
	e.birthday(ada, "Grace", 1990, 3, 15, true)
	for range 9 { // with the email channel, as many as a user may have
		e.channel(ada, hookQuery(slow.URL+"/ada"))
	}
	_, bob := e.user("bob@example.com")
	e.birthday(bob, "Linus", 1969, 3, 15, true)
	e.do(req{method: "PUT", path: "/api/me/reminders?send_at=08:02", key: bob})
	e.channel(bob, hookQuery(fast.URL+"/bob"))

	e.at(time.Date(2026, 3, 15, 8, 0, 0, 0, time.UTC))
	ticks := make(chan time.Time)
	sched := e.srv.Reminders()
	sched.Ticks = ticks
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan struct{})
	go func() { sched.Run(ctx); close(done) }()
	stop := func() {
		unblock()
		cancel()
		select {
		case <-done:
		case <-time.After(guard):
			t.Error("Run did not return")
		}
	}
	defer stop()

	select {
	case <-arrived: // Ada's first webhook hangs
	case <-time.After(guard):
		t.Fatal("Ada's digest never reached her webhook")
	}
	e.at(time.Date(2026, 3, 15, 8, 2, 0, 0, time.UTC))
	select {
	case ticks <- time.Now():
	case <-time.After(guard):
		t.Fatal("the 08:02 pass did not start while Ada's webhooks hung")
	}
	select {
	case n := <-bobGot:
		if n == 0 {
			t.Errorf("Bob's digest came after Ada's webhooks were answered")
		}
	case <-time.After(guard):
		t.Fatal("Bob's 08:02 digest did not arrive while Ada's webhooks hung")
	}
}
