package store_test

import (
	"testing"

	"kith/store/storetest"
)

// TestFreshPlans: an import's lookups of a chunk of UIDs or ids are
// planned for their chunk on PostgreSQL (freshPlans), and the rest of the
// transaction gets its own plan_cache_mode back, whatever it was.
func TestFreshPlans(t *testing.T) {
	s, _ := newStoreAt(t)
	inside, after, err := s.PlanModes(t.Context())
	if err != nil {
		t.Fatal(err)
	}
	want := [2]string{"force_custom_plan", "force_generic_plan"}
	if !storetest.Postgres() {
		want = [2]string{"", ""}
	}
	if got := [2]string{inside, after}; got != want {
		t.Errorf("plan_cache_mode inside and after freshPlans: %q, want %q", got, want)
	}
}
