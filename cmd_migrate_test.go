package main

import (
	"path/filepath"
	"strings"
	"testing"
)

func TestMigrate(t *testing.T) {
	db := filepath.Join(t.TempDir(), "kith.db")
	if code, out, _ := runKith("migrate", "--db", db); code != 0 || !strings.Contains(out, "applied 0001_init\napplied 0002_persons_tasks\napplied 0003_email_verification\napplied 0004_health_probe\napplied 0005_autoincrement\n") {
		t.Errorf("migrate: %d %q", code, out)
	}
	if code, out, _ := runKith("migrate", "--db", db); code != 0 || strings.Contains(out, "applied") || !strings.Contains(out, "schema version ") { // the latest, whichever it is
		t.Errorf("migrate again: %d %q", code, out)
	}
}
