package store

import (
	"cmp"
	"context"
	"errors"
	"slices"
)

// errImportRelationship is a relationship whose type or other person the
// import does not have: the document's reader checks both before the
// import, so it is the account's types changing meanwhile, or a bug.
var errImportRelationship = errors.New("store: import: a relationship names a type or a person that the import lacks")

// pendingRelationship is a relationship held until every person is in: a
// few words, and the other person's UID.
type pendingRelationship struct {
	order                int64 // the document's id, 0 for none
	typeID, personID     int64
	otherUID             string
	createdAt, updatedAt int64
}

// relationshipTypesOf writes the document's types in place of the
// account's, or, when it has none (nil), reads the account's, so that the
// relationships can name them.
func (im *importer) relationshipTypesOf(ctx context.Context, types []RelationshipType) error {
	im.relationshipTypes = map[RelationshipTypeInput]int64{}
	name := func(t RelationshipType, id int64) {
		key := RelationshipTypeInput{Name: t.Name, NameReverse: t.NameReverse, Group: t.Group}
		if _, ok := im.relationshipTypes[key]; !ok {
			im.relationshipTypes[key] = id
		}
	}
	if types == nil {
		have, err := relationshipTypes(ctx, im.tx, im.accountID)
		for _, t := range have {
			name(t, t.ID)
		}
		return err
	}
	// The account has no persons, so no relationship holds a type.
	if err := im.exec(ctx, `DELETE FROM relationship_types WHERE account_id = ?`, im.accountID); err != nil {
		return err
	}
	for _, t := range types {
		id, err := im.insert(ctx, `INSERT INTO relationship_types (account_id, name, name_reverse, group_name, created_at, updated_at)
			VALUES (?, ?, ?, ?, ?, ?) RETURNING id`, im.accountID, t.Name, t.NameReverse, t.Group, t.CreatedAt, t.UpdatedAt)
		if err != nil {
			return err
		}
		name(t, id)
		im.n.RelationshipTypes++
	}
	return nil
}

// holdRelationships keeps the relationships of the person written as
// person, to be written once every person is in.
func (im *importer) holdRelationships(person int64, rels []RelationshipRecord) error {
	for _, rel := range rels {
		typeID, ok := im.relationshipTypes[rel.Type]
		if !ok {
			return errImportRelationship
		}
		im.relationships = append(im.relationships, pendingRelationship{order: rel.ID, typeID: typeID, personID: person,
			otherUID: rel.OtherUID, createdAt: rel.CreatedAt, updatedAt: rel.UpdatedAt})
	}
	return nil
}

// writeRelationships writes the relationships held, in the order of their
// ids in the document, those without one last in the document's order.
func (im *importer) writeRelationships(ctx context.Context) error {
	slices.SortStableFunc(im.relationships, func(a, b pendingRelationship) int {
		if (a.order == 0) != (b.order == 0) {
			return cmp.Compare(b.order, a.order) // the one with an id first; ids are positive
		}
		return cmp.Compare(a.order, b.order)
	})
	for _, rel := range im.relationships {
		other, ok := im.uids[rel.otherUID]
		if !ok {
			return errImportRelationship
		}
		if err := im.exec(ctx, `INSERT INTO relationships (account_id, relationship_type_id, person_id, other_person_id,
				created_at, updated_at) VALUES (?, ?, ?, ?, ?, ?)`,
			im.accountID, rel.typeID, rel.personID, other, rel.createdAt, rel.updatedAt); err != nil {
			return err
		}
		im.n.Relationships++
	}
	im.relationships = nil
	return nil
}
