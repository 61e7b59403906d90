package server

import (
	"errors"
	"net/http"

	"github.com/labstack/echo/v4"

	"kith/server/input"
	"kith/store"
)

// handlePhotoShow answers the person's photo, the JPEG Kith made, with a
// strong ETag (its digest) and 304 to a client that has it already. The
// web app's pages show it through this handler too (web.Options.Photo).
// no-cache rather than the API's no-store: a browser may keep the image,
// and asks each time whether it is still the one.
func (s *Server) handlePhotoShow(c echo.Context) error {
	id, err := input.PathID(c, "person", store.ErrPersonNotFound)
	if err != nil {
		return err
	}
	p, err := s.store.Photo(c.Request().Context(), input.Account(c), id)
	if err != nil {
		return err
	}
	etag := `"` + p.SHA256 + `"`
	h := c.Response().Header()
	h.Set(echo.HeaderCacheControl, "private, no-cache")
	h.Set("ETag", etag)
	if input.NoneMatch(c.Request(), etag) {
		return c.NoContent(http.StatusNotModified)
	}
	return c.Blob(http.StatusOK, "image/jpeg", p.JPEG)
}

// handlePhotoUpdate makes the image sent the person's photo (see
// input.Photo), replacing any.
func (s *Server) handlePhotoUpdate(c echo.Context) error {
	ctx, acct := c.Request().Context(), input.Account(c)
	id, err := input.PathID(c, "person", store.ErrPersonNotFound)
	if err != nil {
		return err
	}
	jpeg, err := input.Photo(c)
	var invalid *input.ValidationError
	if errors.As(err, &invalid) {
		if missing := s.personExists(ctx, acct, id)(); missing != nil {
			return missing // a 404 before a 422
		}
	}
	if err != nil {
		return err
	}
	per, err := s.store.SetPhoto(ctx, acct, id, jpeg)
	if err != nil {
		return err
	}
	return s.personResponse(c, http.StatusOK, per)
}

func (s *Server) handlePhotoDelete(c echo.Context) error {
	id, err := input.PathID(c, "person", store.ErrPersonNotFound)
	if err != nil {
		return err
	}
	if err := s.store.DeletePhoto(c.Request().Context(), input.Account(c), id); err != nil {
		return err
	}
	return c.NoContent(http.StatusNoContent)
}
