package store

import (
	"context"
	"fmt"
)

// lockCards takes the lock on the account's address-book counter before a
// write that reaches persons through another table first (a gender's
// deletion sets theirs to null). The triggers of migration 0020 take it on
// every change to a card; on PostgreSQL, a transaction that locked the
// other table first could deadlock with one that creates a person. SQLite
// has one writer, and there it costs one indexed write.
func lockCards(ctx context.Context, tx *txn, accountID int64) error {
	if _, err := tx.ExecContext(ctx, `UPDATE accounts SET card_seq = card_seq WHERE id = ?`, accountID); err != nil {
		return fmt.Errorf("store: lock cards: %w", err)
	}
	return nil
}
