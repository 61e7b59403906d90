package cli

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"sync"
	"testing"
)

// TestBackupDuringWrites takes a backup while clients write, restores it
// to a new database, and finds there every write acknowledged before the
// backup started, with SQLite's integrity check passing.
func TestBackupDuringWrites(t *testing.T) {
	t.Setenv("KITH_RATE_PER_MINUTE", "0")
	dir := t.TempDir()
	db := filepath.Join(dir, "kith.db")
	s := startServer(t, "--db", db)
	base := "http://" + s.addr(t)
	key := regexp.MustCompile(`API key:\s+(\S+)`).FindStringSubmatch(s.stdout.String())[1]
	ctx := context.Background()

	var mu sync.Mutex
	var acked []int64
	stop := make(chan struct{})
	var wg sync.WaitGroup
	for w := range 4 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := 0; ; i++ {
				select {
				case <-stop:
					return
				default:
				}
				code, body, err := call(ctx, "POST", base+"/api/persons", key, map[string]any{"first_name": fmt.Sprintf("W%d-%d", w, i)})
				if err != nil || code != 201 {
					t.Errorf("write: %d %v %v", code, body, err)
					return
				}
				mu.Lock()
				acked = append(acked, dataID(body))
				mu.Unlock()
			}
		}()
	}
	waitFor(t, "50 writes", func() bool { return len(snapshot(&mu, &acked)) >= 50 })
	before := snapshot(&mu, &acked)
	out := filepath.Join(dir, "backup.db")
	var stdout, stderr bytes.Buffer
	if code := run(ctx, []string{"backup", "--db", db, "--out", out}, &stdout, &stderr); code != 0 {
		t.Fatalf("backup: %d %s", code, stderr.String())
	}
	close(stop)
	wg.Wait()
	if !strings.Contains(stdout.String(), "integrity ok") {
		t.Errorf("backup said %q", stdout.String())
	}
	if fi, _ := os.Stat(out); fi.Mode().Perm() != 0o600 {
		t.Errorf("the backup has mode %o, want 600", fi.Mode().Perm())
	}

	restored := filepath.Join(t.TempDir(), "restored.db")
	stdout.Reset()
	if code := run(ctx, []string{"restore", "--db", restored, "--from", out, "--addr", "127.0.0.1:1"}, &stdout, &stderr); code != 0 {
		t.Fatalf("restore: %d %s", code, stderr.String())
	}
	integrityOK(t, restored)
	d := openRO(t, restored)
	for _, id := range before {
		var n int
		d.QueryRow(`SELECT count(*) FROM persons WHERE id = ?`, id).Scan(&n)
		if n != 1 {
			t.Fatalf("person %d, acknowledged before the backup, is not in it", id)
		}
	}
	var total int
	d.QueryRow(`SELECT count(*) FROM persons`).Scan(&total)
	t.Logf("%d writes acknowledged before the backup began, %d persons in it, %d acknowledged in all", len(before), total, len(snapshot(&mu, &acked)))
}

func snapshot(mu *sync.Mutex, ids *[]int64) []int64 {
	mu.Lock()
	defer mu.Unlock()
	return append([]int64(nil), *ids...)
}

// TestBackupRefusals: no --out, an existing target, a database that does
// not exist.
func TestBackupRefusals(t *testing.T) {
	dir := t.TempDir()
	db := filepath.Join(dir, "kith.db")
	cmd := func(args ...string) (int, string) {
		code, stdout, stderr := runKith(args...)
		return code, stdout + stderr
	}
	if code, out := cmd("user", "create", "--db", db, "--email", "a@example.com", "--first-name", "A", "--last-name", "B"); code != 0 {
		t.Fatal(out)
	}
	out := filepath.Join(dir, "b.db")
	if code, msg := cmd("backup", "--db", db); code != 1 || !strings.Contains(msg, "--out") {
		t.Errorf("no --out: %d %q", code, msg)
	}
	if code, msg := cmd("backup", "--db", db, "--out", out); code != 0 {
		t.Fatalf("backup: %s", msg)
	}
	if code, msg := cmd("backup", "--db", db, "--out", out); code != 1 || !strings.Contains(msg, "already exists") {
		t.Errorf("over an existing file: %d %q", code, msg)
	}
	if code, msg := cmd("backup", "--db", filepath.Join(dir, "none.db"), "--out", filepath.Join(dir, "x.db")); code != 1 {
		t.Errorf("of a database that does not exist: %d %q", code, msg)
	}
}
