package store

import (
	"context"
	"fmt"
	"strings"
)

// mergeDetail is what makes two contact details the same one, and where
// a detail stands among its kind.
type mergeDetail struct {
	id, position                                              int64
	kind                                                      string
	value, network, street, city, postalCode, region, country *string
}

// same tells whether two details say the same thing: same kind, the same
// value ignoring case, and the same network and address parts. Compared
// in Go, as SQLite's lower() folds ASCII only.
func (d mergeDetail) same(o mergeDetail) bool {
	eq := func(a, b *string) bool { return (a == nil) == (b == nil) && (a == nil || *a == *b) }
	return d.kind == o.kind && (d.value == nil) == (o.value == nil) &&
		(d.value == nil || strings.EqualFold(*d.value, *o.value)) &&
		eq(d.network, o.network) && eq(d.street, o.street) && eq(d.city, o.city) &&
		eq(d.postalCode, o.postalCode) && eq(d.region, o.region) && eq(d.country, o.country)
}

func mergeDetails(ctx context.Context, tx *txn, personID int64) ([]mergeDetail, error) {
	var out []mergeDetail
	err := eachRow(ctx, tx, `SELECT id, position, kind, value, network, street, city, postal_code, region, country
		FROM contact_details WHERE person_id = ? ORDER BY kind, position, id`, []any{personID},
		func(sc scanner) error {
			var d mergeDetail
			err := sc.Scan(&d.id, &d.position, &d.kind, &d.value, &d.network, &d.street, &d.city, &d.postalCode,
				&d.region, &d.country)
			out = append(out, d)
			return err
		})
	if err != nil {
		return nil, fmt.Errorf("store: merge contact details: %w", err)
	}
	return out, nil
}

// moveContactDetails moves the other's contact details that the kept
// person does not have already, after the kept person's of their kind, in
// their order; the doubles go with the other.
func moveContactDetails(ctx context.Context, tx *txn, keptID, otherID int64) error {
	kept, err := mergeDetails(ctx, tx, keptID)
	if err != nil {
		return err
	}
	other, err := mergeDetails(ctx, tx, otherID)
	if err != nil {
		return err
	}
	last := map[string]int64{} // the kept person's highest position, by kind
	for _, d := range kept {
		last[d.kind] = max(last[d.kind], d.position)
	}
	next := map[string]int64{}
	moved := 0
	for _, d := range other {
		if containsDetail(kept, d) {
			continue
		}
		// other is in position order within each kind, so numbering the
		// moved ones from the kept person's last keeps their order.
		next[d.kind]++
		if _, err := tx.ExecContext(ctx, `UPDATE contact_details SET person_id = ?, position = ? WHERE id = ?`,
			keptID, last[d.kind]+next[d.kind], d.id); err != nil {
			return fmt.Errorf("store: merge contact details: %w", err)
		}
		moved++
	}
	if len(kept)+moved > MaxContactDetails {
		return ErrTooManyContactDetails
	}
	return nil
}

func containsDetail(list []mergeDetail, d mergeDetail) bool {
	for _, k := range list {
		if k.same(d) {
			return true
		}
	}
	return false
}

// moveImportantDates moves the other's important dates but those with the
// label and date of one of the kept person's. The ones to move are chosen
// before any moves: an UPDATE whose condition reads its own table sees its
// earlier rows moved on SQLite and not on PostgreSQL.
func moveImportantDates(ctx context.Context, tx *txn, keptID, otherID int64) error {
	var ids []int64
	err := eachRow(ctx, tx, `SELECT o.id FROM important_dates o WHERE o.person_id = ? AND NOT EXISTS (
		SELECT 1 FROM important_dates k WHERE k.person_id = ? AND k.label = o.label AND k.month = o.month
			AND k.day = o.day AND coalesce(k.year, 0) = coalesce(o.year, 0))`, []any{otherID, keptID},
		func(sc scanner) error {
			var id int64
			ids = append(ids, id)
			return sc.Scan(&ids[len(ids)-1])
		})
	if err != nil {
		return fmt.Errorf("store: merge important dates: %w", err)
	}
	for _, id := range ids {
		if _, err := tx.ExecContext(ctx, `UPDATE important_dates SET person_id = ? WHERE id = ?`, keptID, id); err != nil {
			return fmt.Errorf("store: merge important dates: %w", err)
		}
	}
	return nil
}
