package store

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
)

// ErrRelationshipNotFound is a relationship that does not involve the
// person it is asked under.
var ErrRelationshipNotFound = &NotFoundError{What: "relationship"}

// Relationship is a relationship as one of its two persons sees it: Other
// is the other person, and TypeName the type's name (on the person it was
// made on) or its name_reverse (on the other).
type Relationship struct {
	ID        int64
	TypeID    int64
	TypeName  string
	Other     RelatedPerson
	CreatedAt int64
	UpdatedAt int64
}

// RelatedPerson is the other person of a relationship, as much as a
// relationship shows of them.
type RelatedPerson struct {
	ID        int64
	FirstName string
	LastName  *string
}

// RelationshipRefusal is why a relationship cannot be made, one field a
// rule. It is an error, so that a write found refused in its transaction
// can say so.
type RelationshipRefusal struct {
	UnknownType   bool // the type is not the account's
	UnknownPerson bool // the other person is not the account's
	SamePerson    bool // the other person is the person
	// Exists: the two persons have a relationship of that type already,
	// made on either. Told only when the rest is right.
	Exists bool
}

func (r *RelationshipRefusal) Error() string { return "store: relationship refused" }

// Refused reports whether any rule failed.
func (r RelationshipRefusal) Refused() bool {
	return r.UnknownType || r.UnknownPerson || r.SamePerson || r.Exists
}

// relationshipsOf is the query of a person's relationships from both
// sides, by id; cond narrows each side with one more argument.
func relationshipsOf(cond string) string {
	side := func(self, other, name string) string {
		return `SELECT r.id, r.relationship_type_id, t.` + name + `, o.id, o.first_name, o.last_name, r.created_at, r.updated_at
			FROM relationships r
			JOIN relationship_types t ON t.id = r.relationship_type_id
			JOIN persons o ON o.id = r.` + other + `
			WHERE r.` + self + ` = ? AND r.account_id = ?` + cond
	}
	return side("person_id", "other_person_id", "name") + ` UNION ALL ` +
		side("other_person_id", "person_id", "name_reverse") + ` ORDER BY 1`
}

var (
	relationshipsQuery = relationshipsOf("")
	relationshipQuery  = relationshipsOf(" AND r.id = ?")
)

func scanRelationship(sc scanner, r *Relationship) error {
	return sc.Scan(&r.ID, &r.TypeID, &r.TypeName, &r.Other.ID, &r.Other.FirstName, &r.Other.LastName, &r.CreatedAt, &r.UpdatedAt)
}

// Relationships lists the person's relationships, from either side, by id.
func (s *Store) Relationships(ctx context.Context, accountID, personID int64) ([]Relationship, error) {
	tx, err := s.r.BeginTx(ctx, &sql.TxOptions{ReadOnly: true}) // the person and their relationships in one snapshot
	if err != nil {
		return nil, fmt.Errorf("store: list relationships: %w", err)
	}
	defer tx.end(ctx, false)
	if err := checkPerson(ctx, tx, accountID, personID); err != nil {
		return nil, err
	}
	list := []Relationship{}
	err = eachRow(ctx, tx, relationshipsQuery, []any{personID, accountID, personID, accountID}, func(sc scanner) error {
		var r Relationship
		if err := scanRelationship(sc, &r); err != nil {
			return err
		}
		list = append(list, r)
		return nil
	})
	if err != nil {
		return nil, fmt.Errorf("store: list relationships: %w", err)
	}
	return list, nil
}

// CheckRelationship tells what is wrong with a relationship of the type
// typeID between the person and the person otherID, either of which may
// be nil (not given): a rule about a missing one is not checked. A person
// that is not the account's is ErrPersonNotFound, whatever the rest.
func (s *Store) CheckRelationship(ctx context.Context, accountID, personID int64, typeID, otherID *int64) (RelationshipRefusal, error) {
	tx, err := s.r.BeginTx(ctx, &sql.TxOptions{ReadOnly: true})
	if err != nil {
		return RelationshipRefusal{}, fmt.Errorf("store: check relationship: %w", err)
	}
	defer tx.end(ctx, false)
	return checkRelationship(ctx, tx, accountID, personID, typeID, otherID)
}

func checkRelationship(ctx context.Context, q queryer, accountID, personID int64, typeID, otherID *int64) (RelationshipRefusal, error) {
	var r RelationshipRefusal
	if err := checkPerson(ctx, q, accountID, personID); err != nil {
		return r, err
	}
	exists := func(query string, args ...any) (bool, error) {
		var one int
		err := q.QueryRowContext(ctx, query, args...).Scan(&one)
		if errors.Is(err, sql.ErrNoRows) {
			return false, nil
		}
		return err == nil, err
	}
	var err error
	if typeID != nil {
		var ok bool
		if ok, err = exists(`SELECT 1 FROM relationship_types WHERE id = ? AND account_id = ?`, *typeID, accountID); err != nil {
			return r, fmt.Errorf("store: check relationship type: %w", err)
		}
		r.UnknownType = !ok
	}
	if otherID != nil {
		r.SamePerson = *otherID == personID
		if !r.SamePerson {
			if err = checkPerson(ctx, q, accountID, *otherID); errors.Is(err, ErrPersonNotFound) {
				r.UnknownPerson = true
			} else if err != nil {
				return r, err
			}
		}
	}
	if typeID != nil && otherID != nil && !r.Refused() {
		r.Exists, err = exists(`SELECT 1 FROM relationships WHERE relationship_type_id = ?
			AND (person_id = ? AND other_person_id = ? OR person_id = ? AND other_person_id = ?)`,
			*typeID, personID, *otherID, *otherID, personID)
		if err != nil {
			return r, fmt.Errorf("store: check relationship: %w", err)
		}
	}
	return r, nil
}

// CreateRelationship says that the person otherID is, to the person, what
// the type's name says, and returns it as the person sees it. A rule it
// breaks is a *RelationshipRefusal; the person's absence ErrPersonNotFound.
func (s *Store) CreateRelationship(ctx context.Context, accountID, personID, typeID, otherID int64) (Relationship, error) {
	var rel Relationship
	err := s.withTx(ctx, func(ctx context.Context, tx *txn) error {
		// The two persons are locked (on PostgreSQL) so that neither is
		// deleted between the check and the insert; a type deleted
		// meanwhile is the foreign key's refusal.
		if err := s.lockPersons(ctx, tx, `account_id = ? AND id IN (?, ?)`, accountID, personID, otherID); err != nil {
			return err
		}
		refusal, err := checkRelationship(ctx, tx, accountID, personID, &typeID, &otherID)
		if err != nil {
			return err
		}
		if refusal.Refused() {
			return &refusal
		}
		id, err := s.insertRelationship(ctx, tx, accountID, personID, typeID, otherID)
		switch {
		case isUniqueViolation(err):
			return &RelationshipRefusal{Exists: true}
		case isForeignKeyViolation(err):
			return &RelationshipRefusal{UnknownType: true}
		case err != nil:
			return err
		}
		err = scanRelationship(tx.QueryRowContext(ctx, relationshipQuery,
			personID, accountID, id, personID, accountID, id), &rel)
		if err != nil {
			return fmt.Errorf("store: read relationship: %w", err)
		}
		return s.logForPerson(ctx, tx, accountID, personID, "relationship_creation", "Added a relationship for ")
	})
	return rel, err
}

// insertRelationship writes a relationship made on the person and returns
// its id; the caller checked the rules, and the database holds them too.
func (s *Store) insertRelationship(ctx context.Context, tx *txn, accountID, personID, typeID, otherID int64) (int64, error) {
	now := s.now()
	var id int64
	err := tx.QueryRowContext(ctx, `INSERT INTO relationships (account_id, relationship_type_id, person_id, other_person_id,
			created_at, updated_at)
		VALUES (?, ?, ?, ?, ?, ?) RETURNING id`, accountID, typeID, personID, otherID, now, now).Scan(&id)
	if err != nil && !isUniqueViolation(err) && !isForeignKeyViolation(err) {
		err = fmt.Errorf("store: create relationship: %w", err)
	}
	return id, err
}

// DeleteRelationship deletes a relationship of the person, made on them
// or on the other person.
func (s *Store) DeleteRelationship(ctx context.Context, accountID, personID, id int64) error {
	return s.withTx(ctx, func(ctx context.Context, tx *txn) error {
		res, err := tx.ExecContext(ctx, `DELETE FROM relationships WHERE id = ? AND account_id = ?
			AND (person_id = ? OR other_person_id = ?)`, id, accountID, personID, personID)
		if err != nil {
			return fmt.Errorf("store: delete relationship: %w", err)
		}
		if err := mustAffect(res, ErrRelationshipNotFound); err != nil {
			return missingRecord(ctx, tx, accountID, personID, err)
		}
		return s.logForPerson(ctx, tx, accountID, personID, "relationship_deletion", "Deleted a relationship for ")
	})
}
