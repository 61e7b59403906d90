package store_test

import (
	"errors"
	"strings"
	"testing"
	"time"

	"kith/store"
)

func TestWebSessions(t *testing.T) {
	s := newStore(t)
	me := newUser(t, s)
	other := newUser(t, s)
	token, err := s.CreateWebSession(t.Context(), me.ID, store.WebClient{})
	if err != nil {
		t.Fatal(err)
	}
	sess, err := s.WebSession(t.Context(), token)
	if err != nil {
		t.Fatal(err)
	}
	if sess.UserID != me.ID || sess.AccountID != me.AccountID || sess.Email != me.Email || !sess.Verified {
		t.Errorf("session %+v is not of user %+v", sess, me)
	}
	t.Run("a wrong or malformed secret is refused", func(t *testing.T) {
		id, _, _ := strings.Cut(token, "|")
		for _, bad := range []string{id + "|nope", "", "x", id, token + "x", "0|" + token} {
			if _, err := s.WebSession(t.Context(), bad); !errors.Is(err, store.ErrUnauthenticated) {
				t.Errorf("%q: %v, want ErrUnauthenticated", bad, err)
			}
		}
	})
	t.Run("another user cannot sign it out", func(t *testing.T) {
		if err := s.DeleteWebSession(t.Context(), other.ID, sess.KeyID); err != nil {
			t.Fatal(err)
		}
		if _, err := s.WebSession(t.Context(), token); err != nil {
			t.Errorf("signed out by another user: %v", err)
		}
	})
	t.Run("it expires", func(t *testing.T) {
		later, err := s.CreateWebSession(t.Context(), me.ID, store.WebClient{})
		if err != nil {
			t.Fatal(err)
		}
		advance(s, store.WebSessionLife*time.Second-time.Second)
		if _, err := s.WebSession(t.Context(), later); err != nil {
			t.Errorf("a second before its end: %v", err)
		}
		advance(s, time.Second)
		if _, err := s.WebSession(t.Context(), later); !errors.Is(err, store.ErrUnauthenticated) {
			t.Errorf("at its end: %v, want ErrUnauthenticated", err)
		}
	})
	t.Run("signing out ends it", func(t *testing.T) {
		fresh, err := s.CreateWebSession(t.Context(), me.ID, store.WebClient{})
		if err != nil {
			t.Fatal(err)
		}
		got, err := s.WebSession(t.Context(), fresh)
		if err != nil {
			t.Fatal(err)
		}
		if err := s.DeleteWebSession(t.Context(), me.ID, got.KeyID); err != nil {
			t.Fatal(err)
		}
		if _, err := s.WebSession(t.Context(), fresh); !errors.Is(err, store.ErrUnauthenticated) {
			t.Errorf("after signing out: %v", err)
		}
	})
}
