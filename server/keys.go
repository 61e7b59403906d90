package server

import (
	"net/http"
	"strconv"

	"github.com/labstack/echo/v4"

	"kith/server/input"
	"kith/store"
)

type keyAttributes struct {
	Name       string  `json:"name"`
	Token      *string `json:"token"`
	LastUsedAt *int64  `json:"last_used_at"`
	CreatedAt  int64   `json:"created_at"`
	UpdatedAt  int64   `json:"updated_at"`
}

type keyResource struct {
	Type       string        `json:"type"`
	ID         string        `json:"id"`
	Attributes keyAttributes `json:"attributes"`
	Links      links         `json:"links"`
}

type keyCreatedBody struct {
	Data  keyResource `json:"data"`
	Token string      `json:"token"`
}

// keyJSON shapes a key; token is nil except in the response that made it.
func (s *Server) keyJSON(c echo.Context, k store.APIKey, token *string) keyResource {
	id := strconv.FormatInt(k.ID, 10)
	return keyResource{
		Type: "api_key",
		ID:   id,
		Attributes: keyAttributes{
			Name: k.Name, Token: token, LastUsedAt: k.LastUsedAt, CreatedAt: k.CreatedAt, UpdatedAt: k.UpdatedAt,
		},
		Links: links{s.base(c) + "/api/administration/api/" + id},
	}
}

func (s *Server) handleKeyList(c echo.Context) error {
	sess, _ := input.Session(c)
	keys, err := s.store.APIKeys(c.Request().Context(), sess.UserID)
	if err != nil {
		return err
	}
	out := make([]keyResource, len(keys))
	for i, k := range keys {
		out[i] = s.keyJSON(c, k, nil)
	}
	return c.JSON(http.StatusOK, dataBody[[]keyResource]{out})
}

func (s *Server) handleKeyShow(c echo.Context) error {
	sess, _ := input.Session(c)
	id, err := input.PathID(c, "id", store.ErrAPIKeyNotFound)
	if err != nil {
		return err
	}
	k, err := s.store.APIKey(c.Request().Context(), sess.UserID, id)
	if err != nil {
		return err
	}
	return c.JSON(http.StatusOK, dataBody[keyResource]{s.keyJSON(c, k, nil)})
}

func (s *Server) handleKeyCreate(c echo.Context) error {
	sess, _ := input.Session(c)
	p, err := input.ReadParams(c)
	if err != nil {
		return err
	}
	label := p.RequiredText("label", 255)
	if err := p.Err(); err != nil {
		return err
	}
	k, token, err := s.store.CreateAPIKey(c.Request().Context(), sess.UserID, label)
	if err != nil {
		return err
	}
	return c.JSON(http.StatusCreated, keyCreatedBody{Data: s.keyJSON(c, k, &token), Token: token})
}

// handleKeyDelete revokes one of the user's keys, the one in use included.
func (s *Server) handleKeyDelete(c echo.Context) error {
	sess, _ := input.Session(c)
	id, err := input.PathID(c, "id", store.ErrAPIKeyNotFound)
	if err != nil {
		return err
	}
	if err := s.store.DeleteAPIKey(c.Request().Context(), sess.UserID, id); err != nil {
		return err
	}
	return c.NoContent(http.StatusNoContent)
}
