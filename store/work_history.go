package store

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
)

// ErrWorkEntryNotFound reports a work history entry that is not the
// person's.
var ErrWorkEntryNotFound = &NotFoundError{What: "work history entry"}

// WorkEntry is a job a person holds or has held.
type WorkEntry struct {
	ID       int64
	PersonID int64
	JobTitle string
	// CompanyName, EstimatedSalary and Duration are free text, nil when
	// unset.
	CompanyName, EstimatedSalary, Duration *string
	// Active is true for at most one entry of a person.
	Active    bool
	CreatedAt int64
	UpdatedAt int64
}

// WorkEntryInput is what creating or replacing a work history entry takes.
type WorkEntryInput struct {
	JobTitle                               string
	CompanyName, EstimatedSalary, Duration *string
	Active                                 bool
}

const workEntryColumns = `id, person_id, job_title, company_name, estimated_salary, duration, active, created_at, updated_at`

func scanWorkEntry(sc scanner, w *WorkEntry) error {
	return sc.Scan(&w.ID, &w.PersonID, &w.JobTitle, &w.CompanyName, &w.EstimatedSalary, &w.Duration,
		&w.Active, &w.CreatedAt, &w.UpdatedAt)
}

// WorkHistory returns one page of the person's work history by id, and
// how many entries the person has in all.
func (s *Store) WorkHistory(ctx context.Context, accountID, personID, limit, offset int64) ([]WorkEntry, int64, error) {
	tx, err := s.r.BeginTx(ctx, &sql.TxOptions{ReadOnly: true}) // one snapshot for the person, the page and its total
	if err != nil {
		return nil, 0, fmt.Errorf("store: list work history: %w", err)
	}
	defer tx.end(ctx, false)
	if err := checkPerson(ctx, tx, accountID, personID); err != nil {
		return nil, 0, err
	}
	var total int64
	if err := tx.QueryRowContext(ctx, `SELECT count(*) FROM work_history WHERE person_id = ? AND account_id = ?`,
		personID, accountID).Scan(&total); err != nil {
		return nil, 0, fmt.Errorf("store: count work history: %w", err)
	}
	rows, err := tx.QueryContext(ctx, `SELECT `+workEntryColumns+` FROM work_history
		WHERE person_id = ? AND account_id = ? ORDER BY id LIMIT ? OFFSET ?`, personID, accountID, limit, offset)
	if err != nil {
		return nil, 0, fmt.Errorf("store: list work history: %w", err)
	}
	defer rows.Close()
	entries := []WorkEntry{}
	for rows.Next() {
		var w WorkEntry
		if err := scanWorkEntry(rows, &w); err != nil {
			return nil, 0, fmt.Errorf("store: scan work history entry: %w", err)
		}
		entries = append(entries, w)
	}
	if err := rows.Err(); err != nil {
		return nil, 0, fmt.Errorf("store: list work history: %w", err)
	}
	return entries, total, nil
}

// WorkEntry returns one work history entry of the person. When there is
// none it says whether the person or the entry is missing.
func (s *Store) WorkEntry(ctx context.Context, accountID, personID, id int64) (WorkEntry, error) {
	var w WorkEntry
	err := scanWorkEntry(s.r.QueryRowContext(ctx, `SELECT `+workEntryColumns+` FROM work_history
		WHERE id = ? AND person_id = ? AND account_id = ?`, id, personID, accountID), &w)
	if errors.Is(err, sql.ErrNoRows) {
		return WorkEntry{}, missingWorkEntry(ctx, s.r, accountID, personID)
	}
	if err != nil {
		return WorkEntry{}, fmt.Errorf("store: get work history entry: %w", err)
	}
	return w, nil
}

// missingWorkEntry tells, once an entry of the person was not found,
// whether the person or only the entry is missing.
func missingWorkEntry(ctx context.Context, q queryer, accountID, personID int64) error {
	if err := checkPerson(ctx, q, accountID, personID); err != nil {
		return err
	}
	return ErrWorkEntryNotFound
}

// deactivateOthers makes every active entry of the person but keep
// inactive, before keep is saved as the active one. keep 0 is no entry.
// It first locks the person's row (a write that changes nothing), so that
// two saves of an active entry of one person take turns: on PostgreSQL,
// where both may run at once, the second would otherwise not see the
// first's entry to deactivate, and break the one-active index.
func deactivateOthers(ctx context.Context, tx *txn, accountID, personID, keep, now int64) error {
	_, err := tx.ExecContext(ctx, `UPDATE persons SET updated_at = updated_at WHERE id = ? AND account_id = ?`, personID, accountID)
	if err != nil {
		return fmt.Errorf("store: lock the person: %w", err)
	}
	_, err = tx.ExecContext(ctx, `UPDATE work_history SET active = FALSE, updated_at = ?
		WHERE person_id = ? AND account_id = ? AND id <> ? AND active`, now, personID, accountID, keep)
	if err != nil {
		return fmt.Errorf("store: deactivate work history: %w", err)
	}
	return nil
}

// CreateWorkEntry adds an entry to the person's work history. An active
// one makes every other entry of the person inactive, in the same
// transaction; when the person is missing, that changed nothing.
func (s *Store) CreateWorkEntry(ctx context.Context, accountID, personID int64, in WorkEntryInput) (WorkEntry, error) {
	var w WorkEntry
	err := s.withTx(ctx, func(ctx context.Context, tx *txn) error {
		now := s.now()
		if in.Active {
			if err := deactivateOthers(ctx, tx, accountID, personID, 0, now); err != nil {
				return err
			}
		}
		err := scanWorkEntry(tx.QueryRowContext(ctx, `INSERT INTO work_history (account_id, person_id, job_title,
				company_name, estimated_salary, duration, active, created_at, updated_at)
			SELECT p.account_id, p.id, CAST(? AS TEXT), CAST(? AS TEXT), CAST(? AS TEXT), CAST(? AS TEXT),
				CAST(? AS BOOLEAN), CAST(? AS BIGINT), CAST(? AS BIGINT)
			FROM persons p WHERE p.id = ? AND p.account_id = ?
			RETURNING `+workEntryColumns,
			in.JobTitle, in.CompanyName, in.EstimatedSalary, in.Duration, in.Active, now, now, personID, accountID), &w)
		if errors.Is(err, sql.ErrNoRows) {
			return ErrPersonNotFound
		}
		if err != nil {
			return fmt.Errorf("store: create work history entry: %w", err)
		}
		return s.logForPerson(ctx, tx, accountID, personID, "work_history_creation", "Created a work history entry for ")
	})
	return w, err
}

// UpdateWorkEntry replaces every field of the person's entry. Saving it
// active makes every other entry of the person inactive; a missing entry
// rolls that back with the rest.
func (s *Store) UpdateWorkEntry(ctx context.Context, accountID, personID, id int64, in WorkEntryInput) (WorkEntry, error) {
	var w WorkEntry
	err := s.withTx(ctx, func(ctx context.Context, tx *txn) error {
		now := s.now()
		if in.Active {
			if err := deactivateOthers(ctx, tx, accountID, personID, id, now); err != nil {
				return err
			}
		}
		err := scanWorkEntry(tx.QueryRowContext(ctx, `UPDATE work_history SET job_title = ?, company_name = ?,
				estimated_salary = ?, duration = ?, active = ?, updated_at = ?
			WHERE id = ? AND person_id = ? AND account_id = ?
			RETURNING `+workEntryColumns,
			in.JobTitle, in.CompanyName, in.EstimatedSalary, in.Duration, in.Active, now, id, personID, accountID), &w)
		if errors.Is(err, sql.ErrNoRows) {
			return missingWorkEntry(ctx, tx, accountID, personID)
		}
		if err != nil {
			return fmt.Errorf("store: update work history entry: %w", err)
		}
		return s.logForPerson(ctx, tx, accountID, personID, "work_history_update", "Updated the work history entry for ")
	})
	return w, err
}

// DeleteWorkEntry deletes one entry of the person's work history.
func (s *Store) DeleteWorkEntry(ctx context.Context, accountID, personID, id int64) error {
	return s.withTx(ctx, func(ctx context.Context, tx *txn) error {
		res, err := tx.ExecContext(ctx, `DELETE FROM work_history WHERE id = ? AND person_id = ? AND account_id = ?`, id, personID, accountID)
		if err != nil {
			return fmt.Errorf("store: delete work history entry: %w", err)
		}
		if err := mustAffect(res, ErrWorkEntryNotFound); err != nil {
			if errors.Is(err, ErrWorkEntryNotFound) {
				return missingWorkEntry(ctx, tx, accountID, personID)
			}
			return err
		}
		return s.logForPerson(ctx, tx, accountID, personID, "work_history_deletion", "Deleted a work history entry for ")
	})
}
