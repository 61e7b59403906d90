package store

import (
	"context"
	"database/sql"
)

// rowsQueryer is what a pool and a transaction have in common for rows.
type rowsQueryer interface {
	QueryContext(ctx context.Context, query string, args ...any) (*sql.Rows, error)
}

// eachRow runs query on q and calls fn on each row.
func eachRow(ctx context.Context, q rowsQueryer, query string, args []any, fn func(scanner) error) error {
	rows, err := q.QueryContext(ctx, query, args...)
	if err != nil {
		return err
	}
	defer rows.Close()
	for rows.Next() {
		if err := fn(rows); err != nil {
			return err
		}
	}
	return rows.Err()
}

// rowInto scans a row of one of a person's tables and gives it to its
// person among at (a batch of persons, or of cards, by id).
func rowInto[P, T any](at map[int64]*P, scan func(scanner, *T) error, personOf func(*T) int64, add func(*P, T)) func(scanner) error {
	return func(sc scanner) error {
		var v T
		if err := scan(sc, &v); err != nil {
			return err
		}
		if p, ok := at[personOf(&v)]; ok {
			add(p, v)
		}
		return nil
	}
}
