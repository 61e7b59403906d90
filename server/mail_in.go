package server

import (
	"net/http"

	"github.com/labstack/echo/v4"

	"kith/server/input"
)

// Mail-in: each user's private address, log-SECRET@mail_in.domain, which
// the receiver (server/mailin) takes messages for. Unlike the calendar
// feed's URL it is shown on every GET: a user pastes it into a BCC field
// or a mail filter whenever they set one up.

type mailInJSON struct {
	Object  string  `json:"object"`
	Enabled bool    `json:"enabled"`
	Address *string `json:"address"`
}

// mailInAnswer is the user's address, or the off state.
func (s *Server) mailInAnswer(c echo.Context, secret string) error {
	body := mailInJSON{Object: "mail_in", Enabled: s.mailInDomain != ""}
	if body.Enabled {
		a := "log-" + secret + "@" + s.mailInDomain
		body.Address = &a
	}
	return c.JSON(http.StatusOK, dataBody[mailInJSON]{body})
}

// handleMailInShow answers the user's address, made on the first GET.
func (s *Server) handleMailInShow(c echo.Context) error {
	if s.mailInDomain == "" {
		return s.mailInAnswer(c, "")
	}
	sess, _ := input.Session(c)
	secret, err := s.store.MailInSecret(c.Request().Context(), sess.UserID)
	if err != nil {
		return err
	}
	return s.mailInAnswer(c, secret)
}

// handleMailInRotate gives the user a new address; the old one is
// refused from then on.
func (s *Server) handleMailInRotate(c echo.Context) error {
	if s.mailInDomain == "" {
		return s.mailInAnswer(c, "")
	}
	sess, _ := input.Session(c)
	secret, err := s.store.RotateMailInSecret(c.Request().Context(), sess.UserID)
	if err != nil {
		return err
	}
	return s.mailInAnswer(c, secret)
}
