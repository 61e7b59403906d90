package server

import (
	"strings"
	"testing"

	"kith/rate"
)

// TestEveryAnswerIsPrivate: answers, errors included, tell caches not to
// keep them and browsers not to guess their type.
func TestEveryAnswerIsPrivate(t *testing.T) {
	e := newEnv(t, func(o *Options) { o.Limiter = rate.New(1000) })
	_, token := e.user("ada@example.com")
	id := e.person(token, "first_name=Jim")
	for _, r := range []req{
		{method: "GET", path: "/api/health"},
		{method: "GET", path: "/api/openapi.json"},
		{method: "POST", path: "/api/login?email=ada@example.com&password=correct%20horse"},
		{method: "POST", path: "/api/login?email=ada@example.com&password=wrong"},
		{method: "GET", path: "/api/me", key: token},
		{method: "GET", path: "/api/me"},
		{method: "POST", path: "/api/persons?first_name=Michael", key: token},
		{method: "POST", path: "/api/persons", key: token},
		{method: "POST", path: "/api/persons", key: token, body: `{"first_name":`},
		{method: "POST", path: "/api/persons", key: token, body: `{"pad":"` + strings.Repeat("x", 1<<20) + `"}`},
		{method: "GET", path: "/api/persons/999", key: token},
		{method: "DELETE", path: "/api/persons/" + id, key: token},
		{method: "GET", path: "/api/nothing"},
		{method: "POST", path: "/api/me", key: token},
		{method: "OPTIONS", path: "/api/me", header: map[string]string{"Origin": "https://app.example", "Access-Control-Request-Method": "PUT"}},
	} {
		got := e.do(r)
		if got.header.Get("Cache-Control") != "no-store" || got.header.Get("X-Content-Type-Options") != "nosniff" {
			t.Errorf("%s %s (%d): Cache-Control %q, X-Content-Type-Options %q", r.method, r.path, got.code,
				got.header.Get("Cache-Control"), got.header.Get("X-Content-Type-Options"))
		}
	}
}
