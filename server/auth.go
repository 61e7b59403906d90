package server

import (
	"context"
	"errors"
	"net/http"
	"time"

	"github.com/labstack/echo/v4"

	"kith/store"
)

type loginBody struct {
	Message string `json:"message"`
	Status  int    `json:"status"`
	Data    struct {
		Token string `json:"token"`
	} `json:"data"`
}

// handleLogin exchanges an email and password for a new API key.
func (s *Server) handleLogin(c echo.Context) error {
	p, err := readParams(c)
	if err != nil {
		return err
	}
	email := p.email("email", 255)
	password := p.password("password", 255)
	if err := p.err(); err != nil {
		return err
	}

	// Five failures for one email from one address block both for the rest
	// of the minute, the right password included: guessing stays slow.
	throttle := email + "|" + c.RealIP()
	if wait, blocked := s.logins.Blocked(throttle); blocked {
		setRetryAfter(c, wait)
		return errTooManyAttempts
	}
	ctx := c.Request().Context()
	u, err := s.store.Login(ctx, email, password)
	if errors.Is(err, store.ErrInvalidCredentials) {
		s.logins.Fail(throttle)
		return errInvalidCredentials
	}
	if err != nil {
		return err
	}
	s.logins.Clear(throttle)
	if !u.Verified() {
		return errUnverified
	}

	_, token, err := s.store.CreateAPIKey(ctx, u.ID, "API token for "+u.Email)
	if err != nil {
		return err
	}
	body := loginBody{Message: "Authenticated", Status: http.StatusOK}
	body.Data.Token = token
	return c.JSON(http.StatusOK, body)
}

// handleLogout revokes the key that authenticated the request.
func (s *Server) handleLogout(c echo.Context) error {
	sess, _ := session(c)
	if err := s.store.DeleteAPIKey(c.Request().Context(), sess.UserID, sess.KeyID); err != nil {
		return err
	}
	return c.JSON(http.StatusOK, messageBody{"Logged out successfully", http.StatusOK})
}

// handleHealth reports whether the database answers.
func (s *Server) handleHealth(c echo.Context) error {
	ctx, cancel := context.WithTimeout(c.Request().Context(), 2*time.Second)
	defer cancel()
	if err := s.store.Ping(ctx); err != nil {
		return errors.Join(errUnavailable, err)
	}
	return c.JSON(http.StatusOK, messageBody{"ok", http.StatusOK})
}
