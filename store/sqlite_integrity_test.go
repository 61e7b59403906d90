package store_test

import (
	"context"
	"testing"

	"kith/store/storetest"
)

// TestQuickCheck: an undamaged database has no problems, and a check cut
// short (the server stopping) is an error, never damage: it must not turn
// health to 503 or log damaged pages on the way out.
func TestQuickCheck(t *testing.T) {
	storetest.SQLiteOnly(t)
	s := newStore(t)
	if problems, err := s.QuickCheck(t.Context()); err != nil || problems != nil {
		t.Errorf("an undamaged database: %v, %v", problems, err)
	}
	ctx, cancel := context.WithCancel(t.Context())
	cancel()
	if problems, err := s.QuickCheck(ctx); err == nil || problems != nil {
		t.Errorf("a cancelled check: problems %v, error %v; want an error and no problems", problems, err)
	}
}
