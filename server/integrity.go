package server

import (
	"context"
	"strings"
	"time"
)

// IntegrityEvery is how often a running server reads every page of its
// SQLite database (store.QuickCheck), after once at start.
const IntegrityEvery = 24 * time.Hour

// WatchIntegrity checks the database at start, in the background so that
// the first answer does not wait for a read of the whole file, and then
// every IntegrityEvery until ctx ends. Damage is logged as an error and
// turns GET /api/health to 503, so that a monitor or a container's health
// check sees it; a check that finds none again clears it.
func (s *Server) WatchIntegrity(ctx context.Context) {
	t := time.NewTicker(IntegrityEvery)
	defer t.Stop()
	for {
		s.CheckIntegrity(ctx)
		select {
		case <-ctx.Done():
			return
		case <-t.C:
		}
	}
}

// CheckIntegrity runs one check and records what it found.
func (s *Server) CheckIntegrity(ctx context.Context) {
	problems, err := s.store.QuickCheck(ctx)
	if err != nil {
		if ctx.Err() == nil {
			s.log.Warn().Err(err).Msg("the database's integrity check could not run")
		}
		return
	}
	if len(problems) == 0 {
		s.damage.Store(nil)
		return
	}
	found := strings.Join(problems[:min(len(problems), 5)], "; ")
	s.damage.Store(&found)
	s.log.Error().Str("quick_check", found).Int("problems", len(problems)).
		Msg("the database has damaged pages: restore a backup (kith restore), or export what is left first")
}

// damaged is what the last integrity check found wrong, if anything.
func (s *Server) damaged() (string, bool) {
	if p := s.damage.Load(); p != nil {
		return *p, true
	}
	return "", false
}
