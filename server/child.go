package server

import (
	"context"
	"net/http"
	"strconv"

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

// listAll answers every one of the person's records of this kind, as
// all reads them (with their query's parameters, if the kind has any).
func (r child[T, In]) listAll(c echo.Context, all func(c echo.Context, acct, person int64) ([]T, error)) error {
	personID, err := input.PathID(c, "person", store.ErrPersonNotFound)
	if err != nil {
		return err
	}
	vs, err := all(c, input.Account(c), personID)
	if err != nil {
		return err
	}
	return c.JSON(http.StatusOK, dataBody[[]any]{r.outs(vs)})
}

// listPage answers one page of the person's records of this kind, as the
// contract pages a list; segment names the list in the page's links.
func (r child[T, In]) listPage(s *Server, c echo.Context, segment string,
	page func(st *store.Store, ctx context.Context, acct, person, limit, offset int64) ([]T, int64, error)) error {
	personID, err := input.PathID(c, "person", store.ErrPersonNotFound)
	if err != nil {
		return err
	}
	p, err := input.ReadParams(c)
	if err != nil {
		return err
	}
	n, perPage := readPage(p)
	ctx, acct := c.Request().Context(), input.Account(c)
	if err := input.Validated(p, s.personExists(ctx, acct, personID)); err != nil {
		return err
	}
	vs, total, err := page(s.store, ctx, acct, personID, perPage, input.PageOffset(n, perPage))
	if err != nil {
		return err
	}
	path := s.base(c) + "/api/persons/" + strconv.FormatInt(personID, 10) + "/" + segment
	return c.JSON(http.StatusOK, pageOf(path, r.outs(vs), n, perPage, total, p.Sent("per_page")))
}

// outs shapes each record as its JSON.
func (r child[T, In]) outs(vs []T) []any {
	out := make([]any, len(vs))
	for i := range vs {
		out[i] = r.out(&vs[i])
	}
	return out
}
