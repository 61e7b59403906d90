package server

import (
	"net/http"
	"strconv"

	"github.com/labstack/echo/v4"

	"kith/server/input"
	"kith/store"
)

type noteJSON struct {
	ID        int64  `json:"id"`
	Object    string `json:"object"`
	Content   string `json:"content"`
	CreatedAt int64  `json:"created_at"`
	UpdatedAt int64  `json:"updated_at"`
}

func noteOut(n store.Note) noteJSON {
	return noteJSON{ID: n.ID, Object: "note", Content: n.Content, CreatedAt: n.CreatedAt, UpdatedAt: n.UpdatedAt}
}

func (s *Server) handleNoteList(c echo.Context) error {
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
	notes, total, err := s.store.Notes(ctx, acct, personID, perPage, input.PageOffset(page, perPage))
	if err != nil {
		return err
	}
	out := make([]noteJSON, len(notes))
	for i, n := range notes {
		out[i] = noteOut(n)
	}
	path := s.base(c) + "/api/persons/" + strconv.FormatInt(personID, 10) + "/notes"
	return c.JSON(http.StatusOK, pageOf(path, out, page, perPage, total, p.Sent("per_page")))
}

// notes serves the notes of a person (see child).
var notes = child[store.Note, string]{input.Notes, func(v *store.Note) any { return noteOut(*v) }}

func (s *Server) handleNoteShow(c echo.Context) error   { return notes.show(s, c) }
func (s *Server) handleNoteCreate(c echo.Context) error { return notes.doCreate(s, c) }
func (s *Server) handleNoteUpdate(c echo.Context) error { return notes.replace(s, c) }
func (s *Server) handleNoteDelete(c echo.Context) error { return notes.delete(s, c) }
