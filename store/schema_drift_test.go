package store

import (
	"context"
	"crypto/rand"
	"database/sql"
	"fmt"
	"io/fs"
	"maps"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"

	_ "github.com/jackc/pgx/v5/stdlib" // the "pgx" driver
)

// The drift test builds the schema of each engine from its migrations and
// compares what the store relies on: tables, columns (name, type,
// nullability, default, primary key), unique constraints, indexes and
// foreign keys. CHECKs other than SQLite's 0/1 booleans are not compared:
// the two catalogs word them too differently to match as text.

// driftSchema describes every table of one engine, each part written the
// same way for both engines, so that they compare as strings.
type driftSchema map[string]*driftTable

// driftTable's maps go from what a part is to how it is, so that a
// difference reads "x: SQLite a, PostgreSQL b".
type driftTable struct {
	columns map[string]string // "column a" → "bigint NOT NULL DEFAULT 0 PRIMARY KEY"
	order   []string          // of the columns
	keys    map[string]string // "unique (a, b)" (a constraint) → "", "index name" → "unique (a DESC) partial"
	fks     map[string]string // "foreign key (a) → t(id)" → "ON DELETE CASCADE"
}

func newDriftTable() *driftTable {
	return &driftTable{columns: map[string]string{}, keys: map[string]string{}, fks: map[string]string{}}
}

func (t *driftTable) addColumn(name, desc string) {
	t.columns["column "+name] = desc
	t.order = append(t.order, name)
}

// addKey names an index only when a migration made it by name (CREATE
// INDEX, which a later one may drop by that name): the engines name those
// of UNIQUE constraints each their own way.
func (t *driftTable) addKey(name string, constraint, unique, partial bool, cols string) {
	desc := "(" + cols + ")"
	if unique {
		desc = "unique " + desc
	}
	if partial {
		desc += " partial"
	}
	if constraint {
		t.keys[desc] = ""
	} else {
		t.keys["index "+name] = desc
	}
}

func (t *driftTable) addFK(from, table, to, onDelete string) {
	t.fks[fmt.Sprintf("foreign key (%s) → %s(%s)", from, table, to)] = "ON DELETE " + onDelete
}

// pgCast is the cast PostgreSQL shows on a default ('UTC'::text).
var pgCast = regexp.MustCompile(`::[a-z ]+$`)

// driftIgnored are made by each engine or by the runner, not by the
// migrations.
var driftIgnored = map[string]bool{"schema_migrations": true, "sqlite_sequence": true}

func TestSchemaDrift(t *testing.T) {
	if os.Getenv("KITH_TEST_ENGINE") == "postgres" {
		t.Skip("compared once, in the SQLite run") // storetest.Main's second run
	}
	lite, pg := driftFileNames(t, "migrations/sqlite"), driftFileNames(t, "migrations/postgres")
	for _, d := range compareKeyed("", asKeys(lite), asKeys(pg)) {
		t.Errorf("each engine needs the same migrations, under the same names: %s", d)
	}

	url := os.Getenv("KITH_TEST_POSTGRES_URL")
	if url == "" {
		const msg = "KITH_TEST_POSTGRES_URL is not set: the PostgreSQL schema is not compared"
		if os.Getenv("CI") == "true" {
			t.Fatal(msg)
		}
		t.Skip(msg)
	}
	diffs := compareDrift(sqliteDriftSchema(t), postgresDriftSchema(t, url, pg))
	if len(diffs) > 0 {
		t.Errorf("the PostgreSQL migrations do not build the schema SQLite's do:\n\t%s", strings.Join(diffs, "\n\t"))
	}
}

func driftFileNames(t *testing.T, dir string) []string {
	t.Helper()
	entries, err := fs.ReadDir(migrationFiles, dir)
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, e := range entries {
		names = append(names, e.Name())
	}
	return names
}

// sqliteDriftSchema migrates a new database through the store, as a user's
// would be, and reads it back through the pragmas.
func sqliteDriftSchema(t *testing.T) driftSchema {
	ctx := t.Context()
	path := filepath.Join(t.TempDir(), "drift.db")
	s, err := Open(ctx, path)
	if err != nil {
		t.Fatal(err)
	}
	_, err = s.Migrate(ctx)
	if cerr := s.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		t.Fatal(err)
	}
	db, err := sql.Open("sqlite", path)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()

	schema := driftSchema{}
	for _, tr := range driftRows(t, db, `SELECT name, sql FROM sqlite_schema
		WHERE type = 'table' AND name NOT LIKE 'sqlite\_%' ESCAPE '\'
		AND name NOT LIKE 'persons\_search%' ESCAPE '\'`) { // SQLite's search index (FTS5), PostgreSQL's is persons_search_trgm
		name, create := tr[0], tr[1]
		tab := newDriftTable()
		schema[name] = tab
		for _, r := range driftRows(t, db, `SELECT name, type, "notnull", coalesce(dflt_value, ''), pk
			FROM pragma_table_info(?) ORDER BY cid`, name) {
			typ := sqliteDriftType(r[1], r[0], create)
			def := r[3]
			if typ == "boolean" {
				def = map[string]string{"0": "false", "1": "true"}[def]
			}
			// An INTEGER PRIMARY KEY is the rowid, never NULL, though
			// table_info says it may be: a NULL written to it picks the next id.
			notNull := r[2] == "1" || r[4] != "0"
			tab.addColumn(r[0], driftColumnDesc(typ, notNull, def, r[4] != "0"))
		}
		for _, r := range driftRows(t, db, `SELECT il.name, il.origin = 'u', il."unique", il.partial,
				(SELECT group_concat(coalesce(x.name, '<expression>') || iif(x."desc", ' DESC', ''), ', ' ORDER BY x.seqno)
				FROM pragma_index_xinfo(il.name) x WHERE x.key)
			FROM pragma_index_list(?) il
			WHERE il.origin <> 'pk'`, name) { // primary keys are compared with the columns
			tab.addKey(r[0], r[1] == "1", r[2] == "1", r[3] == "1", r[4])
		}
		// REFERENCES t with no column refers to t's primary key.
		for _, r := range driftRows(t, db, `SELECT group_concat(f."from", ', ' ORDER BY f.seq), f."table",
				group_concat(coalesce(f."to", (SELECT p.name FROM pragma_table_info(f."table") p WHERE p.pk = f.seq + 1)), ', ' ORDER BY f.seq),
				f.on_delete
			FROM pragma_foreign_key_list(?) f GROUP BY f.id`, name) {
			tab.addFK(r[0], r[1], r[2], r[3])
		}
	}
	return schema
}

// sqliteDriftType is the PostgreSQL type that the migrations must give a
// column of SQLite's declared type decl.
func sqliteDriftType(decl, col, create string) string {
	switch strings.ToUpper(decl) {
	case "INTEGER":
		// SQLite has no boolean: a 0/1 CHECK marks one.
		isBool := regexp.MustCompile(`(?i)CHECK\s*\(\s*"?` + regexp.QuoteMeta(col) + `"?\s+IN\s*\(\s*0\s*,\s*1\s*\)\s*\)`)
		if isBool.MatchString(create) {
			return "boolean"
		}
		return "bigint"
	case "TEXT":
		return "text"
	case "BLOB":
		return "bytea"
	}
	return "SQLite " + decl + " (not in the type map)"
}

// postgresDriftSchema applies the PostgreSQL migrations in a new schema,
// each in one transaction as the runner does, and reads it back from the
// catalogs.
func postgresDriftSchema(t *testing.T, url string, files []string) driftSchema {
	ctx := t.Context()
	db, err := sql.Open("pgx", url)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { db.Close() })
	name := "kith_drift_" + strings.ToLower(rand.Text())
	if _, err := db.ExecContext(ctx, "CREATE SCHEMA "+name); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		// Not t.Context(): it is cancelled before the cleanups run.
		if _, err := db.ExecContext(context.Background(), "DROP SCHEMA "+name+" CASCADE"); err != nil {
			t.Errorf("drop schema %s: %v", name, err)
		}
	})
	// One connection, so that its search_path holds for every statement.
	conn, err := db.Conn(ctx)
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	if _, err := conn.ExecContext(ctx, "SET search_path TO "+name); err != nil {
		t.Fatal(err)
	}
	for _, f := range files {
		body, err := migrationFiles.ReadFile("migrations/postgres/" + f)
		if err != nil {
			t.Fatal(err)
		}
		tx, err := conn.BeginTx(ctx, nil)
		if err == nil {
			if _, err = tx.ExecContext(ctx, string(body)); err != nil {
				tx.Rollback()
			} else {
				err = tx.Commit()
			}
		}
		if err != nil {
			t.Fatalf("PostgreSQL migration %s: %v", f, err)
		}
	}

	schema := driftSchema{}
	table := func(name string) *driftTable {
		if schema[name] == nil {
			schema[name] = newDriftTable()
		}
		return schema[name]
	}
	for _, r := range driftRows(t, conn, `SELECT c.table_name, c.column_name, c.data_type, c.is_nullable,
			coalesce(c.column_default, ''), coalesce(c.identity_generation, ''),
			EXISTS (SELECT 1 FROM information_schema.table_constraints tc
				JOIN information_schema.key_column_usage k USING (constraint_schema, constraint_name)
				WHERE tc.constraint_type = 'PRIMARY KEY' AND tc.table_schema = c.table_schema
				AND tc.table_name = c.table_name AND k.column_name = c.column_name)
		FROM information_schema.columns c
		JOIN information_schema.tables t USING (table_schema, table_name)
		WHERE c.table_schema = current_schema() AND t.table_type = 'BASE TABLE'
		ORDER BY c.table_name, c.ordinal_position`) {
		pk := r[6] == "true"
		desc := driftColumnDesc(r[2], r[3] == "NO", pgCast.ReplaceAllString(r[4], ""), pk)
		if pk && r[2] == "bigint" && r[5] != "BY DEFAULT" { // kith copy inserts ids, which ALWAYS refuses; SERIAL is not an identity
			desc += " (not GENERATED BY DEFAULT AS IDENTITY)"
		}
		table(r[0]).addColumn(r[1], desc)
	}
	for _, r := range driftRows(t, conn, `SELECT t.relname, ic.relname, con.oid IS NOT NULL, i.indisunique,
			i.indpred IS NOT NULL,
			string_agg(coalesce(a.attname, '<expression>') || CASE WHEN k.opt & 1 = 1 THEN ' DESC' ELSE '' END, ', ' ORDER BY k.n)
		FROM pg_index i
		JOIN pg_class t ON t.oid = i.indrelid
		JOIN pg_class ic ON ic.oid = i.indexrelid
		LEFT JOIN pg_constraint con ON con.conindid = i.indexrelid AND con.contype = 'u'
		CROSS JOIN unnest(i.indkey::int2[], i.indoption::int2[]) WITH ORDINALITY AS k(attnum, opt, n)
		LEFT JOIN pg_attribute a ON a.attrelid = t.oid AND a.attnum = k.attnum
		WHERE t.relnamespace = (SELECT oid FROM pg_namespace WHERE nspname = current_schema())
		AND NOT i.indisprimary AND ic.relname NOT IN ('persons_search_trgm', 'persons_search_grams') -- SQLite's is the table persons_search
		GROUP BY t.relname, ic.relname, con.oid, i.indisunique, i.indpred IS NOT NULL`) {
		table(r[0]).addKey(r[1], r[2] == "true", r[3] == "true", r[4] == "true", r[5])
	}
	for _, r := range driftRows(t, conn, `SELECT t.relname, string_agg(a.attname, ', ' ORDER BY k.n), rt.relname,
			string_agg(ra.attname, ', ' ORDER BY k.n),
			CASE c.confdeltype WHEN 'a' THEN 'NO ACTION' WHEN 'r' THEN 'RESTRICT' WHEN 'c' THEN 'CASCADE'
				WHEN 'n' THEN 'SET NULL' WHEN 'd' THEN 'SET DEFAULT' END
		FROM pg_constraint c
		JOIN pg_class t ON t.oid = c.conrelid
		JOIN pg_class rt ON rt.oid = c.confrelid
		CROSS JOIN unnest(c.conkey, c.confkey) WITH ORDINALITY AS k(col, rcol, n)
		JOIN pg_attribute a ON a.attrelid = c.conrelid AND a.attnum = k.col
		JOIN pg_attribute ra ON ra.attrelid = c.confrelid AND ra.attnum = k.rcol
		WHERE c.contype = 'f' AND c.connamespace = (SELECT oid FROM pg_namespace WHERE nspname = current_schema())
		GROUP BY t.relname, c.oid, rt.relname, c.confdeltype`) {
		table(r[0]).addFK(r[1], r[2], r[3], r[4])
	}
	return schema
}

func driftColumnDesc(typ string, notNull bool, def string, pk bool) string {
	desc := typ
	if notNull {
		desc += " NOT NULL"
	}
	if def != "" {
		desc += " DEFAULT " + def
	}
	if pk {
		desc += " PRIMARY KEY"
	}
	return desc
}

// driftRows runs a catalog query and returns its rows as strings, NULL as "".
func driftRows(t *testing.T, q interface {
	QueryContext(context.Context, string, ...any) (*sql.Rows, error)
}, query string, args ...any) [][]string {
	t.Helper()
	rows, err := q.QueryContext(t.Context(), query, args...)
	if err != nil {
		t.Fatalf("%v\n%s", err, query)
	}
	defer rows.Close()
	cols, err := rows.Columns()
	if err != nil {
		t.Fatal(err)
	}
	var all [][]string
	for rows.Next() {
		vals := make([]sql.NullString, len(cols))
		dest := make([]any, len(cols))
		for i := range vals {
			dest[i] = &vals[i]
		}
		if err := rows.Scan(dest...); err != nil {
			t.Fatal(err)
		}
		row := make([]string, len(cols))
		for i, v := range vals {
			row[i] = v.String
		}
		all = append(all, row)
	}
	if err := rows.Err(); err != nil {
		t.Fatal(err)
	}
	return all
}

// compareDrift lists every difference between the two schemas, one line
// each, table by table.
func compareDrift(lite, pg driftSchema) []string {
	var diffs []string
	names := slices.Collect(maps.Keys(lite))
	for n := range pg {
		if lite[n] == nil {
			names = append(names, n)
		}
	}
	slices.Sort(names)
	for _, name := range names {
		l, p := lite[name], pg[name]
		switch {
		case driftIgnored[name]:
		case p == nil:
			diffs = append(diffs, "table "+name+": only on SQLite")
		case l == nil:
			diffs = append(diffs, "table "+name+": only on PostgreSQL")
		default:
			prefix := "table " + name + ": "
			diffs = append(diffs, compareKeyed(prefix, l.columns, p.columns)...)
			// SQL that goes by position (SELECT *, INSERT with no column
			// list) would read one engine's columns wrongly.
			lo, po := inBoth(l.order, p.order), inBoth(p.order, l.order)
			if !slices.Equal(lo, po) {
				diffs = append(diffs, fmt.Sprintf("%scolumns in another order: SQLite (%s), PostgreSQL (%s)",
					prefix, strings.Join(lo, ", "), strings.Join(po, ", ")))
			}
			diffs = append(diffs, compareKeyed(prefix, l.keys, p.keys)...)
			diffs = append(diffs, compareKeyed(prefix, l.fks, p.fks)...)
		}
	}
	return diffs
}

// compareKeyed reports what only one side has, and what both have but
// describe differently.
func compareKeyed(prefix string, lite, pg map[string]string) []string {
	var diffs []string
	for _, k := range slices.Sorted(maps.Keys(lite)) {
		p, ok := pg[k]
		switch {
		case !ok:
			diffs = append(diffs, prefix+strings.TrimSpace(k+" "+lite[k])+": only on SQLite")
		case p != lite[k]:
			diffs = append(diffs, fmt.Sprintf("%s%s: SQLite %s, PostgreSQL %s", prefix, k, lite[k], p))
		}
	}
	for _, k := range slices.Sorted(maps.Keys(pg)) {
		if _, ok := lite[k]; !ok {
			diffs = append(diffs, prefix+strings.TrimSpace(k+" "+pg[k])+": only on PostgreSQL")
		}
	}
	return diffs
}

// inBoth is names without those that other lacks.
func inBoth(names, other []string) []string {
	return slices.DeleteFunc(slices.Clone(names), func(n string) bool { return !slices.Contains(other, n) })
}

func asKeys(names []string) map[string]string {
	m := map[string]string{}
	for _, n := range names {
		m["migration "+n] = ""
	}
	return m
}
