package store

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
)

// Errors of tasks.
var (
	ErrTaskNotFound = &NotFoundError{What: "task"}
	// ErrUnknownCategory is returned for a task_category_id that is not a
	// category of the account: a client's mistake, not a missing route.
	ErrUnknownCategory = errors.New("store: unknown task category")
)

// Task is something to do about a person.
type Task struct {
	ID          int64
	PersonID    int64
	PersonName  string
	Name        string
	IsCompleted bool
	DueAt       *int64
	CompletedAt *int64
	Category    *CategoryRef
	CreatedAt   int64
	UpdatedAt   int64
}

// CategoryRef is the part of a category that a task shows.
type CategoryRef struct {
	ID          int64
	Name, Color string
}

// TaskInput is what creating or updating a task takes. IsCompleted nil
// leaves completion as it is.
type TaskInput struct {
	Name        string
	DueAt       *int64
	CategoryID  *int64
	IsCompleted *bool
}

// taskQuery selects tasks with their person and category in one query.
// It starts from the person, so that listing the tasks of a person who has
// none still yields one row (with NULL task columns) and tells "no tasks"
// from "no such person".
const taskQuery = `SELECT p.id, ` + personName + `,
	t.id, t.name, t.is_completed, t.due_at, t.completed_at, t.created_at, t.updated_at,
	c.id, c.name, c.color
	FROM persons p
	LEFT JOIN tasks t ON t.person_id = p.id
	LEFT JOIN task_categories c ON c.id = t.task_category_id`

// personName is FullName in SQL, of the person aliased p.
const personName = `p.first_name || CASE WHEN coalesce(p.last_name, '') = '' THEN '' ELSE ' ' || p.last_name END`

// taskRow is a row of taskQuery, in types that scan without an allocation
// per column. Scanning into pointers instead cost 12% of a 50-task list.
type taskRow struct {
	personID                    int64
	personName                  string
	id, created, updated, catID sql.NullInt64
	due, completedAt            sql.NullInt64
	name, catName, catColor     sql.NullString
	completed                   sql.NullBool
}

func (r *taskRow) scan(sc scanner) error { return sc.Scan(r.dest()...) }

// dest is where Scan writes the row's columns. A list makes it once: a
// fresh []any per row, with the row it points into, was two allocations a
// row that escaped to the heap.
func (r *taskRow) dest() []any {
	return []any{&r.personID, &r.personName, &r.id, &r.name, &r.completed, &r.due, &r.completedAt,
		&r.created, &r.updated, &r.catID, &r.catName, &r.catColor}
}

// task is the row's task; ok is false for a person without tasks.
func (r *taskRow) task() (t Task, ok bool) {
	if !r.id.Valid {
		return Task{}, false
	}
	t = Task{ID: r.id.Int64, PersonID: r.personID, PersonName: r.personName, Name: r.name.String,
		IsCompleted: r.completed.Bool, CreatedAt: r.created.Int64, UpdatedAt: r.updated.Int64}
	// Copies: a list scans every row into the same taskRow.
	if r.due.Valid {
		due := r.due.Int64
		t.DueAt = &due
	}
	if r.completedAt.Valid {
		at := r.completedAt.Int64
		t.CompletedAt = &at
	}
	if r.catID.Valid {
		t.Category = &CategoryRef{ID: r.catID.Int64, Name: r.catName.String, Color: r.catColor.String}
	}
	return t, true
}

// Tasks lists the person's tasks, newest first.
func (s *Store) Tasks(ctx context.Context, accountID, personID int64) ([]Task, error) {
	rows, err := s.r.QueryContext(ctx, taskQuery+`
		WHERE p.id = ? AND p.account_id = ?
		ORDER BY t.created_at DESC, t.id DESC`, personID, accountID)
	if err != nil {
		return nil, fmt.Errorf("store: list tasks: %w", err)
	}
	defer rows.Close()
	tasks := []Task{}
	found := false
	var r taskRow
	dest := r.dest()
	for rows.Next() {
		if err := rows.Scan(dest...); err != nil {
			return nil, fmt.Errorf("store: scan task: %w", err)
		}
		found = true
		if t, ok := r.task(); ok {
			tasks = append(tasks, t)
		}
	}
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("store: list tasks: %w", err)
	}
	if !found {
		return nil, ErrPersonNotFound
	}
	return tasks, nil
}

// Task returns one task of the person. When there is none it says whether
// the person or the task is missing.
func (s *Store) Task(ctx context.Context, accountID, personID, id int64) (Task, error) {
	return getTask(ctx, s.r, accountID, personID, id)
}

func getTask(ctx context.Context, q queryer, accountID, personID, id int64) (Task, error) {
	var r taskRow
	err := r.scan(q.QueryRowContext(ctx, taskQuery+`
		WHERE t.id = ? AND t.person_id = ? AND t.account_id = ?`, id, personID, accountID))
	if t, ok := r.task(); err == nil && ok {
		return t, nil
	}
	if err != nil && !errors.Is(err, sql.ErrNoRows) {
		return Task{}, fmt.Errorf("store: get task: %w", err)
	}
	return Task{}, missingTask(ctx, q, accountID, personID)
}

// missingTask tells, once a task of the person was not found, whether the
// person or only the task is missing.
func missingTask(ctx context.Context, q queryer, accountID, personID int64) error {
	if err := checkPerson(ctx, q, accountID, personID); err != nil {
		return err
	}
	return ErrTaskNotFound
}

// checkPerson returns ErrPersonNotFound unless the person is the account's.
func checkPerson(ctx context.Context, q queryer, accountID, personID int64) error {
	var one int
	err := q.QueryRowContext(ctx, `SELECT 1 FROM persons WHERE id = ? AND account_id = ?`, personID, accountID).Scan(&one)
	if errors.Is(err, sql.ErrNoRows) {
		return ErrPersonNotFound
	}
	if err != nil {
		return fmt.Errorf("store: check person: %w", err)
	}
	return nil
}

// checkCategory returns ErrUnknownCategory unless id is nil or a category
// of the account. The writer's transaction holds the lock, so the category
// cannot vanish between this check and the write.
func checkCategory(ctx context.Context, tx *txn, accountID int64, id *int64) error {
	if id == nil {
		return nil
	}
	var one int
	err := tx.QueryRowContext(ctx, `SELECT 1 FROM task_categories WHERE id = ? AND account_id = ?`, *id, accountID).Scan(&one)
	if errors.Is(err, sql.ErrNoRows) {
		return ErrUnknownCategory
	}
	if err != nil {
		return fmt.Errorf("store: check category: %w", err)
	}
	return nil
}

// CreateTask adds a task, not completed, to the person. One INSERT finds
// the person and the category in the account and writes the task, so that
// neither can vanish between a check and the write; when it writes nothing,
// a second look names what was missing.
func (s *Store) CreateTask(ctx context.Context, accountID, personID int64, in TaskInput) (Task, error) {
	var t Task
	err := s.withTx(ctx, func(ctx context.Context, tx *txn) error {
		now := s.now()
		var id int64
		err := tx.QueryRowContext(ctx, `INSERT INTO tasks (account_id, person_id, task_category_id, name, due_at, created_at, updated_at)
			SELECT p.account_id, p.id, c.id, CAST(? AS TEXT), CAST(? AS BIGINT), CAST(? AS BIGINT), CAST(? AS BIGINT)
			FROM persons p LEFT JOIN task_categories c ON c.id = ? AND c.account_id = p.account_id
			WHERE p.id = ? AND p.account_id = ? AND (c.id IS NOT NULL OR CAST(? AS BIGINT) IS NULL)
			RETURNING id`,
			in.Name, in.DueAt, now, now, in.CategoryID, personID, accountID, in.CategoryID).Scan(&id)
		if errors.Is(err, sql.ErrNoRows) {
			if err := checkPerson(ctx, tx, accountID, personID); err != nil {
				return err
			}
			return ErrUnknownCategory
		}
		if err != nil {
			return fmt.Errorf("store: create task: %w", err)
		}
		t, err = getTask(ctx, tx, accountID, personID, id)
		if err != nil {
			return err
		}
		return s.logAction(ctx, tx, "task_creation", "Created the task called "+t.Name)
	})
	return t, err
}

// UpdateTask replaces the task's name, due date and category, and sets its
// completion when in.IsCompleted is given. completed_at becomes now when
// the task becomes completed and NULL when it stops being so.
func (s *Store) UpdateTask(ctx context.Context, accountID, personID, id int64, in TaskInput) (Task, error) {
	var t Task
	err := s.withTx(ctx, func(ctx context.Context, tx *txn) error {
		now := s.now()
		// The category comes first: the foreign key would refuse the UPDATE
		// itself. A missing task is still reported before a bad category.
		if err := checkCategory(ctx, tx, accountID, in.CategoryID); err != nil {
			if errors.Is(err, ErrUnknownCategory) {
				if _, terr := getTask(ctx, tx, accountID, personID, id); terr != nil {
					return terr
				}
			}
			return err
		}
		done := in.IsCompleted
		res, err := tx.ExecContext(ctx, `UPDATE tasks SET name = ?, due_at = ?, task_category_id = ?,
				completed_at = CASE
					WHEN CAST(? AS BOOLEAN) IS NULL OR CAST(? AS BOOLEAN) = is_completed THEN completed_at
					WHEN CAST(? AS BOOLEAN) THEN CAST(? AS BIGINT)
					ELSE NULL END,
				is_completed = coalesce(CAST(? AS BOOLEAN), is_completed),
				updated_at = ?
			WHERE id = ? AND person_id = ? AND account_id = ?`,
			in.Name, in.DueAt, in.CategoryID, done, done, done, now, done, now, id, personID, accountID)
		if isForeignKeyViolation(err) {
			// The category went after it was checked (possible where
			// writers run side by side).
			return ErrUnknownCategory
		}
		if err != nil {
			return fmt.Errorf("store: update task: %w", err)
		}
		if err := mustAffect(res, ErrTaskNotFound); err != nil {
			return taskNotAffected(ctx, tx, err, accountID, personID)
		}
		t, err = getTask(ctx, tx, accountID, personID, id)
		if err != nil {
			return err
		}
		return s.logAction(ctx, tx, "task_update", "Updated the task called "+t.Name)
	})
	return t, err
}

// taskNotAffected names what is missing when a write changed no task;
// any other error from counting the rows passes through.
func taskNotAffected(ctx context.Context, q queryer, err error, accountID, personID int64) error {
	if errors.Is(err, ErrTaskNotFound) {
		return missingTask(ctx, q, accountID, personID)
	}
	return err
}

// ToggleTask flips the completion of any task of the account.
func (s *Store) ToggleTask(ctx context.Context, accountID, id int64) (Task, error) {
	var t Task
	err := s.withTx(ctx, func(ctx context.Context, tx *txn) error {
		now := s.now()
		var personID int64
		err := tx.QueryRowContext(ctx, `UPDATE tasks SET is_completed = NOT is_completed,
				completed_at = CASE WHEN is_completed THEN NULL ELSE CAST(? AS BIGINT) END, updated_at = ?
			WHERE id = ? AND account_id = ? RETURNING person_id`, now, now, id, accountID).Scan(&personID)
		if errors.Is(err, sql.ErrNoRows) {
			return ErrTaskNotFound
		}
		if err != nil {
			return fmt.Errorf("store: toggle task: %w", err)
		}
		t, err = getTask(ctx, tx, accountID, personID, id)
		if err != nil {
			return err
		}
		return s.logAction(ctx, tx, "task_toggle", "Toggled a task called "+t.Name)
	})
	return t, err
}

// DeleteTask deletes one task of the person.
func (s *Store) DeleteTask(ctx context.Context, accountID, personID, id int64) error {
	return s.withTx(ctx, func(ctx context.Context, tx *txn) error {
		var name string
		err := tx.QueryRowContext(ctx, `DELETE FROM tasks WHERE id = ? AND person_id = ? AND account_id = ? RETURNING name`,
			id, personID, accountID).Scan(&name)
		if errors.Is(err, sql.ErrNoRows) {
			return missingTask(ctx, tx, accountID, personID)
		}
		if err != nil {
			return fmt.Errorf("store: delete task: %w", err)
		}
		return s.logAction(ctx, tx, "task_deletion", "Deleted a task called "+name)
	})
}
