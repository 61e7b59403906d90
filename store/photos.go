package store

import (
	"context"
	"crypto/sha256"
	"database/sql"
	"encoding/hex"
	"errors"
	"fmt"
)

// ErrPhotoNotFound is a person without a photo.
var ErrPhotoNotFound = &NotFoundError{What: "photo"}

// Photo is a person's photo: a JPEG that Kith made (server/photo), never
// the bytes a client sent.
type Photo struct {
	PersonID int64
	JPEG     []byte
	// SHA256 is the JPEG's digest in hex, which changes whenever the
	// photo does: its ETag.
	SHA256               string
	CreatedAt, UpdatedAt int64
}

// PhotoSum is the digest Photo.SHA256 holds for jpeg.
func PhotoSum(jpeg []byte) string {
	sum := sha256.Sum256(jpeg)
	return hex.EncodeToString(sum[:])
}

const photoColumns = `person_id, jpeg, sha256, created_at, updated_at`

func scanPhoto(sc scanner, p *Photo) error {
	return sc.Scan(&p.PersonID, &p.JPEG, &p.SHA256, &p.CreatedAt, &p.UpdatedAt)
}

// Photo returns the person's photo. When there is none it says whether
// the person or only the photo is missing.
func (s *Store) Photo(ctx context.Context, accountID, personID int64) (Photo, error) {
	var p Photo
	err := scanPhoto(s.r.QueryRowContext(ctx, `SELECT `+photoColumns+` FROM photos WHERE person_id = ? AND account_id = ?`,
		personID, accountID), &p)
	if errors.Is(err, sql.ErrNoRows) {
		return Photo{}, missingPhoto(ctx, s.r, accountID, personID)
	}
	if err != nil {
		return Photo{}, fmt.Errorf("store: get photo: %w", err)
	}
	return p, nil
}

func missingPhoto(ctx context.Context, q queryer, accountID, personID int64) error {
	if err := checkPerson(ctx, q, accountID, personID); err != nil {
		return err
	}
	return ErrPhotoNotFound
}

// SetPhoto makes jpeg the person's photo, replacing any, and returns the
// person.
func (s *Store) SetPhoto(ctx context.Context, accountID, personID int64, jpeg []byte) (Person, error) {
	var p Person
	err := s.withTx(ctx, func(ctx context.Context, tx *txn) error {
		if err := putPhoto(ctx, tx, accountID, personID, jpeg, s.now()); err != nil {
			return err
		}
		var err error
		if p, err = getPerson(ctx, tx, accountID, personID); err != nil {
			return err
		}
		return s.logAction(ctx, tx, "photo_update", "Updated the photo of "+FullName(p.FirstName, p.LastName))
	})
	return p, err
}

// putPhoto writes the person's photo in tx: ErrPersonNotFound when the
// account has no such person. The insert takes its values as VALUES, not
// from a SELECT of the person: PostgreSQL types a parameter by the column
// it goes to only there, and would take the JPEG for text.
func putPhoto(ctx context.Context, tx *txn, accountID, personID int64, jpeg []byte, now int64) error {
	if err := checkPerson(ctx, tx, accountID, personID); err != nil {
		return err
	}
	_, err := tx.ExecContext(ctx, `INSERT INTO photos (account_id, person_id, jpeg, sha256, created_at, updated_at)
		VALUES (?, ?, ?, ?, ?, ?)
		ON CONFLICT (person_id) DO UPDATE SET jpeg = excluded.jpeg, sha256 = excluded.sha256, updated_at = excluded.updated_at`,
		accountID, personID, jpeg, PhotoSum(jpeg), now, now)
	if isForeignKeyViolation(err) {
		return ErrPersonNotFound // deleted since it was checked (PostgreSQL, where writers run side by side)
	}
	if err != nil {
		return fmt.Errorf("store: set photo: %w", err)
	}
	return nil
}

// DeletePhoto deletes the person's photo.
func (s *Store) DeletePhoto(ctx context.Context, accountID, personID int64) error {
	return s.withTx(ctx, func(ctx context.Context, tx *txn) error {
		res, err := tx.ExecContext(ctx, `DELETE FROM photos WHERE person_id = ? AND account_id = ?`, personID, accountID)
		if err != nil {
			return fmt.Errorf("store: delete photo: %w", err)
		}
		if err := mustAffect(res, ErrPhotoNotFound); errors.Is(err, ErrPhotoNotFound) {
			return missingPhoto(ctx, tx, accountID, personID) // or the person is missing too
		} else if err != nil {
			return err
		}
		return s.logForPerson(ctx, tx, accountID, personID, "photo_deletion", "Deleted the photo of ")
	})
}
