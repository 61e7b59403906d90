package server

import (
	"net/http"
	"strconv"

	"github.com/labstack/echo/v4"

	"kith/server/input"
	"kith/store"
)

type genderAttributes struct {
	Name      string `json:"name"`
	Position  int64  `json:"position"`
	CreatedAt int64  `json:"created_at"`
	UpdatedAt *int64 `json:"updated_at"`
}

type genderResource struct {
	Type       string           `json:"type"`
	ID         string           `json:"id"`
	Attributes genderAttributes `json:"attributes"`
	Links      links            `json:"links"`
}

func (s *Server) genderJSON(c echo.Context, g store.Gender) genderResource {
	id := strconv.FormatInt(g.ID, 10)
	return genderResource{
		Type: "gender",
		ID:   id,
		Attributes: genderAttributes{
			Name: g.Name, Position: g.Position, CreatedAt: g.CreatedAt, UpdatedAt: g.UpdatedAt,
		},
		Links: links{s.base(c) + "/api/administration/genders/" + id},
	}
}

func (s *Server) handleGenderList(c echo.Context) error {
	genders, err := s.store.Genders(c.Request().Context(), input.Account(c))
	if err != nil {
		return err
	}
	out := make([]genderResource, len(genders))
	for i, g := range genders {
		out[i] = s.genderJSON(c, g)
	}
	return c.JSON(http.StatusOK, dataBody[[]genderResource]{out})
}

func (s *Server) handleGenderShow(c echo.Context) error {
	id, err := input.PathID(c, "gender", store.ErrGenderNotFound)
	if err != nil {
		return err
	}
	g, err := s.store.Gender(c.Request().Context(), input.Account(c), id)
	if err != nil {
		return err
	}
	return c.JSON(http.StatusOK, dataBody[genderResource]{s.genderJSON(c, g)})
}

// handleGenderCreate adds a gender after the account's others; a position
// sent is ignored, as the reference system does.
func (s *Server) handleGenderCreate(c echo.Context) error {
	p, err := input.ReadParams(c)
	if err != nil {
		return err
	}
	name, _ := input.Gender(p, false)
	if err := p.Err(); err != nil {
		return err
	}
	g, err := s.store.CreateGender(c.Request().Context(), input.Account(c), name)
	if err != nil {
		return err
	}
	return c.JSON(http.StatusCreated, dataBody[genderResource]{s.genderJSON(c, g)})
}

// handleGenderUpdate renames the gender and sets its position, which any
// integer may be; the other genders keep theirs.
func (s *Server) handleGenderUpdate(c echo.Context) error {
	ctx, acct := c.Request().Context(), input.Account(c)
	id, err := input.PathID(c, "gender", store.ErrGenderNotFound)
	if err != nil {
		return err
	}
	p, err := input.ReadParams(c)
	if err != nil {
		return err
	}
	name, position := input.Gender(p, true)
	if err := input.Validated(p, func() error { _, err := s.store.Gender(ctx, acct, id); return err }); err != nil {
		return err
	}
	g, err := s.store.UpdateGender(ctx, acct, id, name, position)
	if err != nil {
		return err
	}
	return c.JSON(http.StatusOK, dataBody[genderResource]{s.genderJSON(c, g)})
}

// handleGenderDelete deletes a gender; its persons stay, without one.
func (s *Server) handleGenderDelete(c echo.Context) error {
	id, err := input.PathID(c, "gender", store.ErrGenderNotFound)
	if err != nil {
		return err
	}
	if err := s.store.DeleteGender(c.Request().Context(), input.Account(c), id); err != nil {
		return err
	}
	return c.NoContent(http.StatusNoContent)
}
