package store

import (
	"context"
	"database/sql"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"
)

func openTest(t *testing.T) (*Store, string) {
	t.Helper()
	path := filepath.Join(t.TempDir(), "kith.db")
	s, err := Open(context.Background(), path)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { s.Close() })
	if _, err := s.Migrate(context.Background()); err != nil {
		t.Fatal(err)
	}
	s.PasswordCost = 4
	return s, path
}

func TestMigrateIsIdempotent(t *testing.T) {
	s, _ := openTest(t)
	ctx := context.Background()
	applied, err := s.Migrate(ctx)
	if err != nil || len(applied) != 0 {
		t.Fatalf("second migrate applied %v, %v", applied, err)
	}
	v, err := s.SchemaVersion(ctx)
	ms, _ := migrations(sqliteMigrations)
	if err != nil || v != ms[len(ms)-1].version {
		t.Errorf("version %d, %v", v, err)
	}
}

func TestMigrateRefusesANewerDatabase(t *testing.T) {
	s, _ := openTest(t)
	ctx := context.Background()
	if _, err := s.w.Exec(`INSERT INTO schema_migrations (version, name, applied_at) VALUES (9999, '9999_future', 0)`); err != nil {
		t.Fatal(err)
	}
	_, err := s.Migrate(ctx)
	if err == nil || !strings.Contains(err.Error(), "newer than this binary") {
		t.Fatalf("want a refusal, got %v", err)
	}
}

// TestPragmasOnEveryConnection holds several readers open at once, so the
// pool must open several connections, and checks each one: a pragma set
// with one Exec would reach only one of them.
func TestPragmasOnEveryConnection(t *testing.T) {
	s, _ := openTest(t)
	ctx := context.Background()
	var conns []*sql.Conn
	for range 4 {
		c, err := s.r.Conn(ctx)
		if err != nil {
			t.Fatal(err)
		}
		conns = append(conns, c)
	}
	w, err := s.w.Conn(ctx)
	if err != nil {
		t.Fatal(err)
	}
	conns = append(conns, w)
	for i, c := range conns {
		var mode string
		var sync, fk, busy int
		c.QueryRowContext(ctx, `PRAGMA journal_mode`).Scan(&mode)
		c.QueryRowContext(ctx, `PRAGMA synchronous`).Scan(&sync)
		c.QueryRowContext(ctx, `PRAGMA foreign_keys`).Scan(&fk)
		c.QueryRowContext(ctx, `PRAGMA busy_timeout`).Scan(&busy)
		if mode != "wal" || sync != 2 || fk != 1 || busy < 5000 {
			t.Errorf("connection %d: journal_mode=%s synchronous=%d foreign_keys=%d busy_timeout=%d", i, mode, sync, fk, busy)
		}
		c.Close()
	}
	if _, err := s.r.Exec(`INSERT INTO accounts (created_at) VALUES (1)`); err == nil {
		t.Errorf("the reader pool can write")
	}
}

func TestCreateUserGivesTheAccountDefaultCategories(t *testing.T) {
	s, _ := openTest(t)
	ctx := context.Background()
	u, err := s.CreateUser(ctx, NewUser{FirstName: "Ada", LastName: "L", Email: " Ada@Example.COM ", Password: "password1"})
	if err != nil {
		t.Fatal(err)
	}
	if u.Email != "ada@example.com" || u.Timezone != "UTC" {
		t.Errorf("email %q timezone %q", u.Email, u.Timezone)
	}
	rows, err := s.r.Query(`SELECT name, color, updated_at FROM task_categories WHERE account_id = ? ORDER BY id`, u.AccountID)
	if err != nil {
		t.Fatal(err)
	}
	defer rows.Close()
	var got []string
	for rows.Next() {
		var name, color string
		var updated *int64
		if err := rows.Scan(&name, &color, &updated); err != nil {
			t.Fatal(err)
		}
		if updated != nil {
			t.Errorf("%s: updated_at %d, want NULL", name, *updated)
		}
		got = append(got, name+" "+color)
	}
	want := "Birthday bg-purple-100,Call bg-blue-100,Email bg-green-100,Follow up bg-yellow-100,Lunch bg-orange-100,Thank you bg-red-100"
	if strings.Join(got, ",") != want {
		t.Errorf("categories %v", got)
	}
}

func TestCreateUserRefusals(t *testing.T) {
	s, _ := openTest(t)
	ctx := context.Background()
	if _, err := s.CreateUser(ctx, NewUser{FirstName: "A", LastName: "L", Email: "ada@example.com", Password: "password1"}); err != nil {
		t.Fatal(err)
	}
	cases := []struct {
		name string
		nu   NewUser
		want error
	}{
		{"same email in another case", NewUser{"B", "L", "ADA@example.com", "password1", 0, false}, ErrEmailTaken},
		{"not an email", NewUser{"B", "L", "ada", "password1", 0, false}, ErrInvalidEmail},
		{"password over 72 bytes, which bcrypt would cut", NewUser{"B", "L", "b@example.com", strings.Repeat("é", 37), 0, false}, ErrPasswordLength},
		{"password under 8 bytes", NewUser{"B", "L", "b@example.com", "short", 0, false}, ErrPasswordLength},
		{"an account that does not exist", NewUser{"B", "L", "b@example.com", "password1", 99, false}, ErrAccountNotFound},
	}
	for _, tc := range cases {
		if _, err := s.CreateUser(ctx, tc.nu); !errors.Is(err, tc.want) {
			t.Errorf("%s: %v, want %v", tc.name, err, tc.want)
		}
	}
	var accounts int
	s.r.QueryRow(`SELECT count(*) FROM accounts`).Scan(&accounts)
	if accounts != 1 {
		t.Errorf("refused users left %d accounts, want 1", accounts)
	}
}

func TestLogin(t *testing.T) {
	s, _ := openTest(t)
	ctx := context.Background()
	s.CreateUser(ctx, NewUser{FirstName: "A", LastName: "L", Email: "ada@example.com", Password: "password1"})
	if _, err := s.Login(ctx, "ADA@example.com", "password1"); err != nil {
		t.Errorf("right password: %v", err)
	}
	for _, c := range [][2]string{{"ada@example.com", "password2"}, {"bob@example.com", "password1"}} {
		if _, err := s.Login(ctx, c[0], c[1]); !errors.Is(err, ErrInvalidCredentials) {
			t.Errorf("%v: %v", c, err)
		}
	}
}

func TestKeysKeepOnlyAHash(t *testing.T) {
	s, path := openTest(t)
	ctx := context.Background()
	u, _ := s.CreateUser(ctx, NewUser{FirstName: "A", LastName: "L", Email: "ada@example.com", Password: "password1"})
	_, token, err := s.CreateAPIKey(ctx, u.ID, "phone")
	if err != nil {
		t.Fatal(err)
	}
	_, secret, _ := strings.Cut(token, "|")
	if len(secret) < 40 {
		t.Fatalf("secret of %d characters", len(secret))
	}
	s.Close()
	for _, f := range []string{path, path + "-wal"} {
		b, err := os.ReadFile(f)
		if err != nil && !errors.Is(err, os.ErrNotExist) {
			t.Fatal(err)
		}
		if strings.Contains(string(b), secret) || strings.Contains(string(b), "password1") {
			t.Errorf("%s holds a plaintext secret", f)
		}
	}
}

func TestAuthenticate(t *testing.T) {
	s, _ := openTest(t)
	ctx := context.Background()
	u, _ := s.CreateUser(ctx, NewUser{FirstName: "A", LastName: "L", Email: "ada@example.com", Password: "password1"})
	k, token, _ := s.CreateAPIKey(ctx, u.ID, "phone")
	sess, err := s.Authenticate(ctx, token)
	if err != nil || sess.KeyID != k.ID || sess.UserID != u.ID || sess.AccountID != u.AccountID {
		t.Fatalf("session %+v, %v", sess, err)
	}
	for _, bad := range []string{"", "|", "x|y", "0|" + token[2:], token + "x", strings.Replace(token, "|", "", 1)} {
		if _, err := s.Authenticate(ctx, bad); err != ErrUnauthenticated {
			t.Errorf("%q: %v", bad, err)
		}
	}
}

func TestTouchIsCoalesced(t *testing.T) {
	s, _ := openTest(t)
	ctx := context.Background()
	now := time.Unix(1_800_000_000, 0)
	s.Now = func() time.Time { return now }
	u, _ := s.CreateUser(ctx, NewUser{FirstName: "A", LastName: "L", Email: "ada@example.com", Password: "password1"})
	k, token, _ := s.CreateAPIKey(ctx, u.ID, "phone")
	sess, _ := s.Authenticate(ctx, token)
	if !s.NeedsTouch(sess) {
		t.Fatal("a never-used key needs a touch")
	}
	// Concurrent requests of one key: the WHERE clause lets one write land.
	var wg sync.WaitGroup
	for range 8 {
		wg.Go(func() {
			if err := s.TouchAPIKey(ctx, k.ID); err != nil {
				t.Error(err)
			}
		})
	}
	wg.Wait()
	sess, _ = s.Authenticate(ctx, token)
	if sess.LastUsedAt == nil || *sess.LastUsedAt != now.Unix() || s.NeedsTouch(sess) {
		t.Errorf("after touch: %v", sess.LastUsedAt)
	}
	now = now.Add(59 * time.Second)
	if s.NeedsTouch(sess) {
		t.Errorf("59 s later no touch is needed")
	}
	now = now.Add(time.Second)
	if !s.NeedsTouch(sess) {
		t.Errorf("60 s later a touch is needed")
	}
}

func TestBootstrapRunsOnce(t *testing.T) {
	s, _ := openTest(t)
	ctx := context.Background()
	creds, err := s.Bootstrap(ctx, "admin@example.com")
	if err != nil || creds == nil {
		t.Fatalf("first: %v %v", creds, err)
	}
	if _, err := s.Login(ctx, "admin@example.com", creds.Password); err != nil {
		t.Errorf("the printed password does not log in: %v", err)
	}
	if sess, err := s.Authenticate(ctx, creds.Token); err != nil || sess.UserID != creds.User.ID {
		t.Errorf("the printed key does not authenticate: %v", err)
	}
	again, err := s.Bootstrap(ctx, "admin@example.com")
	if err != nil || again != nil {
		t.Errorf("second: %v %v", again, err)
	}
}

func TestConcurrentWritersDoNotGetBusy(t *testing.T) {
	s, _ := openTest(t)
	ctx := context.Background()
	u, _ := s.CreateUser(ctx, NewUser{FirstName: "A", LastName: "L", Email: "ada@example.com", Password: "password1"})
	var wg sync.WaitGroup
	errs := make(chan error, 200)
	for range 20 {
		wg.Go(func() {
			for range 10 {
				if _, _, err := s.CreateAPIKey(ctx, u.ID, "k"); err != nil {
					errs <- err
				}
				if _, err := s.APIKeys(ctx, u.ID); err != nil {
					errs <- err
				}
			}
		})
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Error(err)
	}
	keys, _ := s.APIKeys(ctx, u.ID)
	if len(keys) != 200 {
		t.Errorf("%d keys, want 200", len(keys))
	}
}

func TestAPIKeyScopedToUser(t *testing.T) {
	s, _ := openTest(t)
	ctx := context.Background()
	a, _ := s.CreateUser(ctx, NewUser{FirstName: "A", LastName: "L", Email: "a@example.com", Password: "password1"})
	b, _ := s.CreateUser(ctx, NewUser{FirstName: "B", LastName: "L", Email: "b@example.com", Password: "password1"})
	k, _, _ := s.CreateAPIKey(ctx, a.ID, "a's")
	if _, err := s.APIKey(ctx, b.ID, k.ID); !errors.Is(err, ErrNotFound) {
		t.Errorf("b reads a's key: %v", err)
	}
	if err := s.DeleteAPIKey(ctx, b.ID, k.ID); !errors.Is(err, ErrNotFound) {
		t.Errorf("b deletes a's key: %v", err)
	}
	if _, err := s.APIKey(ctx, a.ID, k.ID); err != nil {
		t.Errorf("a's key is gone: %v", err)
	}
}

// TestNewDatabaseIsPrivate: the file, its WAL and its index are readable
// by their owner only.
func TestNewDatabaseIsPrivate(t *testing.T) {
	s, path := openTest(t)
	if _, err := s.CreateUser(context.Background(), NewUser{FirstName: "A", LastName: "L", Email: "ada@example.com", Password: "password"}); err != nil {
		t.Fatal(err)
	}
	for _, suffix := range []string{"", "-wal", "-shm"} {
		fi, err := os.Stat(path + suffix)
		if err != nil {
			t.Fatal(err)
		}
		if perm := fi.Mode().Perm(); perm != 0o600 {
			t.Errorf("kith.db%s has mode %o, want 600", suffix, perm)
		}
	}
}

// TestMigrateRefusesAForeignDatabase: a SQLite file with tables of its own
// but not Kith's is left as it was, with an error that says why.
func TestMigrateRefusesAForeignDatabase(t *testing.T) {
	for _, tc := range []struct {
		name   string
		schema string
	}{
		{"tables but no schema_migrations", `CREATE TABLE notes (id INTEGER PRIMARY KEY, body TEXT); INSERT INTO notes (body) VALUES ('mine')`},
		{"another tool's schema_migrations", `CREATE TABLE schema_migrations (version INTEGER NOT NULL, dirty INTEGER NOT NULL); INSERT INTO schema_migrations VALUES (3, 0); CREATE TABLE notes (id INTEGER PRIMARY KEY)`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			path := filepath.Join(t.TempDir(), "foreign.db")
			s, err := Open(context.Background(), path)
			if err != nil {
				t.Fatal(err)
			}
			defer s.Close()
			if _, err := s.w.Exec(tc.schema); err != nil {
				t.Fatal(err)
			}
			applied, err := s.Migrate(context.Background())
			if err == nil || !strings.Contains(err.Error(), "not a Kith database") || len(applied) != 0 {
				t.Fatalf("applied %v, %v; want a refusal", applied, err)
			}
			for _, table := range []string{"accounts", "users", "persons"} {
				if ok, err := s.eng.hasTable(context.Background(), s.r, table); err != nil || ok {
					t.Errorf("table %s created in a foreign database (%v)", table, err)
				}
			}
		})
	}
	t.Run("an empty database is migrated", func(t *testing.T) {
		openTest(t)
	})
}
