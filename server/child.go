package server

import (
	"context"
	"net/http"

	"github.com/labstack/echo/v4"

	"kith/server/input"
	"kith/store"
)

// child is a resource that belongs to a person (life events, gifts,
// important dates, …). Showing, creating, replacing and deleting one go
// the same way whatever it is, so one set of handlers serves them all;
// each resource names its types, its store methods and how it reads and
// shows itself.
type child[T, In any] struct {
	param    string // the path parameter of its id
	notFound error
	// input reads the fields, the same on create and on replace.
	input  func(s *Server, c echo.Context, p *input.Params) In
	out    func(*T) any
	get    func(st *store.Store, ctx context.Context, acct, person, id int64) (T, error)
	create func(st *store.Store, ctx context.Context, acct, person int64, in In) (T, error)
	update func(st *store.Store, ctx context.Context, acct, person, id int64, in In) (T, error)
	remove func(st *store.Store, ctx context.Context, acct, person, id int64) error
}

func (r child[T, In]) respond(c echo.Context, status int, v T) error {
	return c.JSON(status, dataBody[any]{r.out(&v)})
}

func (r child[T, In]) show(s *Server, c echo.Context) error {
	personID, id, err := input.ChildIDs(c, r.param, r.notFound)
	if err != nil {
		return err
	}
	v, err := r.get(s.store, c.Request().Context(), input.Account(c), personID, id)
	if err != nil {
		return err
	}
	return r.respond(c, http.StatusOK, v)
}

// doCreate answers 404 for a missing person before 422 for bad fields.
func (r child[T, In]) doCreate(s *Server, c echo.Context) error {
	ctx, acct := c.Request().Context(), input.Account(c)
	personID, err := input.PathID(c, "person", store.ErrPersonNotFound)
	if err != nil {
		return err
	}
	p, err := input.ReadParams(c)
	if err != nil {
		return err
	}
	in := r.input(s, c, p)
	if err := input.Validated(p, s.personExists(ctx, acct, personID)); err != nil {
		return err
	}
	v, err := r.create(s.store, ctx, acct, personID, in)
	if err != nil {
		return err
	}
	return r.respond(c, http.StatusCreated, v)
}

// replace answers 404 for a missing person or row before 422 for bad
// fields.
func (r child[T, In]) replace(s *Server, c echo.Context) error {
	ctx, acct := c.Request().Context(), input.Account(c)
	personID, id, err := input.ChildIDs(c, r.param, r.notFound)
	if err != nil {
		return err
	}
	p, err := input.ReadParams(c)
	if err != nil {
		return err
	}
	in := r.input(s, c, p)
	if err := input.Validated(p, func() error { _, err := r.get(s.store, ctx, acct, personID, id); return err }); err != nil {
		return err
	}
	v, err := r.update(s.store, ctx, acct, personID, id, in)
	if err != nil {
		return err
	}
	return r.respond(c, http.StatusOK, v)
}

func (r child[T, In]) delete(s *Server, c echo.Context) error {
	personID, id, err := input.ChildIDs(c, r.param, r.notFound)
	if err != nil {
		return err
	}
	if err := r.remove(s.store, c.Request().Context(), input.Account(c), personID, id); err != nil {
		return err
	}
	return c.NoContent(http.StatusNoContent)
}

// personExists is input.Validated's check on routes that name a person.
func (s *Server) personExists(ctx context.Context, acct, id int64) func() error {
	return func() error {
		_, err := s.store.Person(ctx, acct, id)
		return err
	}
}
