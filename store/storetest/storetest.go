// Package storetest opens fresh stores for tests, on the engine the test
// run is for: SQLite always, and PostgreSQL too when KITH_TEST_POSTGRES_URL
// names a server. Main runs a package's tests once per engine, and Open
// gives each test a database of its own (a file, or a schema), so that
// tests stay independent and may run in parallel.
package storetest

import (
	"context"
	"crypto/rand"
	"database/sql"
	"errors"
	"flag"
	"fmt"
	"io"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	_ "github.com/jackc/pgx/v5/stdlib" // the "pgx" driver, for schemas and counts

	"kith/store"
)

// The variables that choose the engine.
const (
	// PostgresURL names the PostgreSQL server (a database a test user may
	// create schemas in) that the PostgreSQL run uses.
	PostgresURL = "KITH_TEST_POSTGRES_URL"
	// engineVar is set by Main for the run it starts on PostgreSQL.
	engineVar = "KITH_TEST_ENGINE"
)

// Postgres reports whether this run is the PostgreSQL one.
func Postgres() bool { return os.Getenv(engineVar) == "postgres" }

// SQLiteOnly skips t on the PostgreSQL run: for a test of what only SQLite
// has (its files, backups).
func SQLiteOnly(t testing.TB) {
	t.Helper()
	if Postgres() {
		t.Skip("SQLite only")
	}
}

// Slow skips t, a test that takes seconds waiting out a timeout or a run
// of crashes, unless CI=true (as .ci/run sets), KITH_SLOW=1 or KITH_FULL
// is set: a newcomer's go test ./... stays quick, and CI runs them all.
// It says what the test waits for, and how to run it.
func Slow(t testing.TB, what string) {
	t.Helper()
	if os.Getenv("CI") == "true" || os.Getenv("KITH_SLOW") == "1" || os.Getenv("KITH_FULL") != "" {
		return
	}
	t.Skip("slow (" + what + "): runs with CI=true or KITH_SLOW=1")
}

// Engine names this run's engine, for messages.
func Engine() string {
	if Postgres() {
		return "postgres"
	}
	return "sqlite"
}

// Main runs the package's tests on SQLite and, when KITH_TEST_POSTGRES_URL
// is set, the same test binary on PostgreSQL at the same time: the two
// runs mostly wait (on fsyncs, a server, a browser), so side by side they
// take little more than the longer one. The PostgreSQL run's output is
// kept and printed after SQLite's, so the log reads one engine after the
// other. Benchmarks run one engine after the other, so that neither's
// timings count the other's work. Without the variable it prints one line
// saying PostgreSQL was skipped, and with CI=true that fails the run: CI
// must not pass for want of a server.
func Main(m *testing.M) {
	if Postgres() {
		os.Exit(run(m))
	}
	if os.Getenv(PostgresURL) == "" {
		code := run(m)
		if os.Getenv("CI") == "true" {
			fmt.Println("storetest: CI=true but KITH_TEST_POSTGRES_URL is not set: the PostgreSQL run cannot be skipped")
			os.Exit(1)
		}
		fmt.Println("storetest: KITH_TEST_POSTGRES_URL is not set: the tests ran on SQLite only, PostgreSQL skipped")
		os.Exit(code)
	}
	if benchmarking() {
		code := run(m)
		fmt.Println("storetest: the same tests again, on PostgreSQL")
		if err := runPostgres(os.Stdout); err != nil && code == 0 {
			code = 1
		}
		os.Exit(code)
	}
	pg, err := startPostgresRun()
	if err != nil {
		fmt.Println("storetest: the PostgreSQL run did not start:", err)
		os.Exit(1)
	}
	code := run(m)
	fmt.Println("storetest: the same tests again, on PostgreSQL")
	if err := pg.finish(); err != nil && code == 0 {
		code = 1
	}
	os.Exit(code)
}

// postgresRun is the test binary running again on PostgreSQL, its output
// held in a file until SQLite's run is over.
type postgresRun struct {
	cmd *exec.Cmd
	out *os.File
}

// benchmarking reports whether this run was asked for benchmarks.
func benchmarking() bool {
	flag.Parse()
	f := flag.Lookup("test.bench")
	return f != nil && f.Value.String() != ""
}

// postgresCmd is this test binary again, for the PostgreSQL run.
func postgresCmd(out io.Writer) *exec.Cmd {
	cmd := exec.Command(os.Args[0], os.Args[1:]...)
	cmd.Env = append(os.Environ(), engineVar+"=postgres")
	cmd.Stdout, cmd.Stderr = out, out
	return cmd
}

func runPostgres(out io.Writer) error { return postgresCmd(out).Run() }

func startPostgresRun() (*postgresRun, error) {
	out, err := os.CreateTemp("", "storetest-postgres-*.log")
	if err != nil {
		return nil, err
	}
	cmd := postgresCmd(out)
	if err := cmd.Start(); err != nil {
		out.Close()
		os.Remove(out.Name())
		return nil, err
	}
	return &postgresRun{cmd: cmd, out: out}, nil
}

// finish waits for the run, copies its output to ours and says whether
// it passed.
func (r *postgresRun) finish() error {
	err := r.cmd.Wait()
	defer os.Remove(r.out.Name())
	defer r.out.Close()
	if _, serr := r.out.Seek(0, io.SeekStart); serr == nil {
		io.Copy(os.Stdout, r.out)
	}
	return err
}

// DB is a test's database: its store, and where it is.
type DB struct {
	Store *store.Store
	// Where is the db value that opens it again: a file path, or a
	// PostgreSQL URL whose search_path is the test's own schema.
	Where string
}

// Open opens a fresh, migrated store for t on this run's engine, closed
// (and on PostgreSQL dropped) when t ends.
func Open(t testing.TB) DB {
	t.Helper()
	where := Migrated(t)
	st, err := store.Open(context.Background(), where)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { st.Close() })
	if _, err := st.Migrate(context.Background()); err != nil {
		t.Fatal(err)
	}
	return DB{Store: st, Where: where}
}

// Migrated is Fresh, but on SQLite the new database is a copy of one
// migrated once per test binary (see migratedCopy): Migrate on it finds
// nothing to apply. On PostgreSQL it is Fresh's empty schema.
func Migrated(t testing.TB) string {
	t.Helper()
	where := Fresh(t)
	if !Postgres() {
		if err := migratedCopy(where); err != nil {
			t.Fatal(err)
		}
	}
	return where
}

// template is the SQLite database that Open copies: migrated once, in a
// directory of its own that run removes when the tests are over.
var template struct {
	once      sync.Once
	dir, path string
	err       error
}

// migratedCopy writes to path a copy of a SQLite database migrated once
// for the whole test binary. Migrating a new file takes seconds under
// -race, and the server's tests open some 440 stores: that was most of
// CI's time. A copy of the closed file is the same bytes Migrate leaves.
func migratedCopy(path string) error {
	template.once.Do(func() {
		template.dir, template.err = os.MkdirTemp("", "storetest-template-*")
		if template.err != nil {
			return
		}
		template.path = filepath.Join(template.dir, "kith.db")
		st, err := store.Open(context.Background(), template.path)
		if err != nil {
			template.err = err
			return
		}
		if _, err := st.Migrate(context.Background()); err != nil {
			st.Close()
			template.err = err
			return
		}
		template.err = st.Close()
	})
	if template.err != nil {
		return fmt.Errorf("storetest: the migrated template: %w", template.err)
	}
	// Close checkpoints the WAL into the file; a WAL left over is copied
	// too, so that the copy holds whatever Migrate wrote.
	for _, suffix := range []string{"", "-wal"} {
		b, err := os.ReadFile(template.path + suffix)
		if errors.Is(err, os.ErrNotExist) && suffix != "" {
			continue
		}
		if err != nil {
			return fmt.Errorf("storetest: the migrated template: %w", err)
		}
		fi, err := os.Stat(template.path + suffix)
		if err != nil {
			return fmt.Errorf("storetest: the migrated template: %w", err)
		}
		if err := os.WriteFile(path+suffix, b, fi.Mode().Perm()); err != nil {
			return fmt.Errorf("storetest: copy the migrated template: %w", err)
		}
	}
	return nil
}

// run runs the tests, then removes the template Open copied.
func run(m *testing.M) int {
	code := m.Run()
	if template.dir != "" {
		os.RemoveAll(template.dir)
	}
	return code
}

// Fresh returns the db value of a new, empty database for t: a file under
// t.TempDir, or a new schema of the PostgreSQL database, dropped when t
// ends (after the stores that t opened on it are closed).
func Fresh(t testing.TB) string {
	t.Helper()
	if !Postgres() {
		return filepath.Join(t.TempDir(), "kith.db")
	}
	return Schema(t, os.Getenv(PostgresURL))
}

// Schema returns the db value of a new schema of the PostgreSQL database
// at base (its search_path set to it), dropped when t ends: for a test that
// needs PostgreSQL whatever the run's engine.
func Schema(t testing.TB, base string) string {
	t.Helper()
	admin, err := sql.Open("pgx", base)
	if err != nil {
		t.Fatal(err)
	}
	schema := "t_" + strings.ToLower(rand.Text()[:16])
	if _, err := admin.Exec(`CREATE SCHEMA ` + schema); err != nil {
		admin.Close()
		t.Fatalf("storetest: create schema on %s: %v", PostgresURL, err)
	}
	t.Cleanup(func() {
		defer admin.Close()
		if _, err := admin.Exec(`DROP SCHEMA ` + schema + ` CASCADE`); err != nil {
			t.Errorf("storetest: drop schema %s: %v", schema, err)
		}
	})
	u, err := url.Parse(base)
	if err != nil {
		t.Fatal(err)
	}
	q := u.Query()
	q.Set("search_path", schema)
	u.RawQuery = q.Encode()
	return u.String()
}

// Count runs a query that counts, with ? placeholders, on the database at
// where, beside the store and not through it: what a test reads there is
// what the database holds.
func Count(t testing.TB, where, query string, args ...any) int {
	t.Helper()
	var n sql.NullInt64
	if err := open(t, where, true).QueryRow(rebind(where, query), args...).Scan(&n); err != nil {
		t.Fatalf("storetest: %s: %v", query, err)
	}
	return int(n.Int64)
}

// Exec runs a statement on the database at where, beside the store: to
// break it on purpose, say.
func Exec(t testing.TB, where, query string, args ...any) {
	t.Helper()
	if _, err := open(t, where, false).Exec(rebind(where, query), args...); err != nil {
		t.Fatalf("storetest: %s: %v", query, err)
	}
}

// open opens where for one call of t's, closed when t ends.
func open(t testing.TB, where string, readOnly bool) *sql.DB {
	t.Helper()
	driver, dsn := "sqlite", "file:"+where+"?_pragma=busy_timeout(10000)"
	if readOnly {
		dsn = "file:" + where + "?mode=ro"
	}
	if store.IsPostgres(where) {
		driver, dsn = "pgx", where
	}
	db, err := sql.Open(driver, dsn)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { db.Close() })
	return db
}

func rebind(where, query string) string {
	if store.IsPostgres(where) {
		return store.Rebind(query)
	}
	return query
}
