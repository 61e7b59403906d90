package web

import (
	"crypto/rand"
	"encoding/base64"
	"os"
	"sync"
	"time"

	"kith/server/transfer"
)

// An import from Settings → Data is two requests: the file is checked (a
// dry run) and its answer shown, then imported when the person says so.
// Between the two, the file waits in a temporary file of this process,
// named by a random token that only its user, in its account, can use.
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
}

func newSpool() *spool { return &spool{files: map[string]*spooled{}} }

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
	s.mu.Lock()
	defer s.mu.Unlock()
	s.sweep(now)
	s.files[token] = f
	return token, nil
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
