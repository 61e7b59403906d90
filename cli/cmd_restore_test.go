package cli

import (
	"context"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"kith/store"
)

// TestRestoreRefusals: no --from, a missing or corrupt backup, a running
// server, and a restore that keeps what it replaces.
func TestRestoreRefusals(t *testing.T) {
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
	if code, msg := cmd("backup", "--db", db, "--out", out); code != 0 {
		t.Fatalf("backup: %s", msg)
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
	if code, msg := cmd("restore", "--db", filepath.Join(dir, "none", "kith.db"), "--from", out, "--addr", "127.0.0.1:1"); code != 1 || strings.Contains(msg, "stop it") {
		t.Errorf("into a directory that does not exist: %d %q", code, msg)
	}
	if _, err := store.CheckBackup(context.Background(), db); err != nil {
		t.Fatalf("refused restores touched the database: %v", err)
	}

	s := startServer(t, "--db", db)
	addr := s.addr(t)
	if code, msg := cmd("restore", "--db", db, "--from", out, "--addr", addr); code != 1 || !strings.Contains(msg, "stop it") {
		t.Errorf("restore beside a running server: %d %q", code, msg)
	}
	if code, msg := cmd("restore", "--db", db, "--from", out, "--addr", "127.0.0.1:1"); code != 1 || !strings.Contains(msg, "another kith server (pid") {
		t.Errorf("restore beside a server on another address than the configured one: %d %q", code, msg)
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
