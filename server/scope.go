package server

import (
	"context"

	"github.com/labstack/echo/v4"

	"kith/store"
)

// Every row a request reaches is looked up within the caller's account,
// and a row outside it is as missing as one that never was: these helpers
// are that rule, shared by the resources.

// account is the caller's account id, which scopes every query.
func account(c echo.Context) int64 {
	sess, _ := session(c)
	return sess.AccountID
}

// validated returns the parameters' validation error, unless the row the
// URL names is missing: a 404 comes before a 422, as route binding does in
// the reference system, so bad input never tells whose rows exist.
func validated(p *params, exists func() error) error {
	err := p.err()
	if err == nil {
		return nil
	}
	if missing := exists(); missing != nil {
		return missing
	}
	return err
}

// personExists is validated's check on routes that name a person.
func (s *Server) personExists(ctx context.Context, acct, id int64) func() error {
	return func() error {
		_, err := s.store.Person(ctx, acct, id)
		return err
	}
}

// childIDs reads the ids of a record under a person, /persons/:person/…/:param:
// the person's first, so that a bad person is its 404 before the record's.
func childIDs(c echo.Context, param string, notFound error) (personID, id int64, err error) {
	if personID, err = pathID(c, "person", store.ErrPersonNotFound); err != nil {
		return 0, 0, err
	}
	id, err = pathID(c, param, notFound)
	return personID, id, err
}
