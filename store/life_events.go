package store

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
)

// ErrLifeEventNotFound reports a life event that is not the person's.
var ErrLifeEventNotFound = &NotFoundError{What: "life event"}

// LifeEvent is something that happened to a person.
type LifeEvent struct {
	ID          int64
	PersonID    int64
	Description string
	// Comment, Icon, BgColor and TextColor are nil when unset.
	Comment, Icon, BgColor, TextColor *string
	HappenedAt                        int64
	// ShouldBeReminded marks HappenedAt's month and day as a yearly reminder.
	ShouldBeReminded bool
	CreatedAt        int64
	UpdatedAt        int64
}

// LifeEventInput is what creating or replacing a life event takes.
type LifeEventInput struct {
	Description                       string
	Comment, Icon, BgColor, TextColor *string
	HappenedAt                        int64
	ShouldBeReminded                  bool
}

const lifeEventColumns = `id, person_id, description, comment, icon, bg_color, text_color,
	happened_at, should_be_reminded, created_at, updated_at`

func scanLifeEvent(sc scanner, ev *LifeEvent) error {
	return sc.Scan(&ev.ID, &ev.PersonID, &ev.Description, &ev.Comment, &ev.Icon, &ev.BgColor, &ev.TextColor,
		&ev.HappenedAt, &ev.ShouldBeReminded, &ev.CreatedAt, &ev.UpdatedAt)
}

// LifeEvents lists the person's life events, newest first.
func (s *Store) LifeEvents(ctx context.Context, accountID, personID int64) ([]LifeEvent, error) {
	tx, err := s.r.BeginTx(ctx, &sql.TxOptions{ReadOnly: true}) // the person and the events in one snapshot
	if err != nil {
		return nil, fmt.Errorf("store: list life events: %w", err)
	}
	defer tx.end(ctx, false)
	if err := checkPerson(ctx, tx, accountID, personID); err != nil {
		return nil, err
	}
	rows, err := tx.QueryContext(ctx, `SELECT `+lifeEventColumns+` FROM life_events
		WHERE person_id = ? AND account_id = ?
		ORDER BY created_at DESC, id DESC`, personID, accountID)
	if err != nil {
		return nil, fmt.Errorf("store: list life events: %w", err)
	}
	defer rows.Close()
	events := []LifeEvent{}
	for rows.Next() {
		var ev LifeEvent
		if err := scanLifeEvent(rows, &ev); err != nil {
			return nil, fmt.Errorf("store: scan life event: %w", err)
		}
		events = append(events, ev)
	}
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("store: list life events: %w", err)
	}
	return events, nil
}

// LifeEvent returns one life event of the person. When there is none it
// says whether the person or the event is missing.
func (s *Store) LifeEvent(ctx context.Context, accountID, personID, id int64) (LifeEvent, error) {
	var ev LifeEvent
	err := scanLifeEvent(s.r.QueryRowContext(ctx, `SELECT `+lifeEventColumns+` FROM life_events
		WHERE id = ? AND person_id = ? AND account_id = ?`, id, personID, accountID), &ev)
	if errors.Is(err, sql.ErrNoRows) {
		return LifeEvent{}, missingLifeEvent(ctx, s.r, accountID, personID)
	}
	if err != nil {
		return LifeEvent{}, fmt.Errorf("store: get life event: %w", err)
	}
	return ev, nil
}

// missingLifeEvent tells, once a life event of the person was not found,
// whether the person or only the event is missing.
func missingLifeEvent(ctx context.Context, q queryer, accountID, personID int64) error {
	if err := checkPerson(ctx, q, accountID, personID); err != nil {
		return err
	}
	return ErrLifeEventNotFound
}

// CreateLifeEvent adds a life event to the person. One INSERT finds the
// person in the account and writes the event, so that the person cannot
// vanish between a check and the write.
func (s *Store) CreateLifeEvent(ctx context.Context, accountID, personID int64, in LifeEventInput) (LifeEvent, error) {
	var ev LifeEvent
	err := s.withTx(ctx, func(ctx context.Context, tx *txn) error {
		now := s.now()
		err := scanLifeEvent(tx.QueryRowContext(ctx, `INSERT INTO life_events (account_id, person_id, description,
				comment, icon, bg_color, text_color, happened_at, should_be_reminded, created_at, updated_at)
			SELECT p.account_id, p.id, CAST(? AS TEXT), CAST(? AS TEXT), CAST(? AS TEXT), CAST(? AS TEXT),
				CAST(? AS TEXT), CAST(? AS BIGINT), CAST(? AS BOOLEAN), CAST(? AS BIGINT), CAST(? AS BIGINT)
			FROM persons p WHERE p.id = ? AND p.account_id = ?
			RETURNING `+lifeEventColumns,
			in.Description, in.Comment, in.Icon, in.BgColor, in.TextColor, in.HappenedAt, in.ShouldBeReminded,
			now, now, personID, accountID), &ev)
		if errors.Is(err, sql.ErrNoRows) {
			return ErrPersonNotFound
		}
		if err != nil {
			return fmt.Errorf("store: create life event: %w", err)
		}
		return s.logForPerson(ctx, tx, accountID, personID, "life_event_creation", "Logged a life event for ")
	})
	return ev, err
}

// UpdateLifeEvent replaces every field of the person's life event.
func (s *Store) UpdateLifeEvent(ctx context.Context, accountID, personID, id int64, in LifeEventInput) (LifeEvent, error) {
	var ev LifeEvent
	err := s.withTx(ctx, func(ctx context.Context, tx *txn) error {
		err := scanLifeEvent(tx.QueryRowContext(ctx, `UPDATE life_events SET description = ?, comment = ?, icon = ?,
				bg_color = ?, text_color = ?, happened_at = ?, should_be_reminded = ?, updated_at = ?
			WHERE id = ? AND person_id = ? AND account_id = ?
			RETURNING `+lifeEventColumns,
			in.Description, in.Comment, in.Icon, in.BgColor, in.TextColor, in.HappenedAt, in.ShouldBeReminded,
			s.now(), id, personID, accountID), &ev)
		if errors.Is(err, sql.ErrNoRows) {
			return missingLifeEvent(ctx, tx, accountID, personID)
		}
		if err != nil {
			return fmt.Errorf("store: update life event: %w", err)
		}
		return s.logForPerson(ctx, tx, accountID, personID, "life_event_update", "Updated a life event for ")
	})
	return ev, err
}

// DeleteLifeEvent deletes one life event of the person, and with it its
// yearly reminder.
func (s *Store) DeleteLifeEvent(ctx context.Context, accountID, personID, id int64) error {
	return s.withTx(ctx, func(ctx context.Context, tx *txn) error {
		res, err := tx.ExecContext(ctx, `DELETE FROM life_events WHERE id = ? AND person_id = ? AND account_id = ?`, id, personID, accountID)
		if err != nil {
			return fmt.Errorf("store: delete life event: %w", err)
		}
		if err := mustAffect(res, ErrLifeEventNotFound); err != nil {
			if errors.Is(err, ErrLifeEventNotFound) {
				return missingLifeEvent(ctx, tx, accountID, personID)
			}
			return err
		}
		return s.logForPerson(ctx, tx, accountID, personID, "life_event_deletion", "Deleted a life event for ")
	})
}
