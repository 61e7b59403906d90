package server

import (
	"github.com/labstack/echo/v4"

	"kith/server/input"
	"kith/store"
)

type giftJSON struct {
	ID        int64   `json:"id"`
	Object    string  `json:"object"`
	Name      string  `json:"name"`
	Occasion  *string `json:"occasion"`
	URL       *string `json:"url"`
	Status    string  `json:"status"`
	GiftedAt  *int64  `json:"gifted_at"`
	CreatedAt int64   `json:"created_at"`
	UpdatedAt int64   `json:"updated_at"`
}

func giftOut(g *store.Gift) giftJSON {
	return giftJSON{ID: g.ID, Object: "gift", Name: g.Name, Occasion: g.Occasion, URL: g.URL, Status: g.Status,
		GiftedAt: g.GiftedAt, CreatedAt: g.CreatedAt, UpdatedAt: g.UpdatedAt}
}

func (s *Server) handleGiftList(c echo.Context) error {
	return gifts.listAll(c, func(c echo.Context, acct, person int64) ([]store.Gift, error) {
		return s.store.Gifts(c.Request().Context(), acct, person)
	})
}

// gifts serves the gifts of a person (see child).
var gifts = child[store.Gift, store.GiftInput]{input.Gifts, func(v *store.Gift) any { return giftOut(v) }}

func (s *Server) handleGiftShow(c echo.Context) error   { return gifts.show(s, c) }
func (s *Server) handleGiftCreate(c echo.Context) error { return gifts.doCreate(s, c) }
func (s *Server) handleGiftUpdate(c echo.Context) error { return gifts.replace(s, c) }
func (s *Server) handleGiftDelete(c echo.Context) error { return gifts.delete(s, c) }
