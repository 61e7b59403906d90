package store

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
)

// defaultGenders are the genders every new account starts with, by
// position; migration 0006 gives them to the accounts made before it.
var defaultGenders = []string{"Man", "Woman", "Other"}

// insertDefaultGenders gives a new account its genders, updated_at left
// NULL until a user changes them.
func insertDefaultGenders(ctx context.Context, tx *txn, accountID, now int64) error {
	for i, name := range defaultGenders {
		_, err := tx.ExecContext(ctx, `INSERT INTO genders (account_id, name, position, created_at) VALUES (?, ?, ?, ?)`,
			accountID, name, i+1, now)
		if err != nil {
			return fmt.Errorf("store: create default genders: %w", err)
		}
	}
	return nil
}

// Errors of genders.
var (
	ErrGenderNotFound = &NotFoundError{What: "gender"}
	// ErrUnknownGender is returned for a person's gender_id that is not a
	// gender of the account: a client's mistake, not a missing route.
	ErrUnknownGender = errors.New("store: unknown gender")
)

// Gender is one of the genders an account gives its persons.
type Gender struct {
	ID        int64
	AccountID int64
	Name      string
	Position  int64
	CreatedAt int64
	UpdatedAt *int64 // nil for a default gender never updated
}

const genderColumns = `id, account_id, name, position, created_at, updated_at`

func scanGender(sc scanner, g *Gender) error {
	return sc.Scan(&g.ID, &g.AccountID, &g.Name, &g.Position, &g.CreatedAt, &g.UpdatedAt)
}

// Genders lists the account's genders by position, then id.
func (s *Store) Genders(ctx context.Context, accountID int64) ([]Gender, error) {
	rows, err := s.r.QueryContext(ctx, `SELECT `+genderColumns+` FROM genders WHERE account_id = ? ORDER BY position, id`, accountID)
	if err != nil {
		return nil, fmt.Errorf("store: list genders: %w", err)
	}
	defer rows.Close()
	genders := []Gender{}
	for rows.Next() {
		var g Gender
		if err := scanGender(rows, &g); err != nil {
			return nil, fmt.Errorf("store: scan gender: %w", err)
		}
		genders = append(genders, g)
	}
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("store: list genders: %w", err)
	}
	return genders, nil
}

// Gender returns one of the account's genders.
func (s *Store) Gender(ctx context.Context, accountID, id int64) (Gender, error) {
	var g Gender
	err := scanGender(s.r.QueryRowContext(ctx, `SELECT `+genderColumns+` FROM genders WHERE id = ? AND account_id = ?`, id, accountID), &g)
	if errors.Is(err, sql.ErrNoRows) {
		return Gender{}, ErrGenderNotFound
	}
	if err != nil {
		return Gender{}, fmt.Errorf("store: get gender: %w", err)
	}
	return g, nil
}

// CreateGender adds a gender to the account, after its others: its
// position is the account's highest plus one, or the highest itself when
// that is the largest integer, which a rename may set: one more would
// overflow, and positions may be equal.
func (s *Store) CreateGender(ctx context.Context, accountID int64, name string) (Gender, error) {
	var g Gender
	err := s.withTx(ctx, func(ctx context.Context, tx *txn) error {
		now := s.now()
		err := scanGender(tx.QueryRowContext(ctx, `INSERT INTO genders (account_id, name, position, created_at, updated_at)
			SELECT CAST(? AS BIGINT), CAST(? AS TEXT), coalesce(max(position), 0) + CASE WHEN max(position) = 9223372036854775807 THEN 0 ELSE 1 END, CAST(? AS BIGINT), CAST(? AS BIGINT)
			FROM genders WHERE account_id = ?
			RETURNING `+genderColumns, accountID, name, now, now, accountID), &g)
		if isForeignKeyViolation(err) {
			return ErrAccountNotFound
		}
		if err != nil {
			return fmt.Errorf("store: create gender: %w", err)
		}
		return s.logAction(ctx, tx, "gender_creation", "Created the gender called "+g.Name)
	})
	return g, err
}

// UpdateGender renames one of the account's genders and moves it to
// position; the others keep theirs.
func (s *Store) UpdateGender(ctx context.Context, accountID, id int64, name string, position int64) (Gender, error) {
	var g Gender
	err := s.withTx(ctx, func(ctx context.Context, tx *txn) error {
		err := scanGender(tx.QueryRowContext(ctx, `UPDATE genders SET name = ?, position = ?, updated_at = ?
			WHERE id = ? AND account_id = ? RETURNING `+genderColumns, name, position, s.now(), id, accountID), &g)
		if errors.Is(err, sql.ErrNoRows) {
			return ErrGenderNotFound
		}
		if err != nil {
			return fmt.Errorf("store: update gender: %w", err)
		}
		return s.logAction(ctx, tx, "gender_update", "Updated the gender called "+g.Name)
	})
	return g, err
}

// DeleteGender deletes one of the account's genders; its persons stay,
// without a gender (ON DELETE SET NULL).
func (s *Store) DeleteGender(ctx context.Context, accountID, id int64) error {
	return s.withTx(ctx, func(ctx context.Context, tx *txn) error {
		// The persons first, as every other write takes them: their rows
		// (lockPersons), then the account's card counter, then the gender.
		// The cascade alone would take the gender first, and deadlock on
		// PostgreSQL with a write of a person who takes it. It is what ON
		// DELETE SET NULL would do, updated_at untouched; persons given
		// the gender meanwhile are left to the cascade.
		if err := s.lockPersons(ctx, tx, `account_id = ? AND gender_id = ?`, accountID, id); err != nil {
			return err
		}
		if _, err := tx.ExecContext(ctx, `UPDATE persons SET gender_id = NULL WHERE account_id = ? AND gender_id = ?`,
			accountID, id); err != nil {
			return fmt.Errorf("store: delete gender: %w", err)
		}
		var name string
		err := tx.QueryRowContext(ctx, `DELETE FROM genders WHERE id = ? AND account_id = ? RETURNING name`, id, accountID).Scan(&name)
		if errors.Is(err, sql.ErrNoRows) {
			return ErrGenderNotFound
		}
		if err != nil {
			return fmt.Errorf("store: delete gender: %w", err)
		}
		return s.logAction(ctx, tx, "gender_deletion", "Deleted the gender called "+name)
	})
}

// checkGender returns ErrUnknownGender unless id is nil or a gender of the
// account. The writer's transaction holds the lock, so the gender cannot
// vanish between this check and the write.
func checkGender(ctx context.Context, tx *txn, accountID int64, id *int64) error {
	if id == nil {
		return nil
	}
	var one int
	err := tx.QueryRowContext(ctx, `SELECT 1 FROM genders WHERE id = ? AND account_id = ?`, *id, accountID).Scan(&one)
	if errors.Is(err, sql.ErrNoRows) {
		return ErrUnknownGender
	}
	if err != nil {
		return fmt.Errorf("store: check gender: %w", err)
	}
	return nil
}
