package store

import (
	"context"
	"database/sql"
	"fmt"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"
)

// idTables are the tables whose ids the API shows or logs.
var idTables = []string{"accounts", "users", "api_keys", "task_categories", "persons", "tasks", "email_verifications"}

// rowsOf returns every row of the query, each shown as one string.
func rowsOf(t *testing.T, db *sql.DB, query string, args ...any) []string {
	t.Helper()
	rows, err := db.Query(query, args...)
	if err != nil {
		t.Fatalf("%s: %v", query, err)
	}
	defer rows.Close()
	cols, _ := rows.Columns()
	var out []string
	for rows.Next() {
		vals := make([]any, len(cols))
		ptrs := make([]any, len(cols))
		for i := range vals {
			ptrs[i] = &vals[i]
		}
		if err := rows.Scan(ptrs...); err != nil {
			t.Fatal(err)
		}
		out = append(out, fmt.Sprintf("%v", vals))
	}
	if err := rows.Err(); err != nil {
		t.Fatal(err)
	}
	return out
}

var (
	sqlComment = regexp.MustCompile(`--[^\n]*`)
	sqlSpace   = regexp.MustCompile(`[\s"]+`)
)

// schemaOf describes a table as SQLite sees it: its CREATE statement
// without comments, spacing, quotes and AUTOINCREMENT (which hold its
// CHECKs and defaults), its columns, foreign keys and indexes with their
// columns. An automatic index is named by its columns: its name follows
// the table's.
func schemaOf(t *testing.T, db *sql.DB, table string) []string {
	t.Helper()
	var create string
	if err := db.QueryRow(`SELECT sql FROM sqlite_schema WHERE type = 'table' AND name = ?`, table).Scan(&create); err != nil {
		t.Fatalf("%s: %v", table, err)
	}
	create = sqlSpace.ReplaceAllString(sqlComment.ReplaceAllString(create, ""), "")
	create = strings.ReplaceAll(create, "AUTOINCREMENT", "")
	out := []string{create}
	out = append(out, rowsOf(t, db, `SELECT * FROM pragma_table_info(?)`, table)...)
	out = append(out, rowsOf(t, db, `SELECT * FROM pragma_foreign_key_list(?)`, table)...)
	idx := rowsOf(t, db, `SELECT CASE origin WHEN 'c' THEN name ELSE '' END, "unique", origin, partial,
		(SELECT group_concat(coalesce(name, '?') || ' ' || desc || ' ' || coll, ', ') FROM pragma_index_xinfo(il.name) WHERE key)
		FROM pragma_index_list(?) AS il`, table)
	slices.Sort(idx)
	out = append(out, idx...)
	var sql string
	for _, r := range rowsOf(t, db, `SELECT sql FROM sqlite_schema WHERE type = 'index' AND tbl_name = ? AND sql IS NOT NULL ORDER BY name`, table) {
		sql += r
	}
	return append(out, sql)
}

// TestMigrationToAutoincrementKeepsEverything migrates a database of
// version 4 with data in every table: every row, reference and index is
// kept, the schema is the same but for AUTOINCREMENT, and no id is used
// again.
func TestMigrationToAutoincrementKeepsEverything(t *testing.T) {
	ctx := context.Background()
	path := filepath.Join(t.TempDir(), "kith.db")
	s, err := Open(ctx, path)
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	s.PasswordCost = 4
	if _, err := s.migrateTo(ctx, 4); err != nil {
		t.Fatal(err)
	}
	// The rows are written in SQL of version 4: the store's methods speak
	// the newest schema.
	exec := func(query string, args ...any) int64 {
		t.Helper()
		var id int64
		if err := s.w.QueryRow(query+` RETURNING id`, args...).Scan(&id); err != nil {
			t.Fatal(err)
		}
		return id
	}
	type seeded struct{ ID, AccountID int64 }
	var users []seeded
	for i := range 3 {
		acct := exec(`INSERT INTO accounts (created_at) VALUES (1)`)
		email := fmt.Sprintf("u%d@example.com", i)
		uid := exec(`INSERT INTO users (account_id, first_name, last_name, email, password_hash, email_verified_at, created_at, updated_at)
			VALUES (?, 'U', 'L', ?, 'x', 1, 1, 1)`, acct, email)
		users = append(users, seeded{uid, acct})
		exec(`INSERT INTO api_keys (user_id, name, secret_hash, created_at, updated_at) VALUES (?, 'k', randomblob(32), 1, 1)`, uid)
		cat := exec(`INSERT INTO task_categories (account_id, name, color, created_at, updated_at) VALUES (?, 'mine', '#ffffff', 1, 1)`, acct)
		for j := range 4 {
			p := exec(`INSERT INTO persons (account_id, first_name, marital_status, kids_status, created_at, updated_at)
				VALUES (?, ?, 'single', 'no_kids', 1, 1)`, acct, fmt.Sprint("P", j))
			exec(`INSERT INTO tasks (account_id, person_id, task_category_id, name, created_at, updated_at) VALUES (?, ?, ?, 't', 1, 1)`, acct, p, cat)
			if j == 1 {
				exec(`DELETE FROM persons WHERE id = ?`, p)
			}
		}
		exec(`INSERT INTO email_verifications (user_id, email, secret_hash, expires_at, created_at)
			VALUES (?, ?, randomblob(32), 1, 1)`, uid, email)
	}
	exec(`DELETE FROM api_keys WHERE user_id = ? AND id = 2`, users[1].ID)
	schema, data := map[string][]string{}, map[string][]string{}
	maxID := map[string]int64{}
	for _, table := range idTables {
		schema[table] = schemaOf(t, s.r.DB, table)
		data[table] = rowsOf(t, s.r.DB, `SELECT * FROM `+table+` ORDER BY id`)
		if len(data[table]) == 0 {
			t.Fatalf("no rows in %s to migrate", table)
		}
		var m int64
		s.r.QueryRow(`SELECT max(id) FROM ` + table).Scan(&m)
		maxID[table] = m
	}

	applied, err := s.migrateTo(ctx, 5)
	if err != nil || !slices.Contains(applied, "0005_autoincrement") {
		t.Fatalf("applied %v, %v", applied, err)
	}
	for _, table := range idTables {
		if got := schemaOf(t, s.r.DB, table); !slices.Equal(got, schema[table]) {
			t.Errorf("%s's schema changed:\n%q\nwas\n%q", table, got, schema[table])
		}
		if got := rowsOf(t, s.r.DB, `SELECT * FROM `+table+` ORDER BY id`); !slices.Equal(got, data[table]) {
			t.Errorf("%s's rows changed:\n%q\nwere\n%q", table, got, data[table])
		}
		var create string
		s.r.QueryRow(`SELECT sql FROM sqlite_schema WHERE name = ?`, table).Scan(&create)
		if !strings.Contains(create, "PRIMARY KEY AUTOINCREMENT") {
			t.Errorf("%s is not AUTOINCREMENT: %s", table, create)
		}
		var seq int64
		if err := s.r.QueryRow(`SELECT seq FROM sqlite_sequence WHERE name = ?`, table).Scan(&seq); err != nil || seq != maxID[table] {
			t.Errorf("%s's sequence is %d, %v; want %d", table, seq, err, maxID[table])
		}
	}
	if got := rowsOf(t, s.r.DB, `PRAGMA integrity_check`); !slices.Equal(got, []string{"[ok]"}) {
		t.Errorf("integrity check: %q", got)
	}
	if got := rowsOf(t, s.r.DB, `PRAGMA foreign_key_check`); len(got) != 0 {
		t.Errorf("foreign key check: %q", got)
	}
	var on int
	if err := s.w.DB.QueryRow(`PRAGMA foreign_keys`).Scan(&on); err != nil || on != 1 {
		t.Errorf("the writer's foreign keys after the migration: %d, %v", on, err)
	}
	// The references still act: deleting an account takes its rows along.
	if _, err := s.w.Exec(`DELETE FROM accounts WHERE id = ?`, users[0].AccountID); err != nil {
		t.Fatal(err)
	}
	var left int
	s.r.QueryRow(`SELECT (SELECT count(*) FROM users WHERE account_id = ?) + (SELECT count(*) FROM persons WHERE account_id = ?)
		+ (SELECT count(*) FROM tasks WHERE account_id = ?)`, users[0].AccountID, users[0].AccountID, users[0].AccountID).Scan(&left)
	if left != 0 {
		t.Errorf("%d rows of a deleted account left: ON DELETE CASCADE is gone", left)
	}
	if _, err := s.Migrate(ctx); err != nil {
		t.Fatal(err)
	}
	p, err := s.CreatePerson(ctx, users[1].AccountID, PersonInput{FirstName: "New", MaritalStatus: "unknown", KidsStatus: "unknown", CanBeDeleted: true, IsListed: true})
	if err != nil || p.ID != maxID["persons"]+1 {
		t.Errorf("a new person has id %d, %v; want %d", p.ID, err, maxID["persons"]+1)
	}
}

// TestForeignKeysOffIsUndone: a migration run with foreign keys off that
// leaves a broken reference is rolled back, and the writer's foreign keys
// are on again after it.
func TestForeignKeysOffIsUndone(t *testing.T) {
	s, _ := openTest(t)
	ctx := context.Background()
	err := s.withForeignKeysOff(ctx, func() error {
		return s.withTx(ctx, func(ctx context.Context, tx *txn) error {
			if err := foreignKeysAreOff(ctx, tx); err != nil {
				return err
			}
			if _, err := tx.Tx.ExecContext(ctx, `INSERT INTO api_keys (user_id, name, secret_hash, created_at, updated_at) VALUES (999, 'x', randomblob(32), 1, 1)`); err != nil {
				return err
			}
			return checkForeignKeys(ctx, tx)
		})
	})
	if err == nil || !strings.Contains(err.Error(), "api_keys") {
		t.Fatalf("a broken reference: %v", err)
	}
	var n, on int
	s.r.QueryRow(`SELECT count(*) FROM api_keys`).Scan(&n)
	s.w.DB.QueryRow(`PRAGMA foreign_keys`).Scan(&on)
	if n != 0 || on != 1 {
		t.Errorf("%d keys written, foreign keys %d after", n, on)
	}
	err = s.withTx(ctx, func(ctx context.Context, tx *txn) error { return foreignKeysAreOff(ctx, tx) })
	if err == nil {
		t.Error("foreignKeysAreOff passes with foreign keys on")
	}
}
