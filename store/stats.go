package store

import (
	"sync/atomic"
	"time"
)

// PoolStats are the figures of the database connections and of the
// writes, as plain numbers for the server's metrics.
//
// On SQLite the readers are their own pool and every write goes through
// the one writer connection, in the order the writes queue up. On
// PostgreSQL one pool serves reads and writes alike: the Reader figures
// count both, and a write waits for a connection of that pool, never for
// the writer (WriterWaits stays 0).
type PoolStats struct {
	ReaderMaxOpen int // connections the reader pool may open
	ReaderOpen    int // connections open, in use or idle
	ReaderInUse   int // connections running a query now
	// ReaderWaits counts the queries that found every connection busy and
	// waited for one, ReaderWaited the time they waited in all.
	ReaderWaits  int64
	ReaderWaited time.Duration

	// WriterQueue is the writes under way now: waiting for the writer or
	// being committed.
	WriterQueue int64
	// WriterWaits counts the writes that found the writer busy with other
	// writes and waited for their turn, WriterWaited the time they waited
	// in all (until the writer took them, not until their commit).
	WriterWaits  int64
	WriterWaited time.Duration
	// Writes counts the writes done, Commits the transactions that
	// committed them: on SQLite many writes share one commit.
	Writes  int64
	Commits int64
}

// writeStats are the writer's figures of PoolStats, kept as it works.
type writeStats struct {
	queue   atomic.Int64
	waits   atomic.Int64
	waited  atomic.Int64 // nanoseconds
	writes  atomic.Int64
	commits atomic.Int64
}

// wait records a write's wait for the writer.
func (w *writeStats) wait(d time.Duration) {
	w.waits.Add(1)
	w.waited.Add(int64(d))
}

// PoolStats returns the figures of the connections and the writes now.
func (s *Store) PoolStats() PoolStats {
	r := s.r.Stats()
	return PoolStats{
		ReaderMaxOpen: r.MaxOpenConnections,
		ReaderOpen:    r.OpenConnections,
		ReaderInUse:   r.InUse,
		ReaderWaits:   r.WaitCount,
		ReaderWaited:  r.WaitDuration,
		WriterQueue:   s.wstats.queue.Load(),
		WriterWaits:   s.wstats.waits.Load(),
		WriterWaited:  time.Duration(s.wstats.waited.Load()),
		Writes:        s.wstats.writes.Load(),
		Commits:       s.wstats.commits.Load(),
	}
}
