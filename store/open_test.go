package store

import (
	"context"
	"path/filepath"
	"strings"
	"testing"
)

// TestOpenPicksTheEngine: a path or sqlite:PATH opens SQLite; a PostgreSQL
// URL is refused with a message that says so; other URLs are refused.
func TestOpenPicksTheEngine(t *testing.T) {
	ctx := context.Background()
	dir := t.TempDir()
	for _, db := range []string{
		filepath.Join(dir, "plain.db"),
		"sqlite:" + filepath.Join(dir, "prefixed.db"),
		"sqlite://" + filepath.Join(dir, "slashes.db"),
	} {
		s, err := Open(ctx, db)
		if err != nil {
			t.Errorf("Open(%q): %v", db, err)
			continue
		}
		if _, err := s.Migrate(ctx); err != nil {
			t.Errorf("Migrate on %q: %v", db, err)
		}
		s.Close()
	}
	for _, name := range []string{"plain.db", "prefixed.db", "slashes.db"} {
		if _, err := CheckBackup(ctx, filepath.Join(dir, name)); err != nil {
			t.Errorf("%s was not made where its db value says: %v", name, err)
		}
	}
	refused := map[string]string{
		"postgres://kith:secret@localhost:5432/kith?sslmode=disable": "PostgreSQL",
		"postgresql://localhost/kith":                                "PostgreSQL",
		"mysql://localhost/kith":                                     "mysql",
		"sqlite:":                                                    "names no file",
		"":                                                           "empty",
	}
	for db, want := range refused {
		s, err := Open(ctx, db)
		if err == nil {
			s.Close()
			t.Errorf("Open(%q) succeeded", db)
			continue
		}
		if !strings.Contains(err.Error(), want) {
			t.Errorf("Open(%q): %q, want it to mention %q", db, err, want)
		}
		if strings.Contains(err.Error(), "secret") {
			t.Errorf("Open(%q) repeats the password: %q", db, err)
		}
	}
}
