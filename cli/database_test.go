package cli

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/rs/zerolog"
)

func TestWarnExposed(t *testing.T) {
	dir := t.TempDir()
	db := filepath.Join(dir, "kith.db")
	cfg := filepath.Join(dir, "kith.yaml")
	if err := os.Chmod(dir, 0o700); err != nil { // t.TempDir's mode follows the umask
		t.Fatal(err)
	}
	os.WriteFile(db, nil, 0o600)
	os.WriteFile(cfg, []byte("db: kith.db\n"), 0o600)
	var buf bytes.Buffer
	warnExposed(zerolog.New(&buf), db, cfg)
	if buf.Len() != 0 {
		t.Errorf("private files warned: %s", buf.String())
	}

	// A readable directory, as a checkout is: nothing to say (issue 28).
	os.Chmod(dir, 0o755)
	buf.Reset()
	warnExposed(zerolog.New(&buf), db, cfg)
	if buf.Len() != 0 {
		t.Errorf("a readable directory warned: %s", buf.String())
	}

	os.Chmod(db, 0o644)
	os.Chmod(cfg, 0o640)
	os.Chmod(dir, 0o775)
	defer os.Chmod(dir, 0o700)
	buf.Reset()
	warnExposed(zerolog.New(&buf), db, cfg)
	lines := strings.Split(strings.TrimSpace(buf.String()), "\n")
	for i, want := range []string{
		`"mode":"0644","message":"the database is readable by group or others, and holds secrets: chmod 600 ` + db,
		`"mode":"0775","message":"the database directory is writable by group or others, who could remove or replace the database: chmod 700 ` + dir,
		`"mode":"0640","message":"the config file is readable by group or others, and holds secrets: chmod 600 ` + cfg,
	} {
		if i >= len(lines) || !strings.Contains(lines[i], want) || !strings.Contains(lines[i], `"level":"warn"`) {
			t.Errorf("warning %d: want %s in\n%s", i, want, buf.String())
		}
	}
	if len(lines) != 3 {
		t.Errorf("%d warnings, want 3:\n%s", len(lines), buf.String())
	}
}

// TestBootWarnsOfAnExposedDatabase: kith serve says so at start.
func TestBootWarnsOfAnExposedDatabase(t *testing.T) {
	dir := t.TempDir()
	db := filepath.Join(dir, "kith.db")
	os.WriteFile(filepath.Join(dir, "kith.yaml"), []byte("db: "+db+"\n"), 0o644)
	s := startServer(t, "--config", filepath.Join(dir, "kith.yaml"))
	s.addr(t)
	s.shutdown(t)
	if log := s.stderr.String(); !strings.Contains(log, "the config file is readable by group or others") {
		t.Errorf("no warning of the config file:\n%s", log)
	}
}
