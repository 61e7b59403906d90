package server

import (
	"net/http"
	"strings"
	"testing"
	"time"

	"kith/rate"
)

// TestWebPagesAreNotAPICalls: with the API's limit at 5 a minute, a
// signed-in person loads 40 pages in a row without a 429 (web-app.md §8),
// and the pages' own limit counts apart from the API's both ways.
func TestWebPagesAreNotAPICalls(t *testing.T) {
	e := newEnv(t, func(o *Options) { o.Limiter, o.PageLimiter = rate.New(5), rate.New(600) })
	_, key := e.user("ada@example.com")
	b := e.signIn(t, "ada@example.com")
	paths := []string{"/", "/people", "/journals", "/settings", "/people/new"}
	for i := range 40 {
		if pg := b.get(paths[i%len(paths)]); pg.code != http.StatusOK {
			t.Fatalf("page %d, %s: %d", i+1, paths[i%len(paths)], pg.code)
		}
	}
	for i := range 5 {
		if r := e.do(req{method: "GET", path: "/api/me", key: key}); r.code != http.StatusOK || r.header.Get("X-RateLimit-Limit") != "5" {
			t.Fatalf("API request %d after 40 pages: %d %v", i+1, r.code, r.header)
		}
	}
	if r := e.do(req{method: "GET", path: "/api/me", key: key}); r.code != http.StatusTooManyRequests || !strings.Contains(r.body, `"message":"Too Many Attempts."`) {
		t.Errorf("sixth API request: %d %s", r.code, r.body)
	}
	// The API's budget spent, pages still load.
	if pg := b.get("/people"); pg.code != http.StatusOK {
		t.Errorf("a page once the API's budget is spent: %d", pg.code)
	}
}

// TestWebPageLimitSaysHowLongToWait: the pages' own limit trips on a
// page that says so in seconds, under one heading, with Retry-After; the
// API's budget stays whole.
func TestWebPageLimitSaysHowLongToWait(t *testing.T) {
	e := newEnv(t, func(o *Options) { o.Limiter, o.PageLimiter = rate.New(5), rate.New(3) })
	_, key := e.user("ada@example.com")
	b := e.signIn(t, "ada@example.com") // its dashboard is the user's first page
	for range 2 {
		b.get("/people").status(t, http.StatusOK)
	}
	pg := b.get("/people")
	pg.status(t, http.StatusTooManyRequests)
	// 3 a minute refill one every 20 s.
	if pg.header.Get("Retry-After") != "20" {
		t.Errorf("Retry-After %q, want 20", pg.header.Get("Retry-After"))
	}
	pg.has(t, "Try again in 20 seconds.")
	if n := strings.Count(pg.body, "<h1"); n != 1 {
		t.Errorf("%d <h1> on the page of the tripped limit", n)
	}
	if r := e.do(req{method: "GET", path: "/api/me", key: key}); r.code != http.StatusOK || r.header.Get("X-RateLimit-Remaining") != "4" {
		t.Errorf("the API after the pages' limit tripped: %d %v", r.code, r.header)
	}
	e.clock.Advance(19 * time.Second)
	b.get("/people").has(t, "Try again in 1 second.")
	e.clock.Advance(time.Second)
	b.get("/people").status(t, http.StatusOK)
}

// TestWebLoginThrottleSaysHowLongToWait: after five wrong passwords for
// one email, the sign-in form says how many seconds to wait, as
// Retry-After does, while the API's answer keeps the contract's words.
func TestWebLoginThrottleSaysHowLongToWait(t *testing.T) {
	e := newEnv(t)
	e.user("ada@example.com")
	b := e.browser(t)
	for range 5 {
		loginWith(b, "ada@example.com", "wrong horse").status(t, http.StatusUnauthorized)
	}
	e.clock.Advance(18 * time.Second)
	pg := loginWith(b, "ada@example.com", "wrong horse")
	pg.status(t, http.StatusTooManyRequests)
	if pg.header.Get("Retry-After") != "42" {
		t.Errorf("Retry-After %q, want 42", pg.header.Get("Retry-After"))
	}
	pg.has(t, "Try again in 42 seconds.")
	if n := strings.Count(pg.body, "<h1"); n != 1 {
		t.Errorf("%d <h1> on the throttled sign-in page", n)
	}
	if r := e.do(req{method: "POST", path: "/api/login", body: `{"email":"ada@example.com","password":"wrong horse"}`}); r.code != http.StatusTooManyRequests ||
		strings.TrimSpace(r.body) != `{"message":"Too Many Attempts.","status":429}` {
		t.Errorf("the API's throttled login: %d %s", r.code, r.body)
	}
	e.clock.Advance(41 * time.Second)
	loginWith(b, "ada@example.com", "wrong horse").has(t, "Try again in 1 second.")
}
