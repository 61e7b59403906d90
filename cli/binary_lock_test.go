package cli

import (
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// TestOneServerPerDatabase: a running server holds its database's lock on
// whatever address it listens, so a second server and a restore are refused
// at once, naming its pid, while backup, user create and migrate go on
// beside it. Once it stops (SIGTERM) the restore works; a server killed
// with SIGKILL leaves no lock behind.
func TestOneServerPerDatabase(t *testing.T) {
	if testing.Short() {
		t.Skip("runs the binary")
	}
	dir := t.TempDir()
	db := filepath.Join(dir, "kith.db")
	c := startChild(t, db)
	holder := fmt.Sprintf("pid %d", c.cmd.Process.Pid)

	code, _, errOut := kithExec(t, "serve", "--db", db, "--addr", "127.0.0.1:0")
	if code == 0 || !strings.Contains(errOut, "another kith server ("+holder+")") {
		t.Errorf("a second server on the database: exit %d, stderr %q", code, errOut)
	}

	backup := filepath.Join(dir, "backup.db")
	if code, out, errOut := kithExec(t, "backup", "--db", db, "--out", backup); code != 0 || !strings.Contains(out, "integrity ok") {
		t.Errorf("backup beside the server: %d %q %q", code, out, errOut)
	}
	if code, _, errOut := kithExec(t, "user", "create", "--db", db, "--email", "late@example.com", "--first-name", "L", "--last-name", "A"); code != 0 {
		t.Errorf("user create beside the server: %d %q", code, errOut)
	}
	if code, out, errOut := kithExec(t, "migrate", "--db", db); code != 0 || !strings.Contains(out, "schema version") {
		t.Errorf("migrate beside the server: %d %q %q", code, out, errOut)
	}

	// The configured address is not the server's: no health probe finds it.
	code, out, errOut := kithExec(t, "restore", "--db", db, "--from", backup, "--addr", "127.0.0.1:1")
	if code != 1 || !strings.Contains(errOut, holder) || !strings.Contains(errOut, "stop it") {
		t.Errorf("restore beside a server on another address: exit %d, %q %q", code, out, errOut)
	}
	if kept, _ := filepath.Glob(db + ".before-restore-*"); len(kept) > 0 {
		t.Errorf("a refused restore moved the database: %v", kept)
	}
	if code, _, err := call(t.Context(), "GET", c.base+"/api/health", "", nil); err != nil || code != 200 {
		t.Errorf("the server after the refused restore: %d %v", code, err)
	}

	if code := c.stop(t); code != 0 {
		t.Fatalf("SIGTERM: exit %d: %s", code, c.stderr.String())
	}
	code, out, errOut = kithExec(t, "restore", "--db", db, "--from", backup, "--addr", "127.0.0.1:1")
	if code != 0 || !regexp.MustCompile(`kept as \S+`).MatchString(out) {
		t.Fatalf("restore after the server stopped: %d %q %q", code, out, errOut)
	}

	killed := startChild(t, db)
	killed.kill()
	if _, err := os.Stat(db + ".lock"); err != nil {
		t.Errorf("no lock file: %v", err)
	}
	startChild(t, db) // fails the test if it cannot start
}
