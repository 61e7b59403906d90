package store

import (
	"context"
	"database/sql"
	"fmt"
	"strings"
)

// TaskFilter narrows the account's tasks (AccountTasks). A nil field
// keeps every task.
type TaskFilter struct {
	Completed *bool
	// HasDue keeps the tasks with a due date (true) or without (false).
	HasDue *bool
	// DueFrom keeps the tasks due on that day or later, DueBefore those
	// due before that day: a task whose due_at is a midnight UTC was given
	// a date alone and is due on that date, any other on its date in the
	// user's time zone (remind.DayOf's rule).
	DueFrom, DueBefore *DayStart
}

// DayStart is when a day starts: its midnight UTC, which a task given that
// date alone is due at, and its midnight in the user's time zone.
type DayStart struct {
	UTC, Zone int64
}

// accountTaskQuery is taskQuery from the tasks' side: the account's tasks
// are found by their own account_id, and their persons joined.
const accountTaskQuery = `SELECT p.id, ` + personName + `,
	t.id, t.name, t.is_completed, t.due_at, t.completed_at, t.created_at, t.updated_at,
	c.id, c.name, c.color
	FROM tasks t
	JOIN persons p ON p.id = t.person_id
	LEFT JOIN task_categories c ON c.id = t.task_category_id`

// AccountTasks returns one page of the account's tasks across its persons,
// soonest due first (those without a due date last), then by id, and how
// many match.
func (s *Store) AccountTasks(ctx context.Context, accountID int64, f TaskFilter, limit, offset int64) ([]Task, int64, error) {
	conds, args := []string{"t.account_id = ?"}, []any{accountID}
	if f.Completed != nil {
		conds, args = append(conds, "t.is_completed = ?"), append(args, *f.Completed)
	}
	if f.HasDue != nil && *f.HasDue {
		conds = append(conds, "t.due_at IS NOT NULL")
	}
	if f.HasDue != nil && !*f.HasDue {
		conds = append(conds, "t.due_at IS NULL")
	}
	// Each bound is also given plainly (the looser of its two), so that
	// the index on (account_id, due_at) serves a range.
	order := "t.due_at IS NULL, t.due_at, t.id"
	if d := f.DueFrom; d != nil {
		conds = append(conds, "t.due_at >= ?", "(t.due_at % 86400 = 0 AND t.due_at >= ? OR t.due_at % 86400 <> 0 AND t.due_at >= ?)")
		args = append(args, min(d.UTC, d.Zone), d.UTC, d.Zone)
		order = "t.due_at, t.id"
	}
	if d := f.DueBefore; d != nil {
		conds = append(conds, "t.due_at < ?", "(t.due_at % 86400 = 0 AND t.due_at < ? OR t.due_at % 86400 <> 0 AND t.due_at < ?)")
		args = append(args, max(d.UTC, d.Zone), d.UTC, d.Zone)
		order = "t.due_at, t.id"
	}
	where := " WHERE " + strings.Join(conds, " AND ")
	tx, err := s.r.BeginTx(ctx, &sql.TxOptions{ReadOnly: true}) // one snapshot for the page and its total
	if err != nil {
		return nil, 0, fmt.Errorf("store: list tasks: %w", err)
	}
	defer tx.end(ctx, false)
	total, err := countTasks(ctx, tx, accountID, f, where, args)
	if err != nil {
		return nil, 0, fmt.Errorf("store: count tasks: %w", err)
	}
	tasks := []Task{}
	var r taskRow
	dest := r.dest()
	err = eachRow(ctx, tx, accountTaskQuery+where+` ORDER BY `+order+` LIMIT ? OFFSET ?`,
		append(args, limit, offset), func(sc scanner) error {
			if err := sc.Scan(dest...); err != nil {
				return err
			}
			if t, ok := r.task(); ok {
				tasks = append(tasks, t)
			}
			return nil
		})
	if err != nil {
		return nil, 0, fmt.Errorf("store: list tasks: %w", err)
	}
	return tasks, total, nil
}

// countTasks is how many of the account's tasks f keeps. Without a date
// range it adds up the kept cells of task_counts (migration 0041), which
// costs the same at any number of tasks; a range is counted in the index
// on (account_id, due_at), as many steps as the tasks it keeps.
func countTasks(ctx context.Context, tx *txn, accountID int64, f TaskFilter, where string, args []any) (int64, error) {
	var total int64
	if f.DueFrom != nil || f.DueBefore != nil {
		err := tx.QueryRowContext(ctx, `SELECT count(*) FROM tasks t`+where, args...).Scan(&total)
		return total, err
	}
	query, cargs := `SELECT coalesce(sum(tasks), 0) FROM task_counts WHERE account_id = ?`, []any{accountID}
	if f.Completed != nil {
		query, cargs = query+` AND is_completed = ?`, append(cargs, *f.Completed)
	}
	if f.HasDue != nil {
		query, cargs = query+` AND dated = ?`, append(cargs, *f.HasDue)
	}
	err := tx.QueryRowContext(ctx, query, cargs...).Scan(&total)
	return total, err
}
