package store

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
)

// ErrInteractionNotFound reports an interaction that is not the person's.
var ErrInteractionNotFound = &NotFoundError{What: "interaction"}

// InteractionKinds are the kinds an interaction may be, as the database's
// CHECK lists them.
var InteractionKinds = []string{"call", "message", "meeting", "email", "other"}

// Interaction is one time the user was in touch with a person.
type Interaction struct {
	ID         int64
	PersonID   int64
	HappenedOn string // a calendar date, YYYY-MM-DD
	Kind       string // one of InteractionKinds
	Note       *string
	CreatedAt  int64
	UpdatedAt  int64
}

// InteractionInput is what creating or replacing an interaction takes.
type InteractionInput struct {
	HappenedOn string // YYYY-MM-DD, a real date the caller checked
	Kind       string
	Note       *string
}

const interactionColumns = `id, person_id, happened_on, kind, note, created_at, updated_at`

func scanInteraction(sc scanner, in *Interaction) error {
	return sc.Scan(&in.ID, &in.PersonID, &in.HappenedOn, &in.Kind, &in.Note, &in.CreatedAt, &in.UpdatedAt)
}

// Interactions returns one page of the person's interactions, newest
// first (by date, then id), and how many the person has in all.
func (s *Store) Interactions(ctx context.Context, accountID, personID, limit, offset int64) ([]Interaction, int64, error) {
	tx, err := s.r.BeginTx(ctx, &sql.TxOptions{ReadOnly: true}) // one snapshot for the person, the page and its total
	if err != nil {
		return nil, 0, fmt.Errorf("store: list interactions: %w", err)
	}
	defer tx.end(ctx, false)
	// The count comes from the person's row: a missing person is no row.
	var total int64
	err = tx.QueryRowContext(ctx, `SELECT (SELECT count(*) FROM interactions i WHERE i.person_id = p.id)
		FROM persons p WHERE p.id = ? AND p.account_id = ?`, personID, accountID).Scan(&total)
	if errors.Is(err, sql.ErrNoRows) {
		return nil, 0, ErrPersonNotFound
	}
	if err != nil {
		return nil, 0, fmt.Errorf("store: count interactions: %w", err)
	}
	rows, err := tx.QueryContext(ctx, `SELECT `+interactionColumns+` FROM interactions
		WHERE person_id = ? AND account_id = ?
		ORDER BY happened_on DESC, id DESC LIMIT ? OFFSET ?`, personID, accountID, limit, offset)
	if err != nil {
		return nil, 0, fmt.Errorf("store: list interactions: %w", err)
	}
	defer rows.Close()
	list := []Interaction{}
	for rows.Next() {
		var in Interaction
		if err := scanInteraction(rows, &in); err != nil {
			return nil, 0, fmt.Errorf("store: scan interaction: %w", err)
		}
		list = append(list, in)
	}
	if err := rows.Err(); err != nil {
		return nil, 0, fmt.Errorf("store: list interactions: %w", err)
	}
	return list, total, nil
}

// Interaction returns one interaction of the person. When there is none
// it says whether the person or the interaction is missing.
func (s *Store) Interaction(ctx context.Context, accountID, personID, id int64) (Interaction, error) {
	var in Interaction
	err := scanInteraction(s.r.QueryRowContext(ctx, `SELECT `+interactionColumns+` FROM interactions
		WHERE id = ? AND person_id = ? AND account_id = ?`, id, personID, accountID), &in)
	if errors.Is(err, sql.ErrNoRows) {
		return Interaction{}, missingRecord(ctx, s.r, accountID, personID, ErrInteractionNotFound)
	}
	if err != nil {
		return Interaction{}, fmt.Errorf("store: get interaction: %w", err)
	}
	return in, nil
}

// CreateInteraction logs an interaction with the person. One INSERT finds
// the person in the account and writes the interaction.
func (s *Store) CreateInteraction(ctx context.Context, accountID, personID int64, in InteractionInput) (Interaction, error) {
	var out Interaction
	err := s.withTx(ctx, func(ctx context.Context, tx *txn) (err error) {
		out, err = s.createInteraction(ctx, tx, accountID, personID, in)
		return err
	})
	return out, err
}

// createInteraction is CreateInteraction inside tx, for the writes that
// log an interaction among others (an action link's call).
func (s *Store) createInteraction(ctx context.Context, tx *txn, accountID, personID int64, in InteractionInput) (Interaction, error) {
	var out Interaction
	now := s.now()
	err := scanInteraction(tx.QueryRowContext(ctx, `INSERT INTO interactions (account_id, person_id, happened_on,
			kind, note, created_at, updated_at)
		SELECT p.account_id, p.id, CAST(? AS TEXT), CAST(? AS TEXT), CAST(? AS TEXT), CAST(? AS BIGINT), CAST(? AS BIGINT)
		FROM persons p WHERE p.id = ? AND p.account_id = ?
		RETURNING `+interactionColumns,
		in.HappenedOn, in.Kind, in.Note, now, now, personID, accountID), &out)
	if errors.Is(err, sql.ErrNoRows) {
		return out, ErrPersonNotFound
	}
	if err != nil {
		return out, fmt.Errorf("store: create interaction: %w", err)
	}
	return out, s.logForPerson(ctx, tx, accountID, personID, "interaction_creation", "Logged an interaction with ")
}

// UpdateInteraction replaces every field of the person's interaction.
func (s *Store) UpdateInteraction(ctx context.Context, accountID, personID, id int64, in InteractionInput) (Interaction, error) {
	var out Interaction
	err := s.withTx(ctx, func(ctx context.Context, tx *txn) error {
		err := scanInteraction(tx.QueryRowContext(ctx, `UPDATE interactions SET happened_on = ?, kind = ?, note = ?,
				updated_at = ?
			WHERE id = ? AND person_id = ? AND account_id = ?
			RETURNING `+interactionColumns,
			in.HappenedOn, in.Kind, in.Note, s.now(), id, personID, accountID), &out)
		if errors.Is(err, sql.ErrNoRows) {
			return missingRecord(ctx, tx, accountID, personID, ErrInteractionNotFound)
		}
		if err != nil {
			return fmt.Errorf("store: update interaction: %w", err)
		}
		return s.logForPerson(ctx, tx, accountID, personID, "interaction_update", "Updated an interaction with ")
	})
	return out, err
}

// DeleteInteraction deletes one interaction of the person; the last one
// left, if any, is the person's last interaction again.
func (s *Store) DeleteInteraction(ctx context.Context, accountID, personID, id int64) error {
	return s.withTx(ctx, func(ctx context.Context, tx *txn) error {
		res, err := tx.ExecContext(ctx, `DELETE FROM interactions WHERE id = ? AND person_id = ? AND account_id = ?`,
			id, personID, accountID)
		if err != nil {
			return fmt.Errorf("store: delete interaction: %w", err)
		}
		if err := mustAffect(res, ErrInteractionNotFound); err != nil {
			if errors.Is(err, ErrInteractionNotFound) {
				return missingRecord(ctx, tx, accountID, personID, err)
			}
			return err
		}
		return s.logForPerson(ctx, tx, accountID, personID, "interaction_deletion", "Deleted an interaction with ")
	})
}
