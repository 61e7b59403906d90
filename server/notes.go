package server

import (
	"net/http"
	"strconv"

	"github.com/labstack/echo/v4"

	"kith/store"
)

// maxNote is the longest note: PeopleOS's web app takes 20 000 characters
// (its API stops at 255, which would refuse what the web app wrote).
const maxNote = 20000

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

// noteContent reads the required content, trimmed, line breaks kept.
func noteContent(p *params) string {
	return p.require("content", p.longText("content", maxNote))
}

func (s *Server) handleNoteList(c echo.Context) error {
	personID, err := pathID(c, "person", store.ErrPersonNotFound)
	if err != nil {
		return err
	}
	p, err := readParams(c)
	if err != nil {
		return err
	}
	page, perPage := readPage(p)
	ctx, acct := c.Request().Context(), account(c)
	if err := validated(p, s.personExists(ctx, acct, personID)); err != nil {
		return err
	}
	notes, total, err := s.store.Notes(ctx, acct, personID, perPage, pageOffset(page, perPage))
	if err != nil {
		return err
	}
	out := make([]noteJSON, len(notes))
	for i, n := range notes {
		out[i] = noteOut(n)
	}
	path := s.base(c) + "/api/persons/" + strconv.FormatInt(personID, 10) + "/notes"
	return c.JSON(http.StatusOK, pageOf(path, out, page, perPage, total, p.sent("per_page")))
}

func (s *Server) handleNoteShow(c echo.Context) error {
	personID, noteID, err := childIDs(c, "note", store.ErrNoteNotFound)
	if err != nil {
		return err
	}
	n, err := s.store.Note(c.Request().Context(), account(c), personID, noteID)
	if err != nil {
		return err
	}
	return c.JSON(http.StatusOK, dataBody[noteJSON]{noteOut(n)})
}

func (s *Server) handleNoteCreate(c echo.Context) error {
	ctx, acct := c.Request().Context(), account(c)
	personID, err := pathID(c, "person", store.ErrPersonNotFound)
	if err != nil {
		return err
	}
	p, err := readParams(c)
	if err != nil {
		return err
	}
	content := noteContent(p)
	if err := validated(p, s.personExists(ctx, acct, personID)); err != nil {
		return err
	}
	n, err := s.store.CreateNote(ctx, acct, personID, content)
	if err != nil {
		return err
	}
	return c.JSON(http.StatusCreated, dataBody[noteJSON]{noteOut(n)})
}

func (s *Server) handleNoteUpdate(c echo.Context) error {
	ctx, acct := c.Request().Context(), account(c)
	personID, noteID, err := childIDs(c, "note", store.ErrNoteNotFound)
	if err != nil {
		return err
	}
	p, err := readParams(c)
	if err != nil {
		return err
	}
	content := noteContent(p)
	if err := validated(p, func() error { _, err := s.store.Note(ctx, acct, personID, noteID); return err }); err != nil {
		return err
	}
	n, err := s.store.UpdateNote(ctx, acct, personID, noteID, content)
	if err != nil {
		return err
	}
	return c.JSON(http.StatusOK, dataBody[noteJSON]{noteOut(n)})
}

func (s *Server) handleNoteDelete(c echo.Context) error {
	personID, noteID, err := childIDs(c, "note", store.ErrNoteNotFound)
	if err != nil {
		return err
	}
	if err := s.store.DeleteNote(c.Request().Context(), account(c), personID, noteID); err != nil {
		return err
	}
	return c.NoContent(http.StatusNoContent)
}
