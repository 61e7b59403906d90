package store

import (
	"context"
	"database/sql"
	"fmt"
)

// defaultCategories are the task categories every new account starts with,
// as the reference system seeds them.
var defaultCategories = []struct{ name, color string }{
	{"Birthday", "bg-purple-100"},
	{"Call", "bg-blue-100"},
	{"Email", "bg-green-100"},
	{"Follow up", "bg-yellow-100"},
	{"Lunch", "bg-orange-100"},
	{"Thank you", "bg-red-100"},
}

// insertDefaultCategories gives a new account its categories, updated_at
// left NULL until a user changes them.
func insertDefaultCategories(ctx context.Context, tx *sql.Tx, accountID, now int64) error {
	for _, c := range defaultCategories {
		_, err := tx.ExecContext(ctx, `INSERT INTO task_categories (account_id, name, color, created_at) VALUES (?, ?, ?, ?)`,
			accountID, c.name, c.color, now)
		if err != nil {
			return fmt.Errorf("store: create default categories: %w", err)
		}
	}
	return nil
}
