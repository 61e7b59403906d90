package store

import (
	"strings"
	"testing"
)

func TestRebind(t *testing.T) {
	for _, c := range []struct{ in, want string }{
		{`SELECT ? , ?`, `SELECT $1 , $2`},
		{`WHERE password_hash = '' AND id = ?`, `WHERE password_hash = '' AND id = $1`},
		{`SELECT 'a?b', "c?d", ? -- what?` + "\n" + `, ?`, `SELECT 'a?b', "c?d", $1 -- what?` + "\n" + `, $2`},
		{`LIKE 'sqlite\_%' ESCAPE '\' AND x = ?`, `LIKE 'sqlite\_%' ESCAPE '\' AND x = $1`},
		{`'it''s' = ?`, `'it''s' = $1`},
		{`no placeholders`, `no placeholders`},
		{`'unterminated ?`, `'unterminated ?`},
	} {
		if got := Rebind(c.in); got != c.want {
			t.Errorf("Rebind(%q) = %q, want %q", c.in, got, c.want)
		}
	}
}

func TestPoolSize(t *testing.T) {
	dsn, n, err := poolSize("postgres://u:secret@h/kith?sslmode=require&pool_max_conns=25&statement_timeout=5000")
	if err != nil || n != 25 || dsn != "postgres://u:secret@h/kith?sslmode=require&statement_timeout=5000" {
		t.Errorf("poolSize: %q %d %v", dsn, n, err)
	}
	if _, n, err := poolSize("postgres://h/kith"); err != nil || n != defaultMaxConns {
		t.Errorf("default: %d %v", n, err)
	}
	for _, bad := range []string{"postgres://h/kith?pool_max_conns=0", "postgres://h/kith?pool_max_conns=x"} {
		if _, _, err := poolSize(bad); err == nil {
			t.Errorf("%s: no error", bad)
		}
	}
	if _, _, err := poolSize("postgres://u:pa ss%zz@h/"); err == nil || strings.Contains(err.Error(), "pa ss") {
		t.Errorf("a bad URL: %v", err)
	}
}

func TestRedacted(t *testing.T) {
	for in, want := range map[string]string{
		"kith.db":                             "kith.db",
		"postgres://kith:s3cret@db:5432/kith": "postgres://kith:xxxxx@db:5432/kith",
		"postgresql://kith@db/kith?sslmode=verify-full":           "postgresql://kith@db/kith?sslmode=verify-full",
		"postgres://kith@db/kith?password=s3cret&sslmode=require": "postgres://kith@db/kith?password=xxxxx&sslmode=require",
	} {
		if got := Redacted(in); got != want || strings.Contains(got, "s3cret") {
			t.Errorf("Redacted(%q) = %q, want %q", in, got, want)
		}
	}
}
