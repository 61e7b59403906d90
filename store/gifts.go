package store

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
)

// ErrGiftNotFound is a gift that is not one of the person's.
var ErrGiftNotFound = &NotFoundError{What: "gift"}

// GiftStatuses are the statuses a gift can have.
var GiftStatuses = []string{"idea", "given", "offered", "received"}

// Gift is a gift idea for a person, or one given, offered or received.
type Gift struct {
	ID        int64
	PersonID  int64
	Name      string
	Occasion  *string
	URL       *string
	Status    string
	GiftedAt  *int64
	CreatedAt int64
	UpdatedAt int64
}

// GiftInput is what creating or replacing a gift takes.
type GiftInput struct {
	Name     string
	Occasion *string
	URL      *string
	Status   string
	GiftedAt *int64
}

const giftColumns = `id, person_id, name, occasion, url, status, gifted_at, created_at, updated_at`

func scanGift(sc scanner, g *Gift) error {
	var occasion, url sql.NullString
	var giftedAt sql.NullInt64
	if err := sc.Scan(&g.ID, &g.PersonID, &g.Name, &occasion, &url, &g.Status, &giftedAt, &g.CreatedAt, &g.UpdatedAt); err != nil {
		return err
	}
	g.Occasion, g.URL, g.GiftedAt = nil, nil, nil
	if occasion.Valid {
		g.Occasion = &occasion.String
	}
	if url.Valid {
		g.URL = &url.String
	}
	if giftedAt.Valid {
		g.GiftedAt = &giftedAt.Int64
	}
	return nil
}

// Gifts lists the person's gifts, newest first.
func (s *Store) Gifts(ctx context.Context, accountID, personID int64) ([]Gift, error) {
	tx, err := s.r.BeginTx(ctx, &sql.TxOptions{ReadOnly: true}) // one snapshot for the person and the list
	if err != nil {
		return nil, fmt.Errorf("store: list gifts: %w", err)
	}
	defer tx.end(ctx, false)
	if err := checkPerson(ctx, tx, accountID, personID); err != nil {
		return nil, err
	}
	rows, err := tx.QueryContext(ctx, `SELECT `+giftColumns+` FROM gifts
		WHERE person_id = ? AND account_id = ? ORDER BY created_at DESC, id DESC`, personID, accountID)
	if err != nil {
		return nil, fmt.Errorf("store: list gifts: %w", err)
	}
	defer rows.Close()
	gifts := []Gift{}
	for rows.Next() {
		var g Gift
		if err := scanGift(rows, &g); err != nil {
			return nil, fmt.Errorf("store: scan gift: %w", err)
		}
		gifts = append(gifts, g)
	}
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("store: list gifts: %w", err)
	}
	return gifts, nil
}

// Gift returns one gift of the person. When there is none it says whether
// the person or the gift is missing.
func (s *Store) Gift(ctx context.Context, accountID, personID, id int64) (Gift, error) {
	var g Gift
	err := scanGift(s.r.QueryRowContext(ctx, `SELECT `+giftColumns+` FROM gifts
		WHERE id = ? AND person_id = ? AND account_id = ?`, id, personID, accountID), &g)
	if errors.Is(err, sql.ErrNoRows) {
		return Gift{}, missingRecord(ctx, s.r, accountID, personID, ErrGiftNotFound)
	}
	if err != nil {
		return Gift{}, fmt.Errorf("store: get gift: %w", err)
	}
	return g, nil
}

// CreateGift adds a gift to the person. One INSERT finds the person in the
// account and writes the gift, so the person cannot vanish in between.
func (s *Store) CreateGift(ctx context.Context, accountID, personID int64, in GiftInput) (Gift, error) {
	var g Gift
	err := s.withTx(ctx, func(ctx context.Context, tx *txn) error {
		now := s.now()
		err := scanGift(tx.QueryRowContext(ctx, `INSERT INTO gifts (account_id, person_id, name, occasion, url, status, gifted_at, created_at, updated_at)
			SELECT p.account_id, p.id, CAST(? AS TEXT), CAST(? AS TEXT), CAST(? AS TEXT), CAST(? AS TEXT),
				CAST(? AS BIGINT), CAST(? AS BIGINT), CAST(? AS BIGINT)
			FROM persons p WHERE p.id = ? AND p.account_id = ?
			RETURNING `+giftColumns,
			in.Name, in.Occasion, in.URL, in.Status, in.GiftedAt, now, now, personID, accountID), &g)
		if errors.Is(err, sql.ErrNoRows) {
			return ErrPersonNotFound
		}
		if err != nil {
			return fmt.Errorf("store: create gift: %w", err)
		}
		return s.logForPerson(ctx, tx, accountID, personID, "gift_creation", "Logged a gift for ")
	})
	return g, err
}

// UpdateGift replaces every field of the gift: what in leaves nil is
// cleared.
func (s *Store) UpdateGift(ctx context.Context, accountID, personID, id int64, in GiftInput) (Gift, error) {
	var g Gift
	err := s.withTx(ctx, func(ctx context.Context, tx *txn) error {
		err := scanGift(tx.QueryRowContext(ctx, `UPDATE gifts SET name = ?, occasion = ?, url = ?, status = ?, gifted_at = ?, updated_at = ?
			WHERE id = ? AND person_id = ? AND account_id = ?
			RETURNING `+giftColumns,
			in.Name, in.Occasion, in.URL, in.Status, in.GiftedAt, s.now(), id, personID, accountID), &g)
		if errors.Is(err, sql.ErrNoRows) {
			return missingRecord(ctx, tx, accountID, personID, ErrGiftNotFound)
		}
		if err != nil {
			return fmt.Errorf("store: update gift: %w", err)
		}
		return s.logForPerson(ctx, tx, accountID, personID, "gift_update", "Updated a gift for ")
	})
	return g, err
}

// DeleteGift deletes one gift of the person.
func (s *Store) DeleteGift(ctx context.Context, accountID, personID, id int64) error {
	return s.withTx(ctx, func(ctx context.Context, tx *txn) error {
		res, err := tx.ExecContext(ctx, `DELETE FROM gifts WHERE id = ? AND person_id = ? AND account_id = ?`, id, personID, accountID)
		if err != nil {
			return fmt.Errorf("store: delete gift: %w", err)
		}
		if err := mustAffect(res, ErrGiftNotFound); err != nil {
			if errors.Is(err, ErrGiftNotFound) {
				return missingRecord(ctx, tx, accountID, personID, err)
			}
			return err
		}
		return s.logForPerson(ctx, tx, accountID, personID, "gift_deletion", "Deleted a gift for ")
	})
}
