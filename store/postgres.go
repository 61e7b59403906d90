package store

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"net/url"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/jackc/pgx/v5/pgconn"
	_ "github.com/jackc/pgx/v5/stdlib" // the "pgx" driver of database/sql
	"golang.org/x/crypto/bcrypt"
)

// defaultMaxConns is the connection pool of one Kith on PostgreSQL unless
// the URL's pool_max_conns says otherwise. Instances × pool must stay
// under the server's max_connections (100 by default).
const defaultMaxConns = 10

// Backup and restore on PostgreSQL are its own tools' work: they copy a
// live database consistently, in parallel, and to any point in time with
// WAL archiving, which Kith would do worse.
var (
	ErrPostgresBackup  = errors.New("store: kith backup copies SQLite files; on PostgreSQL use pg_dump (for example pg_dump -Fc -f kith.dump \"$KITH_DB\")")
	ErrPostgresRestore = errors.New("store: kith restore installs SQLite files; on PostgreSQL use pg_restore (for example pg_restore --clean --if-exists -d \"$KITH_DB\" kith.dump)")
)

// Redacted is db as it may be shown or logged: a PostgreSQL URL's password
// is replaced by xxxxx.
func Redacted(db string) string {
	if !IsPostgres(db) {
		return db
	}
	u, err := url.Parse(db)
	if err != nil {
		return "postgres://(a URL that does not parse)"
	}
	// pgx takes a password in the query too.
	q := u.Query()
	for _, k := range []string{"password", "sslpassword"} {
		if q.Has(k) {
			q.Set(k, "xxxxx")
		}
	}
	u.RawQuery = q.Encode()
	return u.Redacted()
}

// IsPostgres reports whether db names a PostgreSQL database
// (postgres://… or postgresql://…).
func IsPostgres(db string) bool {
	return strings.HasPrefix(db, "postgres://") || strings.HasPrefix(db, "postgresql://")
}

// openPostgres opens the PostgreSQL database that the URL dsn names. One
// pool serves reads and writes: PostgreSQL has many writers, and commits
// of concurrent transactions together by itself. pgx keeps each
// connection's prepared statements, so the pool keeps none.
func openPostgres(ctx context.Context, dsn string) (*Store, error) {
	dsn, maxConns, err := poolSize(dsn)
	if err != nil {
		return nil, err
	}
	db, err := sql.Open("pgx", dsn)
	if err != nil {
		return nil, fmt.Errorf("store: open PostgreSQL: %w", err)
	}
	db.SetMaxOpenConns(maxConns)
	db.SetMaxIdleConns(maxConns)
	db.SetConnMaxIdleTime(5 * time.Minute)
	if err := db.PingContext(ctx); err != nil {
		db.Close()
		return nil, fmt.Errorf("store: open PostgreSQL: %w", err)
	}
	p := newPool(db)
	p.bind = &binder{}
	p.snapshot = sql.LevelRepeatableRead
	s := &Store{w: p, r: p, eng: postgresEngine{}, Now: time.Now, PasswordCost: bcrypt.DefaultCost, keys: newKeyCache()}
	s.writes = &pgWriter{s: s}
	return s, nil
}

// poolSize takes Kith's own pool_max_conns out of the URL, which pgx would
// otherwise send to the server as a setting it does not know.
func poolSize(dsn string) (string, int, error) {
	u, err := url.Parse(dsn)
	if err != nil {
		return "", 0, errors.New("store: db is not a valid PostgreSQL URL") // err would repeat the password
	}
	q := u.Query()
	n := defaultMaxConns
	if v := q.Get("pool_max_conns"); v != "" {
		n, err = strconv.Atoi(v)
		if err != nil || n < 1 {
			return "", 0, fmt.Errorf("store: db pool_max_conns=%q is not a positive integer", v)
		}
		q.Del("pool_max_conns")
		u.RawQuery = q.Encode()
	}
	return u.String(), n, nil
}

// binder rewrites the store's ? placeholders into PostgreSQL's $1, $2…,
// once per query text: the store's queries are constants, so the cache is
// bounded by the code.
type binder struct{ done sync.Map }

func (b *binder) sql(query string) string {
	if q, ok := b.done.Load(query); ok {
		return q.(string)
	}
	q := Rebind(query)
	b.done.Store(query, q)
	return q
}

// Rebind numbers the ? of query that are placeholders, PostgreSQL's way
// ($1, $2…): not those in a plain '…' literal, a "quoted" name or a --
// comment. It does not know E'…' escapes, $$ quoting or /* */ comments,
// which Kith's SQL does not use.
// The store does it itself; tools that write SQL beside it use this.
func Rebind(query string) string {
	var b strings.Builder
	n := 0
	for i := 0; i < len(query); i++ {
		c := query[i]
		switch {
		case c == '\'' || c == '"':
			end := strings.IndexByte(query[i+1:], c)
			if end < 0 {
				b.WriteString(query[i:])
				return b.String()
			}
			b.WriteString(query[i : i+end+2])
			i += end + 1
			continue
		case c == '-' && strings.HasPrefix(query[i:], "--"):
			end := strings.IndexByte(query[i:], '\n')
			if end < 0 {
				b.WriteString(query[i:])
				return b.String()
			}
			b.WriteString(query[i : i+end])
			i += end - 1
			continue
		case c == '?':
			n++
			b.WriteString("$" + strconv.Itoa(n))
			continue
		}
		b.WriteByte(c)
	}
	return b.String()
}

// pgWriter runs each write in a transaction of its own: PostgreSQL lets
// many run at once, and retries one that lost a deadlock or a
// serialization conflict, which it rolled back whole.
type pgWriter struct {
	s      *Store
	closed atomic.Bool
}

const pgTries = 3

func (w *pgWriter) do(ctx context.Context, fn func(context.Context, *txn) error) error {
	if w.closed.Load() {
		return ErrClosed
	}
	// As on SQLite, a write that has started runs to its end: the client
	// that went away does not decide whether it happened; one that went
	// before it started gets none.
	if err := ctx.Err(); err != nil {
		return err
	}
	ctx = context.WithoutCancel(ctx)
	st := &w.s.wstats
	st.queue.Add(1)
	defer st.queue.Add(-1)
	var err error
	for range pgTries {
		err = w.once(ctx, fn)
		if !retryable(err) {
			break
		}
	}
	w.s.noteWrite(err)
	if err == nil {
		st.writes.Add(1)
		st.commits.Add(1)
	}
	return err
}

func (w *pgWriter) once(ctx context.Context, fn func(context.Context, *txn) error) error {
	tx, err := w.s.w.BeginTx(ctx, nil)
	if err != nil {
		return fmt.Errorf("store: begin: %w", err)
	}
	if err := call(ctx, tx, fn); err != nil {
		// fn's own error comes back as it was, not wrapped: callers look
		// at its type (a validation error becomes the form's messages).
		if rerr := ignoreDone(tx.end(ctx, false)); rerr != nil {
			return errors.Join(err, rerr)
		}
		return err
	}
	if err := tx.end(ctx, true); err != nil {
		return fmt.Errorf("store: commit: %w", err)
	}
	return nil
}

func (w *pgWriter) close() { w.closed.Store(true) }

// ignoreDone drops the error of rolling back a transaction that the
// failure already ended.
func ignoreDone(err error) error {
	if errors.Is(err, sql.ErrTxDone) {
		return nil
	}
	return err
}

// pgCode is the SQLSTATE of a PostgreSQL error, or "".
func pgCode(err error) string {
	var pe *pgconn.PgError
	if errors.As(err, &pe) {
		return pe.Code
	}
	return ""
}

// retryable reports a transaction that PostgreSQL rolled back so that
// another could go on: a serialization failure or a deadlock.
func retryable(err error) bool {
	code := pgCode(err)
	return code == "40001" || code == "40P01"
}

// pgUnavailable is Unavailable for PostgreSQL: the server is out of room
// or connections, shutting down or starting, read-only (a standby), or
// unreachable.
func pgUnavailable(err error) bool {
	code := pgCode(err)
	switch {
	case code == "":
		var ce *pgconn.ConnectError
		return errors.As(err, &ce)
	case strings.HasPrefix(code, "08"), strings.HasPrefix(code, "53"), strings.HasPrefix(code, "57P"),
		code == "25006", code == "57014": // read-only transaction; statement_timeout
		return true
	}
	return false
}

// postgresEngine is what differs on PostgreSQL.
type postgresEngine struct{}

func (postgresEngine) migrationDir() string { return "migrations/postgres" }

func (postgresEngine) hasTable(ctx context.Context, q queryer, name string) (bool, error) {
	var n int
	err := q.QueryRowContext(ctx, `SELECT count(*) FROM information_schema.tables
		WHERE table_schema = current_schema() AND table_name = ?`, name).Scan(&n)
	if err != nil {
		return false, fmt.Errorf("store: look for table %s: %w", name, err)
	}
	return n > 0, nil
}

func (postgresEngine) tables(ctx context.Context, q queryer) (kith int, others sql.NullString, err error) {
	err = q.QueryRowContext(ctx, `SELECT
		(SELECT count(*) FROM information_schema.columns
			WHERE table_schema = current_schema() AND table_name = 'schema_migrations'
			AND column_name IN ('version', 'name', 'applied_at')),
		(SELECT string_agg(table_name, ', ') FROM (
			SELECT table_name FROM information_schema.tables
			WHERE table_schema = current_schema() AND table_name <> 'schema_migrations'
			ORDER BY table_name LIMIT 5) t)`).Scan(&kith, &others)
	return kith, others, err
}

// lockMigrations makes concurrent starts of several instances apply each
// migration once: the lock is held until the transaction ends, and the
// version is read again after it.
func (postgresEngine) lockMigrations(ctx context.Context, tx *txn) error {
	_, err := tx.ExecContext(ctx, `SELECT pg_advisory_xact_lock(4823617)`) // any constant of Kith's own
	return err
}

// authenticateTaking is AuthenticateTaking in one statement: the key's row,
// and a token of its user's bucket taken only when the secret's hash is
// the key's (a wrong secret spends nobody's tokens). The hash is compared
// again, in constant time, by checkSession.
func (postgresEngine) authenticateTaking(ctx context.Context, s *Store, id int64, want []byte, perMinute int) (Session, Bucket, bool, error) {
	now := s.Now().UnixMilli()
	var sess Session
	var hash []byte
	var verifiedAt, millis *int64
	var allowed *bool
	args := append([]any{id, int64(perMinute)*tokenUnits - tokenUnits, now, want}, takeArgs(perMinute)...)
	err := s.w.QueryRowContext(ctx, `WITH k AS (
			SELECT `+sessionColumns+` FROM api_keys k JOIN users u ON u.id = k.user_id WHERE k.id = ?
		), t AS (
			INSERT INTO rate_buckets AS b (key, millis, at_ms, allowed)
			SELECT 'user:' || k.id, CAST(? AS BIGINT), CAST(? AS BIGINT), TRUE FROM k WHERE k.secret_hash = ?
			`+takeToken+`
		)
		SELECT k.*, t.millis, t.allowed FROM k LEFT JOIN t ON TRUE`,
		args...).Scan(&sess.LastUsedAt, &hash, &sess.UserID, &sess.AccountID, &sess.Timezone, &verifiedAt, &sess.Email, &millis, &allowed)
	sess, err = checkSession(err, id, sess, hash, want, verifiedAt)
	if err != nil || millis == nil {
		return sess, Bucket{}, false, err
	}
	return sess, s.bucket(ctx, now, perMinute, *millis, *allowed), true, nil
}

// tryJobLock takes a transaction-level advisory lock if no other server
// holds it: session locks would need the pool's connection kept.
func (postgresEngine) tryJobLock(ctx context.Context, tx *txn, job int64) (bool, error) {
	var ok bool
	err := tx.QueryRowContext(ctx, `SELECT pg_try_advisory_xact_lock(CAST(? AS BIGINT))`, job).Scan(&ok)
	return ok, err
}

// probeWrite asks whether the server takes writes: a standby, or a
// primary set read-only, does not.
func (postgresEngine) probeWrite(ctx context.Context, s *Store) error {
	var ro string
	if err := s.r.QueryRowContext(ctx, `SHOW transaction_read_only`).Scan(&ro); err != nil {
		return err
	}
	if ro != "off" {
		return errors.New("store: PostgreSQL takes no writes (transaction_read_only is on)")
	}
	return nil
}
