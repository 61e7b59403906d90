package input

import (
	"github.com/labstack/echo/v4"

	"kith/store"
)

// Every row a request reaches is looked up within the caller's account,
// and a row outside it is as missing as one that never was: these helpers
// are that rule, shared by the API, the pages and the importers.

// Account is the caller's account id, which scopes every query.
func Account(c echo.Context) int64 {
	sess, _ := Session(c)
	return sess.AccountID
}

// User is the id of the request's user.
func User(c echo.Context) int64 {
	sess, _ := Session(c)
	return sess.UserID
}

// Validated returns the parameters' validation error, unless the row the
// URL names is missing: a 404 comes before a 422, as route binding does in
// the reference system, so bad input never tells whose rows exist.
func Validated(p *Params, exists func() error) error {
	err := p.Err()
	if err == nil {
		return nil
	}
	if missing := exists(); missing != nil {
		return missing
	}
	return err
}

// ChildIDs reads the ids of a record under a person, /persons/:person/…/:param:
// the person's first, so that a bad person is its 404 before the record's.
func ChildIDs(c echo.Context, param string, notFound error) (personID, id int64, err error) {
	if personID, err = PathID(c, "person", store.ErrPersonNotFound); err != nil {
		return 0, 0, err
	}
	id, err = PathID(c, param, notFound)
	return personID, id, err
}

func Session(c echo.Context) (store.Session, bool) {
	sess, ok := c.Get(ctxSession).(store.Session)
	return sess, ok
}

// ctxSession is where a request's session is kept: the key's or the
// session cookie's, whichever surface authenticated it.
const ctxSession = "session"

// SetSession records who the request is from.
func SetSession(c echo.Context, sess store.Session) { c.Set(ctxSession, sess) }
