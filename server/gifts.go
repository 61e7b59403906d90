package server

import (
	"net/http"
	"net/url"
	"strings"

	"github.com/labstack/echo/v4"

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

// giftInput reads every field of a gift, on create and on replace alike.
// PeopleOS's API takes idea, given and offered; its web app also writes
// received, and Kith takes all four.
func giftInput(p *params) store.GiftInput {
	in := store.GiftInput{
		Name:     p.requiredText("name", 255),
		Status:   p.oneOf("status", store.GiftStatuses, ""),
		Occasion: p.text("occasion", 255),
		URL:      p.text("url", 255),
		GiftedAt: p.timestamp("date"),
	}
	if in.Status == "" && !p.failed("status") {
		p.fail("status", "The status field is required.")
	}
	if in.URL != nil && !absoluteURL(*in.URL) {
		p.fail("url", "The url field must be a valid URL.")
		in.URL = nil
	}
	return in
}

// absoluteURL reports whether s has a scheme, "://" and a host: a port
// or user alone ("http://:80", "http://u@:80") is no host.
func absoluteURL(s string) bool {
	u, err := url.Parse(s)
	return err == nil && u.Scheme != "" && u.Hostname() != "" && strings.HasPrefix(s[len(u.Scheme):], "://")
}

func (s *Server) handleGiftList(c echo.Context) error {
	personID, err := pathID(c, "person", store.ErrPersonNotFound)
	if err != nil {
		return err
	}
	gifts, err := s.store.Gifts(c.Request().Context(), account(c), personID)
	if err != nil {
		return err
	}
	out := make([]giftJSON, len(gifts))
	for i := range gifts {
		out[i] = giftOut(&gifts[i])
	}
	return c.JSON(http.StatusOK, dataBody[[]giftJSON]{out})
}

// gifts serves the gifts of a person (see child).
var gifts = child[store.Gift, store.GiftInput]{
	param: "gift", notFound: store.ErrGiftNotFound,
	input:  func(s *Server, c echo.Context, p *params) store.GiftInput { return giftInput(p) },
	out:    func(v *store.Gift) any { return giftOut(v) },
	get:    (*store.Store).Gift,
	create: (*store.Store).CreateGift,
	update: (*store.Store).UpdateGift,
	remove: (*store.Store).DeleteGift,
}

func (s *Server) handleGiftShow(c echo.Context) error   { return gifts.show(s, c) }
func (s *Server) handleGiftCreate(c echo.Context) error { return gifts.doCreate(s, c) }
func (s *Server) handleGiftUpdate(c echo.Context) error { return gifts.replace(s, c) }
func (s *Server) handleGiftDelete(c echo.Context) error { return gifts.delete(s, c) }
