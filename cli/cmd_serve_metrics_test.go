package cli

import (
	"bytes"
	"context"
	"encoding/json"
	"net"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// logAddr is the addr of the first log line whose message starts with msg.
func logAddr(logs, msg string) (string, bool) {
	for line := range strings.Lines(logs) {
		var entry struct{ Message, Addr string }
		if json.Unmarshal([]byte(line), &entry) == nil && strings.HasPrefix(entry.Message, msg) {
			return entry.Addr, true
		}
	}
	return "", false
}

// TestMetricsListener: metrics.addr serves the metrics apart from the API,
// with the API's requests counted, and stops with the server.
func TestMetricsListener(t *testing.T) {
	t.Setenv("KITH_METRICS_ADDR", "127.0.0.1:0")
	s := startServer(t, "--db", filepath.Join(t.TempDir(), "k.db"))
	addr := s.addr(t)
	maddr, ok := logAddr(s.stderr.String(), "metrics listening")
	if !ok {
		t.Fatalf("no metrics line: %s", s.stderr.String())
	}
	if code, _ := get(t, "http://"+addr+"/api/health", ""); code != 200 {
		t.Fatalf("health: %d", code)
	}
	wants := []string{
		`kith_http_requests_total{route="/api/health",method="GET",status="2xx"} 1`,
		`kith_http_request_duration_seconds_count{route="/api/health"} 1`,
		`kith_db_reader_open `, `kith_db_writer_queue 0`, `kith_rate_limited_total 0`,
		`kith_login_failures_total{via="api"} 0`, `kith_reminders_sent_total{kind="email"} 0`,
		`go_goroutines `,
	}
	// The request is counted as its answer goes out, which the client can
	// read a moment before: on a busy machine the first scrape may come
	// first, so a few more are allowed before a missing series fails.
	var code int
	var body string
	for try := 0; try < 50; try++ {
		if code, body = get(t, "http://"+maddr+"/metrics", ""); code == 200 && containsAll(body, wants) {
			break
		}
		time.Sleep(100 * time.Millisecond)
	}
	for _, want := range wants {
		if code != 200 || !strings.Contains(body, want) {
			t.Errorf("metrics %d, want %q in:\n%s", code, want, body)
		}
	}
	if code, _ := get(t, "http://"+maddr+"/api/health", ""); code != 404 {
		t.Errorf("the metrics address serves the API: %d", code)
	}
	if code, _ := get(t, "http://"+addr+"/metrics", ""); code != 404 {
		t.Errorf("the API serves the metrics: %d", code)
	}
	s.shutdown(t)
	if c, err := net.Dial("tcp", maddr); err == nil {
		c.Close()
		t.Error("the metrics address still answers after the shutdown")
	}
}

// TestMetricsOffByDefault: without metrics.addr nothing else listens.
func TestMetricsOffByDefault(t *testing.T) {
	s := startServer(t, "--db", filepath.Join(t.TempDir(), "k.db"))
	s.addr(t)
	if _, ok := logAddr(s.stderr.String(), "metrics listening"); ok {
		t.Errorf("metrics served without metrics.addr: %s", s.stderr.String())
	}
}

// TestMetricsAddressTakenRefusesToStart: a taken metrics.addr stops the
// start before the first user is made, as a taken addr does.
func TestMetricsAddressTakenRefusesToStart(t *testing.T) {
	taken, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer taken.Close()
	t.Setenv("KITH_METRICS_ADDR", taken.Addr().String())
	var stdout, stderr bytes.Buffer
	code := run(context.Background(), []string{"serve", "--db", filepath.Join(t.TempDir(), "k.db"), "--addr", "127.0.0.1:0"}, &stdout, &stderr)
	if code != 1 || !strings.Contains(stderr.String(), "metrics.addr (KITH_METRICS_ADDR)") || stdout.Len() != 0 {
		t.Errorf("exit %d, stdout %q, stderr %q", code, stdout.String(), stderr.String())
	}
}

func containsAll(s string, subs []string) bool {
	for _, sub := range subs {
		if !strings.Contains(s, sub) {
			return false
		}
	}
	return true
}
