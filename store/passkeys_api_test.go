package store_test

import (
	"bytes"
	"errors"
	"testing"
	"time"

	"kith/store"
)

// TestPasskeys: a handle is made once and is random, a credential is
// saved once, listed by id, found by its id with its user's handle, used,
// deleted by its user only, and goes with its user.
func TestPasskeys(t *testing.T) {
	s := newStore(t)
	ctx := t.Context()
	ada, bob := twoAccounts(t, s)
	h1, err := s.PasskeyHandle(ctx, ada.ID)
	if err != nil || len(h1) != 32 {
		t.Fatalf("handle: %x %v", h1, err)
	}
	if h2, _ := s.PasskeyHandle(ctx, ada.ID); !bytes.Equal(h1, h2) {
		t.Errorf("the handle changed: %x then %x", h1, h2)
	}
	if hb, _ := s.PasskeyHandle(ctx, bob.ID); bytes.Equal(h1, hb) || bytes.Contains(h1, []byte(ada.Email)) {
		t.Errorf("handles: ada %x, bob %x", h1, hb)
	}
	in := store.Passkey{UserID: ada.ID, CredentialID: []byte("cred-1"), PublicKey: []byte("key"), SignCount: 7,
		Flags: 0x1d, Transports: []string{"internal", "hybrid"}, AAGUID: make([]byte, 16), Name: "Laptop"}
	p, err := s.AddPasskey(ctx, in)
	if err != nil || p.ID == 0 || p.Name != "Laptop" || p.CreatedAt != nowUnix(s) || p.LastUsedAt != nil || p.SignCount != 7 {
		t.Fatalf("add: %+v %v", p, err)
	}
	if _, err := s.AddPasskey(ctx, store.Passkey{UserID: bob.ID, CredentialID: []byte("cred-1"), PublicKey: []byte("k"), Name: "Again"}); !errors.Is(err, store.ErrPasskeyTaken) {
		t.Errorf("a credential id twice: %v", err)
	}
	p2, _ := s.AddPasskey(ctx, store.Passkey{UserID: ada.ID, CredentialID: []byte("cred-2"), PublicKey: []byte("k2"), Name: "Phone"})
	if list, err := s.Passkeys(ctx, ada.ID); err != nil || len(list) != 2 || list[0].ID != p.ID || list[1].ID != p2.ID {
		t.Errorf("list: %+v %v", list, err)
	}
	if list, err := s.Passkeys(ctx, bob.ID); err != nil || list == nil || len(list) != 0 {
		t.Errorf("bob's list: %+v %v", list, err)
	}
	got, handle, err := s.PasskeyByCredential(ctx, []byte("cred-1"))
	if err != nil || got.ID != p.ID || got.UserID != ada.ID || !bytes.Equal(handle, h1) || got.Flags != 0x1d ||
		len(got.Transports) != 2 || got.Transports[1] != "hybrid" || !bytes.Equal(got.PublicKey, []byte("key")) {
		t.Errorf("by credential: %+v %x %v", got, handle, err)
	}
	if _, _, err := s.PasskeyByCredential(ctx, []byte("nope")); !errors.Is(err, store.ErrPasskeyNotFound) {
		t.Errorf("unknown credential: %v", err)
	}
	advance(s, time.Minute)
	if err := s.UsePasskey(ctx, p.ID, 9, 0x1d); err != nil {
		t.Fatal(err)
	}
	if got, _, _ := s.PasskeyByCredential(ctx, []byte("cred-1")); got.LastUsedAt == nil || *got.LastUsedAt != nowUnix(s) || got.SignCount != 9 {
		t.Errorf("after use: %+v", got)
	}
	users, _ := s.Users(ctx)
	for _, u := range users {
		if want := map[int64]int{ada.ID: 2}[u.ID]; u.Passkeys != want {
			t.Errorf("listing of %s: %d passkeys, want %d", u.Email, u.Passkeys, want)
		}
	}
	if err := s.DeletePasskey(ctx, bob.ID, p.ID); !errors.Is(err, store.ErrPasskeyNotFound) {
		t.Errorf("bob deleted ada's passkey: %v", err)
	}
	if err := s.DeletePasskey(ctx, ada.ID, p.ID); err != nil {
		t.Fatal(err)
	}
	if err := s.DeletePasskey(ctx, ada.ID, p.ID); !errors.Is(err, store.ErrPasskeyNotFound) {
		t.Errorf("deleted twice: %v", err)
	}
	if _, err := s.DeleteUser(ctx, ada.Email); err != nil {
		t.Fatal(err)
	}
	if _, _, err := s.PasskeyByCredential(ctx, []byte("cred-2")); !errors.Is(err, store.ErrPasskeyNotFound) {
		t.Errorf("a deleted user's passkey: %v", err)
	}
}

// TestPasskeyChallenges: a challenge works once, for its kind and its
// user, within five minutes of the store's clock.
func TestPasskeyChallenges(t *testing.T) {
	s := newStore(t)
	ctx := t.Context()
	ada, bob := twoAccounts(t, s)
	issue := func(kind string, user int64, c string) {
		t.Helper()
		if err := s.IssuePasskeyChallenge(ctx, kind, user, []byte(c)); err != nil {
			t.Fatal(err)
		}
	}
	consume := func(kind string, user int64, c string) bool {
		t.Helper()
		ok, err := s.ConsumePasskeyChallenge(ctx, kind, user, []byte(c))
		if err != nil {
			t.Fatal(err)
		}
		return ok
	}
	issue(store.PasskeyLogin, 0, "login-1")
	issue(store.PasskeyRegister, ada.ID, "reg-1")
	if consume(store.PasskeyRegister, 0, "login-1") || consume(store.PasskeyLogin, 0, "reg-1") {
		t.Error("a challenge of another ceremony")
	}
	if consume(store.PasskeyRegister, bob.ID, "reg-1") {
		t.Error("another user's registration challenge")
	}
	if !consume(store.PasskeyLogin, 0, "login-1") || !consume(store.PasskeyRegister, ada.ID, "reg-1") {
		t.Fatal("a challenge refused")
	}
	if consume(store.PasskeyLogin, 0, "login-1") || consume(store.PasskeyRegister, ada.ID, "reg-1") {
		t.Error("a challenge twice")
	}
	if consume(store.PasskeyLogin, 0, "never issued") {
		t.Error("a challenge never issued")
	}
	issue(store.PasskeyLogin, 0, "old")
	issue(store.PasskeyLogin, 0, "almost")
	advance(s, store.PasskeyChallengeLife*time.Second-time.Second)
	if !consume(store.PasskeyLogin, 0, "almost") {
		t.Error("a challenge refused before its five minutes were up")
	}
	advance(s, time.Second)
	if consume(store.PasskeyLogin, 0, "old") {
		t.Error("an expired challenge")
	}
	issue(store.PasskeyRegister, bob.ID, "bob's")
	if _, err := s.DeleteUser(ctx, bob.Email); err != nil {
		t.Fatal(err)
	}
	if consume(store.PasskeyRegister, bob.ID, "bob's") {
		t.Error("a deleted user's challenge")
	}
}
