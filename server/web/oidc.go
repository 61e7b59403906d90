package web

import (
	"errors"
	"net/http"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/labstack/echo/v4"

	"kith/server/input"
	"kith/server/web/sso"
	"kith/store"
)

// Single sign-on (OpenID Connect): /auth/oidc/login sends the browser to
// the provider with a fresh state, nonce and PKCE challenge, sealed in a
// cookie for the way back; /auth/oidc/callback checks them, exchanges the
// code, verifies the ID token (sso does) and signs in the user of its
// verified email.
//
// A state works once. The cookie is cleared at the callback, but a copy
// of it (and of the callback's URL) would still carry a valid state, so
// the callback also records the state as spent in the database, where
// every server of a shared database sees it (store.SpendOIDCState); the
// record lasts as long as the cookie could.

// SSOCookie carries a sign-in's state, nonce and PKCE verifier, sealed, to
// the callback.
const SSOCookie = "kith_oidc"

// ssoLife is how long a sign-in at the provider may take.
const ssoLife = 10 * time.Minute

const ssoPath = "/auth/oidc"

// ssoView is a refused single sign-on's page.
type ssoView struct{ Message string }

// handleSSOLogin sends the browser to the provider. It and the callback
// are routes only while single sign-on is on.
func (a *App) handleSSOLogin(c echo.Context) error {
	c.Response().Header().Set(echo.HeaderCacheControl, "no-store")
	if _, ok := input.Session(c); ok {
		return c.Redirect(http.StatusSeeOther, "/")
	}
	authURL, cookie, err := a.o.SSO.Start(c.Request().Context(), a.ssoCallback(c), ssoLife)
	if err != nil {
		return a.ssoRefused(c, err)
	}
	c.SetCookie(&http.Cookie{Name: SSOCookie, Value: cookie, Path: ssoPath, HttpOnly: true,
		SameSite: http.SameSiteLaxMode, Secure: a.secure(c), MaxAge: int(ssoLife / time.Second)})
	return c.Redirect(http.StatusFound, authURL)
}

// ssoCallback is the redirect URL registered at the provider.
func (a *App) ssoCallback(c echo.Context) string { return a.base(c) + ssoPath + "/callback" }

// errStateless refuses a callback that this browser's cookie does not
// vouch for; errStateUsed one whose state came back before.
var (
	errStateless = errors.New("web: no sign-in under way, or another one")
	errStateUsed = errors.New("web: state already used")
	errProvider  = errors.New("web: the provider answered with an error")
)

// handleSSOCallback ends a sign-in at the provider: the session, the
// Code step first for a user with two-factor on, or a page saying why not.
func (a *App) handleSSOCallback(c echo.Context) error {
	c.Response().Header().Set(echo.HeaderCacheControl, "no-store")
	// Single use: whatever happens next, this browser's cookie is spent.
	c.SetCookie(&http.Cookie{Name: SSOCookie, Path: ssoPath, MaxAge: -1, HttpOnly: true,
		SameSite: http.SameSiteLaxMode, Secure: a.secure(c)})
	pd, err := a.ssoPending(c)
	if err != nil {
		return a.ssoRefused(c, err)
	}
	code := c.QueryParam("code")
	if code == "" {
		return a.ssoRefused(c, errProvider)
	}
	id, err := a.o.SSO.Finish(c.Request().Context(), pd, code, a.ssoCallback(c))
	if err != nil {
		return a.ssoRefused(c, err)
	}
	u, err := a.ssoUser(c, id)
	if err != nil {
		return a.ssoRefused(c, err)
	}
	tf, err := a.store.UserTwoFactor(c.Request().Context(), u.ID)
	if err != nil {
		return err
	}
	if tf.Enabled() {
		return a.startCodeStep(c, u.ID, ViaOIDC)
	}
	if err := a.startSession(c, u, ViaOIDC); err != nil {
		return err
	}
	return c.Redirect(http.StatusSeeOther, "/")
}

// ssoPending is the sign-in the callback ends: the provider's error, no
// cookie, a state not the cookie's, or a state that came back before are
// refused, and the state is spent.
func (a *App) ssoPending(c echo.Context) (sso.Pending, error) {
	if c.QueryParam("error") != "" {
		return sso.Pending{}, errProvider
	}
	ck, err := c.Cookie(SSOCookie)
	if err != nil {
		return sso.Pending{}, errStateless
	}
	pd, ok := a.o.SSO.Open(ck.Value)
	state := c.QueryParam("state")
	if !ok || state == "" || !sameToken(state, pd.State) {
		return sso.Pending{}, errStateless
	}
	err = a.store.SpendOIDCState(store.WithoutActor(c.Request().Context()), pd.State, pd.Expires)
	if errors.Is(err, store.ErrOIDCStateUsed) {
		return sso.Pending{}, errStateUsed
	}
	return pd, err
}

// ssoUser is the user of the provider's verified email, made with
// oidc.auto_create when there is none.
func (a *App) ssoUser(c echo.Context, id sso.Identity) (store.User, error) {
	ctx := store.WithoutActor(c.Request().Context())
	u, err := a.store.UserByEmail(ctx, id.Email)
	switch {
	case err == nil && !u.Joined():
		return store.User{}, ssoInvited{id.Email}
	case err == nil:
		return u, nil
	case !errors.Is(err, store.ErrUserNotFound):
		return store.User{}, err
	case a.o.SSOAutoCreate == nil:
		return store.User{}, ssoUnknown{id.Email}
	}
	first, last := ssoNames(id)
	u, err = a.o.SSOAutoCreate(ctx, store.NewUser{Email: id.Email, FirstName: first, LastName: last})
	if err != nil {
		return store.User{}, err
	}
	a.log.Info().Int64("user_id", u.ID).Str("via", ViaOIDC).Str("request_id", a.o.RequestID(c)).
		Msg("user created by single sign-on")
	return u, nil
}

// ssoNames are a new user's names: given_name, else name, else the
// email's part before @; family_name, else none.
func ssoNames(id sso.Identity) (first, last string) {
	first = id.GivenName
	if first == "" {
		first = id.Name
	}
	if first == "" {
		first, _, _ = strings.Cut(id.Email, "@")
	}
	return clip(first), clip(id.FamilyName)
}

// clip keeps the first 255 characters of a name, as a form would.
func clip(s string) string {
	if utf8.RuneCountInString(s) <= 255 {
		return s
	}
	return string([]rune(s)[:255])
}

// ssoUnknown refuses a verified email with no user; ssoInvited one whose
// user was invited and has not joined.
type (
	ssoUnknown struct{ email string }
	ssoInvited struct{ email string }
)

func (e ssoUnknown) Error() string { return "web: no user for the email" }
func (e ssoInvited) Error() string { return "web: the email's user has not joined" }

// ssoRefused answers a refused single sign-on: a page saying why, with
// the way back to the sign-in page; counted and logged in a few words,
// never with a token.
func (a *App) ssoRefused(c echo.Context, err error) error {
	name := a.o.SSO.Name()
	status, why, msg := http.StatusBadRequest, "", ""
	var unknown ssoUnknown
	var invited ssoInvited
	switch {
	case errors.Is(err, errProvider):
		why, msg = "the provider sent an error or no code", "The sign-in at "+name+" was cancelled or refused. Try again."
	case errors.Is(err, errStateless):
		why, msg = "no cookie, or a state not the cookie's", "This sign-in was not begun in this browser, or it took more than 10 minutes. Try again."
	case errors.Is(err, errStateUsed):
		why, msg = "state already used", "This sign-in has been used already. Try again."
	case errors.Is(err, sso.ErrUnreachable):
		status, why, msg = http.StatusBadGateway, err.Error(), name+" cannot be reached just now. Try again in a minute."
	case errors.Is(err, sso.ErrRefused):
		why, msg = err.Error(), name+" did not accept the sign-in. Try again."
	case errors.Is(err, sso.ErrToken):
		status, why, msg = http.StatusForbidden, err.Error(), "The answer from "+name+" could not be verified, so you are not signed in."
	case errors.Is(err, sso.ErrUnverified):
		status, why, msg = http.StatusForbidden, err.Error(), name+" did not confirm that your email address is verified, so Kith cannot tell which account is yours."
	case errors.As(err, &unknown):
		status, why, msg = http.StatusForbidden, "no account for the email", "There is no account for "+unknown.email+"."
	case errors.As(err, &invited):
		status, why, msg = http.StatusForbidden, "the email's user has not joined", invited.email+" has been invited but has not joined yet: open the invitation's link first."
	default:
		return err
	}
	a.o.SignInRefused(c, ViaOIDC, why)
	return a.render(c, status, "sso", Page{Title: "Not signed in", Data: ssoView{Message: msg}})
}
