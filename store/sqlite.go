package store

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"net/url"
	"os"
	"runtime"
	"strings"
	"time"

	"golang.org/x/crypto/bcrypt"
	"modernc.org/sqlite"
	sqlite3 "modernc.org/sqlite/lib"
)

// dsn builds a connection string whose pragmas every pooled connection
// runs when it opens. busy_timeout comes first so that the pragmas after it
// already wait for a lock instead of failing at once.
func dsn(path string, writer bool) string {
	q := url.Values{}
	q.Add("_pragma", "busy_timeout(10000)")
	q.Add("_pragma", "journal_mode(WAL)")
	// FULL: a commit reaches the disk before a 2xx goes out.
	q.Add("_pragma", "synchronous(FULL)")
	q.Add("_pragma", "foreign_keys(ON)")
	if writer {
		// BEGIN IMMEDIATE takes the write lock at once: a read-then-write
		// transaction can then never fail on upgrading its lock.
		q.Set("_txlock", "immediate")
		// 256 KiB, not SQLite's 2 MiB: the readers cache again what the
		// writer wrote, so the default cost 3 MB and bought no speed.
		q.Add("_pragma", "cache_size(-256)")
	} else {
		q.Add("_pragma", "query_only(ON)")
	}
	return "file:" + uriPath.Replace(path) + "?" + q.Encode()
}

// uriPath escapes what would end the path of a "file:" URI early; SQLite
// decodes %XX in it.
var uriPath = strings.NewReplacer("%", "%25", "?", "%3f", "#", "%23")

// openSQLite opens (creating if needed) the SQLite database at path: one
// writer connection, behind the group-commit writer, and a pool of readers.
func openSQLite(ctx context.Context, path string) (*Store, error) {
	// A new database is made readable by its owner only: it holds password
	// hashes and everyone's relationships, and SQLite would create it (and
	// its -wal and -shm, which take the file's mode) world-readable.
	if f, err := os.OpenFile(path, os.O_RDWR|os.O_CREATE|os.O_EXCL, 0o600); err == nil {
		f.Close()
	} else if !errors.Is(err, os.ErrExist) {
		return nil, fmt.Errorf("store: open %s: %w", path, err)
	}
	// Only a reader connects now. Opening a connection reads the whole
	// schema (some 2 ms of a start's 20); a start that finds the schema
	// current and the first user made writes nothing, and the writer's
	// connection opens at the first write.
	w, err := openPool(ctx, path, true, 1)
	if err != nil {
		return nil, err
	}
	r, err := openPool(ctx, path, false, max(4, 2*runtime.NumCPU()))
	if err == nil {
		err = pingPool(ctx, path, r)
	}
	if err != nil {
		w.Close()
		return nil, err
	}
	s := &Store{w: newPool(w), r: newPool(r), eng: sqliteEngine{}, Now: time.Now, PasswordCost: bcrypt.DefaultCost, keys: newKeyCache()}
	s.writes = newWriter(s)
	return s, nil
}

// openPool opens n connections' worth of pool, kept open for good: a new
// SQLite connection parses the schema again. It connects at first use.
func openPool(ctx context.Context, path string, writer bool, n int) (*sql.DB, error) {
	db, err := sql.Open("sqlite", dsn(path, writer))
	if err != nil {
		return nil, fmt.Errorf("store: open %s: %w", path, err)
	}
	db.SetMaxOpenConns(n)
	db.SetMaxIdleConns(n)
	db.SetConnMaxLifetime(0)
	db.SetConnMaxIdleTime(0)
	return db, nil
}

// pingPool connects db, so that a file that is no database, or none that
// can be opened, fails the open; it closes db when it fails.
func pingPool(ctx context.Context, path string, db *sql.DB) error {
	if err := db.PingContext(ctx); err != nil {
		db.Close()
		return fmt.Errorf("store: open %s: %w", path, err)
	}
	return nil
}

// sqliteEngine is what differs on SQLite.
type sqliteEngine struct{}

func (sqliteEngine) migrationDir() string { return "migrations/sqlite" }

// lockMigrations has nothing to do: the writer's BEGIN IMMEDIATE holds
// SQLite's one write lock already.
func (sqliteEngine) lockMigrations(context.Context, *txn) error { return nil }

// tryJobLock always has the lock: one server has a SQLite database, and
// its writer runs one transaction at a time.
func (sqliteEngine) tryJobLock(context.Context, *txn, int64) (bool, error) { return true, nil }

// hasTable reports whether the database has a table of this name.
func (sqliteEngine) hasTable(ctx context.Context, q queryer, name string) (bool, error) {
	var n int
	err := q.QueryRowContext(ctx, `SELECT count(*) FROM sqlite_schema WHERE type = 'table' AND name = ?`, name).Scan(&n)
	if err != nil {
		return false, fmt.Errorf("store: look for table %s: %w", name, err)
	}
	return n > 0, nil
}

func (sqliteEngine) tables(ctx context.Context, q queryer) (kith int, others sql.NullString, err error) {
	// One statement: its read of sqlite_schema loads the schema another
	// process may have changed, which pragma_table_info alone would not.
	err = q.QueryRowContext(ctx, `SELECT
		(SELECT count(*) FROM pragma_table_info('schema_migrations')
			WHERE name IN ('version', 'name', 'applied_at')),
		(SELECT group_concat(name, ', ') FROM (
			SELECT name FROM sqlite_schema
			WHERE type = 'table' AND name NOT LIKE 'sqlite\_%' ESCAPE '\' AND name <> 'schema_migrations'
			ORDER BY name LIMIT 5))`).Scan(&kith, &others)
	return kith, others, err
}

// isUniqueViolation reports whether err is a UNIQUE constraint's refusal.
func isUniqueViolation(err error) bool {
	var se *sqlite.Error
	return errors.As(err, &se) && se.Code() == sqlite3.SQLITE_CONSTRAINT_UNIQUE || pgCode(err) == "23505"
}

// isForeignKeyViolation reports whether err is a FOREIGN KEY constraint's
// refusal: a row named by id went away, or never was.
func isForeignKeyViolation(err error) bool {
	var se *sqlite.Error
	return errors.As(err, &se) && se.Code() == sqlite3.SQLITE_CONSTRAINT_FOREIGNKEY || pgCode(err) == "23503"
}

// Unavailable reports whether err means the database cannot do its work
// now (the disk is full or read-only, I/O failed, or a lock outlasted the
// busy timeout) rather than that a request was wrong or Kith has a bug.
// Such a failure is the host's to fix, and passes when it is fixed.
func Unavailable(err error) bool {
	var se *sqlite.Error
	if !errors.As(err, &se) {
		return pgUnavailable(err)
	}
	switch se.Code() & 0xff { // the primary code of an extended one
	case sqlite3.SQLITE_FULL, sqlite3.SQLITE_IOERR, sqlite3.SQLITE_READONLY, sqlite3.SQLITE_CANTOPEN,
		sqlite3.SQLITE_BUSY, sqlite3.SQLITE_LOCKED, sqlite3.SQLITE_NOMEM:
		return true
	}
	return false
}
