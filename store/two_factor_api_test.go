package store_test

import (
	"bytes"
	"testing"

	"kith/store"
)

// TestTwoFactor: a pending secret waits for its confirmation, a step is
// accepted once, a recovery code once, and disabling forgets it all; the
// other user's stays.
func TestTwoFactor(t *testing.T) {
	s := newStore(t)
	ctx := t.Context()
	ada, bob := twoAccounts(t, s)
	if tf, err := s.UserTwoFactor(ctx, ada.ID); err != nil || tf.Enabled() || tf.Pending != "" {
		t.Fatalf("new user: %+v %v", tf, err)
	}
	for _, secret := range []string{"AAAA", "BBBB"} {
		if kept, err := s.SetPendingTwoFactor(ctx, ada.ID, secret); !kept || err != nil {
			t.Fatalf("set pending %s: %v %v", secret, kept, err)
		}
	}
	if err := s.ConfirmTwoFactor(ctx, ada.ID, "AAAA", 10, nil, 0); err == nil {
		t.Error("the replaced secret confirmed")
	}
	web, _ := s.CreateWebSession(ctx, ada.ID, store.WebClient{})
	bobWeb, _ := s.CreateWebSession(ctx, bob.ID, store.WebClient{})
	hashes := [][]byte{bytes.Repeat([]byte{1}, 32), bytes.Repeat([]byte{2}, 32)}
	if err := s.ConfirmTwoFactor(ctx, ada.ID, "BBBB", 10, hashes, 0); err != nil {
		t.Fatal(err)
	}
	tf, err := s.UserTwoFactor(ctx, ada.ID)
	if err != nil || !tf.Enabled() || tf.Secret != "BBBB" || tf.Pending != "" || tf.LastStep != 10 || tf.RecoveryLeft != 2 {
		t.Fatalf("on: %+v %v", tf, err)
	}
	if _, err := s.WebSession(ctx, web); err == nil {
		t.Error("ada's web session outlived two-factor's arrival")
	}
	if _, err := s.WebSession(ctx, bobWeb); err != nil {
		t.Errorf("bob's web session: %v", err)
	}
	if kept, err := s.SetPendingTwoFactor(ctx, ada.ID, "CCCC"); kept || err != nil {
		t.Errorf("a setup while on: %v %v", kept, err)
	}
	for step, want := range map[int64]bool{9: false, 10: false} {
		if ok, err := s.UseTwoFactorStep(ctx, ada.ID, step); ok != want || err != nil {
			t.Errorf("step %d: %v %v", step, ok, err)
		}
	}
	if ok, _ := s.UseTwoFactorStep(ctx, ada.ID, 11); !ok {
		t.Error("step 11 refused")
	}
	if ok, _ := s.UseTwoFactorStep(ctx, ada.ID, 11); ok {
		t.Error("step 11 twice")
	}
	if ok, _ := s.UseTwoFactorStep(ctx, bob.ID, 50); ok {
		t.Error("a step for a user with two-factor off")
	}
	if ok, _ := s.UseRecoveryCode(ctx, ada.ID, hashes[0]); !ok {
		t.Error("recovery code refused")
	}
	if ok, _ := s.UseRecoveryCode(ctx, ada.ID, hashes[0]); ok {
		t.Error("recovery code twice")
	}
	users, err := s.Users(ctx)
	if err != nil {
		t.Fatal(err)
	}
	for _, u := range users {
		if u.TwoFactor != (u.ID == ada.ID) {
			t.Errorf("listing of %s: two-factor %v", u.Email, u.TwoFactor)
		}
	}
	if was, err := s.DisableTwoFactorByEmail(ctx, " "+ada.Email); !was || err != nil {
		t.Errorf("disable: %v %v", was, err)
	}
	if tf, _ := s.UserTwoFactor(ctx, ada.ID); tf.Enabled() || tf.RecoveryLeft != 0 || tf.LastStep != 0 {
		t.Errorf("after disable: %+v", tf)
	}
	if was, err := s.DisableTwoFactor(ctx, ada.ID); was || err != nil {
		t.Errorf("disable again: %v %v", was, err)
	}
	if _, err := s.DisableTwoFactorByEmail(ctx, "nobody@example.com"); err == nil {
		t.Error("an unknown email")
	}
}
