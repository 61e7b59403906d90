package server

import (
	"context"
	"fmt"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"kith/rate"
	"kith/store"
)

// loginAs posts one login from remote.
func (e *env) loginAs(email, password, remote string) resp {
	e.t.Helper()
	return e.do(req{method: "POST", path: "/api/login", remote: remote,
		body: `{"email":"` + email + `","password":"` + password + `"}`})
}

func TestLoginFromManyAddressesOfOneSlash64IsThrottledAsOne(t *testing.T) {
	e := newEnv(t)
	// newEnv set the accounts backoff on the test clock
	e.user("ada@example.com")
	first429 := 0
	for i := range 300 {
		r := e.loginAs("ada@example.com", "wrong horse", fmt.Sprintf("[2001:db8:1:2::%x]:1000", i+1))
		if r.code == 429 && first429 == 0 {
			first429 = i + 1
		}
	}
	if first429 != 6 {
		t.Fatalf("first 429 at attempt %d, want 6: five failures from one /64 throttle it", first429)
	}
	if r := e.loginAs("ada@example.com", "correct horse", "[2001:db8:1:3::1]:1000"); r.code != 200 {
		t.Errorf("the next /64 over is throttled too: %d %s", r.code, r.body)
	}
}

func TestRateLimitCountsAnIPv6Slash64AsOneClient(t *testing.T) {
	e := newEnv(t, func(o *Options) { o.Limiter = rate.New(60) })
	refused := 0
	for i := range 300 {
		r := e.do(req{method: "GET", path: "/api/me", remote: fmt.Sprintf("[2001:db8:1:2:%x::1]:1000", i+1)})
		if r.code == 429 {
			refused++
		}
	}
	if refused != 240 {
		t.Errorf("%d of 300 requests from one /64 refused, want 240 (all past the 60 a minute)", refused)
	}
	if r := e.do(req{method: "GET", path: "/api/me", remote: "[2001:db8:1:3::1]:1000"}); r.code != 401 {
		t.Errorf("another /64 shares the bucket: %d", r.code)
	}
}

func TestLoginBacksOffPerAccountFromAnyAddress(t *testing.T) {
	e := newEnv(t)
	// newEnv set the accounts backoff on the test clock
	e.user("ada@example.com")
	var r resp
	n := 0
	for n < 30 { // one failure from each of 30 IPv4 addresses
		n++
		r = e.loginAs("ada@example.com", "wrong horse", fmt.Sprintf("192.0.2.%d:1000", n))
		if r.code == 429 {
			break
		}
	}
	if r.code != 429 || n != 12 || r.header.Get("Retry-After") != "1" || !strings.Contains(r.body, `"message":"Too Many Attempts."`) {
		t.Fatalf("attempt %d: %d %q %s; want the 12th refused for 1 s (10 free failures, then 1 s)", n, r.code, r.header.Get("Retry-After"), r.body)
	}
	if r := e.loginAs("ada@example.com", "correct horse", "198.51.100.1:1000"); r.code != 429 {
		t.Fatalf("the right password from a fresh address during the backoff: %d, want 429", r.code)
	}
	// Each further failure doubles the wait, up to a minute.
	want := []string{"2", "4", "8", "16", "32", "60", "60"}
	for i, w := range want {
		e.clock.Advance(time.Minute)
		if r := e.loginAs("ada@example.com", "wrong horse", fmt.Sprintf("203.0.113.%d:1000", i+1)); r.code != 401 {
			t.Fatalf("failure after the wait: %d, want 401", r.code)
		}
		r := e.loginAs("ada@example.com", "correct horse", "198.51.100.1:1000")
		if r.code != 429 || r.header.Get("Retry-After") != w {
			t.Fatalf("backoff %d: %d, Retry-After %q, want 429 for %s s", i+1, r.code, r.header.Get("Retry-After"), w)
		}
	}
	e.clock.Advance(time.Minute)
	if r := e.loginAs("ada@example.com", "correct horse", "198.51.100.1:1000"); r.code != 200 {
		t.Fatalf("after the backoff expired: %d %s, want 200", r.code, r.body)
	}
	if r := e.loginAs("ada@example.com", "wrong horse", "198.51.100.1:1000"); r.code != 401 {
		t.Errorf("the account's failures outlive a success: %d", r.code)
	}
}

func TestLoginWaitsForAPasswordCheckThenRefuses(t *testing.T) {
	e := newEnv(t, func(o *Options) { o.PasswordChecks, o.PasswordWait = 1, 50*time.Millisecond })
	_, key := e.user("ada@example.com")
	entered, release := make(chan struct{}), make(chan struct{})
	check := e.srv.login
	e.srv.login = func(ctx context.Context, email, password string) (store.User, error) {
		entered <- struct{}{}
		<-release
		return check(ctx, email, password)
	}
	body := `{"email":"ada@example.com","password":"correct horse"}`
	post := func() chan int {
		done := make(chan int, 1)
		go func() {
			rec := httptest.NewRecorder()
			e.srv.ServeHTTP(rec, req{method: "POST", path: "/api/login", body: body}.httpRequest())
			done <- rec.Code
		}()
		return done
	}
	first := post()
	<-entered // the first login holds the only slot

	second := post()
	select {
	case code := <-second:
		if code != 429 {
			t.Errorf("second login while the slot is held: %d, want 429", code)
		}
	case <-entered:
		t.Fatal("a second password check ran beside the first")
	case <-time.After(5 * time.Second):
		t.Fatal("the second login waits without bound")
	}
	r := e.do(req{method: "POST", path: "/api/login", body: body})
	if r.code != 429 || r.header.Get("Retry-After") != "1" || !strings.Contains(r.body, `"message":"Too Many Attempts."`) {
		t.Errorf("refused login: %d %q %s", r.code, r.header.Get("Retry-After"), r.body)
	}
	if r := e.do(req{method: "GET", path: "/api/me", key: key}); r.code != 200 {
		t.Errorf("a request with a key while logins are busy: %d", r.code)
	}

	close(release)
	if code := <-first; code != 200 {
		t.Errorf("first login: %d", code)
	}
	go func() {
		for range entered {
		}
	}()
	if r := e.do(req{method: "POST", path: "/api/login", body: body}); r.code != 200 {
		t.Errorf("login once the slot is free: %d %s", r.code, r.body)
	}
	close(entered)
}
