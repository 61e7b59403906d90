package store_test

import (
	"bytes"
	"crypto/sha256"
	"testing"
	"time"

	"kith/store"
)

func linkHash(s string) []byte {
	h := sha256.Sum256([]byte(s))
	return h[:]
}

// TestActionSecretIsShared: every call, and so every server on the
// database, signs with the same key.
func TestActionSecretIsShared(t *testing.T) {
	s := newStore(t)
	a, err := s.ActionSecret(t.Context())
	if err != nil || len(a) != 32 {
		t.Fatalf("%x, %v", a, err)
	}
	b, err := s.ActionSecret(t.Context())
	if err != nil || !bytes.Equal(a, b) {
		t.Fatalf("second key %x, first %x, %v", b, a, err)
	}
}

// TestUseActionLink: a link acts once; a refused action leaves it usable;
// a used link is forgotten once it has expired anyway.
func TestUseActionLink(t *testing.T) {
	s := newStore(t)
	me, them := twoAccounts(t, s)
	ctx := t.Context()
	p := newPerson(t, s, me.AccountID, "Jim")
	theirs := newPerson(t, s, them.AccountID, "Ann")
	call := store.ActionLink{Hash: linkHash("a"), UserID: me.ID, Do: store.ActionLogCall, PersonID: p.ID, Day: "2026-03-15"}

	cross := call
	cross.Hash, cross.PersonID = linkHash("b"), theirs.ID
	wantErr(t, s.UseActionLink(ctx, cross), store.ErrPersonNotFound)
	if used, err := s.ActionLinkUsed(ctx, cross.Hash); err != nil || used {
		t.Fatalf("a refused link is used: %v %v", used, err)
	}

	if err := s.UseActionLink(ctx, call); err != nil {
		t.Fatal(err)
	}
	wantErr(t, s.UseActionLink(ctx, call), store.ErrActionLinkUsed)
	got, total, err := s.Interactions(ctx, me.AccountID, p.ID, 10, 0)
	if err != nil || total != 1 || got[0].Kind != "call" || got[0].HappenedOn != "2026-03-15" || got[0].Note != nil {
		t.Fatalf("interactions %+v (%d), %v", got, total, err)
	}

	snooze := store.ActionLink{Hash: linkHash("c"), UserID: me.ID, Do: store.ActionSnooze, Kind: "birthday", RefID: p.ID, Day: "2026-03-20"}
	if err := s.UseActionLink(ctx, snooze); err != nil {
		t.Fatal(err)
	}
	if z, err := s.Snoozes(ctx, me.ID, "2026-03-20"); err != nil || len(z) != 1 {
		t.Fatalf("snoozes %v, %v", z, err)
	}
	if z, err := s.Snoozes(ctx, them.ID, "2026-01-01"); err != nil || len(z) != 0 {
		t.Fatalf("another user's snoozes %v, %v", z, err)
	}

	advance(s, 61*24*time.Hour)
	other := store.ActionLink{Hash: linkHash("d"), UserID: me.ID, Do: store.ActionLogCall, PersonID: p.ID, Day: "2026-05-15"}
	if err := s.UseActionLink(ctx, other); err != nil {
		t.Fatal(err)
	}
	if used, err := s.ActionLinkUsed(ctx, call.Hash); err != nil || used {
		t.Fatalf("an expired used link is still kept: %v %v", used, err)
	}
	if z, err := s.Snoozes(ctx, me.ID, "2026-01-01"); err != nil || len(z) != 0 {
		t.Fatalf("a snooze long shown is kept: %v, %v", z, err)
	}
}
