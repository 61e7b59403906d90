package server

import (
	"net/http"

	"github.com/labstack/echo/v4"

	"kith/server/input"
	"kith/store"
)

// taskCategoryJSON has the fields of store.CategoryRef in its order, so
// that a task's category converts to it without a copy.
type taskCategoryJSON struct {
	ID    int64  `json:"id"`
	Name  string `json:"name"`
	Color string `json:"color"`
}

type taskPersonJSON struct {
	ID   int64  `json:"id"`
	Name string `json:"name"`
}

type taskJSON struct {
	ID           int64             `json:"id"`
	Object       string            `json:"object"`
	Name         string            `json:"name"`
	IsCompleted  bool              `json:"is_completed"`
	DueAt        *int64            `json:"due_at"`
	CompletedAt  *int64            `json:"completed_at"`
	TaskCategory *taskCategoryJSON `json:"task_category"`
	Person       taskPersonJSON    `json:"person"`
	CreatedAt    int64             `json:"created_at"`
	UpdatedAt    int64             `json:"updated_at"`
}

func taskOut(t *store.Task) taskJSON {
	return taskJSON{
		ID: t.ID, Object: "task", Name: t.Name, IsCompleted: t.IsCompleted, DueAt: t.DueAt,
		CompletedAt: t.CompletedAt, TaskCategory: (*taskCategoryJSON)(t.Category),
		Person: taskPersonJSON{t.PersonID, t.PersonName}, CreatedAt: t.CreatedAt, UpdatedAt: t.UpdatedAt,
	}
}

func taskResponse(c echo.Context, status int, t store.Task) error {
	return writeTask(c, status, taskOut(&t))
}

func (s *Server) handleTaskList(c echo.Context) error {
	personID, err := input.PathID(c, "person", store.ErrPersonNotFound)
	if err != nil {
		return err
	}
	tasks, err := s.store.Tasks(c.Request().Context(), input.Account(c), personID)
	if err != nil {
		return err
	}
	out := make([]taskJSON, len(tasks))
	for i := range tasks {
		out[i] = taskOut(&tasks[i])
	}
	return writeTasks(c, http.StatusOK, out)
}

func (s *Server) handleTaskShow(c echo.Context) error {
	personID, taskID, err := input.ChildIDs(c, "task", store.ErrTaskNotFound)
	if err != nil {
		return err
	}
	t, err := s.store.Task(c.Request().Context(), input.Account(c), personID, taskID)
	if err != nil {
		return err
	}
	return taskResponse(c, http.StatusOK, t)
}

func (s *Server) handleTaskCreate(c echo.Context) error {
	ctx, acct := c.Request().Context(), input.Account(c)
	personID, err := input.PathID(c, "person", store.ErrPersonNotFound)
	if err != nil {
		return err
	}
	p, err := input.ReadParams(c)
	if err != nil {
		return err
	}
	in := input.Task(p)
	if err := input.Validated(p, s.personExists(ctx, acct, personID)); err != nil {
		return err
	}
	t, err := s.store.CreateTask(ctx, acct, personID, in)
	if err != nil {
		return input.TaskError(err)
	}
	return taskResponse(c, http.StatusCreated, t)
}

// handleTaskUpdate replaces name, due date and category; completion
// changes only when is_completed is sent.
func (s *Server) handleTaskUpdate(c echo.Context) error {
	ctx, acct := c.Request().Context(), input.Account(c)
	personID, taskID, err := input.ChildIDs(c, "task", store.ErrTaskNotFound)
	if err != nil {
		return err
	}
	p, err := input.ReadParams(c)
	if err != nil {
		return err
	}
	in := input.Task(p)
	in.IsCompleted = p.Boolean("is_completed")
	if err := input.Validated(p, func() error { _, err := s.store.Task(ctx, acct, personID, taskID); return err }); err != nil {
		return err
	}
	t, err := s.store.UpdateTask(ctx, acct, personID, taskID, in)
	if err != nil {
		return input.TaskError(err)
	}
	return taskResponse(c, http.StatusOK, t)
}

func (s *Server) handleTaskDelete(c echo.Context) error {
	personID, taskID, err := input.ChildIDs(c, "task", store.ErrTaskNotFound)
	if err != nil {
		return err
	}
	if err := s.store.DeleteTask(c.Request().Context(), input.Account(c), personID, taskID); err != nil {
		return err
	}
	return c.NoContent(http.StatusNoContent)
}

func (s *Server) handleTaskToggle(c echo.Context) error {
	taskID, err := input.PathID(c, "task", store.ErrTaskNotFound)
	if err != nil {
		return err
	}
	t, err := s.store.ToggleTask(c.Request().Context(), input.Account(c), taskID)
	if err != nil {
		return err
	}
	return taskResponse(c, http.StatusOK, t)
}
