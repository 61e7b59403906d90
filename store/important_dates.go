package store

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
)

// ErrImportantDateNotFound reports an important date that is not the
// person's.
var ErrImportantDateNotFound = &NotFoundError{What: "important date"}

// ImportantDate is a day of the year that matters about a person: an
// anniversary, a name day, the day they met. Its year may be unknown.
type ImportantDate struct {
	ID       int64
	PersonID int64
	Label    string
	// Year is nil when unknown; Month and Day make a real date in Year,
	// or in a leap year when Year is nil (29 February is a day then).
	Year       *int64
	Month, Day int64
	// RemindYearly asks the reminders to recall the day every year.
	RemindYearly bool
	CreatedAt    int64
	UpdatedAt    int64
}

// ImportantDateInput is what creating or replacing an important date
// takes. The caller checks that the day is real; the database only
// bounds each number.
type ImportantDateInput struct {
	Label        string
	Year         *int64
	Month, Day   int64
	RemindYearly bool
}

// YearlyDate is an important date to be recalled every year, with the
// name of its person, for the reminders.
type YearlyDate struct {
	ID         int64 // the important date's
	PersonID   int64
	Name       string // the person's, as FullName makes it
	Label      string
	Year       *int64 // nil when unknown
	Month, Day int64
}

const importantDateColumns = `id, person_id, label, year, month, day, remind_yearly, created_at, updated_at`

func scanImportantDate(sc scanner, d *ImportantDate) error {
	return sc.Scan(&d.ID, &d.PersonID, &d.Label, &d.Year, &d.Month, &d.Day, &d.RemindYearly, &d.CreatedAt, &d.UpdatedAt)
}

// ImportantDates lists the person's important dates by month, day and id:
// in calendar order, whatever their years.
func (s *Store) ImportantDates(ctx context.Context, accountID, personID int64) ([]ImportantDate, error) {
	tx, err := s.r.BeginTx(ctx, &sql.TxOptions{ReadOnly: true}) // the person and the dates in one snapshot
	if err != nil {
		return nil, fmt.Errorf("store: list important dates: %w", err)
	}
	defer tx.end(ctx, false)
	if err := checkPerson(ctx, tx, accountID, personID); err != nil {
		return nil, err
	}
	rows, err := tx.QueryContext(ctx, `SELECT `+importantDateColumns+` FROM important_dates
		WHERE person_id = ? AND account_id = ?
		ORDER BY month, day, id`, personID, accountID)
	if err != nil {
		return nil, fmt.Errorf("store: list important dates: %w", err)
	}
	defer rows.Close()
	dates := []ImportantDate{}
	for rows.Next() {
		var d ImportantDate
		if err := scanImportantDate(rows, &d); err != nil {
			return nil, fmt.Errorf("store: scan important date: %w", err)
		}
		dates = append(dates, d)
	}
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("store: list important dates: %w", err)
	}
	return dates, nil
}

// ImportantDate returns one important date of the person. When there is
// none it says whether the person or the date is missing.
func (s *Store) ImportantDate(ctx context.Context, accountID, personID, id int64) (ImportantDate, error) {
	var d ImportantDate
	err := scanImportantDate(s.r.QueryRowContext(ctx, `SELECT `+importantDateColumns+` FROM important_dates
		WHERE id = ? AND person_id = ? AND account_id = ?`, id, personID, accountID), &d)
	if errors.Is(err, sql.ErrNoRows) {
		return ImportantDate{}, missingRecord(ctx, s.r, accountID, personID, ErrImportantDateNotFound)
	}
	if err != nil {
		return ImportantDate{}, fmt.Errorf("store: get important date: %w", err)
	}
	return d, nil
}

// CreateImportantDate adds an important date to the person. One INSERT
// finds the person in the account and writes the date, so that the person
// cannot vanish between a check and the write.
func (s *Store) CreateImportantDate(ctx context.Context, accountID, personID int64, in ImportantDateInput) (ImportantDate, error) {
	var d ImportantDate
	err := s.withTx(ctx, func(ctx context.Context, tx *txn) error {
		now := s.now()
		err := scanImportantDate(tx.QueryRowContext(ctx, `INSERT INTO important_dates (account_id, person_id, label,
				year, month, day, remind_yearly, created_at, updated_at)
			SELECT p.account_id, p.id, CAST(? AS TEXT), CAST(? AS BIGINT), CAST(? AS BIGINT), CAST(? AS BIGINT),
				CAST(? AS BOOLEAN), CAST(? AS BIGINT), CAST(? AS BIGINT)
			FROM persons p WHERE p.id = ? AND p.account_id = ?
			RETURNING `+importantDateColumns,
			in.Label, in.Year, in.Month, in.Day, in.RemindYearly, now, now, personID, accountID), &d)
		if errors.Is(err, sql.ErrNoRows) {
			return ErrPersonNotFound
		}
		if err != nil {
			return fmt.Errorf("store: create important date: %w", err)
		}
		return s.logForPerson(ctx, tx, accountID, personID, "important_date_creation", "Added an important date for ")
	})
	return d, err
}

// UpdateImportantDate replaces every field of the person's important date.
func (s *Store) UpdateImportantDate(ctx context.Context, accountID, personID, id int64, in ImportantDateInput) (ImportantDate, error) {
	var d ImportantDate
	err := s.withTx(ctx, func(ctx context.Context, tx *txn) error {
		err := scanImportantDate(tx.QueryRowContext(ctx, `UPDATE important_dates SET label = ?, year = ?, month = ?,
				day = ?, remind_yearly = ?, updated_at = ?
			WHERE id = ? AND person_id = ? AND account_id = ?
			RETURNING `+importantDateColumns,
			in.Label, in.Year, in.Month, in.Day, in.RemindYearly, s.now(), id, personID, accountID), &d)
		if errors.Is(err, sql.ErrNoRows) {
			return missingRecord(ctx, tx, accountID, personID, ErrImportantDateNotFound)
		}
		if err != nil {
			return fmt.Errorf("store: update important date: %w", err)
		}
		return s.logForPerson(ctx, tx, accountID, personID, "important_date_update", "Updated an important date for ")
	})
	return d, err
}

// DeleteImportantDate deletes one important date of the person, and with
// it its yearly reminder.
func (s *Store) DeleteImportantDate(ctx context.Context, accountID, personID, id int64) error {
	return s.withTx(ctx, func(ctx context.Context, tx *txn) error {
		res, err := tx.ExecContext(ctx, `DELETE FROM important_dates WHERE id = ? AND person_id = ? AND account_id = ?`,
			id, personID, accountID)
		if err != nil {
			return fmt.Errorf("store: delete important date: %w", err)
		}
		if err := mustAffect(res, ErrImportantDateNotFound); err != nil {
			if errors.Is(err, ErrImportantDateNotFound) {
				return missingRecord(ctx, tx, accountID, personID, err)
			}
			return err
		}
		return s.logForPerson(ctx, tx, accountID, personID, "important_date_deletion", "Deleted an important date for ")
	})
}

// yearlyDatesQuery reads an account's dates to recall within spans (all
// when nil) through the partial index important_dates_yearly, and each
// date's person by primary key: one statement, however many persons.
func yearlyDatesQuery(accountID int64, spans []DaySpan) (string, []any) {
	return perSpan(`SELECT d.id, d.person_id, p.first_name, p.last_name, d.label, d.year, d.month, d.day
	FROM important_dates d JOIN persons p ON p.id = d.person_id
	WHERE d.account_id = ? AND d.remind_yearly`, "d.month", "d.day", spans, "7, 8, 1", accountID)
}

// YearlyDates returns the important dates of the account that ask to be
// recalled every year and fall within spans (all of them when spans is
// nil), by month, day and id, with their persons' names. The reminders
// call it once a day for each account; whether a date falls on a given
// day (29 February in a common year) is theirs to decide.
func (s *Store) YearlyDates(ctx context.Context, accountID int64, spans []DaySpan) ([]YearlyDate, error) {
	query, args := yearlyDatesQuery(accountID, spans)
	rows, err := s.r.QueryContext(ctx, query, args...)
	if err != nil {
		return nil, fmt.Errorf("store: list yearly dates: %w", err)
	}
	defer rows.Close()
	dates := []YearlyDate{}
	for rows.Next() {
		var d YearlyDate
		var first string
		var last *string
		if err := rows.Scan(&d.ID, &d.PersonID, &first, &last, &d.Label, &d.Year, &d.Month, &d.Day); err != nil {
			return nil, fmt.Errorf("store: scan yearly date: %w", err)
		}
		d.Name = FullName(first, last)
		dates = append(dates, d)
	}
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("store: list yearly dates: %w", err)
	}
	return dates, nil
}
