package server

import (
	"net/http"

	"github.com/labstack/echo/v4"

	"kith/server/input"
	"kith/store"
)

type relationshipJSON struct {
	ID        int64  `json:"id"`
	Object    string `json:"object"`
	Type      idName `json:"type"`
	Person    idName `json:"person"`
	CreatedAt int64  `json:"created_at"`
	UpdatedAt int64  `json:"updated_at"`
}

// idName is a row a relationship names: its type, its other person.
type idName struct {
	ID   int64  `json:"id"`
	Name string `json:"name"`
}

func relationshipOut(r *store.Relationship) relationshipJSON {
	return relationshipJSON{ID: r.ID, Object: "relationship", Type: idName{r.TypeID, r.TypeName},
		Person:    idName{r.Other.ID, store.FullName(r.Other.FirstName, r.Other.LastName)},
		CreatedAt: r.CreatedAt, UpdatedAt: r.UpdatedAt}
}

// handleRelationshipList answers the person's relationships from both
// sides, each as the person sees it.
func (s *Server) handleRelationshipList(c echo.Context) error {
	personID, err := input.PathID(c, "person", store.ErrPersonNotFound)
	if err != nil {
		return err
	}
	rs, err := s.store.Relationships(c.Request().Context(), input.Account(c), personID)
	if err != nil {
		return err
	}
	out := make([]relationshipJSON, len(rs))
	for i := range rs {
		out[i] = relationshipOut(&rs[i])
	}
	return c.JSON(http.StatusOK, dataBody[[]relationshipJSON]{out})
}

// handleRelationshipCreate makes a relationship on the person of the
// path: person_id is, to them, what the type's name says.
func (s *Server) handleRelationshipCreate(c echo.Context) error {
	ctx, acct := c.Request().Context(), input.Account(c)
	personID, err := input.PathID(c, "person", store.ErrPersonNotFound)
	if err != nil {
		return err
	}
	p, err := input.ReadParams(c)
	if err != nil {
		return err
	}
	typeID, otherID, err := input.Relationship(p, func(typeID, otherID *int64) (store.RelationshipRefusal, error) {
		return s.store.CheckRelationship(ctx, acct, personID, typeID, otherID)
	})
	if err != nil {
		return err
	}
	r, err := s.store.CreateRelationship(ctx, acct, personID, typeID, otherID)
	if err != nil {
		return input.RelationshipError(err)
	}
	return c.JSON(http.StatusCreated, dataBody[relationshipJSON]{relationshipOut(&r)})
}

// handleRelationshipDelete deletes a relationship from either person's
// path.
func (s *Server) handleRelationshipDelete(c echo.Context) error {
	personID, id, err := input.ChildIDs(c, "relationship", store.ErrRelationshipNotFound)
	if err != nil {
		return err
	}
	if err := s.store.DeleteRelationship(c.Request().Context(), input.Account(c), personID, id); err != nil {
		return err
	}
	return c.NoContent(http.StatusNoContent)
}
