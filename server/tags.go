package server

import (
	"net/http"

	"github.com/labstack/echo/v4"

	"kith/server/input"
	"kith/store"
)

type tagJSON struct {
	ID           int64  `json:"id"`
	Object       string `json:"object"`
	Name         string `json:"name"`
	PersonsCount int64  `json:"persons_count"`
	CreatedAt    int64  `json:"created_at"`
	UpdatedAt    int64  `json:"updated_at"`
}

func tagOut(t store.Tag) tagJSON {
	return tagJSON{ID: t.ID, Object: "tag", Name: t.Name, PersonsCount: t.PersonsCount, CreatedAt: t.CreatedAt, UpdatedAt: t.UpdatedAt}
}

// handleTagList answers every tag of the account, by name ignoring case;
// not paginated.
func (s *Server) handleTagList(c echo.Context) error {
	tags, err := s.store.Tags(c.Request().Context(), input.Account(c))
	if err != nil {
		return err
	}
	out := make([]tagJSON, len(tags))
	for i, t := range tags {
		out[i] = tagOut(t)
	}
	return c.JSON(http.StatusOK, dataBody[[]tagJSON]{out})
}

func (s *Server) handleTagShow(c echo.Context) error {
	id, err := input.PathID(c, "tag", store.ErrTagNotFound)
	if err != nil {
		return err
	}
	t, err := s.store.Tag(c.Request().Context(), input.Account(c), id)
	if err != nil {
		return err
	}
	return c.JSON(http.StatusOK, dataBody[tagJSON]{tagOut(t)})
}

// handleTagUpdate renames the tag; onto another tag's name it merges the
// two, and answers the one that stays.
func (s *Server) handleTagUpdate(c echo.Context) error {
	ctx, acct := c.Request().Context(), input.Account(c)
	id, err := input.PathID(c, "tag", store.ErrTagNotFound)
	if err != nil {
		return err
	}
	p, err := input.ReadParams(c)
	if err != nil {
		return err
	}
	name := input.TagName(p)
	if err := input.Validated(p, func() error { _, err := s.store.Tag(ctx, acct, id); return err }); err != nil {
		return err
	}
	t, err := s.store.RenameTag(ctx, acct, id, name)
	if err != nil {
		return err
	}
	return c.JSON(http.StatusOK, dataBody[tagJSON]{tagOut(t)})
}

// handleTagDelete takes the tag off every person and deletes it.
func (s *Server) handleTagDelete(c echo.Context) error {
	id, err := input.PathID(c, "tag", store.ErrTagNotFound)
	if err != nil {
		return err
	}
	if err := s.store.DeleteTag(c.Request().Context(), input.Account(c), id); err != nil {
		return err
	}
	return c.NoContent(http.StatusNoContent)
}

// handlePersonTagsUpdate makes the names sent exactly the person's tags.
func (s *Server) handlePersonTagsUpdate(c echo.Context) error {
	ctx, acct := c.Request().Context(), input.Account(c)
	id, err := input.PathID(c, "person", store.ErrPersonNotFound)
	if err != nil {
		return err
	}
	p, err := input.ReadParams(c)
	if err != nil {
		return err
	}
	names := input.PersonTags(p)
	if err := input.Validated(p, s.personExists(ctx, acct, id)); err != nil {
		return err
	}
	per, err := s.store.SetPersonTags(ctx, acct, id, names)
	if err != nil {
		return err
	}
	return s.personResponse(c, http.StatusOK, per)
}
