package server

import (
	"net/http"
	"strconv"

	"github.com/labstack/echo/v4"

	"kith/server/input"
	"kith/store"
)

type interactionJSON struct {
	ID         int64   `json:"id"`
	Object     string  `json:"object"`
	HappenedOn string  `json:"happened_on"`
	Kind       string  `json:"kind"`
	Note       *string `json:"note"`
	CreatedAt  int64   `json:"created_at"`
	UpdatedAt  int64   `json:"updated_at"`
}

func interactionOut(in *store.Interaction) interactionJSON {
	return interactionJSON{ID: in.ID, Object: "interaction", HappenedOn: in.HappenedOn, Kind: in.Kind, Note: in.Note,
		CreatedAt: in.CreatedAt, UpdatedAt: in.UpdatedAt}
}

func (s *Server) handleInteractionList(c echo.Context) error {
	personID, err := input.PathID(c, "person", store.ErrPersonNotFound)
	if err != nil {
		return err
	}
	p, err := input.ReadParams(c)
	if err != nil {
		return err
	}
	page, perPage := readPage(p)
	ctx, acct := c.Request().Context(), input.Account(c)
	if err := input.Validated(p, s.personExists(ctx, acct, personID)); err != nil {
		return err
	}
	list, total, err := s.store.Interactions(ctx, acct, personID, perPage, input.PageOffset(page, perPage))
	if err != nil {
		return err
	}
	out := make([]interactionJSON, len(list))
	for i := range list {
		out[i] = interactionOut(&list[i])
	}
	path := s.base(c) + "/api/persons/" + strconv.FormatInt(personID, 10) + "/interactions"
	return c.JSON(http.StatusOK, pageOf(path, out, page, perPage, total, p.Sent("per_page")))
}

// interactions serves the interactions of a person (see child).
var interactions = child[store.Interaction, store.InteractionInput]{input.Interactions, func(v *store.Interaction) any { return interactionOut(v) }}

func (s *Server) handleInteractionShow(c echo.Context) error   { return interactions.show(s, c) }
func (s *Server) handleInteractionCreate(c echo.Context) error { return interactions.doCreate(s, c) }
func (s *Server) handleInteractionUpdate(c echo.Context) error { return interactions.replace(s, c) }
func (s *Server) handleInteractionDelete(c echo.Context) error { return interactions.delete(s, c) }
