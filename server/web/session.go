package web

import (
	"crypto/rand"
	"crypto/sha256"
	"crypto/subtle"
	"encoding/base64"
	"net/http"

	"github.com/labstack/echo/v4"

	"kith/server/input"
	"kith/store"
)

// The web app's cookies. The session's holds "<id>|<secret>" of a
// web_sessions row; the login's holds the random value the sign-in form
// must send back, since there is no session yet to tie its CSRF token to.
const (
	SessionCookie = "kith_session"
	LoginCookie   = "kith_login"
	// SecureSessionCookie is the session's cookie over HTTPS: a browser
	// takes a __Host- cookie only from this host, over HTTPS, for every
	// path, so no sibling subdomain can plant one (RFC 6265bis).
	SecureSessionCookie = "__Host-" + SessionCookie
	// ctxSecure records whether the browser reached us over HTTPS, which
	// names the cookies.
	ctxSecure = "web secure"
)

// Authenticate remembers whose the session cookie is, as the server's
// authenticate does for a key; requireWebUser refuses.
func (a *App) Authenticate(c echo.Context, next echo.HandlerFunc) error {
	c.Set(ctxSecure, a.secure(c))
	if sess, ok := a.webSession(c); ok {
		input.SetSession(c, sess)
		c.SetRequest(c.Request().WithContext(store.WithActor(c.Request().Context(), sess.UserID)))
	}
	return next(c)
}

func (a *App) webSession(c echo.Context) (store.Session, bool) {
	ck, err := c.Cookie(sessionCookie(c))
	if err != nil || ck.Value == "" {
		return store.Session{}, false
	}
	ctx := c.Request().Context()
	sess, err := a.store.WebSession(ctx, ck.Value)
	if err != nil {
		return store.Session{}, false
	}
	if a.store.WebSessionStale(sess) {
		// Last seen is for the Security page's list: failing to record it
		// must not fail the page.
		if err := a.store.TouchWebSession(ctx, sess.KeyID, c.RealIP()); err != nil {
			a.log.Warn().Err(err).Str("request_id", a.o.RequestID(c)).Msg("recording web session use failed")
		}
	}
	return sess, true
}

// csrfToken is the token a session's forms carry: derived from the
// cookie's secret, which a cross-site page cannot read, so it needs no
// row of its own.
func csrfToken(cookie string) string {
	h := sha256.Sum256([]byte("kith csrf\x00" + cookie))
	return base64.RawURLEncoding.EncodeToString(h[:])
}

// sameToken compares a sent token with the expected one in constant time.
func sameToken(sent, want string) bool {
	return want != "" && subtle.ConstantTimeCompare([]byte(sent), []byte(want)) == 1
}

// errCSRF refuses a form without its session's token: a cross-site post,
// or a page left open across a sign-out.
var errCSRF = &input.Error{Status: http.StatusForbidden, Message: "This form has expired. Go back, reload the page and try again."}

// requireWebUser lets signed-in users through, sending everyone else to the
// sign-in page; a user whose email awaits its link sees only the page
// that says so. A POST must carry the session's CSRF token.
func (a *App) requireWebUser(next echo.HandlerFunc) echo.HandlerFunc {
	return a.webUser(next, true)
}

// requireWebKey is requireWebUser for the routes an unverified user needs:
// asking for a new link, signing out.
func (a *App) requireWebKey(next echo.HandlerFunc) echo.HandlerFunc {
	return a.webUser(next, false)
}

func (a *App) webUser(next echo.HandlerFunc, verified bool) echo.HandlerFunc {
	return func(c echo.Context) error {
		sess, ok := input.Session(c)
		if !ok {
			return c.Redirect(http.StatusSeeOther, "/login")
		}
		if c.Request().Method == http.MethodPost {
			if err := input.ParseForm(c); err != nil {
				return err
			}
			if !sameToken(c.Request().PostForm.Get("csrf"), csrf(c)) {
				return errCSRF
			}
		}
		if verified && !sess.Verified {
			return a.render(c, http.StatusForbidden, "unverified", Page{Title: "Verify your email"})
		}
		return next(c)
	}
}

// csrf is the signed-in request's form token.
func csrf(c echo.Context) string {
	ck, err := c.Cookie(sessionCookie(c))
	if err != nil {
		return ""
	}
	return csrfToken(ck.Value)
}

// newLoginToken is the sign-in form's CSRF value.
func newLoginToken() string { return rand.Text() }

// sessionCookie is the name of the session's cookie for this request.
func sessionCookie(c echo.Context) string {
	if secure, _ := c.Get(ctxSecure).(bool); secure {
		return SecureSessionCookie
	}
	return SessionCookie
}
