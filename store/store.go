// Package store keeps Kith's data in one SQLite file, through one writer
// connection and a pool of readers.
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
	"sync"
	"sync/atomic"
	"time"

	"golang.org/x/crypto/bcrypt"
	"modernc.org/sqlite"
	sqlite3 "modernc.org/sqlite/lib"
)

// ErrNotFound is matched by every error that reports a missing row.
var ErrNotFound = errors.New("store: not found")

// NotFoundError names, for logs, the entity that was not found ("store:
// person not found"); errors.Is(err, ErrNotFound) holds. What is no
// client's wording: the server words its own messages.
type NotFoundError struct{ What string }

func (e *NotFoundError) Error() string        { return "store: " + e.What + " not found" }
func (e *NotFoundError) Is(target error) bool { return target == ErrNotFound }

// Not-found errors of each entity. A row of another account is reported the
// same way as a missing one, so existence never leaks across accounts.
var (
	ErrAPIKeyNotFound = &NotFoundError{What: "api key"}
	ErrUserNotFound   = &NotFoundError{What: "user"}
)

// Store is Kith's database. Every exported method is one transaction.
type Store struct {
	w *pool // one connection: SQLite has one writer, and queuing here avoids SQLITE_BUSY
	r *pool // readers, which WAL lets run beside the writer

	// Now is the clock; tests replace it.
	Now func() time.Time
	// PasswordCost is the bcrypt cost of new password hashes; tests lower it.
	PasswordCost int

	dummyOnce sync.Once
	dummyHash []byte // of the same cost as real ones, for Login's timing

	writeFault atomic.Bool // the last write failed for want of storage
	writes     *writer
}

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
	} else {
		q.Add("_pragma", "query_only(ON)")
	}
	return "file:" + uriPath.Replace(path) + "?" + q.Encode()
}

// uriPath escapes what would end the path of a "file:" URI early; SQLite
// decodes %XX in it.
var uriPath = strings.NewReplacer("%", "%25", "?", "%3f", "#", "%23")

// Open opens (creating if needed) the database at path. It does not apply
// migrations; call Migrate.
func Open(ctx context.Context, path string) (*Store, error) {
	// A new database is made readable by its owner only: it holds password
	// hashes and everyone's relationships, and SQLite would create it (and
	// its -wal and -shm, which take the file's mode) world-readable.
	if f, err := os.OpenFile(path, os.O_RDWR|os.O_CREATE|os.O_EXCL, 0o600); err == nil {
		f.Close()
	} else if !errors.Is(err, os.ErrExist) {
		return nil, fmt.Errorf("store: open %s: %w", path, err)
	}
	w, err := sql.Open("sqlite", dsn(path, true))
	if err != nil {
		return nil, fmt.Errorf("store: open %s: %w", path, err)
	}
	w.SetMaxOpenConns(1)
	w.SetMaxIdleConns(1)
	w.SetConnMaxLifetime(0)
	w.SetConnMaxIdleTime(0)
	if err := w.PingContext(ctx); err != nil {
		w.Close()
		return nil, fmt.Errorf("store: open %s: %w", path, err)
	}

	r, err := sql.Open("sqlite", dsn(path, false))
	if err != nil {
		w.Close()
		return nil, fmt.Errorf("store: open %s: %w", path, err)
	}
	n := max(4, 2*runtime.NumCPU())
	r.SetMaxOpenConns(n)
	r.SetMaxIdleConns(n)
	r.SetConnMaxLifetime(0)
	r.SetConnMaxIdleTime(0)
	if err := r.PingContext(ctx); err != nil {
		w.Close()
		r.Close()
		return nil, fmt.Errorf("store: open %s: %w", path, err)
	}
	s := &Store{w: newPool(w), r: newPool(r), Now: time.Now, PasswordCost: bcrypt.DefaultCost}
	s.writes = newWriter(s)
	return s, nil
}

// Close finishes the writes under way and closes both pools.
func (s *Store) Close() error {
	s.writes.close()
	return errors.Join(s.r.Close(), s.w.Close())
}

// Ping reports whether the database answers a query on its own tables,
// through the readers that requests use, and, after a write failed for
// want of storage, whether a write works again.
func (s *Store) Ping(ctx context.Context) error {
	if _, err := schemaVersion(ctx, s.r); err != nil {
		return err
	}
	if s.writeFault.Load() {
		return s.probeWrite(ctx)
	}
	return nil
}

func (s *Store) now() int64 { return s.Now().Unix() }

// withTx runs fn in a write transaction, shared with the writes queued
// beside it (see writer), and returns once it is committed or rolled back.
func (s *Store) withTx(ctx context.Context, fn func(tx *txn) error) error {
	return s.writes.do(ctx, fn)
}

// scanner is what *sql.Row and *sql.Rows have in common.
type scanner interface {
	Scan(dest ...any) error
}

func isUniqueViolation(err error) bool {
	var se *sqlite.Error
	return errors.As(err, &se) && se.Code() == sqlite3.SQLITE_CONSTRAINT_UNIQUE
}

// mustAffect turns "no row changed" into notFound.
func mustAffect(res sql.Result, notFound error) error {
	n, err := res.RowsAffected()
	if err != nil {
		return fmt.Errorf("store: rows affected: %w", err)
	}
	if n == 0 {
		return notFound
	}
	return nil
}
