package server

import (
	"net/http"

	"github.com/labstack/echo/v4"

	"kith/server/input"
	"kith/store"
)

type relationshipTypeJSON struct {
	ID          int64  `json:"id"`
	Object      string `json:"object"`
	Name        string `json:"name"`
	NameReverse string `json:"name_reverse"`
	Group       string `json:"group"`
	CreatedAt   int64  `json:"created_at"`
	UpdatedAt   int64  `json:"updated_at"`
}

func relationshipTypeOut(t *store.RelationshipType) relationshipTypeJSON {
	return relationshipTypeJSON{ID: t.ID, Object: "relationship_type", Name: t.Name, NameReverse: t.NameReverse,
		Group: t.Group, CreatedAt: t.CreatedAt, UpdatedAt: t.UpdatedAt}
}

func relationshipTypeResponse(c echo.Context, status int, t store.RelationshipType) error {
	return c.JSON(status, dataBody[relationshipTypeJSON]{relationshipTypeOut(&t)})
}

func (s *Server) handleRelationshipTypeList(c echo.Context) error {
	ts, err := s.store.RelationshipTypes(c.Request().Context(), input.Account(c))
	if err != nil {
		return err
	}
	out := make([]relationshipTypeJSON, len(ts))
	for i := range ts {
		out[i] = relationshipTypeOut(&ts[i])
	}
	return c.JSON(http.StatusOK, dataBody[[]relationshipTypeJSON]{out})
}

func (s *Server) handleRelationshipTypeShow(c echo.Context) error {
	id, err := input.PathID(c, "type", store.ErrRelationshipTypeNotFound)
	if err != nil {
		return err
	}
	t, err := s.store.RelationshipType(c.Request().Context(), input.Account(c), id)
	if err != nil {
		return err
	}
	return relationshipTypeResponse(c, http.StatusOK, t)
}

func (s *Server) handleRelationshipTypeCreate(c echo.Context) error {
	p, err := input.ReadParams(c)
	if err != nil {
		return err
	}
	in := input.RelationshipType(p)
	if err := p.Err(); err != nil {
		return err
	}
	t, err := s.store.CreateRelationshipType(c.Request().Context(), input.Account(c), in)
	if err != nil {
		return err
	}
	return relationshipTypeResponse(c, http.StatusCreated, t)
}

// handleRelationshipTypeUpdate replaces the type: a name_reverse or group
// left out goes back to its default, as on creation.
func (s *Server) handleRelationshipTypeUpdate(c echo.Context) error {
	ctx, acct := c.Request().Context(), input.Account(c)
	id, err := input.PathID(c, "type", store.ErrRelationshipTypeNotFound)
	if err != nil {
		return err
	}
	p, err := input.ReadParams(c)
	if err != nil {
		return err
	}
	in := input.RelationshipType(p)
	if err := input.Validated(p, func() error { _, err := s.store.RelationshipType(ctx, acct, id); return err }); err != nil {
		return err
	}
	t, err := s.store.UpdateRelationshipType(ctx, acct, id, in)
	if err != nil {
		return err
	}
	return relationshipTypeResponse(c, http.StatusOK, t)
}

// handleRelationshipTypeDelete deletes a type that no relationship has.
func (s *Server) handleRelationshipTypeDelete(c echo.Context) error {
	id, err := input.PathID(c, "type", store.ErrRelationshipTypeNotFound)
	if err != nil {
		return err
	}
	if err := s.store.DeleteRelationshipType(c.Request().Context(), input.Account(c), id); err != nil {
		return input.RelationshipTypeError(err)
	}
	return c.NoContent(http.StatusNoContent)
}
