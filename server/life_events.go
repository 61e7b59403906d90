package server

import (
	"net/http"

	"github.com/labstack/echo/v4"

	"kith/store"
)

type lifeEventJSON struct {
	ID               int64   `json:"id"`
	Object           string  `json:"object"`
	Description      string  `json:"description"`
	Comment          *string `json:"comment"`
	Icon             *string `json:"icon"`
	BgColor          *string `json:"bg_color"`
	TextColor        *string `json:"text_color"`
	HappenedAt       int64   `json:"happened_at"`
	ShouldBeReminded bool    `json:"should_be_reminded"`
	CreatedAt        int64   `json:"created_at"`
	UpdatedAt        int64   `json:"updated_at"`
}

func lifeEventOut(ev *store.LifeEvent) lifeEventJSON {
	return lifeEventJSON{
		ID: ev.ID, Object: "life_event", Description: ev.Description, Comment: ev.Comment, Icon: ev.Icon,
		BgColor: ev.BgColor, TextColor: ev.TextColor, HappenedAt: ev.HappenedAt,
		ShouldBeReminded: ev.ShouldBeReminded, CreatedAt: ev.CreatedAt, UpdatedAt: ev.UpdatedAt,
	}
}

// lifeEventInput reads the fields of a life event, the same on create and
// on update, which replaces: what is not sent is cleared.
func lifeEventInput(p *params) store.LifeEventInput {
	in := store.LifeEventInput{
		Description: p.requiredText("description", 255),
		Comment:     p.text("comment", 255),
		Icon:        p.text("icon", 255),
		BgColor:     p.text("bg_color", 255),
		TextColor:   p.text("text_color", 255),
	}
	if at := p.timestamp("happened_at"); at != nil {
		in.HappenedAt = *at
	} else if !p.failed("happened_at") {
		p.fail("happened_at", "The happened at field is required.")
	}
	if b := p.boolean("should_be_reminded"); b != nil {
		in.ShouldBeReminded = *b
	}
	return in
}

func (s *Server) handleLifeEventList(c echo.Context) error {
	personID, err := pathID(c, "person", store.ErrPersonNotFound)
	if err != nil {
		return err
	}
	events, err := s.store.LifeEvents(c.Request().Context(), account(c), personID)
	if err != nil {
		return err
	}
	out := make([]lifeEventJSON, len(events))
	for i := range events {
		out[i] = lifeEventOut(&events[i])
	}
	return c.JSON(http.StatusOK, dataBody[[]lifeEventJSON]{out})
}

// lifeEvents serves the events of a person (see child).
var lifeEvents = child[store.LifeEvent, store.LifeEventInput]{
	param: "event", notFound: store.ErrLifeEventNotFound,
	input:  func(s *Server, c echo.Context, p *params) store.LifeEventInput { return lifeEventInput(p) },
	out:    func(v *store.LifeEvent) any { return lifeEventOut(v) },
	get:    (*store.Store).LifeEvent,
	create: (*store.Store).CreateLifeEvent,
	update: (*store.Store).UpdateLifeEvent,
	remove: (*store.Store).DeleteLifeEvent,
}

func (s *Server) handleLifeEventShow(c echo.Context) error   { return lifeEvents.show(s, c) }
func (s *Server) handleLifeEventCreate(c echo.Context) error { return lifeEvents.doCreate(s, c) }
func (s *Server) handleLifeEventUpdate(c echo.Context) error { return lifeEvents.replace(s, c) }
func (s *Server) handleLifeEventDelete(c echo.Context) error { return lifeEvents.delete(s, c) }
