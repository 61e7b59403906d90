package store_test

import (
	"slices"
	"testing"

	"kith/store"
	"kith/store/storetest"
)

// defaultTypes are the twelve relationship types of every account, in
// their order: name, name_reverse, group.
var defaultTypes = [][3]string{
	{"partner", "partner", "love"}, {"spouse", "spouse", "love"}, {"parent", "child", "family"},
	{"sibling", "sibling", "family"}, {"grandparent", "grandchild", "family"},
	{"uncle or aunt", "nephew or niece", "family"}, {"cousin", "cousin", "family"},
	{"friend", "friend", "friend"}, {"best friend", "best friend", "friend"},
	{"colleague", "colleague", "work"}, {"manager", "report", "work"}, {"mentor", "mentee", "work"},
}

// wantDefaultTypes fails unless the account has exactly the twelve
// default types, in order with ascending ids, never updated.
func wantDefaultTypes(t *testing.T, s *store.Store, accountID int64) []store.RelationshipType {
	t.Helper()
	types, err := s.RelationshipTypes(t.Context(), accountID)
	if err != nil {
		t.Fatal(err)
	}
	if len(types) != len(defaultTypes) {
		t.Fatalf("account %d has %d types: %+v", accountID, len(types), types)
	}
	for i, ty := range types {
		want := defaultTypes[i]
		if ty.Name != want[0] || ty.NameReverse != want[1] || ty.Group != want[2] || ty.AccountID != accountID ||
			ty.UpdatedAt != ty.CreatedAt || i > 0 && ty.ID <= types[i-1].ID {
			t.Errorf("account %d, type %d: %+v, want %v", accountID, i, ty, want)
		}
	}
	return types
}

// TestMigrationGivesAccountsRelationshipTypes: every account made before
// migration 25 gets the twelve default types, created by the migration.
func TestMigrationGivesAccountsRelationshipTypes(t *testing.T) {
	ctx := t.Context()
	where := storetest.Fresh(t)
	s, err := store.Open(ctx, where)
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	if _, err := s.MigrateTo(ctx, 24); err != nil {
		t.Fatal(err)
	}
	storetest.Exec(t, where, `INSERT INTO accounts (created_at) VALUES (1)`)
	storetest.Exec(t, where, `INSERT INTO accounts (created_at) VALUES (1)`)
	applied, err := s.Migrate(ctx)
	if err != nil || !slices.Contains(applied, "0025_relationships") {
		t.Fatalf("applied %v, %v", applied, err)
	}
	first, last := storetest.Count(t, where, `SELECT min(id) FROM accounts`), storetest.Count(t, where, `SELECT max(id) FROM accounts`)
	if first == last {
		t.Fatalf("accounts %d and %d", first, last)
	}
	for _, acct := range []int64{int64(first), int64(last)} {
		for _, ty := range wantDefaultTypes(t, s, acct) {
			if ty.CreatedAt <= 1 {
				t.Errorf("account %d: %+v was not created by the migration", acct, ty)
			}
		}
	}
	if n := storetest.Count(t, where, `SELECT count(*) FROM logs`); n != 0 {
		t.Errorf("the migration logged %d rows", n)
	}
}

// TestNewAccountRelationshipTypes: a new account starts with the twelve
// types, made with it; a user joining an account adds none.
func TestNewAccountRelationshipTypes(t *testing.T) {
	s, where := newStoreAt(t)
	me, them := twoAccounts(t, s)
	for _, ty := range wantDefaultTypes(t, s, me.AccountID) {
		if ty.CreatedAt != t0.Unix() {
			t.Errorf("%+v not made with the account", ty)
		}
	}
	wantDefaultTypes(t, s, them.AccountID)
	if _, err := s.CreateUser(t.Context(), store.NewUser{FirstName: "B", LastName: "L", Email: "joiner@example.com",
		Password: testPassword, AccountID: me.AccountID}); err != nil {
		t.Fatal(err)
	}
	wantDefaultTypes(t, s, me.AccountID)
	if n := storetest.Count(t, where, `SELECT count(*) FROM logs WHERE action LIKE 'relationship%'`); n != 0 {
		t.Errorf("%d relationship logs for defaults", n)
	}
}
