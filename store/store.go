// Package store keeps Kith's data.
//
// The SQL in the files named for a table (persons.go, tasks.go, users.go,
// keys.go, categories.go, verification.go) is portable: `?` placeholders
// only, RETURNING and ON CONFLICT (which both SQLite and PostgreSQL have),
// booleans written as booleans (NOT x, never x = 0 or 1 - x), a CAST on a
// parameter whose type the statement alone does not tell, and every time
// stored as Unix seconds (UTC) in an integer column. Every SQL string is a
// constant, so that the prepared statements kept for them are bounded by
// the code.
//
// What depends on the database engine lives in the files named sqlite_*.go
// and postgres*.go: opening and the connection settings, how writes are
// committed (SQLite's single writer and its group commit, a transaction of
// its own per write on PostgreSQL), the kept statements and the rewriting
// of ? into $n, the mapping of the driver's error codes to this package's
// errors, backup and restore, and the health write probe; the engine
// interface names what the shared code asks of them. They are the only
// files that import a database driver. The migrations of each engine sit
// in migrations/<engine>/, version for version.
package store

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"strings"
	"sync"
	"sync/atomic"
	"time"
)

// ErrClosed is returned for a write to a closed store.
var ErrClosed = errors.New("store: closed")

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
	w   *pool // SQLite: one connection, its one writer, and queuing here avoids SQLITE_BUSY; PostgreSQL: r
	r   *pool // readers, which WAL lets run beside the writer
	eng engine

	// Now is the clock; tests replace it.
	Now func() time.Time
	// PasswordCost is the bcrypt cost of new password hashes; tests lower it.
	PasswordCost int

	dummyOnce sync.Once
	dummyHash []byte // of the same cost as real ones, for Login's timing

	writeFault   atomic.Bool  // the last write failed for want of storage
	limitsPruned atomic.Int64 // when this server last pruned the rate limits, Unix ms
	writes       writes
	wstats       writeStats // for PoolStats
	keys         *keyCache  // recent authentications (Authenticate)
}

// writes runs write transactions: SQLite's group-committing writer, or a
// transaction per write on PostgreSQL.
type writes interface {
	do(ctx context.Context, fn func(context.Context, *txn) error) error
	close()
}

// engine is what the shared code asks of the database engine.
type engine interface {
	migrationDir() string
	hasTable(ctx context.Context, q queryer, name string) (bool, error)
	// tables counts the columns of a Kith schema_migrations (3 for Kith's)
	// and names up to five other tables, for checkKithSchema.
	tables(ctx context.Context, q queryer) (kith int, others sql.NullString, err error)
	// lockMigrations keeps other processes from migrating until tx ends.
	lockMigrations(ctx context.Context, tx *txn) error
	// probeWrite tells whether a write goes through again after one failed
	// for want of storage.
	probeWrite(ctx context.Context, s *Store) error
	// tryJobLock reports whether tx holds, until it ends, the lock of a
	// background job that one server at a time must run.
	tryJobLock(ctx context.Context, tx *txn, job int64) (bool, error)
	// lockPersons locks, in id order, the account's persons that cond
	// (on persons) picks, before a write of many of them (lockPersons).
	lockPersons(ctx context.Context, tx *txn, cond string, args ...any) error
	// searchPersons is the condition on persons, and its arguments, of
	// the account's persons whose search_text holds q (SearchPersons).
	searchPersons(accountID int64, q string) (cond string, args []any)
	// jsonIDs is a query of the ids in a JSON array of integers, its one
	// argument: one statement text for any number of them.
	jsonIDs() string
}

// The background jobs, as lock ids of tryJobLock.
const (
	jobPruneLimits int64 = 4823618 + iota
)

// Open opens the database that db names: a postgres:// or postgresql://
// URL is a PostgreSQL database; a file path, or the same with a "sqlite:"
// prefix, is a SQLite database, created if needed. It does not apply
// migrations; call Migrate.
func Open(ctx context.Context, db string) (*Store, error) {
	if IsPostgres(db) {
		return openPostgres(ctx, db)
	}
	path, err := SQLitePath(db)
	if err != nil {
		return nil, err
	}
	return openSQLite(ctx, path)
}

// SQLitePath returns the file of a SQLite database value ("kith.db",
// "sqlite:kith.db", "sqlite:///var/lib/kith/kith.db"), and a clear error
// for a value that names another engine.
func SQLitePath(db string) (string, error) {
	scheme, rest, found := strings.Cut(db, ":")
	switch {
	case found && scheme == "sqlite":
		if strings.HasPrefix(rest, "//") {
			rest = strings.TrimPrefix(rest, "//") // sqlite:///abs/path keeps its leading slash
		}
		if rest == "" {
			return "", errors.New("store: db sqlite: names no file")
		}
		return rest, nil
	case found && (scheme == "postgres" || scheme == "postgresql"):
		return "", errors.New("store: db is a PostgreSQL URL, not a SQLite file")
	case found && strings.HasPrefix(rest, "//"):
		return "", fmt.Errorf("store: db %s://… names an engine kith does not know: use a file path (SQLite) or a postgres:// URL", scheme)
	case db == "":
		return "", errors.New("store: db is empty: set it to a file path such as kith.db")
	}
	return db, nil
}

// Close finishes the writes under way and closes both pools.
func (s *Store) Close() error {
	s.writes.close()
	if s.r == s.w {
		return s.r.Close()
	}
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
		return s.eng.probeWrite(ctx, s)
	}
	return nil
}

// ConnectWriter opens the writer's connection, which a start leaves for
// the first write: on SQLite, opening a connection parses the whole schema
// (some 3 ms), which the start's first answer should not wait for, nor a
// user's first write after it. A server calls it a moment after listening.
// On PostgreSQL the writer is the readers' pool, already connected.
func (s *Store) ConnectWriter(ctx context.Context) error {
	if s.w == s.r {
		return nil
	}
	if err := s.w.PingContext(ctx); err != nil {
		return fmt.Errorf("store: connect the writer: %w", err)
	}
	return nil
}

func (s *Store) now() int64 { return s.Now().Unix() }

// withTx runs fn in a write transaction and returns once it is committed
// or rolled back. fn gets a context of its own that is never cancelled, and
// must use it rather than the request's: a write that has started runs to
// its end, since it may share its transaction with other writes (see
// writer) and an interrupted statement would roll back them all.
func (s *Store) withTx(ctx context.Context, fn func(ctx context.Context, tx *txn) error) error {
	return s.writes.do(ctx, fn)
}

// withSessionTx is withTx for a write that changes what a Session holds:
// a key, or its user's email, verification, time zone or account. Once
// it has committed (or failed), the key cache forgets every session.
func (s *Store) withSessionTx(ctx context.Context, fn func(ctx context.Context, tx *txn) error) error {
	defer s.keys.forget()
	return s.withTx(ctx, fn)
}

// scanner is what *sql.Row and *sql.Rows have in common.
type scanner interface {
	Scan(dest ...any) error
}

// queryer is what a pool and a transaction have in common for one row.
type queryer interface {
	QueryRowContext(ctx context.Context, query string, args ...any) *sql.Row
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
