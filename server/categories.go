package server

import (
	"net/http"
	"strconv"

	"github.com/labstack/echo/v4"

	"kith/server/input"
	"kith/store"
)

type categoryAttributes struct {
	Name      string `json:"name"`
	Color     string `json:"color"`
	CreatedAt int64  `json:"created_at"`
	UpdatedAt *int64 `json:"updated_at"`
}

type categoryResource struct {
	Type       string             `json:"type"`
	ID         string             `json:"id"`
	Attributes categoryAttributes `json:"attributes"`
	Links      links              `json:"links"`
}

func (s *Server) categoryJSON(c echo.Context, cat store.TaskCategory) categoryResource {
	id := strconv.FormatInt(cat.ID, 10)
	return categoryResource{
		Type: "task_category",
		ID:   id,
		Attributes: categoryAttributes{
			Name: cat.Name, Color: cat.Color, CreatedAt: cat.CreatedAt, UpdatedAt: cat.UpdatedAt,
		},
		Links: links{s.base(c) + "/api/administration/task-categories/" + id},
	}
}

func (s *Server) handleCategoryList(c echo.Context) error {
	cats, err := s.store.TaskCategories(c.Request().Context(), input.Account(c))
	if err != nil {
		return err
	}
	out := make([]categoryResource, len(cats))
	for i, cat := range cats {
		out[i] = s.categoryJSON(c, cat)
	}
	return c.JSON(http.StatusOK, dataBody[[]categoryResource]{out})
}

func (s *Server) handleCategoryShow(c echo.Context) error {
	id, err := input.PathID(c, "id", store.ErrCategoryNotFound)
	if err != nil {
		return err
	}
	cat, err := s.store.TaskCategory(c.Request().Context(), input.Account(c), id)
	if err != nil {
		return err
	}
	return c.JSON(http.StatusOK, dataBody[categoryResource]{s.categoryJSON(c, cat)})
}

func (s *Server) handleCategoryCreate(c echo.Context) error {
	p, err := input.ReadParams(c)
	if err != nil {
		return err
	}
	name, color := input.Category(p)
	if err := p.Err(); err != nil {
		return err
	}
	cat, err := s.store.CreateTaskCategory(c.Request().Context(), input.Account(c), name, color)
	if err != nil {
		return err
	}
	return c.JSON(http.StatusCreated, dataBody[categoryResource]{s.categoryJSON(c, cat)})
}

func (s *Server) handleCategoryUpdate(c echo.Context) error {
	ctx, acct := c.Request().Context(), input.Account(c)
	id, err := input.PathID(c, "id", store.ErrCategoryNotFound)
	if err != nil {
		return err
	}
	p, err := input.ReadParams(c)
	if err != nil {
		return err
	}
	name, color := input.Category(p)
	if err := input.Validated(p, func() error { _, err := s.store.TaskCategory(ctx, acct, id); return err }); err != nil {
		return err
	}
	cat, err := s.store.UpdateTaskCategory(ctx, acct, id, name, color)
	if err != nil {
		return err
	}
	return c.JSON(http.StatusOK, dataBody[categoryResource]{s.categoryJSON(c, cat)})
}

// handleCategoryDelete deletes a category; its tasks stay, uncategorised.
func (s *Server) handleCategoryDelete(c echo.Context) error {
	id, err := input.PathID(c, "id", store.ErrCategoryNotFound)
	if err != nil {
		return err
	}
	if err := s.store.DeleteTaskCategory(c.Request().Context(), input.Account(c), id); err != nil {
		return err
	}
	return c.NoContent(http.StatusNoContent)
}
