package store

import (
	"testing"
	"time"
)

// TestKeyCacheForgetBeatsALookup: a lookup that began before a forget —
// it read the key just before its revocation committed — must not put
// the session it found back.
func TestKeyCacheForgetBeatsALookup(t *testing.T) {
	c := newKeyCache()
	now := time.Unix(1_800_000_000, 0)
	hash := [32]byte{1}
	_, gen, hit := c.get(7, hash, now)
	if hit {
		t.Fatal("a hit in an empty cache")
	}
	c.forget()
	c.put(gen, 7, hash, Session{UserID: 1}, now)
	if _, _, hit := c.get(7, hash, now); hit {
		t.Error("the lookup from before the forget was kept")
	}
	_, gen, _ = c.get(7, hash, now)
	c.put(gen, 7, hash, Session{UserID: 1}, now)
	if sess, _, hit := c.get(7, hash, now.Add(KeyCacheTTL-time.Nanosecond)); !hit || sess.UserID != 1 {
		t.Errorf("a lookup after the forget: %+v, %t", sess, hit)
	}
	if _, _, hit := c.get(7, hash, now.Add(KeyCacheTTL)); hit {
		t.Error("kept past KeyCacheTTL")
	}
}

// TestKeyCacheBound: a full cache makes room from expired sessions, and
// keeps no more than keyCacheMax.
func TestKeyCacheBound(t *testing.T) {
	c := newKeyCache()
	now := time.Unix(1_800_000_000, 0)
	for id := range int64(keyCacheMax) {
		c.put(0, id, [32]byte{}, Session{}, now)
	}
	c.put(0, keyCacheMax, [32]byte{}, Session{}, now)
	if len(c.entries) != keyCacheMax {
		t.Errorf("%d sessions kept, want %d", len(c.entries), keyCacheMax)
	}
	later := now.Add(KeyCacheTTL)
	c.put(0, keyCacheMax+1, [32]byte{}, Session{}, later)
	if _, _, hit := c.get(keyCacheMax+1, [32]byte{}, later); !hit || len(c.entries) != 1 {
		t.Errorf("after expiry: %d sessions, the new one kept %t", len(c.entries), hit)
	}
}
