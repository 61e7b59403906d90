package store_test

import (
	"errors"
	"reflect"
	"strings"
	"testing"
	"time"

	"kith/store"
)

// unverify changes the user's email to email, which makes them
// unverified, and returns the user and the link's secret.
func unverify(t *testing.T, s *store.Store, u store.User, email string) (store.User, string) {
	t.Helper()
	u, secret, err := s.UpdateProfile(t.Context(), u.ID, store.Profile{FirstName: u.FirstName, LastName: u.LastName, Email: email})
	if err != nil || secret == "" || u.Verified() {
		t.Fatalf("changing the email: %+v, secret %q, %v", u, secret, err)
	}
	return u, secret
}

func TestNewVerification(t *testing.T) {
	s := newStore(t)
	me, them := twoAccounts(t, s)

	t.Run("a verified user is refused", func(t *testing.T) {
		_, secret, err := s.NewVerification(t.Context(), me.ID)
		wantErr(t, err, store.ErrAlreadyVerified)
		if secret != "" {
			t.Errorf("secret %q beside the error", secret)
		}
	})
	t.Run("a missing user is not found", func(t *testing.T) {
		_, _, err := s.NewVerification(t.Context(), them.ID+100)
		wantErr(t, err, store.ErrUserNotFound)
		wantErr(t, err, store.ErrNotFound)
	})
	t.Run("a fresh link voids the last", func(t *testing.T) {
		u, first := unverify(t, s, me, "new@example.com")
		got, second, err := s.NewVerification(t.Context(), me.ID)
		if err != nil || second == "" || second == first || !reflect.DeepEqual(got, u) {
			t.Fatalf("user %+v, secret %q (first %q), %v", got, second, first, err)
		}
		if _, err := s.VerifyEmail(t.Context(), first); !errors.Is(err, store.ErrVerificationInvalid) {
			t.Errorf("the voided link: %v", err)
		}
		if v, err := s.VerifyEmail(t.Context(), second); err != nil || !v.Verified() || v.Email != "new@example.com" {
			t.Errorf("the fresh link: %+v, %v", v, err)
		}
	})
}

func TestVerifyEmail(t *testing.T) {
	s := newStore(t)
	me, them := twoAccounts(t, s)
	_, theirSecret := unverify(t, s, them, "their.new@example.com")

	cases := []struct {
		name   string
		secret func(t *testing.T) string // run with the clock at t0 + an hour per case
		after  time.Duration             // before verifying
		ok     bool
	}{
		{"a fresh link verifies", func(t *testing.T) string { _, sec := unverify(t, s, me, "a@example.com"); return sec }, 0, true},
		{"a link one second before expiry verifies",
			func(t *testing.T) string { _, sec := unverify(t, s, me, "b@example.com"); return sec },
			store.VerificationTTL*time.Second - time.Second, true},
		{"a link at its expiry is refused",
			func(t *testing.T) string { _, sec := unverify(t, s, me, "c@example.com"); return sec },
			store.VerificationTTL * time.Second, false},
		{"a used link is refused", func(t *testing.T) string {
			_, sec := unverify(t, s, me, "d@example.com")
			if _, err := s.VerifyEmail(t.Context(), sec); err != nil {
				t.Fatal(err)
			}
			return sec
		}, 0, false},
		{"an unknown secret is refused", func(*testing.T) string { return strings.Repeat("A", 52) }, 0, false},
		{"an empty secret is refused", func(*testing.T) string { return "" }, 0, false},
		{"a secret over 256 bytes is refused", func(*testing.T) string { return strings.Repeat("A", 257) }, 0, false},
	}
	for i, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			setClock(s, t0.Add(time.Duration(i+1)*24*time.Hour))
			secret := tc.secret(t)
			advance(s, tc.after)
			before, _ := s.User(t.Context(), me.ID)
			got, err := s.VerifyEmail(t.Context(), secret)
			after, _ := s.User(t.Context(), me.ID)
			if !tc.ok {
				wantErr(t, err, store.ErrVerificationInvalid)
				if got.ID != 0 {
					t.Errorf("user %+v beside the error", got)
				}
				if before.Verified() != after.Verified() {
					t.Errorf("verified went from %t to %t", before.Verified(), after.Verified())
				}
				return
			}
			want := before
			want.EmailVerifiedAt = ptr(nowUnix(s))
			if err != nil || !reflect.DeepEqual(got, want) || !reflect.DeepEqual(after, want) {
				t.Errorf("verified %+v (at %v), %v\nstored %+v\nwant %+v", got, deref(got.EmailVerifiedAt), err, after, want)
			}
		})
	}

	t.Run("an expired link is gone even when the clock goes back", func(t *testing.T) {
		setClock(s, t0.Add(30*24*time.Hour))
		_, secret := unverify(t, s, me, "late@example.com")
		advance(s, store.VerificationTTL*time.Second)
		wantErr(t, func() error { _, err := s.VerifyEmail(t.Context(), secret); return err }(), store.ErrVerificationInvalid)
		advance(s, -store.VerificationTTL*time.Second)
		wantErr(t, func() error { _, err := s.VerifyEmail(t.Context(), secret); return err }(), store.ErrVerificationInvalid)
	})
	t.Run("the other user's link was never touched", func(t *testing.T) {
		if u, _ := s.User(t.Context(), them.ID); u.Verified() {
			t.Fatal("the other user got verified")
		}
		setClock(s, t0)
		v, err := s.VerifyEmail(t.Context(), theirSecret)
		if err != nil || v.ID != them.ID || !v.Verified() || v.Email != "their.new@example.com" {
			t.Errorf("their link: %+v, %v", v, err)
		}
	})
}

func TestMarkVerified(t *testing.T) {
	s := newStore(t)
	me, them := twoAccounts(t, s)
	_, theirSecret := unverify(t, s, them, "their.new@example.com")

	t.Run("verifies an unverified user and voids the pending link", func(t *testing.T) {
		u, secret := unverify(t, s, me, "new@example.com")
		advance(s, time.Minute)
		got, err := s.MarkVerified(t.Context(), " NEW@example.com ")
		want := u
		want.EmailVerifiedAt = ptr(nowUnix(s))
		if err != nil || !reflect.DeepEqual(got, want) {
			t.Errorf("marked %+v, %v\nwant %+v", got, err, want)
		}
		if stored, _ := s.User(t.Context(), me.ID); !reflect.DeepEqual(stored, want) {
			t.Errorf("stored %+v", stored)
		}
		if _, err := s.VerifyEmail(t.Context(), secret); !errors.Is(err, store.ErrVerificationInvalid) {
			t.Errorf("the pending link still works: %v", err)
		}
	})
	t.Run("a verified user stays as they were", func(t *testing.T) {
		before, _ := s.User(t.Context(), me.ID)
		advance(s, time.Hour)
		got, err := s.MarkVerified(t.Context(), before.Email)
		if err != nil || !reflect.DeepEqual(got, before) {
			t.Errorf("marked %+v, %v\nwant %+v", got, err, before)
		}
	})
	t.Run("an unknown email is not found", func(t *testing.T) {
		_, err := s.MarkVerified(t.Context(), "nobody@example.com")
		wantErr(t, err, store.ErrUserNotFound)
		wantErr(t, err, store.ErrNotFound)
	})
	t.Run("the old email of a user is not found", func(t *testing.T) {
		_, err := s.MarkVerified(t.Context(), them.Email)
		wantErr(t, err, store.ErrUserNotFound)
	})
	t.Run("the other user was never touched", func(t *testing.T) {
		if u, _ := s.User(t.Context(), them.ID); u.Verified() {
			t.Fatal("the other user got verified")
		}
		setClock(s, t0) // when their link was made
		if _, err := s.VerifyEmail(t.Context(), theirSecret); err != nil {
			t.Errorf("their link: %v", err)
		}
	})
}
