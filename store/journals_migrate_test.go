package store

import (
	"context"
	"path/filepath"
	"slices"
	"testing"
)

// TestMigrationGivesAccountsAJournal: every account made before migration
// 11 gets "My first journal", slugged by its id, updated when created.
func TestMigrationGivesAccountsAJournal(t *testing.T) {
	ctx := context.Background()
	s, err := Open(ctx, filepath.Join(t.TempDir(), "kith.db"))
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	if _, err := s.migrateTo(ctx, 10); err != nil {
		t.Fatal(err)
	}
	var accounts []int64
	for range 2 {
		var id int64
		if err := s.w.QueryRow(`INSERT INTO accounts (created_at) VALUES (1) RETURNING id`).Scan(&id); err != nil {
			t.Fatal(err)
		}
		accounts = append(accounts, id)
	}
	applied, err := s.Migrate(ctx)
	if err != nil || !slices.Contains(applied, "0011_journals") {
		t.Fatalf("applied %v, %v", applied, err)
	}
	for _, acct := range accounts {
		js, err := s.Journals(ctx, acct)
		if err != nil {
			t.Fatal(err)
		}
		if len(js) != 1 || js[0].Name != "My first journal" || js[0].Slug != JournalSlug(js[0].ID, "My first journal") ||
			js[0].CreatedAt <= 1 || js[0].UpdatedAt != js[0].CreatedAt {
			t.Errorf("account %d has %+v", acct, js)
		}
	}
}
