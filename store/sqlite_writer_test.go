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
	return &job{ctx: ctx, err: make(chan error, 1), fn: func(ctx context.Context, tx *txn) error {
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
	errs := s.writes.(*writer).commit([]*job{insertJob(ctx, nil), insertJob(ctx, refused), insertJob(gone, nil), insertJob(ctx, nil)})
	if errs[0] != nil || !errors.Is(errs[1], refused) || !errors.Is(errs[2], context.Canceled) || errs[3] != nil {
		t.Fatalf("errors %v", errs)
	}
	if n := countAccounts(t, s); n != 2 {
		t.Errorf("%d accounts, want the 2 that succeeded", n)
	}
}

// TestPanicFailsOnlyItsWrite: a write that panics is rolled back to its
// savepoint and fails alone; its batch-mates commit.
func TestPanicFailsOnlyItsWrite(t *testing.T) {
	s, _ := openTest(t)
	ctx := context.Background()
	boom := &job{ctx: ctx, err: make(chan error, 1), fn: func(ctx context.Context, tx *txn) error {
		if _, err := tx.ExecContext(ctx, `INSERT INTO accounts (created_at) VALUES (2)`); err != nil {
			return err
		}
		panic("boom")
	}}
	errs := s.writes.(*writer).commit([]*job{insertJob(ctx, nil), boom, insertJob(ctx, nil)})
	if errs[0] != nil || errs[1] == nil || errs[2] != nil {
		t.Fatalf("errors %v, want only the panicking write's", errs)
	}
	if n := countAccounts(t, s); n != 2 {
		t.Errorf("%d accounts, want the 2 of the writes that did not panic", n)
	}
	// Alone in its batch, a panic rolls back the transaction.
	if errs := s.writes.(*writer).commit([]*job{boom}); errs[0] == nil {
		t.Error("a lone panicking write succeeded")
	}
	if n := countAccounts(t, s); n != 2 {
		t.Errorf("%d accounts after a lone panic, want 2", n)
	}
}

// TestBatchFailsWhole: a write that breaks the transaction itself fails
// every write of its batch, commits none, and the writer goes on.
func TestBatchFailsWhole(t *testing.T) {
	s, _ := openTest(t)
	ctx := context.Background()
	breaks := &job{ctx: ctx, err: make(chan error, 1), fn: func(ctx context.Context, tx *txn) error {
		_, err := tx.ExecContext(ctx, `ROLLBACK`) // ends the transaction under the batch
		if err != nil {
			return err
		}
		return errors.New("after a rollback")
	}}
	errs := s.writes.(*writer).commit([]*job{insertJob(ctx, nil), breaks})
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

// TestBatchIsolatesDatabaseErrors: writes that the database itself refuses
// (a UNIQUE, FOREIGN KEY, CHECK or NOT NULL constraint, a value too big, a
// malformed statement) fail alone, with nothing of theirs stored, and the
// writes batched with them commit.
func TestBatchIsolatesDatabaseErrors(t *testing.T) {
	ctx := context.Background()
	refusals := map[string]string{
		"unique":      `INSERT INTO users (account_id, first_name, last_name, email, password_hash, created_at, updated_at) VALUES (1, 'B', 'L', 'taken@example.com', 'x', 1, 1)`,
		"foreign key": `INSERT INTO persons (account_id, first_name, created_at, updated_at) VALUES (999, 'Jim', 1, 1)`,
		"check":       `INSERT INTO persons (account_id, first_name, marital_status, created_at, updated_at) VALUES (1, 'Jim', 'married', 1, 1)`,
		"not null":    `INSERT INTO persons (account_id, first_name, created_at, updated_at) VALUES (1, NULL, 1, 1)`,
		"too big":     `INSERT INTO persons (account_id, first_name, created_at, updated_at) VALUES (1, zeroblob(2000000000), 1, 1)`,
		"bad sql":     `INSERT INTO no_such_table VALUES (1)`,
	}
	for name, stmt := range refusals {
		t.Run(name+" fails alone", func(t *testing.T) {
			s, _ := openTest(t)
			if _, err := s.CreateUser(ctx, NewUser{FirstName: "A", LastName: "L", Email: "taken@example.com", Password: "password"}); err != nil {
				t.Fatal(err)
			}
			before := countAccounts(t, s)
			refused := &job{ctx: ctx, err: make(chan error, 1), fn: func(ctx context.Context, tx *txn) error {
				// Something of its own first, which must not survive.
				if _, err := tx.ExecContext(ctx, `INSERT INTO accounts (created_at) VALUES (3)`); err != nil {
					return err
				}
				_, err := tx.ExecContext(ctx, stmt)
				return err
			}}
			errs := s.writes.(*writer).commit([]*job{insertJob(ctx, nil), refused, insertJob(ctx, nil), refused, insertJob(ctx, nil)})
			if errs[0] != nil || errs[1] == nil || errs[2] != nil || errs[3] == nil || errs[4] != nil {
				t.Fatalf("errors %v, want only the refused writes'", errs)
			}
			if n := countAccounts(t, s); n != before+3 {
				t.Errorf("%d accounts, want %d: the 3 good writes and nothing of the refused", n, before+3)
			}
		})
	}
}

// TestConcurrentRefusalsFailAlone: through the store's own methods, many
// users created at once where every fifth email is already taken: exactly
// those fail, with ErrEmailTaken, and every other one is stored.
func TestConcurrentRefusalsFailAlone(t *testing.T) {
	ctx := context.Background()
	s, _ := openTest(t)
	s.PasswordCost = 4
	if _, err := s.CreateUser(ctx, NewUser{FirstName: "A", LastName: "L", Email: "taken@example.com", Password: "password"}); err != nil {
		t.Fatal(err)
	}
	var wg sync.WaitGroup
	errs := make([]error, 100)
	for i := range errs {
		wg.Add(1)
		go func() {
			defer wg.Done()
			email := fmt.Sprintf("user%d@example.com", i)
			if i%5 == 0 {
				email = "taken@example.com"
			}
			_, errs[i] = s.CreateUser(ctx, NewUser{FirstName: "A", LastName: "L", Email: email, Password: "password"})
		}()
	}
	wg.Wait()
	for i, err := range errs {
		switch {
		case i%5 == 0 && !errors.Is(err, ErrEmailTaken):
			t.Errorf("user %d with a taken email: %v, want ErrEmailTaken", i, err)
		case i%5 != 0 && err != nil:
			t.Errorf("user %d: %v", i, err)
		}
	}
	var n int
	if err := s.r.QueryRow(`SELECT count(*) FROM users`).Scan(&n); err != nil {
		t.Fatal(err)
	}
	if n != 1+80 {
		t.Errorf("%d users stored, want 81", n)
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

// TestDriverErrorsMapToStoreErrors: the engine's constraint codes become
// the store's own errors.
func TestDriverErrorsMapToStoreErrors(t *testing.T) {
	ctx := context.Background()
	s, _ := openTest(t)
	if _, _, err := s.CreateAPIKey(ctx, 12345, "k"); !errors.Is(err, ErrUserNotFound) {
		t.Errorf("a key for a user that does not exist: %v, want ErrUserNotFound", err)
	}
	_, err := s.CreateUser(ctx, NewUser{FirstName: "A", LastName: "L", Email: "ada@example.com", Password: "password"})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := s.CreateUser(ctx, NewUser{FirstName: "A", LastName: "L", Email: "ADA@example.com", Password: "password"}); !errors.Is(err, ErrEmailTaken) {
		t.Errorf("a taken email: %v, want ErrEmailTaken", err)
	}
	err = s.withTx(ctx, func(ctx context.Context, tx *txn) error {
		_, err := tx.ExecContext(ctx, `INSERT INTO persons (account_id, first_name, created_at, updated_at) VALUES (999, 'Jim', 1, 1)`)
		return err
	})
	if !isForeignKeyViolation(err) || isUniqueViolation(err) || Unavailable(err) {
		t.Errorf("a person in no account: %v, want a foreign key violation only", err)
	}
}

// TestConnectWriter: a store opened on a database with nothing to migrate
// has not connected its writer, whose connection parses the whole schema;
// ConnectWriter connects it, and the first write then runs on that
// connection instead of opening one. A closed store refuses.
func TestConnectWriter(t *testing.T) {
	_, path := openTest(t)
	ctx := context.Background()
	s, err := Open(ctx, path)
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	if _, err := s.Migrate(ctx); err != nil {
		t.Fatal(err)
	}
	if n := s.w.Stats().OpenConnections; n != 0 {
		t.Fatalf("the writer has %d connections after an open with nothing to migrate, want none", n)
	}
	if err := s.ConnectWriter(ctx); err != nil {
		t.Fatal(err)
	}
	if n := s.w.Stats().OpenConnections; n != 1 {
		t.Fatalf("the writer has %d connections after ConnectWriter, want 1", n)
	}
	if err := s.withTx(ctx, insertJob(ctx, nil).fn); err != nil {
		t.Fatal(err)
	}
	if st := s.w.Stats(); st.OpenConnections != 1 || st.MaxIdleClosed+st.MaxLifetimeClosed+st.MaxIdleTimeClosed != 0 {
		t.Errorf("after a write the writer's pool is %+v, want its one connection kept", st)
	}
	s.Close()
	if err := s.ConnectWriter(ctx); err == nil {
		t.Error("a closed store connected its writer")
	}
}
