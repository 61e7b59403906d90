package store

import (
	"context"
	"errors"
	"fmt"
	"strings"
)

// withForeignKeysOff runs fn, a migration, with the foreign keys of the
// writer's one connection off, and turns them on again after it, whatever
// happened. A migration that rebuilds a table (SQLite cannot ALTER one into
// another shape) drops the old one, and with foreign keys on, DROP TABLE
// first deletes every row, which ON DELETE CASCADE carries to the rows
// that refer to them: the rebuild would empty the children. The pragma is
// a no-op inside a transaction, so it is set here, between transactions;
// the migration checks it took (foreignKeysAreOff) and that it left no
// broken reference (checkForeignKeys) before it commits. Migrate runs
// before the store takes writes: a write queued meanwhile would run with
// foreign keys off too.
func (s *Store) withForeignKeysOff(ctx context.Context, fn func() error) (err error) {
	if _, err := s.w.DB.ExecContext(ctx, `PRAGMA foreign_keys = OFF`); err != nil {
		return fmt.Errorf("store: foreign keys off: %w", err)
	}
	defer func() {
		ctx := context.WithoutCancel(ctx)
		var on int
		_, serr := s.w.DB.ExecContext(ctx, `PRAGMA foreign_keys = ON`)
		if serr == nil {
			serr = s.w.DB.QueryRowContext(ctx, `PRAGMA foreign_keys`).Scan(&on)
		}
		if serr == nil && on != 1 {
			serr = errors.New("still off")
		}
		if serr != nil {
			err = errors.Join(err, fmt.Errorf("store: foreign keys on again: %w", serr))
		}
	}()
	return fn()
}

// foreignKeysAreOff fails unless the transaction's connection has its
// foreign keys off: the one connection may have been replaced since they
// were turned off, and the new one has them on from its DSN.
func foreignKeysAreOff(ctx context.Context, tx *txn) error {
	var on int
	if err := tx.Tx.QueryRowContext(ctx, `PRAGMA foreign_keys`).Scan(&on); err != nil {
		return fmt.Errorf("read foreign_keys: %w", err)
	}
	if on != 0 {
		return errors.New("foreign keys are on, and a rebuilt table would take its children with it")
	}
	return nil
}

// checkForeignKeys fails if a row refers to one that does not exist.
func checkForeignKeys(ctx context.Context, tx *txn) error {
	rows, err := tx.Tx.QueryContext(ctx, `PRAGMA foreign_key_check`)
	if err != nil {
		return fmt.Errorf("foreign key check: %w", err)
	}
	defer rows.Close()
	var bad []string
	for rows.Next() {
		var table, parent string
		var rowid, fk *int64
		if err := rows.Scan(&table, &rowid, &parent, &fk); err != nil {
			return fmt.Errorf("foreign key check: %w", err)
		}
		if len(bad) < 5 {
			id := "?"
			if rowid != nil {
				id = fmt.Sprint(*rowid)
			}
			bad = append(bad, fmt.Sprintf("%s %s → %s", table, id, parent))
		}
	}
	if err := rows.Err(); err != nil {
		return fmt.Errorf("foreign key check: %w", err)
	}
	if len(bad) > 0 {
		return fmt.Errorf("foreign key check: rows refer to missing rows: %s", strings.Join(bad, ", "))
	}
	return nil
}
