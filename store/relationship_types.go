package store

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
)

// RelationshipGroups are the groups a relationship type may be in.
var RelationshipGroups = []string{"love", "family", "friend", "work", "other"}

// defaultRelationshipTypes are the types every new account starts with, in
// this order; migration 0025 gives them to the accounts made before it.
var defaultRelationshipTypes = []RelationshipTypeInput{
	{"partner", "partner", "love"},
	{"spouse", "spouse", "love"},
	{"parent", "child", "family"},
	{"sibling", "sibling", "family"},
	{"grandparent", "grandchild", "family"},
	{"uncle or aunt", "nephew or niece", "family"},
	{"cousin", "cousin", "family"},
	{"friend", "friend", "friend"},
	{"best friend", "best friend", "friend"},
	{"colleague", "colleague", "work"},
	{"manager", "report", "work"},
	{"mentor", "mentee", "work"},
}

// insertDefaultRelationshipTypes gives a new account its relationship
// types, one after the other so that their ids follow the list's order.
// Not logged: nobody made them.
func insertDefaultRelationshipTypes(ctx context.Context, tx *txn, accountID, now int64) error {
	for _, t := range defaultRelationshipTypes {
		_, err := tx.ExecContext(ctx, `INSERT INTO relationship_types (account_id, name, name_reverse, group_name, created_at, updated_at)
			VALUES (?, ?, ?, ?, ?, ?)`, accountID, t.Name, t.NameReverse, t.Group, now, now)
		if err != nil {
			return fmt.Errorf("store: create default relationship types: %w", err)
		}
	}
	return nil
}

// Errors of relationship types.
var (
	ErrRelationshipTypeNotFound = &NotFoundError{What: "relationship type"}
	// ErrRelationshipTypeInUse refuses to delete a type that a relationship
	// has: its relationships must go first.
	ErrRelationshipTypeInUse = errors.New("store: relationship type in use")
)

// RelationshipType is a kind of relationship an account's persons may
// have: Name is what the other person is to the one a relationship is
// seen from, NameReverse the same seen from the other side.
type RelationshipType struct {
	ID          int64
	AccountID   int64
	Name        string
	NameReverse string
	Group       string // one of RelationshipGroups
	CreatedAt   int64
	UpdatedAt   int64
}

// RelationshipTypeInput is what creating or replacing a type takes.
type RelationshipTypeInput struct {
	Name, NameReverse, Group string
}

const relationshipTypeColumns = `id, account_id, name, name_reverse, group_name, created_at, updated_at`

func scanRelationshipType(sc scanner, t *RelationshipType) error {
	return sc.Scan(&t.ID, &t.AccountID, &t.Name, &t.NameReverse, &t.Group, &t.CreatedAt, &t.UpdatedAt)
}

// RelationshipTypes lists the account's relationship types by id.
func (s *Store) RelationshipTypes(ctx context.Context, accountID int64) ([]RelationshipType, error) {
	return relationshipTypes(ctx, s.r, accountID)
}

func relationshipTypes(ctx context.Context, q rowsQueryer, accountID int64) ([]RelationshipType, error) {
	types := []RelationshipType{}
	err := eachRow(ctx, q, `SELECT `+relationshipTypeColumns+` FROM relationship_types WHERE account_id = ? ORDER BY id`,
		[]any{accountID}, func(sc scanner) error {
			var t RelationshipType
			if err := scanRelationshipType(sc, &t); err != nil {
				return err
			}
			types = append(types, t)
			return nil
		})
	if err != nil {
		return nil, fmt.Errorf("store: list relationship types: %w", err)
	}
	return types, nil
}

// RelationshipType returns one of the account's relationship types.
func (s *Store) RelationshipType(ctx context.Context, accountID, id int64) (RelationshipType, error) {
	var t RelationshipType
	err := scanRelationshipType(s.r.QueryRowContext(ctx, `SELECT `+relationshipTypeColumns+` FROM relationship_types
		WHERE id = ? AND account_id = ?`, id, accountID), &t)
	if errors.Is(err, sql.ErrNoRows) {
		return RelationshipType{}, ErrRelationshipTypeNotFound
	}
	if err != nil {
		return RelationshipType{}, fmt.Errorf("store: get relationship type: %w", err)
	}
	return t, nil
}

// CreateRelationshipType adds a relationship type to the account.
func (s *Store) CreateRelationshipType(ctx context.Context, accountID int64, in RelationshipTypeInput) (RelationshipType, error) {
	var t RelationshipType
	err := s.withTx(ctx, func(ctx context.Context, tx *txn) error {
		now := s.now()
		err := scanRelationshipType(tx.QueryRowContext(ctx, `INSERT INTO relationship_types (account_id, name, name_reverse,
				group_name, created_at, updated_at)
			VALUES (?, ?, ?, ?, ?, ?) RETURNING `+relationshipTypeColumns,
			accountID, in.Name, in.NameReverse, in.Group, now, now), &t)
		if isForeignKeyViolation(err) {
			return ErrAccountNotFound
		}
		if err != nil {
			return fmt.Errorf("store: create relationship type: %w", err)
		}
		return s.logAction(ctx, tx, "relationship_type_creation", "Created the relationship type called "+t.Name)
	})
	return t, err
}

// UpdateRelationshipType replaces the type's names and group; its
// relationships show the new names at once, since they name it by id.
func (s *Store) UpdateRelationshipType(ctx context.Context, accountID, id int64, in RelationshipTypeInput) (RelationshipType, error) {
	var t RelationshipType
	err := s.withTx(ctx, func(ctx context.Context, tx *txn) error {
		err := scanRelationshipType(tx.QueryRowContext(ctx, `UPDATE relationship_types
			SET name = ?, name_reverse = ?, group_name = ?, updated_at = ?
			WHERE id = ? AND account_id = ? RETURNING `+relationshipTypeColumns,
			in.Name, in.NameReverse, in.Group, s.now(), id, accountID), &t)
		if errors.Is(err, sql.ErrNoRows) {
			return ErrRelationshipTypeNotFound
		}
		if err != nil {
			return fmt.Errorf("store: update relationship type: %w", err)
		}
		return s.logAction(ctx, tx, "relationship_type_update", "Updated the relationship type called "+t.Name)
	})
	return t, err
}

// DeleteRelationshipType deletes one of the account's types, unless a
// relationship has it (ErrRelationshipTypeInUse). The foreign key says so,
// not a count first: a relationship made meanwhile cannot slip through.
func (s *Store) DeleteRelationshipType(ctx context.Context, accountID, id int64) error {
	return s.withTx(ctx, func(ctx context.Context, tx *txn) error {
		var name string
		err := tx.QueryRowContext(ctx, `DELETE FROM relationship_types WHERE id = ? AND account_id = ? RETURNING name`,
			id, accountID).Scan(&name)
		if errors.Is(err, sql.ErrNoRows) {
			return ErrRelationshipTypeNotFound
		}
		if isForeignKeyViolation(err) {
			return ErrRelationshipTypeInUse
		}
		if err != nil {
			return fmt.Errorf("store: delete relationship type: %w", err)
		}
		return s.logAction(ctx, tx, "relationship_type_deletion", "Deleted the relationship type called "+name)
	})
}
