package cli

import (
	"bufio"
	"bytes"
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"sync"
	"syscall"
	"testing"
	"time"
)

// These helpers run the real binary as a child process, for the tests
// that kill it, starve it of disk or load it from many clients.

var built struct {
	once sync.Once
	path string
	err  error
}

// kithBinary builds the binary (the module's main package, kith, at the
// root: go test runs in cli/) once per test run, with the race detector
// when the tests themselves run under it.
func kithBinary(t *testing.T) string {
	t.Helper()
	built.once.Do(func() {
		dir, err := os.MkdirTemp("", "kith-bin-")
		if err != nil {
			built.err = err
			return
		}
		built.path = filepath.Join(dir, "kith")
		args := []string{"build", "-o", built.path}
		if raceEnabled {
			args = append(args, "-race")
		}
		out, err := exec.Command("go", append(args, "kith")...).CombinedOutput()
		if err != nil {
			built.err = fmt.Errorf("go build: %v\n%s", err, out)
		}
	})
	if built.err != nil {
		t.Fatal(built.err)
	}
	return built.path
}

// child is one running kith process.
type child struct {
	cmd    *exec.Cmd
	base   string // http://127.0.0.1:port
	stdout *buffer
	stderr *buffer
	done   chan struct{}
}

// startChild runs "kith serve" on db with rate limiting off and waits until
// it listens. env adds KEY=VALUE settings.
func startChild(t *testing.T, db string, env ...string) *child {
	t.Helper()
	cmd := exec.Command(kithBinary(t), "serve", "--db", db, "--addr", "127.0.0.1:0")
	cmd.Env = append(os.Environ(), append([]string{"KITH_RATE_PER_MINUTE=0"}, env...)...)
	c := &child{cmd: cmd, stdout: &buffer{}, stderr: &buffer{}, done: make(chan struct{})}
	cmd.Stdout = c.stdout
	pr, pw := io.Pipe()
	cmd.Stderr = io.MultiWriter(c.stderr, pw)
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	go func() {
		cmd.Wait()
		pw.Close()
		close(c.done)
	}()
	t.Cleanup(c.kill)

	addr := make(chan string, 1)
	go func() {
		sc := bufio.NewScanner(pr)
		for sc.Scan() {
			var entry struct{ Message, Addr string }
			if json.Unmarshal(sc.Bytes(), &entry) == nil && entry.Message == "listening" {
				addr <- entry.Addr
				break
			}
		}
		io.Copy(io.Discard, pr)
	}()
	select {
	case a := <-addr:
		c.base = "http://" + a
	case <-c.done:
		t.Fatalf("kith exited at start: %s", c.stderr.String())
	case <-time.After(30 * time.Second):
		t.Fatalf("kith did not listen within 30 s: %s", c.stderr.String())
	}
	return c
}

// kill sends SIGKILL and waits for the process to be gone.
func (c *child) kill() {
	c.cmd.Process.Kill()
	<-c.done
}

// firstKey is the API key printed on the first start of an empty database.
func (c *child) firstKey(t *testing.T) string {
	t.Helper()
	// stdout reaches us through a pipe of its own, maybe after stderr's
	// listening line.
	for deadline := time.Now().Add(5 * time.Second); time.Now().Before(deadline); time.Sleep(5 * time.Millisecond) {
		if m := regexp.MustCompile(`API key:\s+(\S+)`).FindStringSubmatch(c.stdout.String()); m != nil {
			return m[1]
		}
	}
	t.Fatalf("no key printed: %s", c.stdout.String())
	return ""
}

// client is an HTTP client for one child, with a short timeout: a request
// to a killed server must fail fast.
var client = &http.Client{Timeout: 10 * time.Second, Transport: &http.Transport{MaxIdleConnsPerHost: 64}}

// call sends one request and returns the status and body; err is a
// transport error (no answer at all).
func call(ctx context.Context, method, url, key string, body any) (int, map[string]any, error) {
	var rd io.Reader
	if body != nil {
		b, _ := json.Marshal(body)
		rd = bytes.NewReader(b)
	}
	r, err := http.NewRequestWithContext(ctx, method, url, rd)
	if err != nil {
		return 0, nil, err
	}
	r.Header.Set("Content-Type", "application/json")
	if key != "" {
		r.Header.Set("Authorization", "Bearer "+key)
	}
	res, err := client.Do(r)
	if err != nil {
		return 0, nil, err
	}
	defer res.Body.Close()
	raw, err := io.ReadAll(res.Body)
	if err != nil {
		return 0, nil, err
	}
	var m map[string]any
	if len(raw) > 0 {
		if err := json.Unmarshal(raw, &m); err != nil {
			return res.StatusCode, nil, fmt.Errorf("body not JSON: %q", raw)
		}
	}
	return res.StatusCode, m, nil
}

// dataID is data.id of a response, as a number.
func dataID(m map[string]any) int64 {
	d, _ := m["data"].(map[string]any)
	switch v := d["id"].(type) {
	case float64:
		return int64(v)
	case string:
		var n int64
		fmt.Sscan(v, &n)
		return n
	}
	return 0
}

// openRO opens the database file read-only beside the server.
func openRO(t *testing.T, db string) *sql.DB {
	t.Helper()
	d, err := sql.Open("sqlite", "file:"+db+"?mode=ro&_pragma=busy_timeout(10000)")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { d.Close() })
	return d
}

func integrityOK(t *testing.T, db string) {
	t.Helper()
	d := openRO(t, db)
	var res string
	if err := d.QueryRow(`PRAGMA integrity_check`).Scan(&res); err != nil || res != "ok" {
		t.Fatalf("integrity_check: %q %v", res, err)
	}
	var fk int
	if err := d.QueryRow(`SELECT count(*) FROM pragma_foreign_key_check`).Scan(&fk); err != nil || fk != 0 {
		t.Fatalf("foreign_key_check: %d rows, %v", fk, err)
	}
}

// scale is how many of something a long test does: small by default, as
// many as KITH_FULL asks for when set (see docs/testing.md, "Reliability").
func scale(small, full int) int {
	if os.Getenv("KITH_FULL") != "" {
		return full
	}
	return small
}

// stop sends SIGTERM, as systemd or docker stop would, and returns the
// exit code.
func (c *child) stop(t *testing.T) int {
	t.Helper()
	c.cmd.Process.Signal(syscall.SIGTERM)
	select {
	case <-c.done:
	case <-time.After(15 * time.Second):
		t.Fatalf("kith did not stop within 15 s of SIGTERM: %s", c.stderr.String())
	}
	return c.cmd.ProcessState.ExitCode()
}

// kithExec runs the binary once with these arguments, for at most 30 s, and
// returns its exit code and output.
func kithExec(t *testing.T, args ...string) (code int, stdout, stderr string) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	cmd := exec.CommandContext(ctx, kithBinary(t), args...)
	var out, errOut bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errOut
	err := cmd.Run()
	var exit *exec.ExitError
	if err != nil && !errors.As(err, &exit) {
		t.Fatal(err)
	}
	if ctx.Err() != nil {
		t.Fatalf("kith %v did not end within 30 s: %s", args, errOut.String())
	}
	return cmd.ProcessState.ExitCode(), out.String(), errOut.String()
}
