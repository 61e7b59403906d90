package store

import (
	"context"
	"testing"
	"time"
)

// TestPoolStatsCountTheWriterQueue: a write that finds the writer busy is
// in the queue while it waits, and counted as a wait once it gets its turn.
func TestPoolStatsCountTheWriterQueue(t *testing.T) {
	s, _ := openTest(t)
	ctx := context.Background()
	before := s.PoolStats()
	if before.WriterQueue != 0 || before.ReaderMaxOpen < 4 || before.ReaderOpen < 1 {
		t.Fatalf("at rest: %+v", before)
	}

	hold, release := make(chan struct{}), make(chan struct{})
	done := make(chan error, 2)
	go func() {
		done <- s.withTx(ctx, func(ctx context.Context, tx *txn) error {
			close(hold)
			<-release
			_, err := tx.ExecContext(ctx, `INSERT INTO accounts (created_at) VALUES (1)`)
			return err
		})
	}()
	<-hold
	go func() {
		done <- s.withTx(ctx, func(ctx context.Context, tx *txn) error {
			_, err := tx.ExecContext(ctx, `INSERT INTO accounts (created_at) VALUES (2)`)
			return err
		})
	}()
	deadline := time.Now().Add(5 * time.Second)
	for s.PoolStats().WriterQueue != 2 {
		if time.Now().After(deadline) {
			t.Fatalf("queue %d, want 2: the one committing and the one waiting", s.PoolStats().WriterQueue)
		}
		time.Sleep(time.Millisecond)
	}
	close(release)
	for range 2 {
		if err := <-done; err != nil {
			t.Fatal(err)
		}
	}

	after := s.PoolStats()
	if after.WriterQueue != 0 {
		t.Errorf("queue %d after both writes, want 0", after.WriterQueue)
	}
	if after.WriterWaits-before.WriterWaits < 1 || after.WriterWaited <= before.WriterWaited {
		t.Errorf("waits %d → %d (%v → %v): the second write waited", before.WriterWaits, after.WriterWaits,
			before.WriterWaited, after.WriterWaited)
	}
	if after.Writes-before.Writes != 2 || after.Commits-before.Commits < 1 {
		t.Errorf("writes %d → %d, commits %d → %d", before.Writes, after.Writes, before.Commits, after.Commits)
	}
}
