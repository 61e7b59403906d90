package store

import (
	"context"
	"fmt"
)

// moveRelationships gives the kept person the other's relationships with
// third persons, from the same side and of the same type, but for those
// the kept person has already with that person (either way round); one
// between the two merged persons goes, as no one is related to themself.
func moveRelationships(ctx context.Context, tx *txn, keptID, otherID int64) error {
	if _, err := tx.ExecContext(ctx, `DELETE FROM relationships
		WHERE (person_id = ? AND other_person_id = ?) OR (person_id = ? AND other_person_id = ?)`,
		keptID, otherID, otherID, keptID); err != nil {
		return fmt.Errorf("store: merge relationships: %w", err)
	}
	type link struct{ id, typeID, person, other int64 }
	var links []link
	err := eachRow(ctx, tx, `SELECT id, relationship_type_id, person_id, other_person_id FROM relationships
		WHERE person_id = ? OR other_person_id = ? ORDER BY id`, []any{otherID, otherID},
		func(sc scanner) error {
			var l link
			err := sc.Scan(&l.id, &l.typeID, &l.person, &l.other)
			links = append(links, l)
			return err
		})
	if err != nil {
		return fmt.Errorf("store: merge relationships: %w", err)
	}
	for _, l := range links {
		third := l.other
		if l.other == otherID {
			third = l.person
		}
		var had bool
		if err := tx.QueryRowContext(ctx, `SELECT EXISTS (SELECT 1 FROM relationships WHERE relationship_type_id = ?
			AND ((person_id = ? AND other_person_id = ?) OR (person_id = ? AND other_person_id = ?)))`,
			l.typeID, keptID, third, third, keptID).Scan(&had); err != nil {
			return fmt.Errorf("store: merge relationships: %w", err)
		}
		query := `UPDATE relationships SET person_id = CASE WHEN person_id = ? THEN ? ELSE person_id END,
			other_person_id = CASE WHEN other_person_id = ? THEN ? ELSE other_person_id END WHERE id = ?`
		args := []any{otherID, keptID, otherID, keptID, l.id}
		if had {
			query, args = `DELETE FROM relationships WHERE id = ?`, []any{l.id}
		}
		if _, err := tx.ExecContext(ctx, query, args...); err != nil {
			return fmt.Errorf("store: merge relationships: %w", err)
		}
	}
	return nil
}
