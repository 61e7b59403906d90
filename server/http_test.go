package server

import (
	"context"
	"errors"
	"io"
	"net/http"
	"net/http/httptest"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/labstack/echo/v4"

	"kith/rate"
)

func TestRoutingErrors(t *testing.T) {
	e := newEnv(t)
	_, token := e.user("ada@example.com")
	e.run(t, []scenario{
		{"unknown route without a key is 404, not 401", req{method: "GET", path: "/api/nothing"}, 404, errBody(404, "Not found.")},
		{"unknown route outside /api", req{method: "GET", path: "/nothing"}, 404, errBody(404, "Not found.")},
		{"unknown route with a key", req{method: "GET", path: "/api/nothing", key: token}, 404, errBody(404, "Not found.")},
		{"wrong method", req{method: "POST", path: "/api/me", key: token}, 405, errBody(405, "Method not allowed.")},
		{"wrong method on a public route", req{method: "DELETE", path: "/api/health"}, 405, errBody(405, "Method not allowed.")},
		{"a segment after an id", req{method: "GET", path: "/api/administration/genders/3/x", key: token}, 404, errBody(404, "Not found.")},
		{"a segment after an id, with a method the id's route lacks", req{method: "POST", path: "/api/persons/1/notes/1/x", key: token}, 404, errBody(404, "Not found.")},
		{"a segment after a date", req{method: "GET", path: "/api/journals/1/2025/1/1/1", key: token}, 404, errBody(404, "Not found.")},
		{"a segment after an id, without a key", req{method: "DELETE", path: "/api/administration/genders/3/x"}, 404, errBody(404, "Not found.")},
		{"errors are JSON whatever Accept says", req{method: "GET", path: "/api/me", header: map[string]string{"Accept": "text/html"}},
			401, errBody(401, "Unauthenticated.")},
	})
	r := e.do(req{method: "POST", path: "/api/me", key: token})
	if !strings.Contains(r.header.Get("Allow"), "GET") || r.header.Get("Content-Type") != "application/json" {
		t.Errorf("405 headers: %v", r.header)
	}
}

func TestRequestID(t *testing.T) {
	e := newEnv(t)
	r := e.do(req{method: "GET", path: "/api/health"})
	if len(r.header.Get("X-Request-Id")) < 20 {
		t.Errorf("no generated request id: %q", r.header.Get("X-Request-Id"))
	}
	r = e.do(req{method: "GET", path: "/api/health", header: map[string]string{"X-Request-Id": "proxy-id.42"}})
	if r.header.Get("X-Request-Id") != "proxy-id.42" {
		t.Errorf("a proxy's id is kept: %q", r.header.Get("X-Request-Id"))
	}
	r = e.do(req{method: "GET", path: "/api/health", header: map[string]string{"X-Request-Id": "evil\" id " + strings.Repeat("x", 80)}})
	if strings.Contains(r.header.Get("X-Request-Id"), "evil") {
		t.Errorf("a malformed id is replaced: %q", r.header.Get("X-Request-Id"))
	}
}

func TestAccessLogHidesSecrets(t *testing.T) {
	e := newEnv(t)
	_, token := e.user("ada@example.com")
	e.do(req{method: "POST", path: "/api/login?email=ada@example.com&password=correct%20horse"})
	e.do(req{method: "GET", path: "/api/me", key: token})
	logs := e.logs.String()
	if !strings.Contains(logs, `"path":"/api/login"`) || !strings.Contains(logs, `"status":200`) {
		t.Fatalf("no access line: %s", logs)
	}
	_, secret, _ := strings.Cut(token, "|")
	for _, leak := range []string{"correct", "horse", secret, "Bearer"} {
		if strings.Contains(logs, leak) {
			t.Errorf("the log holds %q: %s", leak, logs)
		}
	}
}

func TestPanicIsAServerError(t *testing.T) {
	allow5xx[t.Name()] = true
	e := newEnv(t)
	e.srv.echo.GET("/api/boom", func(echo.Context) error { panic("kaboom") })
	e.srv.echo.GET("/api/fail", func(echo.Context) error { return errors.New("disk on fire at /var/lib/kith") })
	for _, path := range []string{"/api/boom", "/api/fail"} {
		r := e.do(req{method: "GET", path: path})
		if r.code != 500 || r.body != `{"message":"Server Error.","status":500}`+"\n" {
			t.Errorf("%s: %d %s", path, r.code, r.body)
		}
		id := r.header.Get("X-Request-Id")
		if !strings.Contains(e.logs.String(), id) {
			t.Errorf("%s: the request id is not in the log", path)
		}
	}
	if !strings.Contains(e.logs.String(), "kaboom") || !strings.Contains(e.logs.String(), "disk on fire") {
		t.Errorf("causes are not logged: %s", e.logs.String())
	}
}

func TestBodyLimit(t *testing.T) {
	e := newEnv(t)
	_, token := e.user("ada@example.com")
	justUnder := `{"label":"fits","pad":"` + strings.Repeat("x", 1<<20-40) + `"}`
	over := `{"label":"too big","pad":"` + strings.Repeat("x", 1<<20) + `"}`
	e.run(t, []scenario{
		{"a body under 1 MiB is read", req{method: "POST", path: "/api/administration/api", key: token, body: justUnder}, 201, []string{`"name":"fits"`}},
		{"a body over 1 MiB is refused", req{method: "POST", path: "/api/administration/api", key: token, body: over},
			413, errBody(413, "The request body is too large.")},
		{"a form over 1 MiB is refused", req{method: "POST", path: "/api/administration/api", key: token,
			ctype: "application/x-www-form-urlencoded", body: "label=x&pad=" + strings.Repeat("x", 1<<20)},
			413, errBody(413, "The request body is too large.")},
	})

	// Without a Content-Length the limit still holds while reading.
	hr := httptest.NewRequest("POST", "/api/administration/api", io.MultiReader(strings.NewReader(over)))
	hr.ContentLength = -1
	hr.Header.Set("Content-Type", "application/json")
	hr.Header.Set("Authorization", "Bearer "+token)
	rec := httptest.NewRecorder()
	e.srv.ServeHTTP(rec, hr)
	if rec.Code != 413 {
		t.Errorf("chunked body over 1 MiB: %d, want 413", rec.Code)
	}
	if r := e.do(req{method: "GET", path: "/api/administration/api", key: token}); strings.Contains(r.body, "too big") {
		t.Errorf("a refused body created a key: %s", r.body)
	}
}

func TestCORS(t *testing.T) {
	e := newEnv(t)
	r := e.do(req{method: "OPTIONS", path: "/api/me", header: map[string]string{
		"Origin": "https://app.example", "Access-Control-Request-Method": "PUT", "Access-Control-Request-Headers": "authorization, content-type"}})
	if r.code != 204 || r.header.Get("Access-Control-Allow-Origin") != "*" ||
		!strings.Contains(r.header.Get("Access-Control-Allow-Methods"), "PUT") ||
		!strings.Contains(strings.ToLower(r.header.Get("Access-Control-Allow-Headers")), "authorization") {
		t.Errorf("preflight: %d %v", r.code, r.header)
	}
	if r.header.Get("Access-Control-Allow-Credentials") != "" {
		t.Errorf("credentials must not be allowed")
	}
	r = e.do(req{method: "GET", path: "/api/health", header: map[string]string{"Origin": "https://app.example"}})
	if r.header.Get("Access-Control-Allow-Origin") != "*" {
		t.Errorf("simple request: %v", r.header)
	}

	e = newEnv(t, func(o *Options) { o.CORSOrigins = []string{"https://mine.example"} })
	r = e.do(req{method: "GET", path: "/api/health", header: map[string]string{"Origin": "https://other.example"}})
	if r.header.Get("Access-Control-Allow-Origin") != "" {
		t.Errorf("an origin not configured is allowed: %v", r.header)
	}
}

func TestRateLimitPerUser(t *testing.T) {
	e := newEnv(t, func(o *Options) { o.Limiter = rate.New(3) })
	_, ada := e.user("ada@example.com")
	_, bob := e.user("bob@example.com")
	for i := range 3 {
		r := e.do(req{method: "GET", path: "/api/me", key: ada})
		if r.code != 200 || r.header.Get("X-RateLimit-Limit") != "3" || r.header.Get("X-RateLimit-Remaining") != strconv.Itoa(2-i) {
			t.Fatalf("request %d: %d limit=%q remaining=%q", i+1, r.code, r.header.Get("X-RateLimit-Limit"), r.header.Get("X-RateLimit-Remaining"))
		}
	}
	r := e.do(req{method: "GET", path: "/api/me", key: ada})
	if r.code != 429 || !strings.Contains(r.body, `"message":"Too Many Attempts."`) {
		t.Fatalf("fourth request: %d %s", r.code, r.body)
	}
	now := e.clock.Now().Unix()
	// 3 a minute refill one token every 20 s.
	if r.header.Get("Retry-After") != "20" || r.header.Get("X-RateLimit-Remaining") != "0" ||
		r.header.Get("X-RateLimit-Reset") != strconv.FormatInt(now+20, 10) {
		t.Errorf("429 headers: %v", r.header)
	}
	if r := e.do(req{method: "GET", path: "/api/me", key: bob}); r.code != 200 {
		t.Errorf("another user is limited by ada's use: %d", r.code)
	}
	e.clock.Advance(20 * time.Second)
	if r := e.do(req{method: "GET", path: "/api/me", key: ada}); r.code != 200 {
		t.Errorf("after the refill: %d", r.code)
	}
}

func TestRateLimitPerClientAddress(t *testing.T) {
	e := newEnv(t, func(o *Options) { o.Limiter = rate.New(2) })
	spoof := func(xff string) req {
		return req{method: "GET", path: "/api/nothing", remote: "198.51.100.7:4000", header: map[string]string{"X-Forwarded-For": xff}}
	}
	e.do(spoof("1.1.1.1"))
	e.do(spoof("2.2.2.2"))
	if r := e.do(spoof("3.3.3.3")); r.code != 429 {
		t.Errorf("X-Forwarded-For from an untrusted peer chose a fresh bucket: %d", r.code)
	}
	if r := e.do(req{method: "GET", path: "/api/me", key: "1|bad", remote: "198.51.100.7:4000"}); r.code != 429 {
		t.Errorf("a bad key is counted against the address: %d", r.code)
	}
	if r := e.do(req{method: "GET", path: "/api/nothing", remote: "198.51.100.8:4000"}); r.code != 404 {
		t.Errorf("another address is limited: %d", r.code)
	}
	if r := e.do(req{method: "GET", path: "/api/health", remote: "198.51.100.7:4000"}); r.code != 200 || r.header.Get("X-RateLimit-Limit") != "" {
		t.Errorf("health is not rate limited: %d %v", r.code, r.header)
	}
}

func TestRateLimitBehindATrustedProxy(t *testing.T) {
	e := newEnv(t, func(o *Options) {
		o.Limiter = rate.New(1)
		o.TrustedProxies = []string{"10.0.0.0/8"}
	})
	viaProxy := func(client string) int {
		return e.do(req{method: "GET", path: "/api/nothing", remote: "10.1.2.3:80",
			header: map[string]string{"X-Forwarded-For": client}}).code
	}
	if viaProxy("203.0.113.1") != 404 || viaProxy("203.0.113.2") != 404 {
		t.Errorf("two clients behind the proxy have a bucket each")
	}
	if viaProxy("203.0.113.1") != 429 {
		t.Errorf("the same client behind the proxy is limited")
	}
}

func TestRateLimitOff(t *testing.T) {
	e := newEnv(t)
	for range 100 {
		if r := e.do(req{method: "GET", path: "/api/nothing"}); r.code != 404 || r.header.Get("X-RateLimit-Limit") != "" {
			t.Fatalf("with per_minute 0: %d %v", r.code, r.header)
		}
	}
}

func TestHTTPServerHasTimeouts(t *testing.T) {
	e := newEnv(t)
	hs := e.srv.HTTPServer()
	if hs.ReadHeaderTimeout <= 0 || hs.ReadTimeout <= 0 || hs.WriteTimeout <= 0 || hs.IdleTimeout <= 0 || hs.MaxHeaderBytes <= 0 {
		t.Errorf("timeouts and header limit must all be set: %+v", hs)
	}
	ts := httptest.NewUnstartedServer(hs.Handler)
	ts.Config.MaxHeaderBytes = hs.MaxHeaderBytes
	ts.Start()
	defer ts.Close()
	r, _ := http.NewRequest("GET", ts.URL+"/api/health", nil)
	r.Header.Set("X-Big", strings.Repeat("x", 128<<10))
	res, err := http.DefaultClient.Do(r)
	if err != nil {
		t.Fatal(err)
	}
	res.Body.Close()
	if res.StatusCode != http.StatusRequestHeaderFieldsTooLarge {
		t.Errorf("128 KiB of headers: %d, want 431", res.StatusCode)
	}
}

// TestClientGoneIsNoServerError: a request whose client went away while
// its work ran is no error of Kith's: 499 in the access log, the cause at
// info level, nothing at error level.
func TestClientGoneIsNoServerError(t *testing.T) {
	e := newEnv(t)
	_, key := e.user("ada@example.com")
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	hr := req{method: "GET", path: "/api/persons", key: key}.httpRequest().WithContext(ctx)
	rec := httptest.NewRecorder()
	e.srv.ServeHTTP(rec, hr)
	if rec.Code != 499 {
		t.Fatalf("status %d, want 499: %s", rec.Code, rec.Body)
	}
	logs := e.logs.String()
	if strings.Contains(logs, `"level":"error"`) || !strings.Contains(logs, "the client went away") || !strings.Contains(logs, `"status":499`) {
		t.Errorf("log: %s", logs)
	}
}
