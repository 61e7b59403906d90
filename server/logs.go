package server

import (
	"net/http"
	"strconv"

	"github.com/labstack/echo/v4"

	"kith/server/input"
	"kith/store"
)

// logsPerPage is the page size of the log list: always 10, per_page is
// ignored (contract-more §11).
const logsPerPage = 10

type logAttributes struct {
	Name        string `json:"name"`
	Action      string `json:"action"`
	Description string `json:"description"`
	CreatedAt   int64  `json:"created_at"`
	UpdatedAt   int64  `json:"updated_at"`
}

type logResource struct {
	Type       string        `json:"type"`
	ID         string        `json:"id"`
	Attributes logAttributes `json:"attributes"`
	Links      links         `json:"links"`
}

func (s *Server) logJSON(c echo.Context, l *store.Log) logResource {
	id := strconv.FormatInt(l.ID, 10)
	return logResource{
		Type: "log",
		ID:   id,
		Attributes: logAttributes{
			Name: l.Name, Action: l.Action, Description: l.Description, CreatedAt: l.CreatedAt, UpdatedAt: l.UpdatedAt,
		},
		Links: links{s.base(c) + "/api/administration/logs/" + id},
	}
}

// handleLogList answers the user's own log entries, newest first.
func (s *Server) handleLogList(c echo.Context) error {
	sess, _ := input.Session(c)
	p, err := input.ReadParams(c)
	if err != nil {
		return err
	}
	page := int64(1)
	if n := p.Integer("page"); n != nil && *n < 1 {
		p.Fail("page", "The page field must be at least 1.")
	} else if n != nil {
		page = *n
	}
	if err := p.Err(); err != nil {
		return err
	}
	logs, total, err := s.store.Logs(c.Request().Context(), sess.UserID, logsPerPage, input.PageOffset(page, logsPerPage))
	if err != nil {
		return err
	}
	out := make([]logResource, len(logs))
	for i := range logs {
		out[i] = s.logJSON(c, &logs[i])
	}
	return c.JSON(http.StatusOK, pageOf(s.base(c)+"/api/administration/logs", out, page, logsPerPage, total, false))
}

// handleLogShow answers one of the user's own log entries.
func (s *Server) handleLogShow(c echo.Context) error {
	sess, _ := input.Session(c)
	id, err := input.PathID(c, "log", store.ErrLogNotFound)
	if err != nil {
		return err
	}
	l, err := s.store.Log(c.Request().Context(), sess.UserID, id)
	if err != nil {
		return err
	}
	return c.JSON(http.StatusOK, dataBody[logResource]{s.logJSON(c, &l)})
}
