package store

import (
	"crypto/subtle"
	"sync"
	"time"
)

// KeyCacheTTL is how long an authentication is reused without reading the
// key again. A key lookup was a fifth of a task read's CPU; reused for two
// seconds it is one lookup per key per two seconds. Writes through this
// Store forget every session at once (withSessionTx); the TTL is how long
// a change made elsewhere — another kith serve on the same PostgreSQL
// database, or kith key revoke beside a running server — may go unseen.
const KeyCacheTTL = 2 * time.Second

// keyCacheMax bounds the cache: past it, new sessions are not kept until
// old ones expire.
const keyCacheMax = 10_000

// keyCache holds the sessions of keys authenticated within KeyCacheTTL, by key
// id, each with the hash of the secret that authenticated it. It never
// holds a secret, and never an answer "no such key": a wrong secret always
// reaches the database.
type keyCache struct {
	mu sync.Mutex
	// gen counts forgets. A lookup keeps its session only if no forget
	// came between its start and its end: one that read a key just before
	// its revocation committed must not bring it back.
	gen     uint64
	entries map[int64]cachedKey
}

type cachedKey struct {
	hash    [32]byte
	sess    Session
	expires time.Time
}

func newKeyCache() *keyCache { return &keyCache{entries: map[int64]cachedKey{}} }

// get returns the session of key id if it was authenticated by the same
// secret (hash) less than KeyCacheTTL ago, and the generation a lookup that
// follows a miss passes to put.
func (c *keyCache) get(id int64, hash [32]byte, now time.Time) (Session, uint64, bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	e, ok := c.entries[id]
	if !ok || !now.Before(e.expires) || subtle.ConstantTimeCompare(e.hash[:], hash[:]) != 1 {
		return Session{}, c.gen, false
	}
	return e.sess, c.gen, true
}

// put keeps a session the database just confirmed, unless a forget came
// since get returned gen.
func (c *keyCache) put(gen uint64, id int64, hash [32]byte, sess Session, now time.Time) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if gen != c.gen {
		return
	}
	if len(c.entries) >= keyCacheMax {
		for k, e := range c.entries {
			if !now.Before(e.expires) {
				delete(c.entries, k)
			}
		}
		if len(c.entries) >= keyCacheMax {
			return
		}
	}
	c.entries[id] = cachedKey{hash: hash, sess: sess, expires: now.Add(KeyCacheTTL)}
}

// touched records a write of the key's last_used_at, so that its cached
// session does not ask for another on every request.
func (c *keyCache) touched(id, at int64) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if e, ok := c.entries[id]; ok {
		e.sess.LastUsedAt = &at
		c.entries[id] = e
	}
}

// forget drops every session: something one holds has changed.
func (c *keyCache) forget() {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.gen++
	clear(c.entries)
}
