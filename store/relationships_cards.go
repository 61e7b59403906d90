package store

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"strconv"
	"strings"
)

// CardRelation is a relationship as its person's card shows it: the other
// person's card UID, and the type's name as seen from the card's person.
type CardRelation struct {
	UID  string
	Name string
}

// loadCardRelations gives each card of at its relationships, from either
// side, by id: the persons are those loadCards read, picked again by the
// same condition.
func loadCardRelations(ctx context.Context, tx *txn, at map[int64]*Card, accountID int64, where, lim string, args []any) error {
	side := func(self, other, name string) string {
		return `SELECT r.` + self + `, r.id, o.uid, t.` + name + `
			FROM relationships r
			JOIN relationship_types t ON t.id = r.relationship_type_id
			JOIN persons o ON o.id = r.` + other + `
			WHERE r.` + self + ` IN (SELECT id FROM page)`
	}
	query := `WITH page AS (SELECT id FROM persons WHERE account_id = ? AND ` + where + ` ORDER BY id` + lim + `) ` +
		side("person_id", "other_person_id", "name") + ` UNION ALL ` +
		side("other_person_id", "person_id", "name_reverse") + ` ORDER BY 1, 2`
	err := eachRow(ctx, tx, query, append([]any{accountID}, args...), func(sc scanner) error {
		var personID, id int64
		var r CardRelation
		if err := sc.Scan(&personID, &id, &r.UID, &r.Name); err != nil {
			return err
		}
		if c, ok := at[personID]; ok {
			c.Related = append(c.Related, r)
		}
		return nil
	})
	if err != nil {
		return fmt.Errorf("store: list cards' relationships: %w", err)
	}
	return nil
}

// CardRelated is a RELATED property of an imported card that names
// another card by urn:uuid and says what that card's person is: the
// relationship it asks for.
type CardRelated struct {
	// UID is the other card's, without urn:uuid:; a person whose UID is
	// the whole URN is found too.
	UID string
	// Names are what the other person is to the card's person, in the
	// order to try them: an X-KITH-TYPE (the name of one of the account's
	// types or its name_reverse), or TYPE words (spouse, child…).
	Names []string
	// Kept is the property as a vCard fragment of its own, which the
	// person keeps among its extra properties until the relationship is
	// made (then it goes: the relationship is written instead).
	Kept string
}

// CardLinks are the relationships a card of an import asks for, made by
// LinkCards once every card of the file is a person.
type CardLinks struct {
	UID     string // the card's
	Related []CardRelated
}

// WithKept is the card's extra properties with its Related kept among
// them, as the card's person has them until the relationships are made.
func WithKept(in CardInput) string {
	extra := in.Extra
	for _, r := range in.Related {
		extra += r.Kept
	}
	return extra
}

// LinkCards makes the relationships that cards of an import ask for, in
// one transaction, when the card's person and the other card's (a person
// of the account, of this import or not) exist and one of the account's
// types has one of its names: as its name (made on the card's person) or
// its name_reverse (made on the other). A relationship the persons have
// already, made on either, is not made again. Each RELATED that is a
// relationship then leaves its person's extra properties; the others stay.
func (s *Store) LinkCards(ctx context.Context, accountID int64, cards []CardLinks) error {
	return s.withTx(ctx, func(ctx context.Context, tx *txn) error {
		return s.linkCards(ctx, tx, accountID, cards)
	})
}

func (s *Store) linkCards(ctx context.Context, tx *txn, accountID int64, cards []CardLinks) error {
	types, err := relationshipTypes(ctx, tx, accountID)
	if err != nil {
		return err
	}
	for _, c := range cards {
		personID, ok, err := personOfUID(ctx, tx, accountID, c.UID)
		if err != nil {
			return err
		}
		if ok {
			if err := s.linkCard(ctx, tx, accountID, personID, c.Related, types); err != nil {
				return err
			}
		}
	}
	return nil
}

// linkCard makes the person's relationships that related names and takes
// them out of the person's extra properties, as LinkCards does.
func (s *Store) linkCard(ctx context.Context, tx *txn, accountID, personID int64, related []CardRelated, types []RelationshipType) error {
	var made []string
	for _, r := range related {
		otherID, ok, err := personOfUID(ctx, tx, accountID, r.UID)
		if err != nil {
			return err
		}
		if !ok || otherID == personID {
			continue
		}
		typeID, reverse, ok := typeNamed(types, r.Names)
		if !ok {
			continue
		}
		from, to := personID, otherID
		if reverse {
			from, to = otherID, personID
		}
		now := s.now()
		// DO NOTHING: a relationship of that type between the two, made on
		// either (relationships_pair), is the one asked for.
		_, err = tx.ExecContext(ctx, `INSERT INTO relationships (account_id, relationship_type_id, person_id, other_person_id,
				created_at, updated_at)
			VALUES (?, ?, ?, ?, ?, ?) ON CONFLICT DO NOTHING`, accountID, typeID, from, to, now, now)
		if err != nil {
			return fmt.Errorf("store: make relationship from card: %w", err)
		}
		made = append(made, r.Kept)
	}
	return dropKept(ctx, tx, personID, made)
}

// personOfUID finds the account's person whose card has the UID, written
// bare or as a urn:uuid: URN.
func personOfUID(ctx context.Context, tx *txn, accountID int64, uid string) (int64, bool, error) {
	var id int64
	err := tx.QueryRowContext(ctx, `SELECT id FROM persons WHERE account_id = ? AND uid IN (?, ?) ORDER BY id LIMIT 1`,
		accountID, uid, "urn:uuid:"+uid).Scan(&id)
	if errors.Is(err, sql.ErrNoRows) {
		return 0, false, nil
	}
	if err != nil {
		return 0, false, fmt.Errorf("store: find card %s: %w", strconv.Quote(uid), err)
	}
	return id, true, nil
}

// typeNamed is the first type, by id, whose name is one of names (the
// first name that any type has), else whose name_reverse is: then the
// relationship is made on the other person. Names compare ignoring case.
func typeNamed(types []RelationshipType, names []string) (id int64, reverse, ok bool) {
	for _, n := range names {
		for _, t := range types {
			if strings.EqualFold(t.Name, n) {
				return t.ID, false, true
			}
		}
		for _, t := range types {
			if strings.EqualFold(t.NameReverse, n) {
				return t.ID, true, true
			}
		}
	}
	return 0, false, false
}

// dropKept takes the fragments of RELATED that are now relationships out
// of the person's extra properties, where the card's write put them; one
// no longer there (the card written since) is left alone.
func dropKept(ctx context.Context, tx *txn, personID int64, kept []string) error {
	if len(kept) == 0 {
		return nil
	}
	var extra sql.NullString
	if err := tx.QueryRowContext(ctx, `SELECT vcard_extra FROM persons WHERE id = ?`, personID).Scan(&extra); err != nil {
		return fmt.Errorf("store: read card's extra properties: %w", err)
	}
	left := extra.String
	for _, k := range kept {
		left = strings.Replace(left, k, "", 1)
	}
	if left == extra.String {
		return nil
	}
	if _, err := tx.ExecContext(ctx, `UPDATE persons SET vcard_extra = ? WHERE id = ?`, nullIfEmpty(left), personID); err != nil {
		return fmt.Errorf("store: update card's extra properties: %w", err)
	}
	return nil
}
