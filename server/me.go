package server

import (
	"errors"
	"net/http"
	"strconv"
	"strings"

	"github.com/labstack/echo/v4"

	"kith/server/input"
	"kith/store"
)

type userAttributes struct {
	FirstName string  `json:"first_name"`
	LastName  string  `json:"last_name"`
	Nickname  *string `json:"nickname"`
	Email     string  `json:"email"`
	BornAt    *int64  `json:"born_at"`
}

type userResource struct {
	Type       string         `json:"type"`
	ID         string         `json:"id"`
	Attributes userAttributes `json:"attributes"`
	Links      links          `json:"links"`
}

type timezoneResource struct {
	Type       string `json:"type"`
	Attributes struct {
		Timezone string `json:"timezone"`
	} `json:"attributes"`
	Links links `json:"links"`
}

func (s *Server) userJSON(c echo.Context, u store.User) dataBody[userResource] {
	return dataBody[userResource]{userResource{
		Type: "user",
		ID:   strconv.FormatInt(u.ID, 10),
		Attributes: userAttributes{
			FirstName: u.FirstName, LastName: u.LastName, Nickname: u.Nickname, Email: u.Email, BornAt: u.BornAt,
		},
		Links: links{s.base(c) + "/api/me"},
	}}
}

func (s *Server) timezoneJSON(c echo.Context, tz string) dataBody[timezoneResource] {
	var r timezoneResource
	r.Type = "timezone"
	r.Attributes.Timezone = tz
	r.Links.Self = s.base(c) + "/api/me"
	return dataBody[timezoneResource]{r}
}

func (s *Server) handleMeShow(c echo.Context) error {
	sess, _ := input.Session(c)
	u, err := s.store.User(c.Request().Context(), sess.UserID)
	if err != nil {
		return err
	}
	return c.JSON(http.StatusOK, s.userJSON(c, u))
}

// handleMeUpdate replaces the profile: an omitted optional field is cleared.
func (s *Server) handleMeUpdate(c echo.Context) error {
	p, err := input.ReadParams(c)
	if err != nil {
		return err
	}
	if err := s.apiEmailChangeAllowed(c, p); err != nil {
		return err
	}
	u, err := s.updateProfile(c, p)
	if err != nil {
		return err
	}
	return c.JSON(http.StatusOK, s.userJSON(c, u))
}

// apiEmailChangeAllowed checks current_password, checked as a sign-in is
// (a wrong one counts toward the login throttles), when the request sends
// one, and requires it for a change of email when the operator turned
// api.email_change_needs_password on. It is off by default because
// PeopleOS's clients change the email with a key alone (contract.md §6):
// with it on, a stolen key cannot move the account to another address.
func (s *Server) apiEmailChangeAllowed(c echo.Context, p *input.Params) error {
	sess, _ := input.Session(c)
	_, _, sent := p.Scalar("current_password")
	to, _, _ := p.Scalar("email")
	change := strings.TrimSpace(to) != "" && !strings.EqualFold(strings.TrimSpace(to), sess.Email)
	if !sent && !(change && s.emailNeedsPassword) {
		return nil
	}
	current := p.Password("current_password", 255)
	if p.Failed("current_password") {
		if !sent {
			return input.Invalid("current_password", "The current password is needed to change the email.")
		}
		return p.Err()
	}
	_, err := s.checkLogin(c, sess.Email, current, viaAPI)
	if errors.Is(err, input.ErrInvalidCredentials) {
		return input.Invalid("current_password", "The password is incorrect.")
	}
	return err
}

// updateProfile replaces the signed-in user's profile with p's, mailing
// a verification link when the email changed. A bad profile is a
// *ValidationError.
func (s *Server) updateProfile(c echo.Context, p *input.Params) (store.User, error) {
	sess, _ := input.Session(c)
	today, _ := s.userDay(c)
	prof := input.Profile(p, today)
	if err := p.Err(); err != nil {
		return store.User{}, err
	}
	u, secret, err := s.store.UpdateProfile(c.Request().Context(), sess.UserID, prof)
	if errors.Is(err, store.ErrEmailTaken) {
		return store.User{}, input.Invalid("email", "The email has already been taken.")
	}
	if err != nil {
		return store.User{}, err
	}
	if secret != "" {
		s.sendVerification(c, u, secret)
	}
	return u, nil
}

func (s *Server) handleTimezoneShow(c echo.Context) error {
	sess, _ := input.Session(c)
	return c.JSON(http.StatusOK, s.timezoneJSON(c, sess.Timezone))
}

func (s *Server) handleTimezoneUpdate(c echo.Context) error {
	sess, _ := input.Session(c)
	p, err := input.ReadParams(c)
	if err != nil {
		return err
	}
	tz := input.Timezone(p)
	if err := p.Err(); err != nil {
		return err
	}
	u, err := s.store.SetTimezone(c.Request().Context(), sess.UserID, tz)
	if err != nil {
		return err
	}
	return c.JSON(http.StatusOK, s.timezoneJSON(c, u.Timezone))
}
