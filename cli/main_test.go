package cli

import (
	"bytes"
	"context"
	"encoding/json"
	"net/http"
	"strings"
	"sync"
	"testing"
	"time"
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

// runKith calls run once with these arguments and returns its exit code
// and output.
func runKith(args ...string) (code int, stdout, stderr string) {
	var out, errOut bytes.Buffer
	code = run(context.Background(), args, &out, &errOut)
	return code, out.String(), errOut.String()
}

func TestUsage(t *testing.T) {
	for _, help := range []string{"help", "--help", "-h"} {
		if code, out, _ := runKith(help); code != 0 || !strings.Contains(out, "Usage: kith") {
			t.Errorf("%s: %d %q", help, code, out)
		}
	}
	_, usage, _ := runKith("help")
	for _, c := range commands {
		if !strings.Contains(usage, "\n  "+c.name+" ") || !strings.Contains(usage, c.summary) {
			t.Errorf("the usage lacks %q: %s", c.name, usage)
		}
	}
	failures := []struct {
		args []string
		code int
		want string
	}{
		{[]string{"frobnicate"}, 2, "unknown command"},
		{[]string{"migrate", "extra"}, 2, "unexpected argument"},
		{[]string{"help", "frobnicate"}, 2, "unknown command"},
		{[]string{"user"}, 2, "unknown command"},
	}
	for _, f := range failures {
		code, _, errOut := runKith(f.args...)
		if code != f.code || !strings.Contains(errOut, f.want) || !strings.Contains(errOut, "Usage: kith") {
			t.Errorf("%v: exit %d (want %d), stderr %q (want %q and the usage)", f.args, code, f.code, errOut, f.want)
		}
	}
}

// TestHelpOfEveryCommand: "kith help COMMAND", "kith COMMAND -h" and
// "kith COMMAND --help" print the same help to stdout and exit 0; it names
// the command's own flags and those of every command.
func TestHelpOfEveryCommand(t *testing.T) {
	own := map[string][]string{
		"user create":             {"--email EMAIL", "--first-name NAME", "--last-name NAME", "--password PASSWORD", "--account ID"},
		"user verify":             {"--email EMAIL"},
		"user set-email":          {"--email EMAIL", "--new-email EMAIL"},
		"user password":           {"--email EMAIL", "--password-stdin", "--revoke-keys"},
		"user delete":             {"--email EMAIL", "--yes"},
		"user two-factor disable": {"--email EMAIL"},
		"key list":                {"--email EMAIL"},
		"key revoke":              {"--email EMAIL", "--id ID"},
		"backup":                  {"--out FILE"},
		"restore":                 {"--from FILE"},
		"copy":                    {"--from DB", "--to DB"},
		"export":                  {"--email EMAIL", "--out FILE"},
		"import":                  {"--email EMAIL", "--from FILE"},
	}
	for _, c := range commands {
		code, help, errOut := runKith(append([]string{"help"}, strings.Fields(c.name)...)...)
		if code != 0 || errOut != "" || !strings.HasPrefix(help, "Usage: kith "+c.name+" [flags]\n") {
			t.Errorf("help %s: %d %q %q", c.name, code, help, errOut)
		}
		for _, want := range append(own[c.name], "--config FILE", "--db PATH", "--addr HOST:PORT") {
			if !strings.Contains(help, want) {
				t.Errorf("help %s lacks %q:\n%s", c.name, want, help)
			}
		}
		if strings.Contains(help, "\nFlags:\n") != (own[c.name] != nil) {
			t.Errorf("help %s lists own flags it does not have, or not those it has:\n%s", c.name, help)
		}
		for _, flag := range []string{"-h", "--help", "-help"} {
			code, out, errOut := runKith(append(strings.Fields(c.name), flag)...)
			if code != 0 || out != help || errOut != "" {
				t.Errorf("%s %s: exit %d, stdout %q, stderr %q", c.name, flag, code, out, errOut)
			}
		}
	}
	if code, out, _ := runKith("--db", "x.db", "-h"); code != 0 || !strings.HasPrefix(out, "Usage: kith serve") {
		t.Errorf("leading flags then -h: %d %q", code, out)
	}
	code, out, _ := runKith("help", "user")
	if code != 0 || !strings.Contains(out, "user create") || !strings.Contains(out, "user verify") || strings.Contains(out, "backup") {
		t.Errorf("help user: %d %q", code, out)
	}
}

func waitFor(t *testing.T, what string, ok func() bool) {
	t.Helper()
	for deadline := time.Now().Add(10 * time.Second); time.Now().Before(deadline); time.Sleep(20 * time.Millisecond) {
		if ok() {
			return
		}
	}
	t.Fatalf("waited 10 s for %s", what)
}
