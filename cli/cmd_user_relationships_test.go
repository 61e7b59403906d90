package cli

import (
	"context"
	"os"
	"path/filepath"
	"testing"

	"kith/store"
	"kith/store/storetest"
)

// TestUserCreateGivesRelationshipTypes: the account kith user create makes
// has the twelve default relationship types, in order, on either engine.
func TestUserCreateGivesRelationshipTypes(t *testing.T) {
	dbs := map[string]string{"sqlite": filepath.Join(t.TempDir(), "kith.db")}
	if base := os.Getenv(storetest.PostgresURL); base != "" {
		dbs["postgres"] = storetest.Schema(t, base)
	}
	want := []string{"partner/partner", "spouse/spouse", "parent/child", "sibling/sibling", "grandparent/grandchild",
		"uncle or aunt/nephew or niece", "cousin/cousin", "friend/friend", "best friend/best friend",
		"colleague/colleague", "manager/report", "mentor/mentee"}
	for engine, db := range dbs {
		if code, out, errOut := runKith("user", "create", "--db", db, "--email", "grace@example.com",
			"--first-name", "Grace", "--last-name", "Hopper"); code != 0 {
			t.Fatalf("%s: user create: %d %q %q", engine, code, out, errOut)
		}
		st, err := store.Open(context.Background(), db)
		if err != nil {
			t.Fatal(err)
		}
		types, err := st.RelationshipTypes(context.Background(), 1)
		st.Close()
		if err != nil || len(types) != len(want) {
			t.Fatalf("%s: %+v, %v", engine, types, err)
		}
		for i, ty := range types {
			if got := ty.Name + "/" + ty.NameReverse; got != want[i] || ty.ID != int64(i+1) {
				t.Errorf("%s: type %d is %d %s, want %d %s", engine, i, ty.ID, got, i+1, want[i])
			}
		}
	}
}
