package server

import (
	"net/http"
	"net/http/httptest"
	"strconv"
	"strings"
	"testing"

	"kith/rate"
)

// scrape reads the server's metrics as Prometheus would: series → value.
func (e *env) scrape() (map[string]float64, string) {
	e.t.Helper()
	rec := httptest.NewRecorder()
	e.srv.MetricsHandler().ServeHTTP(rec, httptest.NewRequest("GET", "/metrics", nil))
	if rec.Code != 200 || !strings.HasPrefix(rec.Header().Get("Content-Type"), "text/plain; version=0.0.4") {
		e.t.Fatalf("metrics: %d %s", rec.Code, rec.Header())
	}
	series := map[string]float64{}
	for line := range strings.Lines(rec.Body.String()) {
		line = strings.TrimSpace(line)
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		i := strings.LastIndexByte(line, ' ')
		v, err := strconv.ParseFloat(line[i+1:], 64)
		if i < 0 || err != nil {
			e.t.Fatalf("not a sample: %q", line)
		}
		series[line[:i]] = v
	}
	return series, rec.Body.String()
}

// raw sends a request past the test's OpenAPI check, for what no client
// of the API sends.
func (e *env) raw(hr *http.Request) int {
	rec := httptest.NewRecorder()
	e.srv.ServeHTTP(rec, hr)
	return rec.Code
}

// TestMetricsAfterTraffic: after requests, failed and throttled logins, a
// rate-limited request and reminders sent and failed, each series is there
// with its labels and its count.
func TestMetricsAfterTraffic(t *testing.T) {
	ok, _ := newReceiver(t)
	down, _ := newReceiver(t)
	down.setStatus(503)
	e := newEnv(t, func(o *Options) { o.Limiter = rate.New(60) })
	_, key := e.user("ada@example.com")
	e.user("grace@example.com")

	// Requests: one route, two outcomes; paths no route has.
	id := e.person(key, "first_name=Zoë")
	e.do(req{method: "GET", path: "/api/persons/" + id, key: key})
	e.do(req{method: "GET", path: "/api/persons/999999", key: key})
	e.do(req{method: "GET", path: "/api/nothing/42", key: key})
	e.raw(httptest.NewRequest("BREW", "/api/coffee/1", nil))

	// Five wrong passwords, then the throttle; a wrong CardDAV key.
	for range 5 {
		e.loginAs("ada@example.com", "wrong horse", "192.0.2.7:1000")
	}
	if r := e.loginAs("ada@example.com", "wrong horse", "192.0.2.7:1000"); r.code != 429 {
		t.Fatalf("sixth login: %d, want 429", r.code)
	}
	if r := e.loginAs("grace@example.com", "correct horse", "192.0.2.8:1000"); r.code != 200 {
		t.Fatalf("grace's login: %d %s", r.code, r.body)
	}
	dav := httptest.NewRequest("PROPFIND", "/dav/", nil)
	dav.SetBasicAuth("grace@example.com", "not-a-key")
	if code := e.raw(dav); code != 401 {
		t.Fatalf("carddav with a wrong key: %d", code)
	}

	// 60 a minute from one address, and the clock stands still: the 61st
	// is refused.
	for i := range 61 {
		r := e.do(req{method: "GET", path: "/api/me", remote: "198.51.100.9:1000"})
		if want := map[bool]int{true: 429, false: 401}[i == 60]; r.code != want {
			t.Fatalf("request %d: %d, want %d", i+1, r.code, want)
		}
	}

	// A digest to ntfy that arrives, one to a webhook that fails.
	e.birthday(key, "Zoë", 1990, 3, 15, true)
	e.channel(key, "kind=ntfy&url="+ok.URL+"/ada")
	e.channel(key, "kind=webhook&url="+down.URL+"/hook")
	e.pass()

	got, text := e.scrape()
	want := map[string]float64{
		`kith_http_requests_total{route="/api/persons/:person",method="GET",status="2xx"}`:  1,
		`kith_http_requests_total{route="/api/persons/:person",method="GET",status="4xx"}`:  1,
		`kith_http_requests_total{route="/api/persons",method="POST",status="2xx"}`:         2, // Zoë twice
		`kith_http_requests_total{route="/api/login",method="POST",status="4xx"}`:           6,
		`kith_http_requests_total{route="/api/me",method="GET",status="4xx"}`:               61,
		`kith_http_requests_total{route="unmatched",method="GET",status="4xx"}`:             1,
		`kith_http_requests_total{route="unmatched",method="other",status="4xx"}`:           1,
		`kith_http_requests_total{route="/dav/*",method="PROPFIND",status="4xx"}`:           1,
		`kith_http_request_duration_seconds_count{route="/api/persons/:person"}`:            2,
		`kith_http_request_duration_seconds_bucket{route="/api/persons/:person",le="+Inf"}`: 2,
		`kith_http_request_duration_seconds_bucket{route="/api/persons/:person",le="10"}`:   2,
		`kith_http_requests_total{route="/api/login",method="POST",status="2xx"}`:           1,
		`kith_sign_ins_total{via="api"}`:                                                    1,
		`kith_sign_ins_total{via="web"}`:                                                    0,
		`kith_sign_ins_total{via="invitation"}`:                                             0,
		`kith_sign_ins_total{via="passkey"}`:                                                0,
		`kith_sign_ins_total{via="oidc"}`:                                                   0,
		`kith_login_failures_total{via="passkey"}`:                                          0,
		`kith_login_failures_total{via="oidc"}`:                                             0,
		`kith_login_failures_total{via="api"}`:                                              5,
		`kith_login_failures_total{via="web"}`:                                              0,
		`kith_login_failures_total{via="carddav"}`:                                          1,
		`kith_login_throttled_total{via="api"}`:                                             1,
		`kith_login_throttled_total{via="web"}`:                                             0,
		`kith_login_throttled_total{via="carddav"}`:                                         0,
		`kith_rate_limited_total`:                                                           1,
		`kith_reminders_sent_total{kind="ntfy"}`:                                            1,
		`kith_reminders_failed_total{kind="ntfy"}`:                                          0,
		`kith_reminders_sent_total{kind="webhook"}`:                                         0,
		`kith_reminders_failed_total{kind="webhook"}`:                                       1,
		`kith_reminders_sent_total{kind="gotify"}`:                                          0,
		`kith_reminders_failed_total{kind="gotify"}`:                                        0,
		`kith_db_writer_queue`:                                                              0,
		`kith_db_reader_in_use`:                                                             0,
	}
	for name, v := range want {
		if g, ok := got[name]; !ok || g != v {
			t.Errorf("%s = %v (present: %v), want %v", name, g, ok, v)
		}
	}
	for _, name := range []string{`kith_reminders_sent_total{kind="email"}`, `kith_reminders_failed_total{kind="email"}`,
		`kith_db_reader_wait_total`, `kith_db_reader_wait_seconds_total`, `kith_db_writer_wait_total`,
		`kith_db_writer_wait_seconds_total`, `go_goroutines`, `process_resident_memory_bytes`} {
		if _, ok := got[name]; !ok {
			t.Errorf("no series %s", name)
		}
	}
	for _, name := range []string{`kith_db_reader_max_open`, `kith_db_reader_open`, `kith_db_writes_total`, `kith_db_commits_total`} {
		if got[name] < 1 {
			t.Errorf("%s = %v, want at least 1", name, got[name])
		}
	}
	// Routes are patterns: no id, no path a client made up, no method.
	for _, leak := range []string{`/api/persons/` + id + `"`, "/api/persons/999999", "/api/nothing", "coffee", "BREW"} {
		if strings.Contains(text, leak) {
			t.Errorf("the metrics hold %q", leak)
		}
	}
}

// TestMetricsOfServersApart: each server counts its own requests.
func TestMetricsOfServersApart(t *testing.T) {
	a, b := newEnv(t), newEnv(t)
	a.do(req{method: "GET", path: "/api/health"})
	const health = `kith_http_requests_total{route="/api/health",method="GET",status="2xx"}`
	if got, _ := a.scrape(); got[health] != 1 {
		t.Errorf("a: %v", got[health])
	}
	if got, _ := b.scrape(); got[health] != 0 {
		t.Errorf("b counted a's request: %v", got[health])
	}
}
