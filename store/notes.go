package store

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
)

// ErrNoteNotFound is a note that is not one of the person's.
var ErrNoteNotFound = &NotFoundError{What: "note"}

// Note is free text about a person.
type Note struct {
	ID        int64
	PersonID  int64
	Content   string
	CreatedAt int64
	UpdatedAt int64
}

const noteColumns = `id, person_id, content, created_at, updated_at`

func scanNote(sc scanner, n *Note) error {
	return sc.Scan(&n.ID, &n.PersonID, &n.Content, &n.CreatedAt, &n.UpdatedAt)
}

// Notes returns one page of the person's notes, id ascending, and how many
// the person has in all.
func (s *Store) Notes(ctx context.Context, accountID, personID, limit, offset int64) ([]Note, int64, error) {
	tx, err := s.r.BeginTx(ctx, &sql.TxOptions{ReadOnly: true}) // one snapshot for the person, the page and its total
	if err != nil {
		return nil, 0, fmt.Errorf("store: list notes: %w", err)
	}
	defer tx.end(ctx, false)
	// The count comes from the person's row, so that a missing person is
	// no row at all and the page takes two queries, not three.
	var total int64
	err = tx.QueryRowContext(ctx, `SELECT (SELECT count(*) FROM notes n WHERE n.person_id = p.id)
		FROM persons p WHERE p.id = ? AND p.account_id = ?`, personID, accountID).Scan(&total)
	if errors.Is(err, sql.ErrNoRows) {
		return nil, 0, ErrPersonNotFound
	}
	if err != nil {
		return nil, 0, fmt.Errorf("store: count notes: %w", err)
	}
	rows, err := tx.QueryContext(ctx, `SELECT `+noteColumns+` FROM notes
		WHERE person_id = ? AND account_id = ? ORDER BY id LIMIT ? OFFSET ?`, personID, accountID, limit, offset)
	if err != nil {
		return nil, 0, fmt.Errorf("store: list notes: %w", err)
	}
	defer rows.Close()
	notes := []Note{}
	for rows.Next() {
		var n Note
		if err := scanNote(rows, &n); err != nil {
			return nil, 0, fmt.Errorf("store: scan note: %w", err)
		}
		notes = append(notes, n)
	}
	if err := rows.Err(); err != nil {
		return nil, 0, fmt.Errorf("store: list notes: %w", err)
	}
	return notes, total, nil
}

// Note returns one note of the person. When there is none it says whether
// the person or the note is missing.
func (s *Store) Note(ctx context.Context, accountID, personID, id int64) (Note, error) {
	return getNote(ctx, s.r, accountID, personID, id)
}

func getNote(ctx context.Context, q queryer, accountID, personID, id int64) (Note, error) {
	var n Note
	err := scanNote(q.QueryRowContext(ctx, `SELECT `+noteColumns+` FROM notes
		WHERE id = ? AND person_id = ? AND account_id = ?`, id, personID, accountID), &n)
	if errors.Is(err, sql.ErrNoRows) {
		return Note{}, missingRecord(ctx, q, accountID, personID, ErrNoteNotFound)
	}
	if err != nil {
		return Note{}, fmt.Errorf("store: get note: %w", err)
	}
	return n, nil
}

// missingRecord tells, once a record of the person was not found, whether
// the person or only the record (notFound) is missing.
func missingRecord(ctx context.Context, q queryer, accountID, personID int64, notFound error) error {
	if err := checkPerson(ctx, q, accountID, personID); err != nil {
		return err
	}
	return notFound
}

// CreateNote adds a note to the person. One INSERT finds the person in the
// account and writes the note, so the person cannot vanish in between.
func (s *Store) CreateNote(ctx context.Context, accountID, personID int64, content string) (Note, error) {
	var n Note
	err := s.withTx(ctx, func(ctx context.Context, tx *txn) error {
		now := s.now()
		err := scanNote(tx.QueryRowContext(ctx, `INSERT INTO notes (account_id, person_id, content, created_at, updated_at)
			SELECT p.account_id, p.id, CAST(? AS TEXT), CAST(? AS BIGINT), CAST(? AS BIGINT)
			FROM persons p WHERE p.id = ? AND p.account_id = ?
			RETURNING `+noteColumns, content, now, now, personID, accountID), &n)
		if errors.Is(err, sql.ErrNoRows) {
			return ErrPersonNotFound
		}
		if err != nil {
			return fmt.Errorf("store: create note: %w", err)
		}
		return s.logForPerson(ctx, tx, accountID, personID, "note_creation", "Created a note for ")
	})
	return n, err
}

// UpdateNote replaces the note's content.
func (s *Store) UpdateNote(ctx context.Context, accountID, personID, id int64, content string) (Note, error) {
	var n Note
	err := s.withTx(ctx, func(ctx context.Context, tx *txn) error {
		err := scanNote(tx.QueryRowContext(ctx, `UPDATE notes SET content = ?, updated_at = ?
			WHERE id = ? AND person_id = ? AND account_id = ?
			RETURNING `+noteColumns, content, s.now(), id, personID, accountID), &n)
		if errors.Is(err, sql.ErrNoRows) {
			return missingRecord(ctx, tx, accountID, personID, ErrNoteNotFound)
		}
		if err != nil {
			return fmt.Errorf("store: update note: %w", err)
		}
		return s.logForPerson(ctx, tx, accountID, personID, "note_update", "Updated the note for ")
	})
	return n, err
}

// DeleteNote deletes one note of the person.
func (s *Store) DeleteNote(ctx context.Context, accountID, personID, id int64) error {
	return s.withTx(ctx, func(ctx context.Context, tx *txn) error {
		res, err := tx.ExecContext(ctx, `DELETE FROM notes WHERE id = ? AND person_id = ? AND account_id = ?`, id, personID, accountID)
		if err != nil {
			return fmt.Errorf("store: delete note: %w", err)
		}
		if err := mustAffect(res, ErrNoteNotFound); err != nil {
			if errors.Is(err, ErrNoteNotFound) {
				return missingRecord(ctx, tx, accountID, personID, err)
			}
			return err
		}
		return s.logForPerson(ctx, tx, accountID, personID, "note_deletion", "Deleted a note for ")
	})
}
