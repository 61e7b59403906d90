package store

import (
	"context"
	"errors"
	"fmt"
	"sync"
	"testing"
)

// insertJob is a write that adds an account, or fails as told.
func insertJob(ctx context.Context, fail error) *job {
	return &job{ctx: ctx, err: make(chan error, 1), fn: func(tx *txn) error {
		if _, err := tx.ExecContext(ctx, `INSERT INTO accounts (created_at) VALUES (1)`); err != nil {
			return err
		}
		if fail != nil {
			return fail
		}
		return nil
	}}
}

func countAccounts(t *testing.T, s *Store) int {
	t.Helper()
	var n int
	if err := s.r.QueryRow(`SELECT count(*) FROM accounts`).Scan(&n); err != nil {
		t.Fatal(err)
	}
	return n
}

// TestBatchIsolatesWrites: in one batch, a write that fails is rolled back
// to its savepoint, a write whose client left is not run, and the others
// commit.
func TestBatchIsolatesWrites(t *testing.T) {
	s, _ := openTest(t)
	refused := errors.New("refused")
	gone, cancel := context.WithCancel(context.Background())
	cancel()
	ctx := context.Background()
	errs := s.writes.commit([]*job{insertJob(ctx, nil), insertJob(ctx, refused), insertJob(gone, nil), insertJob(ctx, nil)})
	if errs[0] != nil || !errors.Is(errs[1], refused) || !errors.Is(errs[2], context.Canceled) || errs[3] != nil {
		t.Fatalf("errors %v", errs)
	}
	if n := countAccounts(t, s); n != 2 {
		t.Errorf("%d accounts, want the 2 that succeeded", n)
	}
}

// TestBatchFailsWhole: a panic, or a write that breaks the transaction,
// fails every write of its batch, commits none, and the writer goes on.
func TestBatchFailsWhole(t *testing.T) {
	s, _ := openTest(t)
	ctx := context.Background()
	boom := &job{ctx: ctx, err: make(chan error, 1), fn: func(*txn) error { panic("boom") }}
	errs := s.writes.commit([]*job{insertJob(ctx, nil), boom, insertJob(ctx, nil)})
	for i, err := range errs {
		if err == nil {
			t.Errorf("write %d of a failed batch succeeded", i)
		}
	}
	breaks := &job{ctx: ctx, err: make(chan error, 1), fn: func(tx *txn) error {
		_, err := tx.ExecContext(ctx, `ROLLBACK`) // ends the transaction under the batch
		if err != nil {
			return err
		}
		return errors.New("after a rollback")
	}}
	errs = s.writes.commit([]*job{insertJob(ctx, nil), breaks})
	if errs[0] == nil {
		t.Error("a write committed although its transaction was rolled back")
	}
	if n := countAccounts(t, s); n != 0 {
		t.Errorf("%d accounts from failed batches", n)
	}
	if err := s.withTx(ctx, insertJob(ctx, nil).fn); err != nil {
		t.Fatalf("the writer after failed batches: %v", err)
	}
	if n := countAccounts(t, s); n != 1 {
		t.Errorf("%d accounts, want 1", n)
	}
}

// TestConcurrentWritesAllAnswered: many writers at once, some failing;
// every one gets its own answer and exactly the successes are stored.
func TestConcurrentWritesAllAnswered(t *testing.T) {
	s, _ := openTest(t)
	var wg sync.WaitGroup
	errs := make([]error, 200)
	for i := range errs {
		wg.Add(1)
		go func() {
			defer wg.Done()
			var fail error
			if i%7 == 0 {
				fail = fmt.Errorf("write %d refused", i)
			}
			errs[i] = s.withTx(context.Background(), insertJob(context.Background(), fail).fn)
		}()
	}
	wg.Wait()
	ok := 0
	for i, err := range errs {
		switch {
		case i%7 == 0 && err == nil:
			t.Errorf("write %d should have failed", i)
		case i%7 != 0 && err != nil:
			t.Errorf("write %d: %v", i, err)
		case err == nil:
			ok++
		}
	}
	if n := countAccounts(t, s); n != ok {
		t.Errorf("%d accounts stored, %d writes succeeded", n, ok)
	}
}

// TestWriteAfterClose: a closed store refuses writes instead of hanging.
func TestWriteAfterClose(t *testing.T) {
	s, _ := openTest(t)
	s.Close()
	err := s.withTx(context.Background(), insertJob(context.Background(), nil).fn)
	if !errors.Is(err, ErrClosed) {
		t.Errorf("a write after Close: %v", err)
	}
}
