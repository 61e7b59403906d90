package store_test

import (
	"database/sql"
	"errors"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"kith/store"
	"kith/store/storetest"
)

// TestCopy copies a database of this run's engine into a new one of each
// engine: the SQLite run covers SQLite → SQLite and → PostgreSQL, the
// PostgreSQL run the other two.
func TestCopy(t *testing.T) {
	for _, engine := range []string{"sqlite", "postgres"} {
		t.Run("to "+engine, func(t *testing.T) {
			src, _ := newStoreAt(t)
			u := newUser(t, src)
			key, token, err := src.CreateAPIKey(t.Context(), u.ID, "phone")
			if err != nil {
				t.Fatal(err)
			}
			kept := personIn("Kept")
			kept.CanBeDeleted, kept.IsListed = false, true // a false and a true boolean
			p, err := src.CreatePerson(t.Context(), u.AccountID, kept)
			if err != nil {
				t.Fatal(err)
			}
			done := newTask(t, src, u.AccountID, p.ID, "done")
			if _, err := src.ToggleTask(t.Context(), u.AccountID, done.ID); err != nil {
				t.Fatal(err)
			}
			newTask(t, src, u.AccountID, p.ID, "to do")
			if _, err := src.CreateContactDetail(t.Context(), u.AccountID, p.ID, store.ContactDetailInput{Kind: "address",
				Street: ptr("1 Main St\nFlat 2"), Country: ptr("FR")}); err != nil {
				t.Fatal(err)
			}
			// A true boolean and a null year; a cadence and its interaction.
			if _, err := src.CreateImportantDate(t.Context(), u.AccountID, p.ID, store.ImportantDateInput{Label: "met", Month: 2, Day: 29, RemindYearly: true}); err != nil {
				t.Fatal(err)
			}
			if _, err := src.SetStayInTouch(t.Context(), u.AccountID, p.ID, ptr(int64(7)), "2026-03-01"); err != nil {
				t.Fatal(err)
			}
			if _, err := src.CreateInteraction(t.Context(), u.AccountID, p.ID, store.InteractionInput{HappenedOn: "2026-03-02", Kind: "call"}); err != nil {
				t.Fatal(err)
			}
			// The highest id, deleted: the target must not give it again.
			gone := newPerson(t, src, u.AccountID, "Gone")
			wantErr(t, src.DeletePerson(t.Context(), u.AccountID, gone.ID), nil)

			dst := openFresh(t, freshOf(t, engine))
			counts, err := store.Copy(t.Context(), src, dst)
			if err != nil {
				t.Fatal(err)
			}
			for _, c := range counts {
				if c.Source != c.Target {
					t.Errorf("%s: %d rows in the source, %d in the target", c.Table, c.Source, c.Target)
				}
			}
			if got := countOf(counts, "persons"); got != 1 {
				t.Errorf("persons: %d rows copied, want 1", got)
			}
			// The list's total and last contact are the target's, which its
			// triggers made as the rows arrived (migration 0038).
			listed, total, err := dst.ListPersons(t.Context(), u.AccountID, store.PersonListQuery{Order: store.OrderByLastContacted}, 10, 0)
			if err != nil || total != 1 || len(listed) != 1 || listed[0].LastContact == nil || *listed[0].LastContact != "2026-03-02" {
				t.Errorf("the target lists %+v, %d in all (%v), want Kept, last in touch 2026-03-02, 1 in all", listed, total, err)
			}

			// What the store reads back is the same on both.
			for _, read := range []func(*store.Store) (any, error){
				func(s *store.Store) (any, error) {
					ps, _, err := s.Persons(t.Context(), u.AccountID, 100, 0)
					return ps, err
				},
				func(s *store.Store) (any, error) { return s.Tasks(t.Context(), u.AccountID, p.ID) },
				func(s *store.Store) (any, error) { return s.ContactDetails(t.Context(), u.AccountID, p.ID, "") },
				func(s *store.Store) (any, error) { return s.APIKeys(t.Context(), u.ID) },
				func(s *store.Store) (any, error) { return s.User(t.Context(), u.ID) },
				func(s *store.Store) (any, error) { return s.YearlyDates(t.Context(), u.AccountID, nil) },
				func(s *store.Store) (any, error) { return s.DueContacts(t.Context(), u.AccountID, "2100-01-01") },
				func(s *store.Store) (any, error) {
					list, _, err := s.Interactions(t.Context(), u.AccountID, p.ID, 10, 0)
					return list, err
				},
			} {
				want, err := read(src)
				if err != nil {
					t.Fatal(err)
				}
				got, err := read(dst)
				if err != nil {
					t.Fatal(err)
				}
				if !reflect.DeepEqual(got, want) {
					t.Errorf("the copy reads\n%+v\nthe source\n%+v", got, want)
				}
			}
			// The key's hash and the password's moved as they were.
			if sess, err := dst.Authenticate(t.Context(), token); err != nil || sess.KeyID != key.ID {
				t.Errorf("the key on the copy: %+v %v", sess, err)
			}
			if _, err := dst.Login(t.Context(), u.Email, testPassword); err != nil {
				t.Errorf("login on the copy: %v", err)
			}
			// New rows come after the copied ids, and after the deleted one.
			if next := newPerson(t, dst, u.AccountID, "Next"); next.ID <= gone.ID {
				t.Errorf("a new person on the copy has id %d, not above %d", next.ID, gone.ID)
			}
			if next := newTask(t, dst, u.AccountID, p.ID, "next"); next.ID <= done.ID+1 {
				t.Errorf("a new task on the copy has id %d, not above %d", next.ID, done.ID+1)
			}
			if next, _, err := dst.CreateAPIKey(t.Context(), u.ID, "next"); err != nil || next.ID <= key.ID {
				t.Errorf("a new key on the copy: id %d (want above %d), %v", next.ID, key.ID, err)
			}
		})
	}
}

func TestCopyRefuses(t *testing.T) {
	t.Run("a target with rows, and leaves it as it was", func(t *testing.T) {
		src, _ := newStoreAt(t)
		newUser(t, src)
		dst, where := newStoreAt(t)
		newUser(t, dst)
		_, err := store.Copy(t.Context(), src, dst)
		wantErr(t, err, store.ErrTargetNotEmpty)
		if n := storetest.Count(t, where, `SELECT count(*) FROM users`); n != 1 {
			t.Errorf("the target has %d users after the refusal, want its 1", n)
		}
	})
	for _, tc := range []struct {
		name, change string
		want         func(v, known int) bool
	}{
		{"a source at an older schema version", `DELETE FROM schema_migrations WHERE version = (SELECT max(version) FROM schema_migrations)`,
			func(v, known int) bool { return v > 0 && v < known }}, // versions may skip numbers
		{"a source at a newer schema version", `INSERT INTO schema_migrations (version, name, applied_at) VALUES (9999, '9999_future', 0)`,
			func(v, known int) bool { return v == 9999 }},
	} {
		t.Run(tc.name, func(t *testing.T) {
			src, where := newStoreAt(t)
			execAt(t, where, tc.change)
			_, err := store.Copy(t.Context(), src, openFresh(t, storetest.Fresh(t)))
			var ve *store.VersionError
			if !errors.As(err, &ve) || !tc.want(ve.Version, ve.Known) {
				t.Errorf("error %v, want a *VersionError", err)
			}
		})
	}
	t.Run("a source with a table it does not know", func(t *testing.T) {
		src, where := newStoreAt(t)
		execAt(t, where, `CREATE TABLE left_behind (id INTEGER PRIMARY KEY)`)
		_, err := store.Copy(t.Context(), src, openFresh(t, storetest.Fresh(t)))
		if err == nil || !strings.Contains(err.Error(), "left_behind") {
			t.Errorf("error %v, want one that names left_behind", err)
		}
	})
}

func countOf(counts []store.TableCount, table string) int64 {
	for _, c := range counts {
		if c.Table == table {
			return c.Target
		}
	}
	return -1
}

// freshOf is the db value of a new database of the engine, whatever this
// run's: a file, or a schema of its own on KITH_TEST_POSTGRES_URL (made
// as storetest.Fresh makes one), skipping the test without it.
func freshOf(t *testing.T, engine string) string {
	t.Helper()
	if engine == "sqlite" {
		return filepath.Join(t.TempDir(), "copy.db")
	}
	base := os.Getenv(storetest.PostgresURL)
	if base == "" {
		t.Skip(storetest.PostgresURL + " is not set: no copy to PostgreSQL")
	}
	return storetest.Schema(t, base)
}

// execAt runs a statement on the database at where, beside any store.
func execAt(t *testing.T, where, query string) {
	t.Helper()
	driver, dsn := "sqlite", where
	if store.IsPostgres(where) {
		driver = "pgx"
	}
	db, err := sql.Open(driver, dsn)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	if _, err := db.Exec(query); err != nil {
		t.Fatalf("%s: %v", query, err)
	}
}
