package input

import (
	"errors"

	"kith/store"
)

// Messages of relationships and their types.
const (
	MsgRelationshipTypeInUse   = "The relationship type is in use."
	MsgUnknownRelationshipType = "The selected relationship type id is invalid."
	MsgUnknownRelatedPerson    = "The selected person id is invalid."
	MsgSameRelatedPerson       = "The person id field and person must be different."
	MsgRelationshipExists      = "The relationship already exists."
)

// RelationshipType reads a relationship type, the same on create and on
// replace: a name_reverse left out is the name (a symmetric type), a group
// left out is "other".
func RelationshipType(p *Params) store.RelationshipTypeInput {
	in := store.RelationshipTypeInput{Name: p.RequiredText("name", 255)}
	in.NameReverse = in.Name
	if r := p.Text("name_reverse", 255); r != nil {
		in.NameReverse = *r
	}
	in.Group = p.OneOf("group", store.RelationshipGroups, "other")
	return in
}

// RelationshipTypeError turns the refusal to delete a type in use into
// the 422 the client reads.
func RelationshipTypeError(err error) error {
	if errors.Is(err, store.ErrRelationshipTypeInUse) {
		return Invalid("relationship_type", MsgRelationshipTypeInUse)
	}
	return err
}

// The fields of a relationship.
const (
	relationshipTypeKey = "relationship_type_id"
	relatedPersonKey    = "person_id"
)

// Relationship reads a relationship's type and other person, and reports
// every failure of both fields, each field's first: check tells what the
// account's rows say of the ids that were given (nil for one that was
// not), or that the person of the path is missing, which it returns first.
func Relationship(p *Params, check func(typeID, otherID *int64) (store.RelationshipRefusal, error)) (typeID, otherID int64, err error) {
	// A first reading, on a copy, finds the ids to check; the second
	// records the failures in the fields' order, the database's with the
	// others, so that the summary names the first field's.
	peek := &Params{values: p.values}
	refusal, err := check(peek.requiredInteger(relationshipTypeKey), peek.requiredInteger(relatedPersonKey))
	if err != nil {
		return 0, 0, err
	}
	t := p.requiredInteger(relationshipTypeKey)
	if t != nil && refusal.UnknownType {
		p.Fail(relationshipTypeKey, MsgUnknownRelationshipType)
	}
	o := p.requiredInteger(relatedPersonKey)
	if o != nil {
		refuseRelated(p, refusal)
	}
	if err := p.Err(); err != nil {
		return 0, 0, err
	}
	return *t, *o, nil
}

// refuseRelated records the refusal's failure of the other person, the
// first that applies.
func refuseRelated(p *Params, r store.RelationshipRefusal) {
	switch {
	case r.UnknownPerson:
		p.Fail(relatedPersonKey, MsgUnknownRelatedPerson)
	case r.SamePerson:
		p.Fail(relatedPersonKey, MsgSameRelatedPerson)
	case r.Exists:
		p.Fail(relatedPersonKey, MsgRelationshipExists)
	}
}

// RelationshipError turns a refusal found in the write's own transaction
// (a type or person gone, a twin made meanwhile) into the 422 the checks
// before it would have answered.
func RelationshipError(err error) error {
	var r *store.RelationshipRefusal
	if !errors.As(err, &r) {
		return err
	}
	p := NewParams(nil)
	if r.UnknownType {
		p.Fail(relationshipTypeKey, MsgUnknownRelationshipType)
	}
	refuseRelated(p, *r)
	return p.Err()
}

// requiredInteger is an integer that must be there.
func (p *Params) requiredInteger(key string) *int64 {
	n := p.Integer(key)
	if n == nil && !p.Failed(key) {
		p.Fail(key, "The "+Attr(key)+" field is required.")
	}
	return n
}
