package store_test

import (
	"testing"
	"time"

	"kith/store"
)

// TestInvitationLive: a link's page asks whether it still works; only a
// fresh link does, and asking spends nothing.
func TestInvitationLive(t *testing.T) {
	s := newStore(t)
	me, them := twoAccounts(t, s)
	ctx := store.WithActor(t.Context(), me.ID)
	live := func(secret string) bool {
		t.Helper()
		ok, err := s.InvitationLive(t.Context(), secret)
		if err != nil {
			t.Fatal(err)
		}
		return ok
	}
	inv, err := s.InviteUser(ctx, me.ID, store.Invitee{Email: "new@example.com", FirstName: "New", LastName: "Comer"})
	if err != nil {
		t.Fatal(err)
	}
	for _, secret := range []string{"", "nope", string(make([]byte, 300))} {
		if live(secret) {
			t.Errorf("%q is live", secret)
		}
	}
	if !live(inv.Secret) || !live(inv.Secret) {
		t.Fatal("a fresh link is not live, or asking spent it")
	}
	again, err := s.Reinvite(ctx, me.ID, inv.User.ID)
	if err != nil {
		t.Fatal(err)
	}
	if live(inv.Secret) || !live(again.Secret) {
		t.Error("a newer invitation did not void the older link")
	}
	advance(s, 72*time.Hour)
	if live(again.Secret) {
		t.Error("an expired link is live")
	}
	fresh, err := s.Reinvite(ctx, me.ID, inv.User.ID)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := s.AcceptInvitation(t.Context(), fresh.Secret, "new password"); err != nil {
		t.Fatal(err)
	}
	if live(fresh.Secret) {
		t.Error("a used link is live")
	}

	users, err := s.AccountUsers(t.Context(), me.AccountID)
	if err != nil || len(users) != 2 || users[0].ID != me.ID || users[1].ID != inv.User.ID {
		t.Fatalf("my account's users: %+v %v", users, err)
	}
	theirs, err := s.AccountUsers(t.Context(), them.AccountID)
	if err != nil || len(theirs) != 1 || theirs[0].ID != them.ID {
		t.Errorf("their account's users: %+v %v", theirs, err)
	}
}
