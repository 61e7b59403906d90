package server

import (
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
	return interactions.listPage(s, c, "interactions", (*store.Store).Interactions)
}

// interactions serves the interactions of a person (see child).
var interactions = child[store.Interaction, store.InteractionInput]{input.Interactions, func(v *store.Interaction) any { return interactionOut(v) }}

func (s *Server) handleInteractionShow(c echo.Context) error   { return interactions.show(s, c) }
func (s *Server) handleInteractionCreate(c echo.Context) error { return interactions.doCreate(s, c) }
func (s *Server) handleInteractionUpdate(c echo.Context) error { return interactions.replace(s, c) }
func (s *Server) handleInteractionDelete(c echo.Context) error { return interactions.delete(s, c) }
