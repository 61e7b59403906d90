package cli

import (
	"fmt"
	"path/filepath"
	"strings"
	"testing"
)

func TestMigrate(t *testing.T) {
	db := filepath.Join(t.TempDir(), "kith.db")
	code, out, _ := runKith("migrate", "--db", db)
	if code != 0 || !strings.HasPrefix(out, "applied 0001_init\napplied 0002_persons_tasks\napplied 0003_email_verification\napplied 0004_health_probe\napplied 0005_autoincrement\n") {
		t.Fatalf("migrate: %d %q", code, out)
	}
	// The version is the number of the last migration applied.
	var latest int
	for _, line := range strings.Split(out, "\n") {
		fmt.Sscanf(line, "applied %d_", &latest)
	}
	if !strings.Contains(out, fmt.Sprintf("schema version %d\n", latest)) {
		t.Errorf("migrate applied up to %d but says %q", latest, out)
	}
	if code, out, _ := runKith("migrate", "--db", db); code != 0 || strings.Contains(out, "applied") || !strings.Contains(out, fmt.Sprintf("schema version %d\n", latest)) {
		t.Errorf("migrate again: %d %q", code, out)
	}
}
