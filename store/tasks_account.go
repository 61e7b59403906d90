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

// AccountTasks returns one page of the account's tasks across its persons,
// soonest due first (those without a due date last), then by id, and how
// many match.
func (s *Store) AccountTasks(ctx context.Context, accountID int64, f TaskFilter, limit, offset int64) ([]Task, int64, error) {
	conds, args := []string{"p.account_id = ?", "t.id IS NOT NULL"}, []any{accountID}
	if f.Completed != nil {
		conds, args = append(conds, "t.is_completed = ?"), append(args, *f.Completed)
	}
	if f.HasDue != nil && *f.HasDue {
		conds = append(conds, "t.due_at IS NOT NULL")
	}
	if f.HasDue != nil && !*f.HasDue {
		conds = append(conds, "t.due_at IS NULL")
	}
	if d := f.DueFrom; d != nil {
		conds = append(conds, "(t.due_at % 86400 = 0 AND t.due_at >= ? OR t.due_at % 86400 <> 0 AND t.due_at >= ?)")
		args = append(args, d.UTC, d.Zone)
	}
	if d := f.DueBefore; d != nil {
		conds = append(conds, "(t.due_at % 86400 = 0 AND t.due_at < ? OR t.due_at % 86400 <> 0 AND t.due_at < ?)")
		args = append(args, d.UTC, d.Zone)
	}
	where := " WHERE " + strings.Join(conds, " AND ")
	tx, err := s.r.BeginTx(ctx, &sql.TxOptions{ReadOnly: true}) // one snapshot for the page and its total
	if err != nil {
		return nil, 0, fmt.Errorf("store: list tasks: %w", err)
	}
	defer tx.end(ctx, false)
	var total int64
	err = tx.QueryRowContext(ctx, `SELECT count(*) FROM persons p JOIN tasks t ON t.person_id = p.id`+where, args...).Scan(&total)
	if err != nil {
		return nil, 0, fmt.Errorf("store: count tasks: %w", err)
	}
	tasks := []Task{}
	err = eachRow(ctx, tx, nil, taskQuery+where+` ORDER BY t.due_at IS NULL, t.due_at, t.id LIMIT ? OFFSET ?`,
		append(args, limit, offset), func(sc scanner) error {
			var r taskRow
			if err := r.scan(sc); err != nil {
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
