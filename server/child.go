package server

import (
	"context"
	"net/http"

	"github.com/labstack/echo/v4"

	"kith/server/input"
	"kith/store"
)

// child serves one of input's Child kinds (life events, gifts, important
// dates, …) over the API: showing, creating, replacing and deleting one go
// the same way whatever it is, so one set of handlers serves them all;
// out shapes one as its JSON.
type child[T, In any] struct {
	input.Child[T, In]
	out func(*T) any
}

func (r child[T, In]) respond(c echo.Context, status int, v T) error {
	return c.JSON(status, dataBody[any]{r.out(&v)})
}

func (r child[T, In]) show(s *Server, c echo.Context) error {
	personID, id, err := input.ChildIDs(c, r.Param, r.NotFound)
	if err != nil {
		return err
	}
	v, err := r.Get(s.store, c.Request().Context(), input.Account(c), personID, id)
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
	in := r.Read(p, s.today(c))
	if err := input.Validated(p, s.personExists(ctx, acct, personID)); err != nil {
		return err
	}
	v, err := r.Create(s.store, ctx, acct, personID, in)
	if err != nil {
		return err
	}
	return r.respond(c, http.StatusCreated, v)
}

// replace answers 404 for a missing person or row before 422 for bad
// fields.
func (r child[T, In]) replace(s *Server, c echo.Context) error {
	ctx, acct := c.Request().Context(), input.Account(c)
	personID, id, err := input.ChildIDs(c, r.Param, r.NotFound)
	if err != nil {
		return err
	}
	p, err := input.ReadParams(c)
	if err != nil {
		return err
	}
	in := r.Read(p, s.today(c))
	if err := input.Validated(p, func() error { _, err := r.Get(s.store, ctx, acct, personID, id); return err }); err != nil {
		return err
	}
	v, err := r.Update(s.store, ctx, acct, personID, id, in)
	if err != nil {
		return err
	}
	return r.respond(c, http.StatusOK, v)
}

func (r child[T, In]) delete(s *Server, c echo.Context) error {
	personID, id, err := input.ChildIDs(c, r.Param, r.NotFound)
	if err != nil {
		return err
	}
	if err := r.Remove(s.store, c.Request().Context(), input.Account(c), personID, id); err != nil {
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
