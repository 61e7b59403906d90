package server

import (
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
	return notes.listPage(s, c, "notes", (*store.Store).Notes)
}

// notes serves the notes of a person (see child).
var notes = child[store.Note, string]{input.Notes, func(v *store.Note) any { return noteOut(*v) }}

func (s *Server) handleNoteShow(c echo.Context) error   { return notes.show(s, c) }
func (s *Server) handleNoteCreate(c echo.Context) error { return notes.doCreate(s, c) }
func (s *Server) handleNoteUpdate(c echo.Context) error { return notes.replace(s, c) }
func (s *Server) handleNoteDelete(c echo.Context) error { return notes.delete(s, c) }
