package server

import (
	"net/http"

	"github.com/labstack/echo/v4"

	"kith/server/input"
	"kith/store"
)

// Passkeys over the API (contract-signin.md §6): listed and deleted only.
// Adding one needs a browser's WebAuthn ceremony, which the web app runs.

type passkeyJSON struct {
	ID         int64  `json:"id"`
	Object     string `json:"object"`
	Name       string `json:"name"`
	CreatedAt  int64  `json:"created_at"`
	LastUsedAt *int64 `json:"last_used_at"`
}

func (s *Server) handlePasskeyList(c echo.Context) error {
	sess, _ := input.Session(c)
	keys, err := s.store.Passkeys(c.Request().Context(), sess.UserID)
	if err != nil {
		return err
	}
	out := make([]passkeyJSON, len(keys))
	for i, k := range keys {
		out[i] = passkeyJSON{ID: k.ID, Object: "passkey", Name: k.Name, CreatedAt: k.CreatedAt, LastUsedAt: k.LastUsedAt}
	}
	return c.JSON(http.StatusOK, dataBody[[]passkeyJSON]{out})
}

func (s *Server) handlePasskeyDelete(c echo.Context) error {
	sess, _ := input.Session(c)
	id, err := input.PathID(c, "passkey", store.ErrPasskeyNotFound)
	if err != nil {
		return err
	}
	if err := s.store.DeletePasskey(c.Request().Context(), sess.UserID, id); err != nil {
		return err
	}
	return c.NoContent(http.StatusNoContent)
}
