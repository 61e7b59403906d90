package input

import (
	"errors"

	"kith/store"
)

// MergeTarget reads person_id, the person to merge into the one of the
// path (personID): required, an integer, and another person. Whether it
// is a person of the account is the store's to say, after the path's
// person has had its 404 (MergeError).
func MergeTarget(p *Params, personID int64) int64 {
	id := p.requiredInteger(relatedPersonKey)
	if id != nil && *id == personID {
		p.Fail(relatedPersonKey, MsgSameRelatedPerson)
	}
	if id == nil || p.Failed(relatedPersonKey) {
		return 0
	}
	return *id
}

// MergeError turns the store's refusals of a merge into what the client
// reads: an unknown person_id is its 422, a protected one the 403 of a
// deletion.
func MergeError(err error) error {
	switch {
	case errors.Is(err, store.ErrMergeUnknown):
		return Invalid(relatedPersonKey, MsgUnknownRelatedPerson)
	case errors.Is(err, store.ErrPersonProtected):
		return ErrPersonProtected
	}
	return err
}
