package store

import (
	"context"
	"database/sql"
	"errors"
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
func insertDefaultCategories(ctx context.Context, tx *txn, accountID, now int64) error {
	for _, c := range defaultCategories {
		_, err := tx.ExecContext(ctx, `INSERT INTO task_categories (account_id, name, color, created_at) VALUES (?, ?, ?, ?)`,
			accountID, c.name, c.color, now)
		if err != nil {
			return fmt.Errorf("store: create default categories: %w", err)
		}
	}
	return nil
}

// ErrCategoryNotFound reports a category that is not the account's.
var ErrCategoryNotFound = &NotFoundError{What: "task category"}

// TaskCategory groups tasks of an account under a name and a colour.
type TaskCategory struct {
	ID        int64
	AccountID int64
	Name      string
	Color     string
	CreatedAt int64
	UpdatedAt *int64 // nil for a default category never updated
}

const categoryColumns = `id, account_id, name, color, created_at, updated_at`

func scanCategory(sc scanner, c *TaskCategory) error {
	return sc.Scan(&c.ID, &c.AccountID, &c.Name, &c.Color, &c.CreatedAt, &c.UpdatedAt)
}

// TaskCategories lists the account's categories by id.
func (s *Store) TaskCategories(ctx context.Context, accountID int64) ([]TaskCategory, error) {
	rows, err := s.r.QueryContext(ctx, `SELECT `+categoryColumns+` FROM task_categories WHERE account_id = ? ORDER BY id`, accountID)
	if err != nil {
		return nil, fmt.Errorf("store: list categories: %w", err)
	}
	defer rows.Close()
	cats := []TaskCategory{}
	for rows.Next() {
		var c TaskCategory
		if err := scanCategory(rows, &c); err != nil {
			return nil, fmt.Errorf("store: scan category: %w", err)
		}
		cats = append(cats, c)
	}
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("store: list categories: %w", err)
	}
	return cats, nil
}

// TaskCategory returns one of the account's categories.
func (s *Store) TaskCategory(ctx context.Context, accountID, id int64) (TaskCategory, error) {
	var c TaskCategory
	err := scanCategory(s.r.QueryRowContext(ctx, `SELECT `+categoryColumns+` FROM task_categories WHERE id = ? AND account_id = ?`, id, accountID), &c)
	if errors.Is(err, sql.ErrNoRows) {
		return TaskCategory{}, ErrCategoryNotFound
	}
	if err != nil {
		return TaskCategory{}, fmt.Errorf("store: get category: %w", err)
	}
	return c, nil
}

// CreateTaskCategory adds a category to the account.
func (s *Store) CreateTaskCategory(ctx context.Context, accountID int64, name, color string) (TaskCategory, error) {
	var c TaskCategory
	err := s.withTx(ctx, func(ctx context.Context, tx *txn) error {
		now := s.now()
		err := scanCategory(tx.QueryRowContext(ctx, `INSERT INTO task_categories (account_id, name, color, created_at, updated_at)
			VALUES (?, ?, ?, ?, ?) RETURNING `+categoryColumns, accountID, name, color, now, now), &c)
		if isForeignKeyViolation(err) {
			return ErrAccountNotFound
		}
		if err != nil {
			return fmt.Errorf("store: create category: %w", err)
		}
		return s.logAction(ctx, tx, "task_category_creation", "Created the task category called "+c.Name)
	})
	return c, err
}

// UpdateTaskCategory renames and recolours one of the account's categories.
func (s *Store) UpdateTaskCategory(ctx context.Context, accountID, id int64, name, color string) (TaskCategory, error) {
	var c TaskCategory
	err := s.withTx(ctx, func(ctx context.Context, tx *txn) error {
		err := scanCategory(tx.QueryRowContext(ctx, `UPDATE task_categories SET name = ?, color = ?, updated_at = ?
			WHERE id = ? AND account_id = ? RETURNING `+categoryColumns, name, color, s.now(), id, accountID), &c)
		if errors.Is(err, sql.ErrNoRows) {
			return ErrCategoryNotFound
		}
		if err != nil {
			return fmt.Errorf("store: update category: %w", err)
		}
		return s.logAction(ctx, tx, "task_category_update", "Updated the task category called "+c.Name)
	})
	return c, err
}

// DeleteTaskCategory deletes one of the account's categories; its tasks
// stay, without a category (ON DELETE SET NULL).
func (s *Store) DeleteTaskCategory(ctx context.Context, accountID, id int64) error {
	return s.withTx(ctx, func(ctx context.Context, tx *txn) error {
		var name string
		err := tx.QueryRowContext(ctx, `DELETE FROM task_categories WHERE id = ? AND account_id = ? RETURNING name`, id, accountID).Scan(&name)
		if errors.Is(err, sql.ErrNoRows) {
			return ErrCategoryNotFound
		}
		if err != nil {
			return fmt.Errorf("store: delete category: %w", err)
		}
		return s.logAction(ctx, tx, "task_category_deletion", "Deleted the task category called "+name)
	})
}
