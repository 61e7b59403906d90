package web

import (
	"errors"
	"net/http"
	"strings"

	"github.com/labstack/echo/v4"

	"kith/server/input"
	"kith/store"
)

// The invitation's link, opened in a browser: a page to choose a password
// on, which joins the account and signs the person in. The link keeps the
// address the API documents (/api/invitations/accept?token=…), whose POST
// stays the API's; its GET is this page.

// JoinCookie carries the join form's CSRF value and the link's token, for
// POST /join only: there is no session yet to tie the token to, and the
// link's secret then travels in no form and no URL but the emailed one.
const JoinCookie = "kith_join"

// The web's ways in, as the server's metrics and log name them.
const (
	ViaPassword   = "web"
	ViaInvitation = "invitation"
	ViaOIDC       = "oidc"
	ViaPasskey    = "passkey"
)

// invalidInvitation is the API's refusal of a link that no longer works.
const invalidInvitation = "This invitation link is invalid or has expired."

// joinView is the page of an invitation link: its form, or why not.
type joinView struct {
	Form    Form
	Invalid string
}

func joinForm(csrf string) Form {
	return Form{ID: "join", Action: "/join", Submit: "Join", CSRF: csrf, Fields: []Field{
		{Name: "password", Label: "Password", Type: "password", Required: true, Auto: "new-password",
			Hint: "8 to 72 characters."},
		{Name: "password_confirmation", Label: "Confirm password", Type: "password", Required: true, Auto: "new-password"},
	}}
}

// handleJoinPage answers the link: the form while it works, else the
// API's words on a 403 page, as the API's 403. Opening it spends nothing.
func (a *App) handleJoinPage(c echo.Context) error {
	c.Response().Header().Set(echo.HeaderCacheControl, "no-store")
	token := c.QueryParam("token")
	live, err := a.store.InvitationLive(c.Request().Context(), token)
	if err != nil {
		return err
	}
	if !live {
		return a.joinInvalid(c)
	}
	return a.joinPage(c, http.StatusOK, token, nil)
}

func (a *App) joinInvalid(c echo.Context) error {
	c.SetCookie(&http.Cookie{Name: JoinCookie, Path: "/join", MaxAge: -1})
	return a.render(c, http.StatusForbidden, "join", Page{Title: "Invitation not valid", Data: joinView{Invalid: invalidInvitation}})
}

// joinPage draws the form with a fresh CSRF value, kept with the token in
// the join cookie.
func (a *App) joinPage(c echo.Context, status int, token string, errs map[string][]string) error {
	csrf := newLoginToken()
	c.SetCookie(&http.Cookie{Name: JoinCookie, Value: csrf + "|" + token, Path: "/join", HttpOnly: true,
		SameSite: http.SameSiteStrictMode, Secure: a.secure(c), MaxAge: 3600})
	return a.render(c, status, "join", Page{Title: "Join Kith", Data: joinView{Form: joinForm(csrf).Fill(nil, errs)}})
}

// handleJoin checks the passwords by the API's rules, spends the link as
// the API's accept does, and signs the new user in.
func (a *App) handleJoin(c echo.Context) error {
	c.Response().Header().Set(echo.HeaderCacheControl, "no-store")
	if err := input.ParseForm(c); err != nil {
		return err
	}
	ck, err := c.Cookie(JoinCookie)
	var csrf, token string
	if err == nil {
		csrf, token, _ = strings.Cut(ck.Value, "|")
	}
	if !sameToken(c.Request().PostForm.Get("csrf"), csrf) || token == "" {
		return errCSRF
	}
	p := input.FormParams(c)
	password := p.NewPassword("password")
	if !p.Failed("password") && c.Request().PostForm.Get("password_confirmation") != password {
		p.Fail("password_confirmation", "The password field confirmation does not match.")
	}
	if err := p.Err(); err != nil {
		return a.joinPage(c, http.StatusUnprocessableEntity, token, input.FieldErrors(err))
	}
	u, err := a.o.AcceptInvitation(c, token, password)
	var ae *input.Error
	switch {
	case errors.As(err, &ae) && ae.Status == http.StatusTooManyRequests:
		return a.joinPage(c, ae.Status, token, map[string][]string{"password": {tooManyWords(c, "Too many attempts.")}})
	case errors.As(err, &ae):
		return a.joinInvalid(c)
	case err != nil:
		return err
	}
	c.SetCookie(&http.Cookie{Name: JoinCookie, Path: "/join", MaxAge: -1})
	if err := a.startSession(c, u, ViaInvitation); err != nil {
		return err
	}
	return a.seeOther(c, "/", "Welcome to Kith: you have joined the account.")
}

// startSession signs u in to the web app: a session row, and its cookie.
// via names the way in, for the metrics and the log.
func (a *App) startSession(c echo.Context, u store.User, via string) error {
	from := store.WebClient{UserAgent: c.Request().UserAgent(), IP: c.RealIP()}
	token, err := a.store.CreateWebSession(store.WithoutActor(c.Request().Context()), u.ID, from)
	if err != nil {
		return err
	}
	a.o.SignedIn(c, u.ID, via)
	c.SetCookie(&http.Cookie{Name: sessionCookie(c), Value: token, Path: "/", HttpOnly: true,
		SameSite: http.SameSiteLaxMode, Secure: a.secure(c), MaxAge: store.WebSessionLife})
	return nil
}
