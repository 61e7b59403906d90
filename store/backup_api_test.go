package store_test

// Backup, CheckBackup and Restore work on SQLite files, so these tests may
// make and break such files themselves.

import (
	"bytes"
	"database/sql"
	"errors"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"kith/store"
	"kith/store/storetest"
)

// backupFixture is a live store with a user and a person, and a backup of
// it taken at that point.
type backupFixture struct {
	s       *store.Store
	path    string // the live database
	backup  string
	user    store.User
	person  store.Person
	version int
}

func newBackupFixture(t *testing.T) backupFixture {
	t.Helper()
	s, path := newStoreAt(t)
	u := newUser(t, s)
	p := newPerson(t, s, u.AccountID, "Before")
	v, err := s.SchemaVersion(t.Context())
	if err != nil {
		t.Fatal(err)
	}
	out := filepath.Join(t.TempDir(), "backup.db")
	if err := store.Backup(t.Context(), path, out); err != nil {
		t.Fatal(err)
	}
	return backupFixture{s: s, path: path, backup: out, user: u, person: p, version: v}
}

// copyTo copies a file to a new file in a new directory.
func copyTo(t *testing.T, from, name string) string {
	t.Helper()
	b, err := os.ReadFile(from)
	if err != nil {
		t.Fatal(err)
	}
	to := filepath.Join(t.TempDir(), name)
	if err := os.WriteFile(to, b, 0o600); err != nil {
		t.Fatal(err)
	}
	return to
}

// corrupted is a copy of a database with pages 2 to 4 inverted.
func corrupted(t *testing.T, from string) string {
	t.Helper()
	to := copyTo(t, from, "corrupt.db")
	b, _ := os.ReadFile(to)
	if len(b) < 4*4096 {
		t.Fatalf("%s has %d bytes, too few to corrupt", from, len(b))
	}
	for i := 4096; i < 4*4096; i++ {
		b[i] ^= 0xff
	}
	if err := os.WriteFile(to, b, 0o600); err != nil {
		t.Fatal(err)
	}
	return to
}

// fromTheFuture is a copy of a database that claims a schema version this
// binary does not know.
func fromTheFuture(t *testing.T, from string) string {
	t.Helper()
	to := copyTo(t, from, "future.db")
	db, err := sql.Open("sqlite", "file:"+to)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	if _, err := db.Exec(`INSERT INTO schema_migrations (version, name, applied_at) VALUES (9999, '9999_future', 0)`); err != nil {
		t.Fatal(err)
	}
	return to
}

// unmigrated is a SQLite database without Kith's tables.
func unmigrated(t *testing.T) string {
	t.Helper()
	path := filepath.Join(t.TempDir(), "empty.db")
	s, err := store.Open(t.Context(), path)
	if err != nil {
		t.Fatal(err)
	}
	s.Close()
	return path
}

// junk is a file that is not a database at all.
func junk(t *testing.T) string {
	t.Helper()
	path := filepath.Join(t.TempDir(), "junk.db")
	if err := os.WriteFile(path, []byte(strings.Repeat("not a database. ", 512)), 0o600); err != nil {
		t.Fatal(err)
	}
	return path
}

// hidden lists the dot files in dir: temporary files left behind.
func hidden(t *testing.T, dir string) []string {
	t.Helper()
	entries, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, e := range entries {
		if strings.HasPrefix(e.Name(), ".") {
			names = append(names, e.Name())
		}
	}
	return names
}

// openBackup opens a database file as a store and returns it.
func openBackup(t *testing.T, path string) *store.Store {
	t.Helper()
	s, err := store.Open(t.Context(), path)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { s.Close() })
	return s
}

func TestBackup(t *testing.T) {
	storetest.SQLiteOnly(t)
	t.Run("copies what was committed, live, into a private file", func(t *testing.T) {
		f := newBackupFixture(t)
		// The source is still open: its last writes may be in the WAL only.
		fi, err := os.Stat(f.backup)
		if err != nil {
			t.Fatal(err)
		}
		if perm := fi.Mode().Perm(); perm != 0o600 {
			t.Errorf("mode %o, want 600", perm)
		}
		if v, err := store.CheckBackup(t.Context(), f.backup); err != nil || v != f.version {
			t.Errorf("check: version %d, %v; want %d", v, err, f.version)
		}
		if left := hidden(t, filepath.Dir(f.backup)); len(left) != 0 {
			t.Errorf("left behind %v", left)
		}
		b := openBackup(t, f.backup)
		if p, err := b.Person(t.Context(), f.user.AccountID, f.person.ID); err != nil || p.FirstName != "Before" {
			t.Errorf("the person in the backup: %+v, %v", p, err)
		}
		if _, err := b.Login(t.Context(), f.user.Email, testPassword); err != nil {
			t.Errorf("login on the backup: %v", err)
		}
		if _, err := f.s.CreatePerson(t.Context(), f.user.AccountID, personIn("Still writable")); err != nil {
			t.Errorf("the source after the backup: %v", err)
		}
	})

	f := newBackupFixture(t)
	for _, tc := range []struct {
		name    string
		src     func(t *testing.T) string
		out     func(t *testing.T) string
		errText string
	}{
		{"an existing target is refused and kept",
			func(*testing.T) string { return f.path },
			func(t *testing.T) string { return copyTo(t, f.backup, "existing.db") },
			"already exists"},
		{"a missing source is refused",
			func(t *testing.T) string { return filepath.Join(t.TempDir(), "missing.db") },
			func(t *testing.T) string { return filepath.Join(t.TempDir(), "out.db") }, ""},
		{"a database without Kith's tables is refused",
			unmigrated,
			func(t *testing.T) string { return filepath.Join(t.TempDir(), "out.db") },
			"not a Kith database"},
		{"a file that is not a database is refused",
			junk,
			func(t *testing.T) string { return filepath.Join(t.TempDir(), "out.db") }, ""},
		{"a target in a missing directory is refused",
			func(*testing.T) string { return f.path },
			func(t *testing.T) string { return filepath.Join(t.TempDir(), "missing", "out.db") }, ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			src, out := tc.src(t), tc.out(t)
			_, srcErr := os.Stat(src)
			before, outErr := os.ReadFile(out)
			err := store.Backup(t.Context(), src, out)
			if err == nil {
				t.Fatal("backed up")
			}
			if !strings.Contains(err.Error(), tc.errText) {
				t.Errorf("error %q, want it to say %q", err, tc.errText)
			}
			after, afterErr := os.ReadFile(out)
			if outErr == nil && (afterErr != nil || !bytes.Equal(before, after)) {
				t.Errorf("the existing target changed (%v)", afterErr)
			}
			if outErr != nil && afterErr == nil {
				t.Errorf("a refused backup left %s", out)
			}
			if _, err := os.Stat(src); srcErr != nil && err == nil {
				t.Errorf("a missing source was created")
			}
			if _, err := os.Stat(filepath.Dir(out)); err == nil {
				if left := hidden(t, filepath.Dir(out)); len(left) != 0 {
					t.Errorf("left behind %v", left)
				}
			}
		})
	}
}

func TestCheckBackup(t *testing.T) {
	storetest.SQLiteOnly(t)
	f := newBackupFixture(t)
	for _, tc := range []struct {
		name string
		path func(t *testing.T) string
		want int // 0: refused
	}{
		{"a backup passes with its schema version", func(*testing.T) string { return f.backup }, f.version},
		{"a missing file is refused", func(t *testing.T) string { return filepath.Join(t.TempDir(), "missing.db") }, 0},
		{"a corrupt backup is refused", func(t *testing.T) string { return corrupted(t, f.backup) }, 0},
		{"a database from a newer Kith is refused", func(t *testing.T) string { return fromTheFuture(t, f.backup) }, 0},
		{"a database without Kith's tables is refused", unmigrated, 0},
		{"a file that is not a database is refused", junk, 0},
		{"an empty file is refused", func(t *testing.T) string {
			p := filepath.Join(t.TempDir(), "empty")
			os.WriteFile(p, nil, 0o600)
			return p
		}, 0},
	} {
		t.Run(tc.name, func(t *testing.T) {
			path := tc.path(t)
			v, err := store.CheckBackup(t.Context(), path)
			if tc.want != 0 {
				if err != nil || v != tc.want {
					t.Errorf("version %d, %v; want %d", v, err, tc.want)
				}
				return
			}
			if err == nil || v != 0 {
				t.Errorf("version %d, %v; want a refusal", v, err)
			}
		})
	}
	t.Run("a missing file's error says so", func(t *testing.T) {
		_, err := store.CheckBackup(t.Context(), filepath.Join(t.TempDir(), "missing.db"))
		if !errors.Is(err, os.ErrNotExist) {
			t.Errorf("error %v, want os.ErrNotExist", err)
		}
	})
}

func TestRestore(t *testing.T) {
	storetest.SQLiteOnly(t)
	t.Run("replaces the database and keeps the old one with its WAL", func(t *testing.T) {
		f := newBackupFixture(t)
		later := newPerson(t, f.s, f.user.AccountID, "After")
		if err := f.s.Close(); err != nil {
			t.Fatal(err)
		}
		// A stale WAL and index beside the database must not be read
		// against the restored file.
		if err := os.WriteFile(f.path+"-wal", []byte("stale wal"), 0o600); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(f.path+"-shm", []byte("stale shm"), 0o600); err != nil {
			t.Fatal(err)
		}
		old, _ := os.ReadFile(f.path)

		kept, err := store.Restore(t.Context(), f.backup, f.path, "20260101-000000")
		if err != nil {
			t.Fatal(err)
		}
		if want := f.path + ".before-restore-20260101-000000"; kept != want {
			t.Errorf("kept as %q, want %q", kept, want)
		}
		if b, _ := os.ReadFile(kept); !bytes.Equal(b, old) {
			t.Error("the kept file is not the old database")
		}
		if b, _ := os.ReadFile(kept + "-wal"); string(b) != "stale wal" {
			t.Errorf("the old WAL was not kept beside it: %q", b)
		}
		for _, suffix := range []string{"-wal", "-shm"} {
			if _, err := os.Stat(f.path + suffix); !errors.Is(err, os.ErrNotExist) {
				t.Errorf("%s left beside the restored database: %v", suffix, err)
			}
		}
		if fi, err := os.Stat(f.path); err != nil || fi.Mode().Perm() != 0o600 {
			t.Errorf("the restored file: %v, %v", fi, err)
		}
		if left := hidden(t, filepath.Dir(f.path)); len(left) != 0 {
			t.Errorf("left behind %v", left)
		}
		r := openBackup(t, f.path)
		if p, err := r.Person(t.Context(), f.user.AccountID, f.person.ID); err != nil || p.FirstName != "Before" {
			t.Errorf("the backed-up person: %+v, %v", p, err)
		}
		if _, err := r.Person(t.Context(), f.user.AccountID, later.ID); !errors.Is(err, store.ErrNotFound) {
			t.Errorf("a person written after the backup: %v", err)
		}
		if v, err := r.SchemaVersion(t.Context()); err != nil || v != f.version {
			t.Errorf("restored version %d, %v", v, err)
		}
	})
	t.Run("a second restore with the same stamp keeps the first kept database", func(t *testing.T) {
		f := newBackupFixture(t)
		newPerson(t, f.s, f.user.AccountID, "After")
		f.s.Close()
		first, err := store.Restore(t.Context(), f.backup, f.path, "same")
		if err != nil {
			t.Fatal(err)
		}
		kept, _ := os.ReadFile(first)
		second, err := store.Restore(t.Context(), f.backup, f.path, "same")
		if now, _ := os.ReadFile(first); !bytes.Equal(now, kept) {
			t.Errorf("the database kept by the first restore was overwritten (second restore: %q, %v)", second, err)
		}
	})
	t.Run("paths with URI characters work", func(t *testing.T) {
		dir := filepath.Join(t.TempDir(), "a?b#c%20d")
		if err := os.Mkdir(dir, 0o700); err != nil {
			t.Fatal(err)
		}
		src := filepath.Join(dir, "k?i#t%h.db")
		s := openRaw(t, src)
		if _, err := s.Migrate(t.Context()); err != nil {
			t.Fatal(err)
		}
		u := newUser(t, s)
		out := filepath.Join(dir, "b?a#c%kup.db")
		if err := store.Backup(t.Context(), src, out); err != nil {
			t.Fatal(err)
		}
		s.Close()
		if _, err := store.Restore(t.Context(), out, src, "x"); err != nil {
			t.Fatal(err)
		}
		if _, err := openBackup(t, src).Login(t.Context(), u.Email, testPassword); err != nil {
			t.Errorf("login on the restored database: %v", err)
		}
		entries, _ := os.ReadDir(dir)
		var names []string
		for _, e := range entries {
			names = append(names, e.Name())
		}
		for _, want := range []string{"b?a#c%kup.db", "k?i#t%h.db", "k?i#t%h.db.before-restore-x"} {
			if !slices.Contains(names, want) {
				t.Errorf("no %q in %q: a path was cut at a URI character", want, names)
			}
		}
	})
	t.Run("restores where there was no database and keeps nothing", func(t *testing.T) {
		f := newBackupFixture(t)
		dst := filepath.Join(t.TempDir(), "new.db")
		kept, err := store.Restore(t.Context(), f.backup, dst, "x")
		if err != nil || kept != "" {
			t.Fatalf("kept %q, %v", kept, err)
		}
		if _, err := openBackup(t, dst).Login(t.Context(), f.user.Email, testPassword); err != nil {
			t.Errorf("login on the restored database: %v", err)
		}
	})

	f := newBackupFixture(t)
	f.s.Close()
	for _, tc := range []struct {
		name string
		from func(t *testing.T) string
	}{
		{"a missing backup is refused", func(t *testing.T) string { return filepath.Join(t.TempDir(), "missing.db") }},
		{"a corrupt backup is refused", func(t *testing.T) string { return corrupted(t, f.backup) }},
		{"a backup from a newer Kith is refused", func(t *testing.T) string { return fromTheFuture(t, f.backup) }},
		{"a database without Kith's tables is refused", unmigrated},
		{"a file that is not a database is refused", junk},
	} {
		t.Run(tc.name+" and the database is untouched", func(t *testing.T) {
			from := tc.from(t)
			before, err := os.ReadFile(f.path)
			if err != nil {
				t.Fatal(err)
			}
			kept, err := store.Restore(t.Context(), from, f.path, "refused")
			if err == nil || kept != "" {
				t.Errorf("kept %q, %v; want a refusal", kept, err)
			}
			if after, _ := os.ReadFile(f.path); !bytes.Equal(after, before) {
				t.Error("the database changed")
			}
			if _, err := os.Stat(f.path + ".before-restore-refused"); !errors.Is(err, os.ErrNotExist) {
				t.Errorf("a refused restore moved the database aside: %v", err)
			}
			if left := hidden(t, filepath.Dir(f.path)); len(left) != 0 {
				t.Errorf("left behind %v", left)
			}
		})
	}
}

// walOnly is a copy of a live database, taken with its WAL and without a
// checkpoint: what it holds beyond its schema is committed in the -wal
// beside it only. It returns the copy, its user and its person count.
func walOnly(t *testing.T) (string, store.User, int) {
	t.Helper()
	s, path := newStoreAt(t)
	u := newUser(t, s)
	const n = 30
	for i := range n {
		newPerson(t, s, u.AccountID, "InTheWAL"+strings.Repeat("x", i))
	}
	dir := t.TempDir()
	src := filepath.Join(dir, "backup.db")
	for _, suffix := range []string{"", "-wal"} {
		b, err := os.ReadFile(path + suffix)
		if err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(src+suffix, b, 0o600); err != nil {
			t.Fatal(err)
		}
	}
	return src, u, n
}

// TestRestoreReadsTheWAL: a backup file with a -wal beside it is checked
// and restored as SQLite reads it, WAL and all, and is left as it was.
func TestRestoreReadsTheWAL(t *testing.T) {
	storetest.SQLiteOnly(t)
	src, u, n := walOnly(t)
	before, _ := os.ReadFile(src)
	walBefore, _ := os.ReadFile(src + "-wal")
	if _, err := store.CheckBackup(t.Context(), src); err != nil {
		t.Fatalf("check: %v", err)
	}
	dst := filepath.Join(t.TempDir(), "kith.db")
	if _, err := store.Restore(t.Context(), src, dst, "x"); err != nil {
		t.Fatal(err)
	}
	for _, suffix := range []string{"-wal", "-shm", "-journal"} {
		if _, err := os.Stat(dst + suffix); !errors.Is(err, os.ErrNotExist) {
			t.Errorf("%s beside the restored database: %v", suffix, err)
		}
	}
	r := openBackup(t, dst)
	if _, total, err := r.Persons(t.Context(), u.AccountID, 100, 0); err != nil || int(total) != n {
		t.Errorf("restored %d persons, %v; want %d", total, err, n)
	}
	if _, err := r.Login(t.Context(), u.Email, testPassword); err != nil {
		t.Errorf("login on the restored database: %v", err)
	}
	if b, _ := os.ReadFile(src); !bytes.Equal(b, before) {
		t.Error("the source changed")
	}
	if b, _ := os.ReadFile(src + "-wal"); !bytes.Equal(b, walBefore) {
		t.Error("the source's WAL changed")
	}
	if _, err := os.Stat(src + "-shm"); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("an index was made beside the source: %v", err)
	}
	if left := hidden(t, filepath.Dir(dst)); len(left) != 0 {
		t.Errorf("left behind %v", left)
	}
}
