package server

import (
	"context"
	"net/http"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/rs/zerolog"

	"kith/store"
	"kith/store/storetest"
)

// twin is a second server on e's database, as a second kith serve on one
// PostgreSQL database is, sharing e's clock; opts apply to its Options.
func (e *env) twin(opts ...func(*Options)) *env {
	e.t.Helper()
	st, err := store.Open(context.Background(), e.where)
	if err != nil {
		e.t.Fatal(err)
	}
	e.t.Cleanup(func() { st.Close() })
	st.Now = e.clock.Now
	st.PasswordCost = 4
	logs := &lockedLog{}
	o := Options{Store: st, Limiter: NewSharedLimiter(st, 0, zerolog.Nop()), Logger: zerolog.New(logs), CORSOrigins: []string{"*"}}
	for _, f := range opts {
		f(&o)
	}
	return &env{t: e.t, srv: New(o), st: st, clock: e.clock, logs: logs, where: e.where}
}

// TestTwoServersOneDatabase: with their limits shared, two servers on one
// database count a user's requests, a client address's and a login's
// failures together, and each reads what the other wrote.
func TestTwoServersOneDatabase(t *testing.T) {
	share := func(o *Options) { o.ShareLimits(o.Store, 6, 6) } // one request per 10 s, 6 at once
	a := newEnv(t, share)
	b := a.twin(share)
	_, key := a.user("ada@example.com")
	servers := []*env{a, b}

	t.Run("a write through one is read through the other", func(t *testing.T) {
		a.t, b.t = t, t
		r := a.do(req{method: "POST", path: "/api/persons?first_name=Jim&last_name=Halpert", key: key})
		if r.code != 201 {
			t.Fatalf("create on a: %d %s", r.code, r.body)
		}
		id := r.json(t)["data"].(map[string]any)["id"]
		got := b.do(req{method: "GET", path: "/api/persons", key: key})
		if got.code != 200 || !strings.Contains(got.body, `"name":"Jim Halpert"`) || got.json(t)["data"].([]any)[0].(map[string]any)["id"] != id {
			t.Errorf("list on b: %d %s", got.code, got.body)
		}
	})
	a.clock.Advance(time.Minute) // full buckets again

	t.Run("a user's requests count on both", func(t *testing.T) {
		a.t, b.t = t, t
		for i := range 6 {
			r := servers[i%2].do(req{method: "GET", path: "/api/me", key: key})
			if r.code != 200 || r.header.Get("X-RateLimit-Remaining") != strconv.Itoa(5-i) {
				t.Fatalf("request %d: %d, remaining %q", i+1, r.code, r.header.Get("X-RateLimit-Remaining"))
			}
		}
		for _, e := range servers {
			r := e.do(req{method: "GET", path: "/api/me", key: key})
			if r.code != 429 || r.header.Get("Retry-After") != "10" {
				t.Errorf("the 7th: %d, Retry-After %q", r.code, r.header.Get("Retry-After"))
			}
		}
		a.clock.Advance(10 * time.Second)
		if r := b.do(req{method: "GET", path: "/api/me", key: key}); r.code != 200 {
			t.Errorf("10 s later: %d", r.code)
		}
		if r := a.do(req{method: "GET", path: "/api/me", key: key}); r.code != 429 {
			t.Errorf("and at once again on the other: %d", r.code)
		}
	})

	t.Run("a client address's requests count on both", func(t *testing.T) {
		a.t, b.t = t, t
		var codes []int
		for i := range 8 {
			codes = append(codes, servers[i%2].do(req{method: "GET", path: "/api/nothing", remote: "198.51.100.7:4000"}).code)
		}
		if want := []int{404, 404, 404, 404, 404, 404, 429, 429}; !slices.Equal(codes, want) {
			t.Fatalf("codes %v, want %v", codes, want)
		}
		r := b.do(req{method: "GET", path: "/api/nothing", remote: "198.51.100.8:4000"})
		if r.code != 404 {
			t.Errorf("another address: %d", r.code)
		}
		if n := a.count(`SELECT count(*) FROM rate_buckets WHERE key = 'ip:198.51.100.7' AND NOT allowed`); n != 1 {
			t.Errorf("the address's bucket is not refusing: %d rows", n)
		}
	})
	a.clock.Advance(time.Minute)

	t.Run("a user's pages count on both, apart from the API", func(t *testing.T) {
		a.t, b.t = t, t
		br := a.signIn(t, "ada@example.com") // the dashboard: the first of six pages
		for i := range 5 {
			br.e = servers[i%2]
			br.get("/people").status(t, http.StatusOK)
		}
		for _, e := range servers {
			br.e = e
			br.get("/people").status(t, http.StatusTooManyRequests)
		}
		if r := b.do(req{method: "GET", path: "/api/me", key: key}); r.code != http.StatusOK {
			t.Errorf("the API once the pages' budget is spent: %d", r.code)
		}
		if n := a.count(`SELECT count(*) FROM rate_buckets WHERE key LIKE 'page:user:%' AND NOT allowed`); n != 1 {
			t.Errorf("the user's page bucket is not refusing: %d rows", n)
		}
	})
	a.clock.Advance(time.Minute)

	t.Run("failed logins count on both", func(t *testing.T) {
		a.t, b.t = t, t
		for i := range 5 {
			r := servers[i%2].do(req{method: "POST", path: "/api/login?email=ada@example.com&password=wrong+horse", remote: "203.0.113.5:1"})
			if r.code != 401 {
				t.Fatalf("failure %d: %d %s", i+1, r.code, r.body)
			}
			a.clock.Advance(10 * time.Second) // within the buckets, within the login window
		}
		for _, e := range servers {
			r := e.do(req{method: "POST", path: "/api/login?email=ada@example.com&password=correct+horse", remote: "203.0.113.5:1"})
			if r.code != 429 {
				t.Errorf("the right password after 5 failures: %d %s", r.code, r.body)
			}
		}
	})
}

// TestKeyRevokedOnOneServer: a key that logs out through one server is
// refused by the other within store.KeyCacheTTL, which is how long a
// server keeps a key's authentication; through the server that revoked it,
// at once.
func TestKeyRevokedOnOneServer(t *testing.T) {
	a := newEnv(t)
	b := a.twin()
	u, _ := a.user("ada@example.com")
	_, token, err := a.st.CreateAPIKey(context.Background(), u.ID, "phone")
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range []*env{a, b} {
		if r := e.do(req{method: "GET", path: "/api/me", key: token}); r.code != 200 {
			t.Fatalf("before: %d %s", r.code, r.body)
		}
	}
	if r := a.do(req{method: "DELETE", path: "/api/logout", key: token}); r.code != 200 {
		t.Fatalf("logout: %d %s", r.code, r.body)
	}
	if r := a.do(req{method: "GET", path: "/api/me", key: token}); r.code != 401 {
		t.Errorf("on the server that revoked it: %d", r.code)
	}
	a.clock.Advance(store.KeyCacheTTL)
	if r := b.do(req{method: "GET", path: "/api/me", key: token}); r.code != 401 {
		t.Errorf("on the other, %v later: %d", store.KeyCacheTTL, r.code)
	}
}

// TestSharedLimitFailsOpen: when the shared count cannot be written (a
// read-only database, here its table gone), requests with a key and
// without one are still answered, uncounted, and the failure is logged.
func TestSharedLimitFailsOpen(t *testing.T) {
	e := newEnv(t, func(o *Options) { o.ShareLimits(o.Store, 6, 6) })
	_, key := e.user("ada@example.com")
	storetest.Exec(t, e.where, `DROP TABLE rate_buckets`)
	for range 8 { // more than the limit: nothing is counted
		if r := e.do(req{method: "GET", path: "/api/me", key: key}); r.code != 200 {
			t.Fatalf("with a key: %d %s", r.code, r.body)
		}
	}
	if r := e.do(req{method: "GET", path: "/api/nothing"}); r.code != 404 {
		t.Errorf("without a key: %d %s", r.code, r.body)
	}
	if !strings.Contains(e.logs.String(), "went through uncounted") {
		t.Errorf("the failure is not logged: %s", e.logs.String())
	}
}
