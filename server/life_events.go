package server

import (
	"github.com/labstack/echo/v4"

	"kith/server/input"
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

func (s *Server) handleLifeEventList(c echo.Context) error {
	return lifeEvents.listAll(c, func(c echo.Context, acct, person int64) ([]store.LifeEvent, error) {
		return s.store.LifeEvents(c.Request().Context(), acct, person)
	})
}

// lifeEvents serves the events of a person (see child).
var lifeEvents = child[store.LifeEvent, store.LifeEventInput]{input.LifeEvents, func(v *store.LifeEvent) any { return lifeEventOut(v) }}

func (s *Server) handleLifeEventShow(c echo.Context) error   { return lifeEvents.show(s, c) }
func (s *Server) handleLifeEventCreate(c echo.Context) error { return lifeEvents.doCreate(s, c) }
func (s *Server) handleLifeEventUpdate(c echo.Context) error { return lifeEvents.replace(s, c) }
func (s *Server) handleLifeEventDelete(c echo.Context) error { return lifeEvents.delete(s, c) }
