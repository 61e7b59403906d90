package input

// MergeTarget reads person_id, the person to merge into the one of the
// path (personID): required, an integer, and another person. Whether it
// is a person of the account is the store's to say, after the path's
// person has had its 404.
func MergeTarget(p *Params, personID int64) int64 {
	id := p.Integer("person_id")
	switch {
	case p.Failed("person_id"):
		return 0
	case id == nil:
		p.Fail("person_id", "The person id field is required.")
		return 0
	case *id == personID:
		p.Fail("person_id", "The person id field and person must be different.")
		return 0
	}
	return *id
}
