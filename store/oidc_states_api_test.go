package store_test

import (
	"errors"
	"testing"
	"time"

	"kith/store"
)

// TestSpendOIDCState: a state is spent once; another state is not; a
// record past its end goes, with nothing to fear from its cookie then.
func TestSpendOIDCState(t *testing.T) {
	s := newStore(t)
	ctx := t.Context()
	end := t0.Unix() + 600
	if err := s.SpendOIDCState(ctx, "state-one", end); err != nil {
		t.Fatalf("first use: %v", err)
	}
	if err := s.SpendOIDCState(ctx, "state-one", end); !errors.Is(err, store.ErrOIDCStateUsed) {
		t.Fatalf("second use: %v", err)
	}
	if err := s.SpendOIDCState(ctx, "state-two", end); err != nil {
		t.Fatalf("another state: %v", err)
	}
	setClock(s, t0.Add(601*time.Second))
	if err := s.SpendOIDCState(ctx, "state-three", t0.Unix()+1200); err != nil {
		t.Fatalf("a later state: %v", err)
	}
	if err := s.SpendOIDCState(ctx, "state-one", t0.Unix()+1200); err != nil {
		t.Errorf("a record past its end was kept: %v", err)
	}
}
