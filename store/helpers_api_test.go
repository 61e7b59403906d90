package store_test

// The *_api_test.go files test the store through its exported API only, so
// that they can later run unchanged against another engine. Nothing in them
// may reach into SQLite; the backup tests, which are about SQLite files,
// are the exception.

import (
	"errors"
	"fmt"
	"sync/atomic"
	"testing"
	"time"

	"golang.org/x/crypto/bcrypt"

	"kith/store"
	"kith/store/storetest"
)

// t0 is the fixed time every test store starts at.
var t0 = time.Unix(1_800_000_000, 0).UTC()

// testPassword is the password of every fixture user.
const testPassword = "password1"

// TestMain runs the store's tests on SQLite and, with
// KITH_TEST_POSTGRES_URL set, again on PostgreSQL.
func TestMain(m *testing.M) { storetest.Main(m) }

// newStore opens and migrates a store on a new database of this run's
// engine, with the clock fixed at t0 and cheap password hashes.
func newStore(t *testing.T) *store.Store {
	t.Helper()
	s, _ := newStoreAt(t)
	return s
}

// newStoreAt is newStore that also returns the db value that opens the
// database again (a file path, or a PostgreSQL URL).
func newStoreAt(t testing.TB) (*store.Store, string) {
	t.Helper()
	where := storetest.Fresh(t)
	return openFresh(t, where), where
}

// openFresh opens and migrates a store on the new database where, with
// the clock fixed at t0 and cheap password hashes.
func openFresh(t testing.TB, where string) *store.Store {
	t.Helper()
	s, err := store.Open(t.Context(), where)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { s.Close() })
	setClock(s, t0)
	s.PasswordCost = bcrypt.MinCost
	if _, err := s.Migrate(t.Context()); err != nil {
		t.Fatal(err)
	}
	return s
}

// setClock fixes the store's clock at now.
func setClock(s *store.Store, now time.Time) {
	var sec atomic.Int64
	sec.Store(now.Unix())
	s.Now = func() time.Time { return time.Unix(sec.Load(), 0) }
}

// advance moves the store's fixed clock on by d.
func advance(s *store.Store, d time.Duration) {
	setClock(s, s.Now().Add(d))
}

// nowUnix is the store's current fixed time in Unix seconds.
func nowUnix(s *store.Store) int64 { return s.Now().Unix() }

var userSeq atomic.Int64

// newUser creates a user with testPassword in a new account.
func newUser(t *testing.T, s *store.Store) store.User {
	t.Helper()
	n := userSeq.Add(1)
	u, err := s.CreateUser(t.Context(), store.NewUser{
		FirstName: fmt.Sprint("User", n), LastName: "Test",
		Email: fmt.Sprintf("user%d@example.com", n), Password: testPassword,
	})
	if err != nil {
		t.Fatal(err)
	}
	return u
}

// twoAccounts returns a user of one account and a user of another.
func twoAccounts(t *testing.T, s *store.Store) (mine, theirs store.User) {
	t.Helper()
	mine, theirs = newUser(t, s), newUser(t, s)
	if mine.AccountID == theirs.AccountID {
		t.Fatalf("both users are in account %d", mine.AccountID)
	}
	return mine, theirs
}

// personIn is a valid PersonInput with this first name.
func personIn(first string) store.PersonInput {
	return store.PersonInput{FirstName: first, MaritalStatus: "unknown", KidsStatus: "unknown", CanBeDeleted: true, IsListed: true}
}

// newPerson creates a deletable person in the account.
func newPerson(t *testing.T, s *store.Store, accountID int64, first string) store.Person {
	t.Helper()
	p, err := s.CreatePerson(t.Context(), accountID, personIn(first))
	if err != nil {
		t.Fatal(err)
	}
	return p
}

// newTask creates a task of the person without a category.
func newTask(t *testing.T, s *store.Store, accountID, personID int64, name string) store.Task {
	t.Helper()
	tk, err := s.CreateTask(t.Context(), accountID, personID, store.TaskInput{Name: name})
	if err != nil {
		t.Fatal(err)
	}
	return tk
}

// wantErr fails the test unless errors.Is(err, want); a nil want asks for
// no error.
func wantErr(t *testing.T, err, want error) {
	t.Helper()
	if want == nil && err != nil {
		t.Fatalf("error %v, want none", err)
	}
	if want != nil && !errors.Is(err, want) {
		t.Fatalf("error %v, want %v", err, want)
	}
}

func ptr[T any](v T) *T { return &v }

// deref shows a pointer's value, or nil, in failure messages.
func deref[T any](p *T) any {
	if p == nil {
		return nil
	}
	return *p
}
