package store

import (
	"context"
	"path/filepath"
	"slices"
	"testing"
)

// TestMigrationGivesAccountsGenders: every account made before migration
// 6 gets Man, Woman and Other, never updated; its persons have no gender.
func TestMigrationGivesAccountsGenders(t *testing.T) {
	ctx := context.Background()
	s, err := Open(ctx, filepath.Join(t.TempDir(), "kith.db"))
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	if _, err := s.migrateTo(ctx, 5); err != nil {
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
	if _, err := s.w.Exec(`INSERT INTO persons (account_id, first_name, created_at, updated_at) VALUES (?, 'P', 1, 1)`, accounts[0]); err != nil {
		t.Fatal(err)
	}
	applied, err := s.Migrate(ctx)
	if err != nil || !slices.Contains(applied, "0006_genders") {
		t.Fatalf("applied %v, %v", applied, err)
	}
	for _, acct := range accounts {
		gs, err := s.Genders(ctx, acct)
		if err != nil {
			t.Fatal(err)
		}
		var names []string
		for i, g := range gs {
			names = append(names, g.Name)
			if g.Position != int64(i+1) || g.UpdatedAt != nil || g.CreatedAt <= 1 {
				t.Errorf("account %d: %+v", acct, g)
			}
		}
		if !slices.Equal(names, []string{"Man", "Woman", "Other"}) {
			t.Errorf("account %d has %q", acct, names)
		}
	}
	ps, _, err := s.Persons(ctx, accounts[0], 10, 0)
	if err != nil || len(ps) != 1 || ps[0].Gender != nil {
		t.Errorf("%+v, %v", ps, err)
	}
}
