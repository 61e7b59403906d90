package transfer

import (
	"kith/server/input"
	"kith/store"
)

// docRelationships is what the relationships of a document name, to be
// checked once the whole document is read: a relationship may name a
// person, or a type of the head, that comes after it.
type docRelationships struct {
	// types and persons are each type and UID named, with the place that
	// first names it, in the document's order; named holds them all, so
	// that each is listed once.
	types   []namedAt[store.RelationshipTypeInput]
	persons []namedAt[string]
	named   map[any]bool
	ids     map[int64]bool
	// pairs are the relationships so far, by type and the two persons'
	// UIDs, lower first: one of a type between two persons, either way.
	pairs map[relationshipPair]bool
}

// namedAt is a type or UID that the row at where names.
type namedAt[T any] struct {
	name  T
	where string
}

// name appends what the row at where names to list, unless named already.
func name[T comparable](named map[any]bool, list *[]namedAt[T], what T, where string) {
	if !named[what] {
		named[what] = true
		*list = append(*list, namedAt[T]{what, where})
	}
}

type relationshipPair struct {
	typ  store.RelationshipTypeInput
	a, b string
}

func newDocRelationships() docRelationships {
	return docRelationships{named: map[any]bool{}, ids: map[int64]bool{}, pairs: map[relationshipPair]bool{}}
}

// relationshipTypesOf reads the head's relationship types with the API's
// rules; nil when the document has none, which keeps the account's.
func (r *docReader) relationshipTypesOf(v any) []store.RelationshipType {
	return docRows(r, "relationship_types", v, func(w string, p *input.Params) store.RelationshipType {
		in := input.RelationshipType(p)
		t := store.RelationshipType{Name: in.Name, NameReverse: in.NameReverse, Group: in.Group}
		t.CreatedAt, t.UpdatedAt = r.times(p)
		return t
	})
}

// relationshipsOf reads the relationships stored on the person at where,
// whose UID is uid (nil for none): its type by name, name reverse and
// group, the other person by UID.
func (r *docReader) relationshipsOf(where string, uid *string, v any) []store.RelationshipRecord {
	// A person without a UID is named by its place, which no UID can be
	// mistaken for: its relationships are still told apart.
	self := "\x00" + where
	if uid != nil {
		self = *uid
	}
	return docRows(r, where+".relationships", v, func(w string, p *input.Params) store.RelationshipRecord {
		rel := store.RelationshipRecord{ID: docID(p, r.rels.ids)}
		rel.Type.Name = p.RequiredText("type", 255)
		rel.Type.NameReverse = rel.Type.Name
		if rev := p.Text("type_reverse", 255); rev != nil {
			rel.Type.NameReverse = *rev
		}
		rel.Type.Group = p.OneOf("group", store.RelationshipGroups, "other")
		typeOK := !p.Failed("type") && !p.Failed("type_reverse") && !p.Failed("group")
		if typeOK {
			name(r.rels.named, &r.rels.types, rel.Type, w)
		}
		other := p.Text("person_uid", maxUID)
		switch {
		case other == nil && !p.Failed("person_uid"):
			p.Fail("person_uid", "The person uid field is required.")
		case other == nil:
		case *other == self:
			p.Fail("person_uid", "The person uid field and person must be different.")
		default:
			rel.OtherUID = *other
			name(r.rels.named, &r.rels.persons, *other, w)
			pair := relationshipPair{typ: rel.Type, a: min(self, *other), b: max(self, *other)}
			if typeOK && r.rels.pairs[pair] {
				p.Fail("person_uid", "The relationship already exists.")
			}
			r.rels.pairs[pair] = true
		}
		rel.CreatedAt, rel.UpdatedAt = r.times(p)
		return rel
	})
}

// checkRelationships fails each type that the relationships name and the
// document's types (or, without them, the account's) lack, and each UID
// that no person of the document has, at the first place that names it.
func (r *docReader) checkRelationships(docTypes []store.RelationshipType) {
	types := docTypes
	if types == nil {
		types = r.accountTypes
	}
	known := make(map[store.RelationshipTypeInput]bool, len(types))
	for _, t := range types {
		known[store.RelationshipTypeInput{Name: t.Name, NameReverse: t.NameReverse, Group: t.Group}] = true
	}
	for _, t := range r.rels.types {
		if !known[t.name] {
			r.fail(t.where+".type", t.where+": The selected type is invalid.")
		}
	}
	for _, uid := range r.rels.persons {
		if !r.uids[uid.name] {
			r.fail(uid.where+".person_uid", uid.where+": The selected person uid is invalid.")
		}
	}
}
