package store_test

import (
	"errors"
	"slices"
	"strings"
	"testing"
	"time"
	"unicode/utf8"

	"kith/store"
)

const (
	firefoxUA = "Mozilla/5.0 (X11; Linux x86_64; rv:133.0) Gecko/20100101 Firefox/133.0"
	iphoneUA  = "Mozilla/5.0 (iPhone; CPU iPhone OS 18_1 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/18.1 Mobile/15E148 Safari/604.1"
)

// webSession signs u in from the client and returns its cookie and id.
func webSession(t *testing.T, s *store.Store, u store.User, from store.WebClient) (string, int64) {
	t.Helper()
	token, err := s.CreateWebSession(t.Context(), u.ID, from)
	if err != nil {
		t.Fatal(err)
	}
	sess, err := s.WebSession(t.Context(), token)
	if err != nil {
		t.Fatal(err)
	}
	return token, sess.KeyID
}

// listed is the user's live sessions, in the list's order.
func listed(t *testing.T, s *store.Store, u store.User) ([]int64, []store.WebSession) {
	t.Helper()
	list, err := s.WebSessions(t.Context(), u.ID)
	if err != nil {
		t.Fatal(err)
	}
	ids := []int64{}
	for _, w := range list {
		ids = append(ids, w.ID)
	}
	return ids, list
}

// TestWebSessionsListed: a session remembers its browser and addresses,
// is listed to its user alone, newest seen first, and its last sight is
// written only once it is a few minutes old.
func TestWebSessionsListed(t *testing.T) {
	s := newStore(t)
	ctx := t.Context()
	me, other := twoAccounts(t, s)
	start := nowUnix(s)
	_, laptop := webSession(t, s, me, store.WebClient{UserAgent: firefoxUA, IP: "198.51.100.7"})
	advance(s, time.Minute)
	phoneToken, phone := webSession(t, s, me, store.WebClient{UserAgent: iphoneUA, IP: "2001:db8::1"})
	_, theirs := webSession(t, s, other, store.WebClient{UserAgent: firefoxUA, IP: "192.0.2.9"})

	ids, list := listed(t, s, me)
	if !slices.Equal(ids, []int64{phone, laptop}) {
		t.Fatalf("listed %v, want the phone %d then the laptop %d", ids, phone, laptop)
	}
	want := store.WebSession{ID: laptop, UserAgent: firefoxUA, CreatedIP: "198.51.100.7", LastSeenIP: "198.51.100.7",
		CreatedAt: start, LastSeenAt: start, ExpiresAt: start + store.WebSessionLife}
	if list[1] != want {
		t.Errorf("laptop %+v, want %+v", list[1], want)
	}
	if ids, _ := listed(t, s, other); !slices.Equal(ids, []int64{theirs}) {
		t.Errorf("the other user's list %v", ids)
	}

	t.Run("last seen is written only when a few minutes old", func(t *testing.T) {
		sess, err := s.WebSession(ctx, phoneToken)
		if err != nil {
			t.Fatal(err)
		}
		if s.WebSessionStale(sess) {
			t.Error("stale the moment it was made")
		}
		advance(s, 4*time.Minute)
		if err := s.TouchWebSession(ctx, phone, "203.0.113.4"); err != nil {
			t.Fatal(err)
		}
		if _, list := listed(t, s, me); list[0].LastSeenIP != "2001:db8::1" || list[0].LastSeenAt != start+60 {
			t.Errorf("touched after 4 minutes: %+v", list[0])
		}
		advance(s, time.Minute)
		sess, _ = s.WebSession(ctx, phoneToken)
		if !s.WebSessionStale(sess) {
			t.Error("not stale after 5 minutes")
		}
		if err := s.TouchWebSession(ctx, laptop, "203.0.113.4"); err != nil {
			t.Fatal(err)
		}
		ids, list := listed(t, s, me)
		if !slices.Equal(ids, []int64{laptop, phone}) || list[0].LastSeenAt != nowUnix(s) ||
			list[0].LastSeenIP != "203.0.113.4" || list[0].CreatedIP != "198.51.100.7" {
			t.Errorf("after the laptop was seen: %v %+v", ids, list)
		}
		if sess, _ := s.WebSession(ctx, phoneToken); s.WebSessionStale(sess) == false {
			t.Error("touching the laptop touched the phone")
		}
	})

	t.Run("what a browser says is kept short and clean", func(t *testing.T) {
		long := "Mozilla/5.0 \x00\x1b[31m" + strings.Repeat("é", 600) + "\xff"
		_, id := webSession(t, s, other, store.WebClient{UserAgent: long, IP: strings.Repeat("9", 100)})
		_, list := listed(t, s, other)
		i := slices.IndexFunc(list, func(w store.WebSession) bool { return w.ID == id })
		ua := list[i].UserAgent
		if len(ua) > 512 || len(ua) < 500 || !utf8.ValidString(ua) || strings.ContainsAny(ua, "\x00\x1b") || !strings.HasPrefix(ua, "Mozilla/5.0 [31mé") {
			t.Errorf("user agent kept as %q (%d bytes)", ua, len(ua))
		}
		if len(list[i].CreatedIP) != 64 {
			t.Errorf("address kept as %q", list[i].CreatedIP)
		}
	})

	t.Run("an ended session is not listed", func(t *testing.T) {
		advance(s, store.WebSessionLife*time.Second)
		if ids, _ := listed(t, s, me); len(ids) != 0 {
			t.Errorf("after 30 days: %v", ids)
		}
		if _, err := s.RevokeWebSession(ctx, me.ID, laptop); !errors.Is(err, store.ErrNotFound) {
			t.Errorf("revoking an ended session: %v", err)
		}
	})
}

// TestWebSessionsRevoked: a user signs out one session of theirs, or all
// but the current one; another user's session id is not found and stays.
func TestWebSessionsRevoked(t *testing.T) {
	s := newStore(t)
	ctx := t.Context()
	me, other := twoAccounts(t, s)
	here, hereID := webSession(t, s, me, store.WebClient{UserAgent: firefoxUA, IP: "198.51.100.7"})
	there, thereID := webSession(t, s, me, store.WebClient{UserAgent: iphoneUA, IP: "198.51.100.8"})
	third, _ := webSession(t, s, me, store.WebClient{})
	theirs, theirID := webSession(t, s, other, store.WebClient{})

	if _, err := s.RevokeWebSession(ctx, me.ID, theirID); !errors.Is(err, store.ErrWebSessionNotFound) {
		t.Errorf("another user's session: %v, want not found", err)
	}
	if _, err := s.WebSession(ctx, theirs); err != nil {
		t.Errorf("another user's session was signed out: %v", err)
	}
	if w, err := s.RevokeWebSession(ctx, me.ID, thereID); err != nil || w.ID != thereID || w.UserAgent != iphoneUA {
		t.Fatalf("revoked %+v, %v", w, err)
	}
	if _, err := s.WebSession(ctx, there); !errors.Is(err, store.ErrUnauthenticated) {
		t.Errorf("the revoked session still signs in: %v", err)
	}
	if _, err := s.RevokeWebSession(ctx, me.ID, thereID); !errors.Is(err, store.ErrWebSessionNotFound) {
		t.Errorf("revoked twice: %v", err)
	}

	n, err := s.RevokeOtherWebSessions(ctx, me.ID, hereID)
	if err != nil || n != 1 {
		t.Fatalf("revoking the others: %d %v, want the third alone", n, err)
	}
	if _, err := s.WebSession(ctx, third); !errors.Is(err, store.ErrUnauthenticated) {
		t.Errorf("another session outlived signing out the others: %v", err)
	}
	if _, err := s.WebSession(ctx, here); err != nil {
		t.Errorf("the current session was signed out: %v", err)
	}
	if _, err := s.WebSession(ctx, theirs); err != nil {
		t.Errorf("another user's session was signed out: %v", err)
	}
	if n, err := s.RevokeOtherWebSessions(ctx, me.ID, hereID); err != nil || n != 0 {
		t.Errorf("again: %d %v", n, err)
	}
}
