package cli

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net"
	"net/http"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"kith/store"
)

func TestBootFirstStartPrintsAWorkingKeyOnce(t *testing.T) {
	dir := t.TempDir()
	cfg := filepath.Join(dir, "kith.yaml")
	os.WriteFile(cfg, []byte("db: "+filepath.Join(dir, "kith.db")+"\nbootstrap:\n  email: Owner@Example.com\n"), 0o600)

	s := startServer(t, "--config", cfg)
	addr := s.addr(t)
	out := s.stdout.String()
	key := regexp.MustCompile(`API key:\s+(\S+)`).FindStringSubmatch(out)
	password := regexp.MustCompile(`password:\s+(\S+)`).FindStringSubmatch(out)
	if key == nil || password == nil || !strings.Contains(out, "owner@example.com") || !strings.Contains(out, "http://"+addr+"/api/me") {
		t.Fatalf("first start printed:\n%s", out)
	}
	code, body := get(t, "http://"+addr+"/api/me", key[1])
	if code != 200 || !strings.Contains(body, `"email":"owner@example.com"`) {
		t.Fatalf("the printed key: %d %s", code, body)
	}
	res, err := http.Post("http://"+addr+"/api/login?email=owner@example.com&password="+password[1], "", nil)
	if err != nil || res.StatusCode != 200 {
		t.Fatalf("the printed password: %v %v", res, err)
	}
	res.Body.Close()
	if code, _ := get(t, "http://"+addr+"/api/health", ""); code != 200 {
		t.Errorf("health: %d", code)
	}
	s.shutdown(t)
	if !strings.Contains(s.stderr.String(), `"message":"stopped"`) {
		t.Errorf("no clean stop: %s", s.stderr.String())
	}

	again := startServer(t, "--config", cfg)
	again.addr(t)
	if out := again.stdout.String(); out != "" {
		t.Errorf("second start printed credentials again:\n%s", out)
	}
}

func TestBootRefusesABadConfiguration(t *testing.T) {
	t.Setenv("KITH_LOG_LEVEL", "loud")
	var stdout, stderr bytes.Buffer
	code := run(context.Background(), []string{"serve", "--db", filepath.Join(t.TempDir(), "k.db")}, &stdout, &stderr)
	if code != 1 || !strings.Contains(stderr.String(), "log.level") {
		t.Errorf("exit %d, stderr %q", code, stderr.String())
	}
}

func TestBootRefusesATakenAddressWithoutCreatingTheUser(t *testing.T) {
	s := startServer(t, "--db", filepath.Join(t.TempDir(), "first.db"))
	addr := s.addr(t)
	db := filepath.Join(t.TempDir(), "second.db")
	var stdout, stderr bytes.Buffer
	code := run(context.Background(), []string{"serve", "--db", db, "--addr", addr}, &stdout, &stderr)
	if code != 1 || !strings.Contains(stderr.String(), "addr") || stdout.Len() != 0 {
		t.Fatalf("exit %d, stdout %q, stderr %q", code, stdout.String(), stderr.String())
	}
	st, err := store.Open(context.Background(), db)
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	if creds, err := st.Bootstrap(context.Background(), "admin@example.com"); creds == nil || err != nil {
		t.Errorf("a failed start created the first user, whose password nobody saw: %v", err)
	}
}

// TestBootRefusesADatabaseInUse: a second server on one database is
// refused at once, whatever its address, and says who has it.
func TestBootRefusesADatabaseInUse(t *testing.T) {
	db := filepath.Join(t.TempDir(), "kith.db")
	startServer(t, "--db", db).addr(t)
	var stdout, stderr bytes.Buffer
	code := run(context.Background(), []string{"serve", "--db", db, "--addr", "127.0.0.1:0"}, &stdout, &stderr)
	if want := fmt.Sprintf("another kith server (pid %d) has %s open", os.Getpid(), db); code != 1 || !strings.Contains(stderr.String(), want) {
		t.Errorf("exit %d, stderr %q, want %q", code, stderr.String(), want)
	}
}

// TestFlagsAloneMeanServe: "kith --db X" serves, as "kith serve --db X".
func TestFlagsAloneMeanServe(t *testing.T) {
	s := startRun(t, []string{"--db", filepath.Join(t.TempDir(), "k.db"), "--addr", "127.0.0.1:0"})
	addr := s.addr(t)
	if code, _ := get(t, "http://"+addr+"/api/health", ""); code != 200 || !strings.Contains(s.stdout.String(), "API key:") {
		t.Errorf("health %d, stdout %s", code, s.stdout.String())
	}
}

// TestPprofListener: debug.pprof_addr serves the profiler apart from the API.
func TestPprofListener(t *testing.T) {
	t.Setenv("KITH_DEBUG_PPROF_ADDR", "127.0.0.1:0")
	s := startServer(t, "--db", filepath.Join(t.TempDir(), "k.db"))
	s.addr(t)
	m := regexp.MustCompile(`"addr":"([^"]+)","time":"[^"]+","message":"profiler listening`).FindStringSubmatch(s.stderr.String())
	if m == nil {
		t.Fatalf("no profiler line: %s", s.stderr.String())
	}
	if code, body := get(t, "http://"+m[1]+"/debug/pprof/", ""); code != 200 || !strings.Contains(body, "goroutine") {
		t.Errorf("profiler index: %d", code)
	}
}

// TestLogFormats: json by default, one object a line; console gives
// people's lines, without colour codes when not written to a terminal.
func TestLogFormats(t *testing.T) {
	s := startServer(t, "--db", filepath.Join(t.TempDir(), "k.db"))
	s.addr(t)
	s.shutdown(t)
	for _, line := range strings.Split(strings.TrimSpace(s.stderr.String()), "\n") {
		if !json.Valid([]byte(line)) {
			t.Errorf("json format wrote %q", line)
		}
	}

	t.Setenv("KITH_LOG_FORMAT", "console")
	c := startRun(t, []string{"serve", "--db", filepath.Join(t.TempDir(), "k.db"), "--addr", "127.0.0.1:0"})
	deadline := time.Now().Add(10 * time.Second)
	for !strings.Contains(c.stderr.String(), "listening") && time.Now().Before(deadline) {
		time.Sleep(10 * time.Millisecond)
	}
	c.shutdown(t)
	out := c.stderr.String()
	if !strings.Contains(out, "INF listening") || strings.Contains(out, `"message"`) || strings.Contains(out, "\x1b[") {
		t.Errorf("console format wrote:\n%s", out)
	}
	devnull, _ := os.Open(os.DevNull)
	defer devnull.Close()
	if isTerminal(devnull) {
		t.Error("/dev/null taken for a terminal")
	}
}

// TestShutdownPastItsDeadline: a client still holding a connection when
// the drain deadline passes is cut off, the log says so, and the stop is
// still an orderly one: exit 0.
func TestShutdownPastItsDeadline(t *testing.T) {
	defer func(d time.Duration) { shutdownTimeout = d }(shutdownTimeout)
	shutdownTimeout = 300 * time.Millisecond
	s := startServer(t, "--db", filepath.Join(t.TempDir(), "k.db"))
	addr := s.addr(t)
	// Half a request: the server waits for the rest (up to its 5 s header
	// timeout), so the drain cannot finish.
	c, err := net.Dial("tcp", addr)
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	if _, err := c.Write([]byte("GET /api/health HTTP/1.1\r\nHost: kith\r\n")); err != nil {
		t.Fatal(err)
	}
	time.Sleep(100 * time.Millisecond) // the server has it
	start := time.Now()
	s.once.Do(func() {
		s.stop()
		select {
		case code := <-s.done:
			if code != 0 {
				t.Errorf("exit %d after the drain deadline, want 0: %s", code, s.stderr.String())
			}
		case <-time.After(4 * time.Second):
			t.Fatalf("serve did not stop within 4 s: %s", s.stderr.String())
		}
	})
	if d := time.Since(start); d > 3*time.Second {
		t.Errorf("the stop took %v with a %v deadline", d, shutdownTimeout)
	}
	logs := s.stderr.String()
	if !strings.Contains(logs, "shutdown deadline passed") || !strings.Contains(logs, `"connections":1`) ||
		!strings.Contains(logs, `"message":"stopped"`) {
		t.Errorf("the log does not say what was cut off:\n%s", logs)
	}
	c.SetReadDeadline(time.Now().Add(2 * time.Second))
	if n, err := c.Read(make([]byte, 1)); n != 0 || errors.Is(err, os.ErrDeadlineExceeded) {
		t.Errorf("the connection was left open: %d %v", n, err)
	}
}

// TestBaseURLWarning: without base_url a link takes its host from the
// request, with SMTP or without (then the link goes to the log), so the
// start warns in both cases, and not once base_url is set.
func TestBaseURLWarning(t *testing.T) {
	cases := []struct {
		name string
		env  map[string]string
		want string // "" for no warning
	}{
		{"without smtp", nil, "base_url is not set: links in responses and verification and invitation links written to this log take their host from each request's Host header"},
		{"with smtp", map[string]string{"KITH_SMTP_HOST": "127.0.0.1", "KITH_SMTP_FROM": "kith@example.com"},
			"base_url is not set: links in responses and verification and invitation links in emails take their host from each request's Host header"},
		{"with base_url", map[string]string{"KITH_BASE_URL": "https://kith.example.org"}, ""},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			for k, v := range tc.env {
				t.Setenv(k, v)
			}
			s := startServer(t, "--db", filepath.Join(t.TempDir(), "k.db"))
			s.addr(t)
			logs := s.stderr.String()
			// The start's warning, the first: digests say later, once, that
			// they carry no action links.
			var line string
			for _, l := range strings.Split(logs, "\n") {
				if strings.Contains(l, "base_url is not set") {
					line = l
					break
				}
			}
			switch {
			case tc.want == "" && line != "":
				t.Errorf("warned with base_url set: %s", line)
			case tc.want != "" && (!strings.Contains(line, tc.want) || !strings.Contains(line, `"level":"warn"`)):
				t.Errorf("no warning %q in:\n%s", tc.want, logs)
			}
		})
	}
}

// TestPprofOffLoopbackWarns: the profiler needs no key, so an address
// other than loopback is worth a warning at start; loopback is not.
func TestPprofOffLoopbackWarns(t *testing.T) {
	const warning = "debug.pprof_addr is not a loopback address"
	for addr, want := range map[string]bool{":0": true, "0.0.0.0:0": true, "127.0.0.1:0": false, "localhost:0": false} {
		t.Run(addr, func(t *testing.T) {
			t.Setenv("KITH_DEBUG_PPROF_ADDR", addr)
			s := startServer(t, "--db", filepath.Join(t.TempDir(), "k.db"))
			s.addr(t)
			logs := s.stderr.String()
			if got := strings.Contains(logs, warning); got != want {
				t.Errorf("warned %v, want %v:\n%s", got, want, logs)
			}
			if want && !strings.Contains(logs, `"level":"warn","addr"`) {
				t.Errorf("not at warn level:\n%s", logs)
			}
		})
	}
}
