package main

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"net"
	"net/http"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"sync"
	"testing"
	"time"

	"kith/store"
)

// buffer is a bytes.Buffer safe to read while run writes to it.
type buffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (b *buffer) Write(p []byte) (int, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.b.Write(p)
}

func (b *buffer) String() string {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.b.String()
}

// testServer runs "kith serve" until the test ends.
type testServer struct {
	stdout, stderr *buffer
	stop           context.CancelFunc
	done           chan int
	once           sync.Once
}

func startServer(t *testing.T, args ...string) *testServer {
	t.Helper()
	return startRun(t, append([]string{"serve", "--addr", "127.0.0.1:0"}, args...))
}

// startRun runs kith with exactly these arguments until the test ends.
func startRun(t *testing.T, args []string) *testServer {
	t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	s := &testServer{stdout: &buffer{}, stderr: &buffer{}, stop: cancel, done: make(chan int, 1)}
	go func() { s.done <- run(ctx, args, s.stdout, s.stderr) }()
	t.Cleanup(func() { s.shutdown(t) })
	return s
}

// addr waits for the "listening" log line and returns its address.
func (s *testServer) addr(t *testing.T) string {
	t.Helper()
	deadline := time.Now().Add(10 * time.Second)
	for time.Now().Before(deadline) {
		for _, line := range strings.Split(s.stderr.String(), "\n") {
			var entry struct{ Message, Addr string }
			if json.Unmarshal([]byte(line), &entry) == nil && entry.Message == "listening" {
				return entry.Addr
			}
		}
		select {
		case code := <-s.done:
			t.Fatalf("serve exited with %d: %s", code, s.stderr.String())
		case <-time.After(10 * time.Millisecond):
		}
	}
	t.Fatalf("no listening line: %s", s.stderr.String())
	return ""
}

// shutdown stops the server as SIGTERM would and checks it exits cleanly.
func (s *testServer) shutdown(t *testing.T) {
	s.once.Do(func() {
		s.stop()
		select {
		case code := <-s.done:
			if code != 0 {
				t.Errorf("serve exited with %d: %s", code, s.stderr.String())
			}
		case <-time.After(15 * time.Second):
			t.Error("serve did not stop within 15 s")
		}
	})
}

func get(t *testing.T, url, key string) (int, string) {
	t.Helper()
	return send(t, http.MethodGet, url, key)
}

func put(t *testing.T, url, key string) (int, string) {
	t.Helper()
	return send(t, http.MethodPut, url, key)
}

// send makes a request without a body and returns the status and body.
func send(t *testing.T, method, url, key string) (int, string) {
	t.Helper()
	r, _ := http.NewRequest(method, url, nil)
	if key != "" {
		r.Header.Set("Authorization", "Bearer "+key)
	}
	res, err := http.DefaultClient.Do(r)
	if err != nil {
		t.Fatal(err)
	}
	defer res.Body.Close()
	var b bytes.Buffer
	b.ReadFrom(res.Body)
	return res.StatusCode, b.String()
}

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

func TestCommands(t *testing.T) {
	db := filepath.Join(t.TempDir(), "kith.db")
	cmd := func(args ...string) (int, string, string) {
		var stdout, stderr bytes.Buffer
		code := run(context.Background(), args, &stdout, &stderr)
		return code, stdout.String(), stderr.String()
	}

	for _, help := range []string{"help", "--help", "-h"} {
		if code, out, _ := cmd(help); code != 0 || !strings.Contains(out, "Usage: kith") {
			t.Errorf("%s: %d %q", help, code, out)
		}
	}
	if code, out, _ := cmd("version"); code != 0 || out != "kith dev\n" {
		t.Errorf("version: %d %q", code, out)
	}
	if code, out, _ := cmd("migrate", "--db", db); code != 0 || !strings.Contains(out, "applied 0001_init\napplied 0002_persons_tasks\napplied 0003_email_verification\napplied 0004_health_probe\n") {
		t.Errorf("migrate: %d %q", code, out)
	}
	if code, out, _ := cmd("migrate", "--db", db); code != 0 || strings.Contains(out, "applied") || !strings.Contains(out, "schema version 4") {
		t.Errorf("migrate again: %d %q", code, out)
	}

	code, out, errOut := cmd("user", "create", "--db", db, "--email", "Grace@Example.com", "--first-name", "Grace", "--last-name", "Hopper")
	password := regexp.MustCompile(`password: (\S+)`).FindStringSubmatch(out)
	if code != 0 || !strings.Contains(out, "id: 1\n") || !strings.Contains(out, "email: grace@example.com") || password == nil {
		t.Fatalf("user create: %d %q %q", code, out, errOut)
	}
	code, out, _ = cmd("user", "create", "--db", db, "--email", "ada@example.com", "--first-name", "Ada", "--last-name", "L", "--password", "analytical engine")
	if code != 0 || strings.Contains(out, "password") || !strings.Contains(out, "account: 2\n") {
		t.Errorf("user create with a password prints it, or did not make a new account: %d %q", code, out)
	}
	code, out, errOut = cmd("user", "create", "--db", db, "--email", "grace.team@example.com", "--first-name", "G", "--last-name", "T", "--account", "1")
	if code != 0 || !strings.Contains(out, "id: 3\naccount: 1\n") {
		t.Errorf("user create --account 1: %d %q %q", code, out, errOut)
	}

	st, err := store.Open(context.Background(), db)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := st.Login(context.Background(), "grace@example.com", password[1]); err != nil {
		t.Errorf("the generated password does not log in: %v", err)
	}
	if _, err := st.Login(context.Background(), "ada@example.com", "analytical engine"); err != nil {
		t.Errorf("the given password does not log in: %v", err)
	}
	st.Close()

	failures := []struct {
		args []string
		code int
		want string
	}{
		{[]string{"user", "create", "--db", db, "--email", "GRACE@example.com", "--first-name", "G", "--last-name", "H"}, 1, "already exists"},
		{[]string{"user", "create", "--db", db, "--email", "x@example.com", "--first-name", "X", "--last-name", "Y", "--password", strings.Repeat("p", 73)}, 1, "8 to 72 bytes"},
		{[]string{"user", "create", "--db", db, "--email", "nope", "--first-name", "X", "--last-name", "Y"}, 1, "not an email"},
		{[]string{"user", "create", "--db", db, "--first-name", "X"}, 1, "--email"},
		{[]string{"user", "create", "--db", db, "--email", "x@example.com", "--first-name", "X", "--last-name", "Y", "--account", "99"}, 1, "--account 99: no such account"},
		{[]string{"user", "create", "--db", db, "--email", "x@example.com", "--first-name", "X", "--last-name", "Y", "--account", "one"}, 2, "account"},
		{[]string{"user", "create", "--db", db, "--bogus"}, 2, "bogus"},
		{[]string{"user", "verify", "--db", db}, 1, "needs --email"},
		{[]string{"user", "verify", "--db", db, "--email", "nobody@example.com"}, 1, "no user has the email nobody@example.com"},
		{[]string{"user", "verify", "--db", db, "--email", "g@example.com", "--first-name", "G"}, 2, "first-name"},
		{[]string{"frobnicate"}, 2, "unknown command"},
		{[]string{"migrate", "extra"}, 2, "unexpected argument"},
	}
	for _, f := range failures {
		code, _, errOut := cmd(f.args...)
		if code != f.code || !strings.Contains(errOut, f.want) {
			t.Errorf("%v: exit %d (want %d), stderr %q (want %q)", f.args, code, f.code, errOut, f.want)
		}
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

// TestHealthcheck: exit 0 against a live server, 1 against a dead address,
// also over HTTPS with a self-signed certificate.
func TestHealthcheck(t *testing.T) {
	check := func(args ...string) (int, string) {
		var stdout, stderr bytes.Buffer
		code := run(context.Background(), append([]string{"healthcheck"}, args...), &stdout, &stderr)
		return code, stdout.String() + stderr.String()
	}
	s := startServer(t, "--db", filepath.Join(t.TempDir(), "k.db"))
	addr := s.addr(t)
	if code, out := check("--addr", addr); code != 0 || out != "ok\n" {
		t.Errorf("live server: %d %q", code, out)
	}
	_, port, _ := net.SplitHostPort(addr)
	if code, _ := check("--addr", "0.0.0.0:"+port); code != 0 {
		t.Errorf("an unspecified host means this host: %d", code)
	}
	s.shutdown(t)
	if code, out := check("--addr", addr); code != 1 || !strings.Contains(out, "healthcheck") {
		t.Errorf("dead server: %d %q", code, out)
	}

	dir := t.TempDir()
	cert, key := selfSigned(t, dir)
	t.Setenv("KITH_TLS_CERT_FILE", cert)
	t.Setenv("KITH_TLS_KEY_FILE", key)
	tlsServer := startServer(t, "--db", filepath.Join(dir, "kith.db"))
	if code, out := check("--addr", tlsServer.addr(t)); code != 0 {
		t.Errorf("HTTPS server: %d %q", code, out)
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
