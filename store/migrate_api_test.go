package store_test

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"testing"

	"kith/store"
	"kith/store/storetest"
)

// openRaw opens a store on path without migrating it.
func openRaw(t *testing.T, path string) *store.Store {
	t.Helper()
	s, err := store.Open(t.Context(), path)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { s.Close() })
	setClock(s, t0)
	return s
}

// versionOf is the number that starts a migration's name, NNNN_name.
func versionOf(t *testing.T, name string) int {
	t.Helper()
	num, _, ok := strings.Cut(name, "_")
	v, err := strconv.Atoi(num)
	if !ok || err != nil || v <= 0 {
		t.Fatalf("migration %q is not named NNNN_name", name)
	}
	return v
}

func TestOpen(t *testing.T) {
	t.Run("creates a database readable by its owner only", func(t *testing.T) {
		storetest.SQLiteOnly(t)
		path := filepath.Join(t.TempDir(), "new.db")
		openRaw(t, path)
		fi, err := os.Stat(path)
		if err != nil {
			t.Fatal(err)
		}
		if perm := fi.Mode().Perm(); perm != 0o600 {
			t.Errorf("mode %o, want 600", perm)
		}
	})
	t.Run("reopening keeps the data", func(t *testing.T) {
		s, path := newStoreAt(t)
		u := newUser(t, s)
		p := newPerson(t, s, u.AccountID, "Kept")
		if err := s.Close(); err != nil {
			t.Fatal(err)
		}
		s2 := openRaw(t, path)
		if applied, err := s2.Migrate(t.Context()); err != nil || len(applied) != 0 {
			t.Errorf("migrating again applied %v, %v", applied, err)
		}
		if got, err := s2.Person(t.Context(), u.AccountID, p.ID); err != nil || got.FirstName != "Kept" {
			t.Errorf("the person after reopening: %+v, %v", got, err)
		}
		if _, err := s2.Login(t.Context(), u.Email, testPassword); err != nil {
			t.Errorf("login after reopening: %v", err)
		}
	})
	for _, tc := range []struct {
		name string
		path func(dir string) string
	}{
		{"a missing directory is refused", func(dir string) string { return filepath.Join(dir, "missing", "kith.db") }},
		{"a directory is refused", func(dir string) string { return dir }},
		{"a file that is not a database is refused", func(dir string) string {
			p := filepath.Join(dir, "junk.db")
			if err := os.WriteFile(p, []byte(strings.Repeat("not a database. ", 64)), 0o600); err != nil {
				panic(err)
			}
			return p
		}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			storetest.SQLiteOnly(t)
			s, err := store.Open(t.Context(), tc.path(t.TempDir()))
			if err == nil {
				s.Close()
				t.Fatal("opened")
			}
			if s != nil {
				t.Errorf("a store %v beside the error", s)
			}
			if !strings.HasPrefix(err.Error(), "store: ") {
				t.Errorf("error %q is not prefixed by the package", err)
			}
		})
	}
}

func TestMigrate(t *testing.T) {
	s := openRaw(t, filepath.Join(t.TempDir(), "kith.db"))
	applied, err := s.Migrate(t.Context())
	if err != nil {
		t.Fatal(err)
	}
	if len(applied) == 0 {
		t.Fatal("a new database applied no migration")
	}
	for i, name := range applied {
		if v := versionOf(t, name); i > 0 && v <= versionOf(t, applied[i-1]) {
			t.Errorf("%s applied after %s", name, applied[i-1])
		}
	}
	if applied[0] != "0001_init" {
		t.Errorf("first applied %q, want 0001_init", applied[0])
	}
	latest := versionOf(t, applied[len(applied)-1])

	t.Run("the schema version is the last applied", func(t *testing.T) {
		if v, err := s.SchemaVersion(t.Context()); err != nil || v != latest {
			t.Errorf("version %d, %v; want %d", v, err, latest)
		}
	})
	t.Run("a second run applies nothing", func(t *testing.T) {
		again, err := s.Migrate(t.Context())
		if err != nil || len(again) != 0 {
			t.Errorf("applied %v, %v", again, err)
		}
		if v, err := s.SchemaVersion(t.Context()); err != nil || v != latest {
			t.Errorf("version %d, %v; want %d", v, err, latest)
		}
	})
	t.Run("the migrated store works", func(t *testing.T) {
		u := newUser(t, s)
		if cats, err := s.TaskCategories(t.Context(), u.AccountID); err != nil || len(cats) != 6 {
			t.Errorf("%d categories, %v", len(cats), err)
		}
	})
}

// TestMigrateConcurrently starts several stores on one new database at
// once, as two processes (or, on PostgreSQL, two instances) may: each
// migration must be applied once, and no store may fail for another's.
func TestMigrateConcurrently(t *testing.T) {
	for run := range 10 {
		path := storetest.Fresh(t)
		stores := []*store.Store{openRaw(t, path), openRaw(t, path), openRaw(t, path)}
		applied := make([][]string, len(stores))
		errs := make([]error, len(stores))
		var wg sync.WaitGroup
		for i, s := range stores {
			wg.Go(func() { applied[i], errs[i] = s.Migrate(t.Context()) })
		}
		wg.Wait()
		seen := map[string]int{}
		for i := range stores {
			if errs[i] != nil {
				t.Errorf("run %d, store %d: %v", run, i, errs[i])
			}
			for _, name := range applied[i] {
				seen[name]++
			}
		}
		for name, n := range seen {
			if n != 1 {
				t.Errorf("run %d: %s applied %d times", run, name, n)
			}
		}
		if t.Failed() {
			return
		}
	}
}

func TestSchemaVersion(t *testing.T) {
	t.Run("an unmigrated database is at version 0", func(t *testing.T) {
		s := openRaw(t, storetest.Fresh(t))
		if v, err := s.SchemaVersion(t.Context()); err != nil || v != 0 {
			t.Errorf("version %d, %v; want 0", v, err)
		}
	})
	t.Run("a migrated database is at its last migration", func(t *testing.T) {
		s := openRaw(t, storetest.Fresh(t))
		applied, err := s.Migrate(t.Context())
		if err != nil {
			t.Fatal(err)
		}
		if v, err := s.SchemaVersion(t.Context()); err != nil || v != versionOf(t, applied[len(applied)-1]) || v < 4 {
			t.Errorf("version %d, %v after applying %v", v, err, applied)
		}
	})
}

func TestPing(t *testing.T) {
	t.Run("a migrated store answers", func(t *testing.T) {
		wantErr(t, newStore(t).Ping(t.Context()), nil)
	})
	t.Run("a store never migrated does not", func(t *testing.T) {
		if err := openRaw(t, storetest.Fresh(t)).Ping(t.Context()); err == nil {
			t.Error("Ping says a database without Kith's tables is fine")
		}
	})
	t.Run("a closed store does not", func(t *testing.T) {
		s := newStore(t)
		s.Close()
		if err := s.Ping(t.Context()); err == nil {
			t.Error("Ping says a closed store is fine")
		}
	})
	t.Run("a cancelled context does not", func(t *testing.T) {
		s := newStore(t)
		ctx, cancel := context.WithCancel(t.Context())
		cancel()
		if err := s.Ping(ctx); err == nil {
			t.Error("Ping answered on a cancelled context")
		}
	})
}

func TestClose(t *testing.T) {
	s := newStore(t)
	u := newUser(t, s)
	wantErr(t, s.Close(), nil)
	t.Run("a write after Close is ErrClosed", func(t *testing.T) {
		_, err := s.CreatePerson(t.Context(), u.AccountID, personIn("Late"))
		wantErr(t, err, store.ErrClosed)
	})
	t.Run("a read after Close fails", func(t *testing.T) {
		if _, err := s.User(t.Context(), u.ID); err == nil || errors.Is(err, store.ErrNotFound) {
			t.Errorf("read after close: %v", err)
		}
	})
	t.Run("a second Close is harmless", func(t *testing.T) {
		wantErr(t, s.Close(), nil)
	})
}

func TestUnavailable(t *testing.T) {
	s := newStore(t)
	u := newUser(t, s)
	_, checkErr := s.CreatePerson(t.Context(), u.AccountID, store.PersonInput{FirstName: "X", MaritalStatus: "wed", KidsStatus: "unknown"})
	if checkErr == nil {
		t.Fatal("a bad marital status was accepted")
	}
	bad := t.TempDir() // a directory: SQLite cannot open it
	if storetest.Postgres() {
		bad = "postgres://kith@127.0.0.1:1/kith?connect_timeout=2" // nothing listens on port 1
	}
	_, openErr := store.Open(t.Context(), bad)
	if openErr == nil {
		t.Fatal("a directory opened as a database")
	}
	for _, tc := range []struct {
		name string
		err  error
		want bool
	}{
		{"no error is not", nil, false},
		{"a plain error is not", errors.New("boom"), false},
		{"not found is not", store.ErrPersonNotFound, false},
		{"a taken email is not", store.ErrEmailTaken, false},
		{"a cancelled context is not", context.Canceled, false},
		{"a constraint the request broke is not", checkErr, false},
		{"a database that cannot be opened is", openErr, true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if got := store.Unavailable(tc.err); got != tc.want {
				t.Errorf("Unavailable(%v) = %t, want %t", tc.err, got, tc.want)
			}
		})
	}
}

func TestNotFoundError(t *testing.T) {
	for _, tc := range []struct {
		name string
		err  error
		text string
	}{
		{"a person", store.ErrPersonNotFound, "store: person not found"},
		{"a task", store.ErrTaskNotFound, "store: task not found"},
		{"a category", store.ErrCategoryNotFound, "store: task category not found"},
		{"a user", store.ErrUserNotFound, "store: user not found"},
		{"an API key", store.ErrAPIKeyNotFound, "store: api key not found"},
		{"an account", store.ErrAccountNotFound, "store: account not found"},
		{"a new kind", &store.NotFoundError{What: "Thing"}, "store: Thing not found"},
		{"a wrapped one", fmt.Errorf("context: %w", store.ErrPersonNotFound), "context: store: person not found"},
	} {
		t.Run(tc.name+" is not found", func(t *testing.T) {
			if !errors.Is(tc.err, store.ErrNotFound) {
				t.Errorf("%v does not match ErrNotFound", tc.err)
			}
			if tc.err.Error() != tc.text {
				t.Errorf("text %q, want %q", tc.err, tc.text)
			}
		})
	}
	for _, err := range []error{store.ErrUnknownCategory, store.ErrPersonProtected, store.ErrEmailTaken,
		store.ErrInvalidCredentials, store.ErrUnauthenticated, store.ErrVerificationInvalid, store.ErrClosed} {
		t.Run(strings.TrimPrefix(err.Error(), "store: ")+" is not not-found", func(t *testing.T) {
			if errors.Is(err, store.ErrNotFound) {
				t.Errorf("%v matches ErrNotFound", err)
			}
		})
	}
	t.Run("one kind does not match another", func(t *testing.T) {
		if errors.Is(store.ErrPersonNotFound, store.ErrTaskNotFound) || errors.Is(store.ErrNotFound, store.ErrPersonNotFound) {
			t.Error("not-found errors of different kinds match")
		}
	})
}

// TestCancelledContext: a write whose caller has left is not made, and
// says why.
func TestCancelledContext(t *testing.T) {
	s := newStore(t)
	u := newUser(t, s)
	ctx, cancel := context.WithCancel(t.Context())
	cancel()
	for i := range 20 { // the writer may take the job or the caller see the cancellation first
		_, err := s.CreatePerson(ctx, u.AccountID, personIn(fmt.Sprint("Late", i)))
		wantErr(t, err, context.Canceled)
	}
	if _, total, err := s.Persons(t.Context(), u.AccountID, 10, 0); err != nil || total != 0 {
		t.Errorf("%d persons written for callers that had left, %v", total, err)
	}
	if _, err := s.User(ctx, u.ID); !errors.Is(err, context.Canceled) {
		t.Errorf("a read on a cancelled context: %v", err)
	}
}

// TestIDsAreNeverReused: the id of a deleted row is not given to a new
// one, not even the highest, and not after a restart.
func TestIDsAreNeverReused(t *testing.T) {
	s, path := newStoreAt(t)
	u := newUser(t, s)
	var ps []store.Person
	for i := range 3 {
		ps = append(ps, newPerson(t, s, u.AccountID, fmt.Sprint("P", i)))
	}
	tk := newTask(t, s, u.AccountID, ps[0].ID, "t")
	cat, err := s.CreateTaskCategory(t.Context(), u.AccountID, "c", "#000000")
	if err != nil {
		t.Fatal(err)
	}
	key, _, err := s.CreateAPIKey(t.Context(), u.ID, "k")
	if err != nil {
		t.Fatal(err)
	}
	deleteAll := func(s *store.Store, p store.Person, tk store.Task, catID, keyID int64) {
		t.Helper()
		wantErr(t, s.DeleteTask(t.Context(), u.AccountID, ps[0].ID, tk.ID), nil)
		wantErr(t, s.DeletePerson(t.Context(), u.AccountID, p.ID), nil)
		wantErr(t, s.DeleteTaskCategory(t.Context(), u.AccountID, catID), nil)
		wantErr(t, s.DeleteAPIKey(t.Context(), u.ID, keyID), nil)
	}
	check := func(s *store.Store, p store.Person, tk store.Task, catID, keyID int64) (store.Person, store.Task, int64, int64) {
		t.Helper()
		deleteAll(s, p, tk, catID, keyID)
		p2 := newPerson(t, s, u.AccountID, "Next")
		tk2 := newTask(t, s, u.AccountID, ps[0].ID, "next")
		cat2, err := s.CreateTaskCategory(t.Context(), u.AccountID, "c", "#000000")
		if err != nil {
			t.Fatal(err)
		}
		key2, _, err := s.CreateAPIKey(t.Context(), u.ID, "k")
		if err != nil {
			t.Fatal(err)
		}
		if p2.ID != p.ID+1 || tk2.ID != tk.ID+1 || cat2.ID != catID+1 || key2.ID != keyID+1 {
			t.Errorf("after deleting the last person %d, task %d, category %d, key %d, the new ones are %d, %d, %d, %d",
				p.ID, tk.ID, catID, keyID, p2.ID, tk2.ID, cat2.ID, key2.ID)
		}
		return p2, tk2, cat2.ID, key2.ID
	}
	p, tk, catID, keyID := check(s, ps[2], tk, cat.ID, key.ID)
	if err := s.Close(); err != nil {
		t.Fatal(err)
	}
	s2 := openRaw(t, path)
	if _, err := s2.Migrate(t.Context()); err != nil {
		t.Fatal(err)
	}
	check(s2, p, tk, catID, keyID)
}
