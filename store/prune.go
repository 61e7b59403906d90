package store

import (
	"context"
	"fmt"
)

// Prune deletes every person of the account, those that cannot be deleted
// one by one too, and by cascade everything that is theirs: tasks, notes,
// gifts, life events (and so their reminders), work history and contact
// details; a person's age is a part of its row. What belongs to the
// account rather than to a person stays: users, keys, genders, task
// categories, journals, logs.
// One statement in one transaction with its log entry, so a prune is all
// or nothing.
func (s *Store) Prune(ctx context.Context, accountID int64) error {
	return s.withTx(ctx, func(ctx context.Context, tx *txn) error {
		if err := s.lockPersons(ctx, tx, `account_id = ?`, accountID); err != nil {
			return err
		}
		if _, err := tx.ExecContext(ctx, `DELETE FROM persons WHERE account_id = ?`, accountID); err != nil {
			return fmt.Errorf("store: prune: %w", err)
		}
		return s.logAction(ctx, tx, "account_pruning", "Deleted all persons and related data from your account")
	})
}
