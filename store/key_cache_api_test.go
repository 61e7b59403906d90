package store_test

import (
	"strconv"
	"testing"

	"kith/store"
)

// TestKeyCacheSeesEveryChange: a key authenticated a moment ago (and so
// kept by the key cache) answers with what a write through the same store
// has just changed, at once: its revocation, its user's email,
// verification, time zone, password with its keys, or deletion.
func TestKeyCacheSeesEveryChange(t *testing.T) {
	s := newStore(t)
	// Each change alters the session of u's key, then says what
	// Authenticate must answer.
	type change struct {
		name   string
		do     func(t *testing.T, u store.User, key store.APIKey, token string)
		gone   bool                                  // the key no longer authenticates
		expect func(t *testing.T, got store.Session) // else, what the session shows
	}
	unverify := func(t *testing.T, u store.User) string {
		t.Helper()
		_, secret, err := s.UpdateProfile(t.Context(), u.ID, store.Profile{FirstName: "A", LastName: "B", Email: "moved." + u.Email})
		if err != nil {
			t.Fatal(err)
		}
		return secret
	}
	changes := []change{
		{name: "the key revoked", gone: true, do: func(t *testing.T, u store.User, key store.APIKey, _ string) {
			if err := s.DeleteAPIKey(t.Context(), u.ID, key.ID); err != nil {
				t.Fatal(err)
			}
		}},
		{name: "a new email", do: func(t *testing.T, u store.User, _ store.APIKey, _ string) { unverify(t, u) },
			expect: func(t *testing.T, got store.Session) {
				if got.Verified || got.Email[:6] != "moved." {
					t.Errorf("after a new email the session is %+v, want unverified with the new email", got)
				}
			}},
		{name: "the email verified by its link", do: func(t *testing.T, u store.User, _ store.APIKey, token string) {
			secret := unverify(t, u)
			keepUnverified(t, s, token)
			if _, err := s.VerifyEmail(t.Context(), secret); err != nil {
				t.Fatal(err)
			}
		}, expect: wantVerified},
		{name: "the email verified by the command line", do: func(t *testing.T, u store.User, _ store.APIKey, token string) {
			unverify(t, u)
			keepUnverified(t, s, token)
			if _, err := s.MarkVerified(t.Context(), "moved."+u.Email); err != nil {
				t.Fatal(err)
			}
		}, expect: wantVerified},
		{name: "a new time zone", do: func(t *testing.T, u store.User, _ store.APIKey, _ string) {
			if _, err := s.SetTimezone(t.Context(), u.ID, "Asia/Tokyo"); err != nil {
				t.Fatal(err)
			}
		}, expect: wantTimezone("Asia/Tokyo")},
		{name: "a time zone from an import", do: func(t *testing.T, u store.User, _ store.APIKey, _ string) {
			if _, err := s.ImportAccount(t.Context(), u.AccountID, u.ID, store.AccountImport{Timezone: "America/Lima"}); err != nil {
				t.Fatal(err)
			}
		}, expect: wantTimezone("America/Lima")},
		{name: "a new password that revokes the keys", gone: true, do: func(t *testing.T, u store.User, _ store.APIKey, _ string) {
			if _, err := s.SetPassword(t.Context(), u.Email, "another password", true); err != nil {
				t.Fatal(err)
			}
		}},
		{name: "the user deleted", gone: true, do: func(t *testing.T, u store.User, _ store.APIKey, _ string) {
			if _, err := s.DeleteUser(t.Context(), u.Email); err != nil {
				t.Fatal(err)
			}
		}},
	}
	for _, tc := range changes {
		t.Run(tc.name, func(t *testing.T) {
			u := newUser(t, s)
			key, token := newKey(t, s, u.ID, "phone")
			if sess, err := s.Authenticate(t.Context(), token); err != nil || !sess.Verified {
				t.Fatalf("before: %+v, %v", sess, err)
			}
			tc.do(t, u, key, token)
			got, err := s.Authenticate(t.Context(), token)
			if tc.gone {
				wantErr(t, err, store.ErrUnauthenticated)
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			tc.expect(t, got)
		})
	}
}

// keepUnverified has the cache keep the session of token, whose user has
// just been unverified: once it has let the verified one expire.
func keepUnverified(t *testing.T, s *store.Store, token string) {
	t.Helper()
	advance(s, store.KeyCacheTTL)
	if sess, err := s.Authenticate(t.Context(), token); err != nil || sess.Verified {
		t.Fatalf("unverified: %+v, %v", sess, err)
	}
}

func wantVerified(t *testing.T, got store.Session) {
	t.Helper()
	if !got.Verified {
		t.Errorf("after verification the session is %+v", got)
	}
}

func wantTimezone(tz string) func(*testing.T, store.Session) {
	return func(t *testing.T, got store.Session) {
		t.Helper()
		if got.Timezone != tz {
			t.Errorf("time zone %q, want %q", got.Timezone, tz)
		}
	}
}

// TestKeyCacheAcrossStores: a key revoked through another store on the
// same database — a second kith serve on PostgreSQL, or a command beside
// the server — stops working within store.KeyCacheTTL.
func TestKeyCacheAcrossStores(t *testing.T) {
	a, where := newStoreAt(t)
	b := openFresh(t, where)
	u := newUser(t, a)
	key, token := newKey(t, a, u.ID, "phone")
	if _, err := a.Authenticate(t.Context(), token); err != nil {
		t.Fatal(err)
	}
	if err := b.DeleteAPIKey(t.Context(), u.ID, key.ID); err != nil {
		t.Fatal(err)
	}
	if _, err := b.Authenticate(t.Context(), token); err == nil {
		t.Error("the store that revoked the key still takes it")
	}
	advance(a, store.KeyCacheTTL)
	_, err := a.Authenticate(t.Context(), token)
	wantErr(t, err, store.ErrUnauthenticated)
}

// TestKeyCacheTakesOnlyTheSecret: a key in the cache answers its own
// secret only; another secret with its id still reaches the database, and
// is refused.
func TestKeyCacheTakesOnlyTheSecret(t *testing.T) {
	s := newStore(t)
	u := newUser(t, s)
	key, token := newKey(t, s, u.ID, "phone")
	if _, err := s.Authenticate(t.Context(), token); err != nil {
		t.Fatal(err)
	}
	for _, wrong := range []string{token + "x", token[:len(token)-1], strconv.FormatInt(key.ID, 10) + "|A"} {
		_, err := s.Authenticate(t.Context(), wrong)
		wantErr(t, err, store.ErrUnauthenticated)
	}
	if _, err := s.Authenticate(t.Context(), token); err != nil {
		t.Errorf("the right secret after wrong ones: %v", err)
	}
}

// TestKeyCacheKeepsTheTouch: once a key's use is recorded, its kept
// session knows, so that the next requests do not each write it again.
func TestKeyCacheKeepsTheTouch(t *testing.T) {
	s := newStore(t)
	u := newUser(t, s)
	key, token := newKey(t, s, u.ID, "phone")
	sess, err := s.Authenticate(t.Context(), token)
	if err != nil || !s.NeedsTouch(sess) {
		t.Fatalf("a key never used: %+v, %v, needs touch %t", sess, err, s.NeedsTouch(sess))
	}
	if err := s.TouchAPIKey(t.Context(), key.ID); err != nil {
		t.Fatal(err)
	}
	sess, err = s.Authenticate(t.Context(), token)
	if err != nil || s.NeedsTouch(sess) || sess.LastUsedAt == nil || *sess.LastUsedAt != nowUnix(s) {
		t.Errorf("after the touch: %+v, %v", sess, err)
	}
}
