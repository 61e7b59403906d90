package store_test

import (
	"errors"
	"fmt"
	"reflect"
	"strconv"
	"strings"
	"testing"
	"time"

	"kith/store"
)

// newKey creates a key for the user and returns it with its token.
func newKey(t *testing.T, s *store.Store, userID int64, name string) (store.APIKey, string) {
	t.Helper()
	k, token, err := s.CreateAPIKey(t.Context(), userID, name)
	if err != nil {
		t.Fatal(err)
	}
	return k, token
}

func TestCreateAPIKey(t *testing.T) {
	s := newStore(t)
	me := newUser(t, s)
	advance(s, time.Hour)
	k, token, err := s.CreateAPIKey(t.Context(), me.ID, "phone")
	if err != nil {
		t.Fatal(err)
	}
	want := store.APIKey{ID: k.ID, UserID: me.ID, Name: "phone", CreatedAt: nowUnix(s), UpdatedAt: nowUnix(s)}
	if k.ID <= 0 || !reflect.DeepEqual(k, want) {
		t.Errorf("created %+v, want %+v", k, want)
	}
	id, secret, ok := strings.Cut(token, "|")
	if !ok || id != strconv.FormatInt(k.ID, 10) || len(secret) < 43 { // 256 bits in base32 or base64
		t.Errorf("token %q is not <id>|<long secret>", token)
	}
	if got, err := s.APIKey(t.Context(), me.ID, k.ID); err != nil || !reflect.DeepEqual(got, k) {
		t.Errorf("read back %+v, %v", got, err)
	}
	t.Run("a missing user is not found", func(t *testing.T) {
		_, token, err := s.CreateAPIKey(t.Context(), me.ID+100, "ghost")
		wantErr(t, err, store.ErrUserNotFound)
		if token != "" {
			t.Errorf("token %q beside the error", token)
		}
	})
	t.Run("each key has its own secret", func(t *testing.T) {
		k2, token2 := newKey(t, s, me.ID, "phone")
		_, secret2, _ := strings.Cut(token2, "|")
		if k2.ID == k.ID || secret2 == secret {
			t.Errorf("two keys share id %d or secret %q", k2.ID, secret)
		}
	})
}

func TestAPIKeys(t *testing.T) {
	s := newStore(t)
	me, them := twoAccounts(t, s)
	// A user of the same account: keys are a user's, not an account's.
	mate, err := s.CreateUser(t.Context(), store.NewUser{FirstName: "M", LastName: "M", Email: "mate@example.com", Password: testPassword, AccountID: me.AccountID})
	if err != nil {
		t.Fatal(err)
	}
	var want []store.APIKey
	for i, name := range []string{"laptop", "phone", "laptop"} {
		k, _ := newKey(t, s, me.ID, name)
		want = append(want, k)
		newKey(t, s, mate.ID, fmt.Sprint("mate", i))
		advance(s, -time.Minute) // later keys are older: the order is by id, not time
	}
	newKey(t, s, them.ID, "theirs")

	for _, tc := range []struct {
		name string
		user int64
		want []store.APIKey
	}{
		{"the user's keys by id", me.ID, want},
		{"a user without keys has an empty list", newUser(t, s).ID, []store.APIKey{}},
		{"a missing user has an empty list", them.ID + 100, []store.APIKey{}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got, err := s.APIKeys(t.Context(), tc.user)
			if err != nil || got == nil || !reflect.DeepEqual(got, tc.want) {
				t.Errorf("keys %+v (nil: %t), %v\nwant %+v", got, got == nil, err, tc.want)
			}
		})
	}
}

func TestAPIKey(t *testing.T) {
	s := newStore(t)
	me, them := twoAccounts(t, s)
	mate, err := s.CreateUser(t.Context(), store.NewUser{FirstName: "M", LastName: "M", Email: "mate@example.com", Password: testPassword, AccountID: me.AccountID})
	if err != nil {
		t.Fatal(err)
	}
	mine, _ := newKey(t, s, me.ID, "mine")
	mates, _ := newKey(t, s, mate.ID, "mate's")
	theirs, _ := newKey(t, s, them.ID, "theirs")
	for _, tc := range []struct {
		name string
		id   int64
		err  error
	}{
		{"found for its user", mine.ID, nil},
		{"a missing key is not found", theirs.ID + 100, store.ErrAPIKeyNotFound},
		{"a key of another user of the account is not found", mates.ID, store.ErrAPIKeyNotFound},
		{"a key of another account is not found", theirs.ID, store.ErrAPIKeyNotFound},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got, err := s.APIKey(t.Context(), me.ID, tc.id)
			wantErr(t, err, tc.err)
			if tc.err != nil {
				wantErr(t, err, store.ErrNotFound)
				if got != (store.APIKey{}) {
					t.Errorf("got %+v beside the error", got)
				}
			} else if !reflect.DeepEqual(got, mine) {
				t.Errorf("got %+v, want %+v", got, mine)
			}
		})
	}
}

func TestDeleteAPIKey(t *testing.T) {
	s := newStore(t)
	me, them := twoAccounts(t, s)
	mate, err := s.CreateUser(t.Context(), store.NewUser{FirstName: "M", LastName: "M", Email: "mate@example.com", Password: testPassword, AccountID: me.AccountID})
	if err != nil {
		t.Fatal(err)
	}
	gone, goneToken := newKey(t, s, me.ID, "gone")
	kept, keptToken := newKey(t, s, me.ID, "kept")
	mates, matesToken := newKey(t, s, mate.ID, "mate's")
	theirs, theirToken := newKey(t, s, them.ID, "theirs")

	t.Run("revokes the key and only it", func(t *testing.T) {
		wantErr(t, s.DeleteAPIKey(t.Context(), me.ID, gone.ID), nil)
		if _, err := s.Authenticate(t.Context(), goneToken); !errors.Is(err, store.ErrUnauthenticated) {
			t.Errorf("the revoked key authenticates: %v", err)
		}
		if keys, _ := s.APIKeys(t.Context(), me.ID); !reflect.DeepEqual(keys, []store.APIKey{kept}) {
			t.Errorf("left %+v, want only %+v", keys, kept)
		}
		if _, err := s.Authenticate(t.Context(), keptToken); err != nil {
			t.Errorf("the other key stopped working: %v", err)
		}
	})
	for _, tc := range []struct {
		name  string
		id    int64
		token string // of a key that must survive
	}{
		{"a revoked key is not found", gone.ID, keptToken},
		{"a missing key is not found", theirs.ID + 100, keptToken},
		{"a key of another user of the account is not found", mates.ID, matesToken},
		{"a key of another account is not found", theirs.ID, theirToken},
	} {
		t.Run(tc.name, func(t *testing.T) {
			err := s.DeleteAPIKey(t.Context(), me.ID, tc.id)
			wantErr(t, err, store.ErrAPIKeyNotFound)
			wantErr(t, err, store.ErrNotFound)
			if _, err := s.Authenticate(t.Context(), tc.token); err != nil {
				t.Errorf("the key went: %v", err)
			}
		})
	}
}

func TestAuthenticate(t *testing.T) {
	s := newStore(t)
	me, them := twoAccounts(t, s)
	if _, err := s.SetTimezone(t.Context(), me.ID, "Asia/Tokyo"); err != nil {
		t.Fatal(err)
	}
	k, token := newKey(t, s, me.ID, "mine")
	theirs, theirToken := newKey(t, s, them.ID, "theirs")
	revoked, revokedToken := newKey(t, s, me.ID, "revoked")
	if err := s.DeleteAPIKey(t.Context(), me.ID, revoked.ID); err != nil {
		t.Fatal(err)
	}
	_, secret, _ := strings.Cut(token, "|")
	_, theirSecret, _ := strings.Cut(theirToken, "|")
	id := strconv.FormatInt(k.ID, 10)

	t.Run("a good token is the key's session", func(t *testing.T) {
		sess, err := s.Authenticate(t.Context(), token)
		want := store.Session{KeyID: k.ID, UserID: me.ID, AccountID: me.AccountID, Timezone: "Asia/Tokyo", Verified: true, Email: me.Email}
		if err != nil || !reflect.DeepEqual(sess, want) {
			t.Errorf("session %+v, %v\nwant %+v", sess, err, want)
		}
	})
	t.Run("the other account's token is its own session", func(t *testing.T) {
		sess, err := s.Authenticate(t.Context(), theirToken)
		if err != nil || sess.KeyID != theirs.ID || sess.UserID != them.ID || sess.AccountID != them.AccountID || sess.Timezone != "UTC" {
			t.Errorf("session %+v, %v", sess, err)
		}
	})

	refused := []struct{ name, token string }{
		{"a wrong secret", id + "|" + strings.Repeat("A", len(secret))},
		{"another key's secret", id + "|" + theirSecret},
		{"a key's secret under another id", strconv.FormatInt(theirs.ID, 10) + "|" + secret},
		{"a revoked key", revokedToken},
		{"a missing key", strconv.FormatInt(theirs.ID+100, 10) + "|" + secret},
		{"a secret with a byte more", token + "x"},
		{"a secret with a byte less", token[:len(token)-1]},
		{"an empty token", ""},
		{"a bare bar", "|"},
		{"no bar", id + secret},
		{"no secret", id + "|"},
		{"no id", "|" + secret},
		{"an id that is not a number", "x|" + secret},
		{"id zero", "0|" + secret},
		{"a negative id", "-" + id + "|" + secret},
		{"an id past int64", "99999999999999999999|" + secret},
		{"a secret over 256 bytes", id + "|" + strings.Repeat("A", 257)},
		{"a space before the token", " " + token},
		{"a second bar", token + "|" + secret},
		{"a bearer prefix", "Bearer " + token},
	}
	for _, tc := range refused {
		t.Run(tc.name+" is refused", func(t *testing.T) {
			sess, err := s.Authenticate(t.Context(), tc.token)
			wantErr(t, err, store.ErrUnauthenticated)
			if sess != (store.Session{}) {
				t.Errorf("session %+v beside the error", sess)
			}
		})
	}

	t.Run("an unverified user's session says so", func(t *testing.T) {
		if _, _, err := s.UpdateProfile(t.Context(), me.ID, store.Profile{FirstName: "A", LastName: "B", Email: "changed@example.com"}); err != nil {
			t.Fatal(err)
		}
		sess, err := s.Authenticate(t.Context(), token)
		if err != nil || sess.Verified || sess.UserID != me.ID {
			t.Errorf("session %+v, %v", sess, err)
		}
	})
}

func TestNeedsTouch(t *testing.T) {
	s := newStore(t)
	now := nowUnix(s)
	for _, tc := range []struct {
		name     string
		lastUsed *int64
		want     bool
	}{
		{"a never-used key needs a touch", nil, true},
		{"a key used now does not", ptr(now), false},
		{"a key used 59 s ago does not", ptr(now - 59), false},
		{"a key used 60 s ago does", ptr(now - 60), true},
		{"a key used a day ago does", ptr(now - 86400), true},
		{"a key used in the future does not", ptr(now + 30), false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if got := s.NeedsTouch(store.Session{KeyID: 1, LastUsedAt: tc.lastUsed}); got != tc.want {
				t.Errorf("NeedsTouch(last used %v at %d) = %t, want %t", deref(tc.lastUsed), now, got, tc.want)
			}
		})
	}
}

func TestTouchAPIKey(t *testing.T) {
	s := newStore(t)
	me, them := twoAccounts(t, s)
	k, token := newKey(t, s, me.ID, "mine")
	other, _ := newKey(t, s, them.ID, "theirs")

	// Each step touches the key at t0 plus at, then expects last_used_at.
	steps := []struct {
		name     string
		at       time.Duration
		lastUsed time.Duration
	}{
		{"the first touch records now", 0, 0},
		{"a touch 59 s later is coalesced", 59 * time.Second, 0},
		{"a touch 60 s after the last records now", 60 * time.Second, 60 * time.Second},
		{"a touch 30 s later is coalesced", 90 * time.Second, 60 * time.Second},
		{"a touch an hour later records now", time.Hour, time.Hour},
	}
	for _, st := range steps {
		t.Run(st.name, func(t *testing.T) {
			setClock(s, t0.Add(st.at))
			wantErr(t, s.TouchAPIKey(t.Context(), k.ID), nil)
			want := t0.Add(st.lastUsed).Unix()
			got, err := s.APIKey(t.Context(), me.ID, k.ID)
			if err != nil || got.LastUsedAt == nil || *got.LastUsedAt != want {
				t.Errorf("last used %v, %v; want %d", deref(got.LastUsedAt), err, want)
			}
			sess, err := s.Authenticate(t.Context(), token)
			if err != nil || sess.LastUsedAt == nil || *sess.LastUsedAt != want {
				t.Errorf("session last used %v, %v; want %d", deref(sess.LastUsedAt), err, want)
			}
			if s.NeedsTouch(sess) {
				t.Errorf("just touched, and NeedsTouch still says so")
			}
			if o, _ := s.APIKey(t.Context(), them.ID, other.ID); o.LastUsedAt != nil {
				t.Errorf("another key was touched: %d", *o.LastUsedAt)
			}
		})
	}
	t.Run("touching a missing key is no error", func(t *testing.T) {
		// It may have been revoked after the request authenticated.
		wantErr(t, s.TouchAPIKey(t.Context(), other.ID+100), nil)
	})
}
