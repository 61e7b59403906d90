package store

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"slices"
	"strings"
)

// copyTables is every table that Copy moves, each after the tables its
// foreign keys name, so that the target checks every reference as the row
// arrives. Copy refuses a source with a table that is neither here nor in
// copySkipped: a new table must be named in one of them, or its rows would
// be left behind unseen.
var copyTables = []string{
	"accounts", "users", "api_keys", "calendar_feeds", "task_categories", "genders", "persons", "tasks",
	"email_verifications", "notes", "gifts", "life_events", "work_history", "contact_details",
	"journals", "journal_entries", "logs", "invitations",
	"important_dates", "interactions", "stay_in_touch", "reminder_settings", "channels", "deleted_cards",
	"relationship_types", "relationships",
	"tags", "person_tags",
	"photos", "two_factor", "two_factor_recovery",
	"reminders",
	// The action links' key goes too, so that digests sent before a move
	// keep working after it, and the links used stay used.
	"server_secrets", "action_links_used", "snoozes",
	"mail_in",
	"passkey_handles", "passkeys",
}

// copySkipped are the tables whose rows are not data: schema_migrations
// is the target's own, health_probe is empty between probes, and the rate
// limits' counts (rate_buckets, rate_failures) and web sign-ins
// (web_sessions, and the single sign-ons' spent states, oidc_states) start
// afresh; a search index is built anew.
var copySkipped = []string{"schema_migrations", "health_probe", "rate_buckets", "rate_failures", "web_sessions",
	"oidc_states",
	// Passkey challenges live five minutes; a copy's target issues its own.
	"passkey_challenges",
	// An import's batch holds its row only inside its transaction.
	"bulk_writes",
	// SQLite's search index and its shadow tables, which the target's
	// triggers fill as persons arrive.
	"persons_search", "persons_search_data", "persons_search_idx", "persons_search_docsize", "persons_search_config",
	// The accounts' counts of persons, which the target's triggers count
	// as persons arrive (migration 0038), and the counts of tasks, logs and
	// journal entries, likewise (migration 0041).
	"person_counts", "task_counts", "log_counts", "entry_counts"}

// ErrTargetNotEmpty is the refusal of a target that holds rows already:
// the copy keeps the source's ids, which the target's rows could hold.
var ErrTargetNotEmpty = errors.New("store: the target database is not empty")

// VersionError is a database at another schema version than this
// binary's migrations build: Copy moves the columns of one version.
type VersionError struct {
	Version int // the database's
	Known   int // the last of this binary's migrations
}

func (e *VersionError) Error() string {
	return fmt.Sprintf("store: the database is at schema version %d, this binary's is %d", e.Version, e.Known)
}

// CheckVersion returns a *VersionError unless the database is at the
// schema version of this binary's last migration.
func (s *Store) CheckVersion(ctx context.Context) error {
	ms, err := migrations(s.eng.migrationDir())
	if err != nil {
		return err
	}
	v, err := s.SchemaVersion(ctx)
	if err != nil {
		return err
	}
	if known := ms[len(ms)-1].version; v != known {
		return &VersionError{Version: v, Known: known}
	}
	return nil
}

// TableCount is how many rows a table holds in the source and, once the
// copy is committed, in the target.
type TableCount struct {
	Table          string
	Source, Target int64
}

// Copy copies every row of the database from into the empty database to,
// ids included, whatever the engine of each: the source is read in one
// snapshot, so a server may keep running on it, and the target is written
// in one transaction, so a failed copy leaves it empty. Both must be at
// this binary's schema version (CheckVersion). Values move unchanged, but
// for the 0/1 integers that SQLite has for PostgreSQL's booleans. Each
// table's next id ends above the source's highest id ever given, so that
// no id is given twice, not even that of a row deleted before the copy.
// It returns the rows of each table in both; comparing them is the
// caller's check.
func Copy(ctx context.Context, from, to *Store) ([]TableCount, error) {
	for _, s := range []*Store{from, to} {
		if err := s.CheckVersion(ctx); err != nil {
			return nil, err
		}
	}
	src, err := from.r.BeginTx(ctx, &sql.TxOptions{ReadOnly: true})
	if err != nil {
		return nil, fmt.Errorf("store: copy: begin reading: %w", err)
	}
	defer src.end(ctx, false)
	srcEng, dstEng := from.eng.(copyEngine), to.eng.(copyEngine)
	if err := checkCopyTables(ctx, src, srcEng); err != nil {
		return nil, err
	}
	counts := make([]TableCount, len(copyTables))
	for i, table := range copyTables {
		counts[i].Table = table
		if counts[i].Source, err = countRows(ctx, src.Tx, table); err != nil {
			return nil, err
		}
	}
	err = to.withTx(ctx, func(wctx context.Context, dst *txn) error {
		for _, table := range copyTables {
			n, err := countRows(wctx, dst.Tx, table)
			if err != nil {
				return err
			}
			if n > 0 {
				return fmt.Errorf("%w: table %s has rows", ErrTargetNotEmpty, table)
			}
		}
		for _, table := range copyTables {
			// The source's reads take the caller's ctx: an interrupted copy
			// fails there, and the target's transaction is rolled back.
			if err := copyTable(ctx, wctx, src, srcEng, dst, dstEng, table); err != nil {
				return fmt.Errorf("store: copy %s: %w", table, err)
			}
		}
		// A person's search text is built as they arrive, before their
		// emails (migration 0024): once more now that all are here.
		if _, err := dst.ExecContext(wctx, `UPDATE persons SET search_text = NULL
			WHERE id IN (SELECT person_id FROM contact_details WHERE kind = 'email')`); err != nil {
			return fmt.Errorf("store: copy: refresh search text: %w", err)
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	for i, table := range copyTables {
		if counts[i].Target, err = countRows(ctx, to.r.DB, table); err != nil {
			return nil, err
		}
	}
	return counts, nil
}

// checkCopyTables refuses a source with a table that Copy does not know.
func checkCopyTables(ctx context.Context, src *txn, eng copyEngine) error {
	names, err := eng.tableNames(ctx, src)
	if err != nil {
		return fmt.Errorf("store: copy: list tables: %w", err)
	}
	for _, name := range names {
		if !slices.Contains(copyTables, name) && !slices.Contains(copySkipped, name) {
			return fmt.Errorf("store: copy: the source has a table, %s, that copyTables lacks", name)
		}
	}
	return nil
}

// copyTable copies the rows of table, in id order, then moves the
// target's id counter past the source's.
func copyTable(ctx, wctx context.Context, src *txn, srcEng copyEngine, dst *txn, dstEng copyEngine, table string) error {
	cols, err := dstEng.columns(wctx, dst, table)
	if err != nil {
		return err
	}
	srcCols, err := srcEng.columns(ctx, src, table)
	if err != nil {
		return err
	}
	if !sameColumns(cols, srcCols) {
		return fmt.Errorf("the source's columns (%s) are not the target's (%s)", columnNames(srcCols), columnNames(cols))
	}
	names := make([]string, len(cols))
	for i, c := range cols {
		names[i] = quoteName(c.name)
	}
	list := strings.Join(names, ", ")
	// Raw statements, not the kept ones: their text is made here, per table.
	rows, err := src.Tx.QueryContext(ctx, `SELECT `+list+` FROM `+quoteName(table)+` ORDER BY id`)
	if err != nil {
		return err
	}
	defer rows.Close()
	insert := `INSERT INTO ` + quoteName(table) + ` (` + list + `) VALUES (?` + strings.Repeat(", ?", len(cols)-1) + `)`
	stmt, err := dst.Tx.PrepareContext(wctx, dst.pool.sql(insert))
	if err != nil {
		return err
	}
	defer stmt.Close()
	vals := make([]any, len(cols))
	ptrs := make([]any, len(cols))
	for i := range vals {
		ptrs[i] = &vals[i]
	}
	for rows.Next() {
		if err := rows.Scan(ptrs...); err != nil {
			return err
		}
		for i, c := range cols {
			vals[i] = convert(vals[i], c.typ)
		}
		if _, err := stmt.ExecContext(wctx, vals...); err != nil {
			return err
		}
	}
	if err := rows.Err(); err != nil {
		return err
	}
	given, err := srcEng.idCounter(ctx, src, table)
	if err != nil {
		return fmt.Errorf("read the id counter: %w", err)
	}
	var highest int64
	if err := dst.Tx.QueryRowContext(wctx, `SELECT coalesce(max(id), 0) FROM `+quoteName(table)).Scan(&highest); err != nil {
		return err
	}
	if err := dstEng.setIDCounter(wctx, dst, table, max(given, highest)); err != nil {
		return fmt.Errorf("set the id counter: %w", err)
	}
	return nil
}

// convert makes v, read from one engine, what a column of type typ (as
// the target's catalog names it, lower case) takes on the other: SQLite
// has no boolean, and keeps PostgreSQL's as 0 or 1. Blobs are []byte on
// both; a string read for a blob column is made bytes too.
func convert(v any, typ string) any {
	switch x := v.(type) {
	case int64:
		if typ == "boolean" {
			return x != 0
		}
	case bool:
		if typ != "boolean" {
			if x {
				return int64(1)
			}
			return int64(0)
		}
	case string:
		if typ == "bytea" || typ == "blob" {
			return []byte(x)
		}
	}
	return v
}

// countRows counts the rows of table.
func countRows(ctx context.Context, q queryer, table string) (int64, error) {
	var n int64
	if err := q.QueryRowContext(ctx, `SELECT count(*) FROM `+quoteName(table)).Scan(&n); err != nil {
		return 0, fmt.Errorf("store: count %s: %w", table, err)
	}
	return n, nil
}

// quoteName quotes an identifier the way both engines read it, so that a
// column named like a keyword (position, year) is a name.
func quoteName(name string) string { return `"` + strings.ReplaceAll(name, `"`, `""`) + `"` }

// column is a column as an engine's catalog describes it.
type column struct{ name, typ string }

func sameColumns(a, b []column) bool {
	x, y := columnNames(a), columnNames(b)
	return x == y
}

// columnNames lists the names in order of name: the engines may order a
// table's columns differently (an ALTER TABLE ADD puts one last).
func columnNames(cols []column) string {
	names := make([]string, len(cols))
	for i, c := range cols {
		names[i] = c.name
	}
	slices.Sort(names)
	return strings.Join(names, ", ")
}

// copyEngine is what Copy asks of an engine's catalog and id counters.
type copyEngine interface {
	// tableNames lists the tables of Kith's schema, not the engine's own.
	tableNames(ctx context.Context, tx *txn) ([]string, error)
	// columns lists the table's columns, their types in lower case.
	columns(ctx context.Context, tx *txn, table string) ([]column, error)
	// idCounter is the highest id the table ever gave, 0 for none.
	idCounter(ctx context.Context, tx *txn, table string) (int64, error)
	// setIDCounter makes the table's next id come after n.
	setIDCounter(ctx context.Context, tx *txn, table string, n int64) error
}

func queryStrings(ctx context.Context, tx *txn, query string) ([]string, error) {
	rows, err := tx.QueryContext(ctx, query)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var out []string
	for rows.Next() {
		var s string
		if err := rows.Scan(&s); err != nil {
			return nil, err
		}
		out = append(out, s)
	}
	return out, rows.Err()
}

func queryColumns(ctx context.Context, tx *txn, query, table string) ([]column, error) {
	rows, err := tx.QueryContext(ctx, query, table)
	if err != nil {
		return nil, fmt.Errorf("read the columns: %w", err)
	}
	defer rows.Close()
	var cols []column
	for rows.Next() {
		var c column
		if err := rows.Scan(&c.name, &c.typ); err != nil {
			return nil, fmt.Errorf("read the columns: %w", err)
		}
		cols = append(cols, c)
	}
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("read the columns: %w", err)
	}
	if len(cols) == 0 {
		return nil, errors.New("the table has no columns")
	}
	return cols, nil
}
