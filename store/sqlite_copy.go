package store

import (
	"context"
)

// What kith copy asks of SQLite (copyEngine).

func (sqliteEngine) tableNames(ctx context.Context, tx *txn) ([]string, error) {
	return queryStrings(ctx, tx, `SELECT name FROM sqlite_schema
		WHERE type = 'table' AND name NOT LIKE 'sqlite\_%' ESCAPE '\' ORDER BY name`)
}

func (sqliteEngine) columns(ctx context.Context, tx *txn, table string) ([]column, error) {
	return queryColumns(ctx, tx, `SELECT name, lower(type) FROM pragma_table_info(?) ORDER BY cid`, table)
}

// idCounter reads what AUTOINCREMENT keeps: the highest id ever given,
// which a deleted row's id may have been.
func (sqliteEngine) idCounter(ctx context.Context, tx *txn, table string) (int64, error) {
	var n int64
	err := tx.QueryRowContext(ctx, `SELECT coalesce((SELECT seq FROM sqlite_sequence WHERE name = ?), 0)`, table).Scan(&n)
	return n, err
}

// setIDCounter: inserting ids has already raised sqlite_sequence to the
// highest of them; n may be higher still, or the table empty and without
// a row in sqlite_sequence.
func (sqliteEngine) setIDCounter(ctx context.Context, tx *txn, table string, n int64) error {
	if n == 0 {
		return nil
	}
	_, err := tx.ExecContext(ctx, `INSERT INTO sqlite_sequence (name, seq)
		SELECT ?, 0 WHERE NOT EXISTS (SELECT 1 FROM sqlite_sequence WHERE name = ?)`, table, table)
	if err == nil {
		_, err = tx.ExecContext(ctx, `UPDATE sqlite_sequence SET seq = ? WHERE name = ? AND seq < ?`, n, table, n)
	}
	return err
}
