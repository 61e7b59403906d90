package store

import (
	"context"
	"database/sql"
)

// What kith copy asks of PostgreSQL (copyEngine).

func (postgresEngine) tableNames(ctx context.Context, tx *txn) ([]string, error) {
	return queryStrings(ctx, tx, `SELECT table_name FROM information_schema.tables
		WHERE table_schema = current_schema() AND table_type = 'BASE TABLE' ORDER BY table_name`)
}

func (postgresEngine) columns(ctx context.Context, tx *txn, table string) ([]column, error) {
	return queryColumns(ctx, tx, `SELECT column_name, data_type FROM information_schema.columns
		WHERE table_schema = current_schema() AND table_name = ? ORDER BY ordinal_position`, table)
}

// idCounter reads the last value of the id's identity sequence, NULL
// until it gave one.
func (postgresEngine) idCounter(ctx context.Context, tx *txn, table string) (int64, error) {
	var n sql.NullInt64
	err := tx.QueryRowContext(ctx, `SELECT s.last_value FROM pg_sequences s
		WHERE format('%I.%I', s.schemaname, s.sequencename) = pg_get_serial_sequence(?, 'id')`, table).Scan(&n)
	return n.Int64, err
}

// setIDCounter: inserting ids leaves the identity sequence where it was,
// and its next value would collide with a copied row.
func (postgresEngine) setIDCounter(ctx context.Context, tx *txn, table string, n int64) error {
	if n == 0 {
		return nil // a new sequence starts at 1
	}
	_, err := tx.ExecContext(ctx, `SELECT setval(pg_get_serial_sequence(?, 'id'), ?)`, table, n)
	return err
}
