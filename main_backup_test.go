package main

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

	"kith/store"
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

// TestBackupAndRestoreRefusals: an existing target, a missing or corrupt
// backup, a running server, and a restore that keeps what it replaces.
func TestBackupAndRestoreRefusals(t *testing.T) {
	dir := t.TempDir()
	db := filepath.Join(dir, "kith.db")
	cmd := func(args ...string) (int, string) {
		var stdout, stderr bytes.Buffer
		code := run(context.Background(), args, &stdout, &stderr)
		return code, stdout.String() + stderr.String()
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

	if code, msg := cmd("restore", "--db", db); code != 1 || !strings.Contains(msg, "--from") {
		t.Errorf("no --from: %d %q", code, msg)
	}
	corrupt := filepath.Join(dir, "corrupt.db")
	b, _ := os.ReadFile(out)
	for i := 4096; i < len(b) && i < 4096*4; i++ {
		b[i] ^= 0xff
	}
	os.WriteFile(corrupt, b, 0o600)
	if code, msg := cmd("restore", "--db", db, "--from", corrupt, "--addr", "127.0.0.1:1"); code != 1 {
		t.Errorf("a corrupt backup restored: %q", msg)
	}
	if code, msg := cmd("restore", "--db", db, "--from", filepath.Join(dir, "missing.db"), "--addr", "127.0.0.1:1"); code != 1 {
		t.Errorf("a missing backup restored: %q", msg)
	}
	if _, err := store.CheckBackup(context.Background(), db); err != nil {
		t.Fatalf("refused restores touched the database: %v", err)
	}

	s := startServer(t, "--db", db)
	addr := s.addr(t)
	if code, msg := cmd("restore", "--db", db, "--from", out, "--addr", addr); code != 1 || !strings.Contains(msg, "stop it") {
		t.Errorf("restore beside a running server: %d %q", code, msg)
	}
	s.shutdown(t)
	code, msg := cmd("restore", "--db", db, "--from", out, "--addr", addr)
	kept := regexp.MustCompile(`kept as (\S+)`).FindStringSubmatch(msg)
	if code != 0 || kept == nil {
		t.Fatalf("restore: %d %q", code, msg)
	}
	if _, err := store.CheckBackup(context.Background(), kept[1]); err != nil {
		t.Errorf("the replaced database was not kept whole: %v", err)
	}
}
