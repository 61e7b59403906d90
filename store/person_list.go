package store

import "context"

// Orders of the people list (PersonListQuery.Order).
const (
	// OrderByName is by first name, then last name, case aside.
	OrderByName = "name"
	// OrderByLastName is by last name A→Z, people without one after.
	OrderByLastName = "last_name"
	// OrderByLastContacted is the most recent interaction first, people
	// never contacted after everyone contacted.
	OrderByLastContacted = "last_contacted"
)

// PersonOrders are the orders ListPersons takes.
var PersonOrders = []string{OrderByName, OrderByLastName, OrderByLastContacted}

// lastContacted is the person's latest interaction day, which the
// interactions' triggers keep (migration 0038).
const lastContacted = `persons.last_contacted`

// personOrders are the ORDER BY of each order, the id last so that a
// page never repeats or skips a person. An empty day sorts below every
// date, so that DESC puts the never-contacted last on both engines.
var personOrders = map[string]string{
	// The expressions of the index persons_by_name (migration 0023).
	OrderByName: `lower(first_name), lower(coalesce(last_name, '')), id`,
	// The expressions of the index persons_by_last_name (migration 0029).
	OrderByLastName: `(coalesce(last_name, '') = ''), lower(coalesce(last_name, '')), lower(first_name), id`,
	// The expressions of the index persons_by_last_contacted (migration 0038).
	OrderByLastContacted: `coalesce(` + lastContacted + `, '') DESC, lower(first_name), lower(coalesce(last_name, '')), id`,
}

// listedColumns are what ListPersons reads beside a person: the company
// (or, without one, the job title) of their active work history entry (a
// person has one at most), and their last interaction's day.
const listedColumns = `(SELECT coalesce(w.company_name, w.job_title) FROM work_history w
		WHERE w.person_id = persons.id AND w.active), ` + lastContacted

// PersonListQuery is which of the account's persons the people list
// shows, and in which order.
type PersonListQuery struct {
	// Search is text a name, nickname or email holds (SearchPersons);
	// Tag the name of a tag they have (TaggedPersons); nil for any.
	Search, Tag *string
	// Order is one of PersonOrders; "" is OrderByName.
	Order string
}

// ListedPerson is a person as the people list shows them.
type ListedPerson struct {
	Person
	// Company is their active job's company (or its title), nil for none.
	Company *string
	// LastContact is the day of their latest interaction, YYYY-MM-DD, nil
	// for none.
	LastContact *string
}

// ListPersons is a page of the people list: the persons q picks, in its
// order, with their company and last contact, and how many q picks in
// all. Three queries, whatever the page's size.
func (s *Store) ListPersons(ctx context.Context, accountID int64, q PersonListQuery, limit, offset int64) ([]ListedPerson, int64, error) {
	var cond string
	var args []any
	if q.Tag != nil {
		cond = taggedCond
		args = append(args, accountID, FoldTag(*q.Tag))
	}
	if q.Search != nil {
		search, searchArgs := s.eng.searchPersons(accountID, *q.Search)
		cond += ` AND ` + search
		args = append(args, searchArgs...)
	}
	order, ok := personOrders[q.Order]
	if !ok {
		order = personOrders[OrderByName]
	}
	return s.listedPage(ctx, accountID, cond, args, order, true, limit, offset)
}

// withExtra scans a row into the scanner's destinations and then extra,
// for the columns a query adds after an entity's own.
type withExtra struct {
	sc    scanner
	extra []any
}

func (w withExtra) Scan(dest ...any) error { return w.sc.Scan(append(dest, w.extra...)...) }
