package web

import (
	"crypto/rand"
	"encoding/base64"
	"os"
	"path/filepath"
	"strconv"
	"sync"
	"time"

	"kith/server/transfer"
)

// An import from Settings → Data is two requests: the file is checked (a
// dry run) and its answer shown, then imported when the person says so.
// Between the two, the file waits in a directory of the system's temporary
// one, named by a random token that only its user, in its account, can
// use.
// The tokens are in memory: behind several servers, the confirmation must
// reach the server that checked the file (sticky sessions), else it finds
// no token and asks for the file again, as after a restart.

// spoolLife is how long a checked file waits for its confirmation.
const spoolLife = time.Hour

// spooled is a checked file waiting for its import.
type spooled struct {
	kind          string // "monica" or "csv"
	user, account int64
	path          string
	size          int64
	made          time.Time
	// csv is a CSV file's format and mapping, and header its columns.
	csv    transfer.CSVOptions
	header []string
	// answer is the dry run's, as the check's page shows it; nil until
	// the columns of a CSV file are mapped.
	answer *importOutcome
}

// spool holds the checked files of this process by token.
type spool struct {
	mu    sync.Mutex
	files map[string]*spooled
	// dir holds the files, and those a server that stopped left behind,
	// which keep deletes once they are older than spoolLife, every
	// orphanEvery at most (lastOrphans, by the machine's clock, which
	// dates the files).
	dir         string
	lastOrphans time.Time
}

// orphanEvery is how often keep looks for files left behind.
const orphanEvery = 10 * time.Minute

func newSpool() *spool {
	return &spool{files: map[string]*spooled{},
		dir: filepath.Join(os.TempDir(), "kith-imports-"+strconv.Itoa(os.Getuid()))}
}

// keep takes over up's temporary file (Close no longer removes it) and
// names it by a new token.
func (s *spool) keep(f *spooled, up *transfer.Upload, now time.Time) (string, error) {
	var b [32]byte
	if _, err := rand.Read(b[:]); err != nil {
		return "", err
	}
	token := base64.RawURLEncoding.EncodeToString(b[:])
	if err := up.File.Close(); err != nil {
		return "", err
	}
	f.path, f.size, f.made = up.File.Name(), up.Size, now
	// Into the spool's own directory, where the files left behind are
	// found; where it cannot be made, the file stays where it is.
	if err := os.MkdirAll(s.dir, 0o700); err == nil {
		to := filepath.Join(s.dir, rand.Text())
		if os.Rename(f.path, to) == nil {
			f.path = to
		}
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	s.sweep(now)
	s.sweepOrphans()
	s.files[token] = f
	return token, nil
}

// sweepOrphans deletes the files of the spool's directory older than
// spoolLife that no token names: a stopped server's. The caller holds mu.
func (s *spool) sweepOrphans() {
	now := time.Now()
	if now.Sub(s.lastOrphans) < orphanEvery {
		return
	}
	s.lastOrphans = now
	kept := map[string]bool{}
	for _, f := range s.files {
		kept[f.path] = true
	}
	entries, _ := os.ReadDir(s.dir)
	for _, e := range entries {
		path := filepath.Join(s.dir, e.Name())
		if info, err := e.Info(); err == nil && info.Mode().IsRegular() && !kept[path] && now.Sub(info.ModTime()) > spoolLife {
			os.Remove(path)
		}
	}
}

// find is the file of token if it is user's, in account, of kind, and
// not expired. foreign says whether the token names a file of someone
// else (a 404) rather than none at all (expired, or never made).
func (s *spool) find(token, kind string, user, account int64, now time.Time) (*spooled, bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	f, foreign := s.findLocked(token, kind, user, account, now)
	if f == nil {
		return nil, foreign
	}
	cp := *f // the caller reads it while another request may update it
	return &cp, false
}

// update changes the file of token, if it is still kept.
func (s *spool) update(token string, change func(*spooled)) bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	f := s.files[token]
	if f != nil {
		change(f)
	}
	return f != nil
}

func (s *spool) findLocked(token, kind string, user, account int64, now time.Time) (*spooled, bool) {
	s.sweep(now)
	f := s.files[token]
	if f == nil {
		return nil, false
	}
	if f.kind != kind || f.user != user || f.account != account {
		return nil, true
	}
	return f, false
}

// take removes the file of token from the spool, as find finds it, so
// that one confirmation alone imports it (a second one finds nothing);
// the caller deletes the file when done, or puts it back.
func (s *spool) take(token, kind string, user, account int64, now time.Time) (*spooled, bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	f, foreign := s.findLocked(token, kind, user, account, now)
	if f != nil {
		delete(s.files, token)
	}
	return f, foreign
}

// putBack returns a taken file whose import failed for a reason of the
// moment, so that Import can be pressed again.
func (s *spool) putBack(token string, f *spooled) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.files[token] = f
}

// drop deletes a checked file.
func (f *spooled) drop() { os.Remove(f.path) }

// sweep deletes the files older than spoolLife; the caller holds mu.
func (s *spool) sweep(now time.Time) {
	for token, f := range s.files {
		if now.Sub(f.made) > spoolLife {
			f.drop()
			delete(s.files, token)
		}
	}
}
