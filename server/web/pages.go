package web

import (
	"bytes"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/labstack/echo/v4"

	"kith/server/input"
)

// webSecurity are the headers of every page: no script but our own file,
// no framing, and no path (which holds ids) in the Referer of a link out.
func webSecurity(next echo.HandlerFunc) echo.HandlerFunc {
	return func(c echo.Context) error {
		setWebHeaders(c.Response().Header())
		return next(c)
	}
}

func setWebHeaders(h http.Header) {
	h.Set("Content-Security-Policy", "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; form-action 'self'; frame-ancestors 'none'; base-uri 'none'; object-src 'none'")
	h.Set("X-Frame-Options", "DENY")
	h.Set("Referrer-Policy", "same-origin")
}

// render writes a page; the signed-in user and their CSRF token come from
// the request.
func (a *App) render(c echo.Context, status int, name string, pg Page) error {
	if sess, ok := input.Session(c); ok {
		pg.User = &User{Email: sess.Email}
		pg.CSRF = csrf(c)
	}
	if pg.Flash == "" {
		pg.Flash = takeFlash(c)
	}
	// Into a buffer first: a template that fails must leave the response
	// uncommitted, so that the error handler answers (and logs) a 500
	// rather than an empty page with this status.
	pages, err := parsedPages()
	if err != nil {
		return err
	}
	var buf bytes.Buffer
	if err := pages.Render(&buf, name, pg); err != nil {
		return err
	}
	c.Response().Header().Set(echo.HeaderContentType, echo.MIMETextHTMLCharsetUTF8)
	c.Response().WriteHeader(status)
	_, err = buf.WriteTo(c.Response())
	return err
}

// flashCookie carries a one-line report ("Task added.") across the
// redirect that follows a form, so that reloading the page does not post
// again.
const flashCookie = "kith_flash"

// flashCookieName is the flash's cookie for this request: __Host- over
// HTTPS, as the session's.
func flashCookieName(c echo.Context) string {
	if secure, _ := c.Get(ctxSecure).(bool); secure {
		return "__Host-" + flashCookie
	}
	return flashCookie
}

// seeOther ends a form that worked: a flash for the next page, then a 303.
func (a *App) seeOther(c echo.Context, to, flash string) error {
	if flash != "" {
		c.SetCookie(&http.Cookie{Name: flashCookieName(c), Value: url.QueryEscape(clipFlash(flash)), Path: "/", HttpOnly: true,
			SameSite: http.SameSiteLaxMode, Secure: a.secure(c), MaxAge: 60})
	}
	return c.Redirect(http.StatusSeeOther, to)
}

// takeFlash reads the flash and clears it.
func takeFlash(c echo.Context) string {
	ck, err := c.Cookie(flashCookieName(c))
	if err != nil {
		return ""
	}
	c.SetCookie(&http.Cookie{Name: flashCookieName(c), Path: "/", MaxAge: -1, Secure: flashCookieName(c) != flashCookie})
	msg, err := url.QueryUnescape(ck.Value)
	if err != nil || len(msg) > maxFlash {
		return ""
	}
	return msg
}

// maxFlash is the longest flash shown, in bytes: a longer cookie is not
// ours.
const maxFlash = 200

// clipFlash shortens a flash that names something long (a name may have
// 255 characters) to maxFlash bytes, keeping its end ("… added."), so
// that takeFlash does not drop it.
func clipFlash(msg string) string {
	if len(msg) <= maxFlash {
		return msg
	}
	const ellipsis, tail = "…", 40
	end := len(msg) - tail
	for end < len(msg) && !utf8.RuneStart(msg[end]) {
		end++
	}
	start := maxFlash - len(ellipsis) - (len(msg) - end)
	for start > 0 && !utf8.RuneStart(msg[start]) {
		start--
	}
	return msg[:start] + ellipsis + msg[end:]
}

// errorView is what the error page shows: the API's status and words,
// and for a limit that tripped, how long to wait (Wait).
type errorView struct {
	Status  int
	Message string
	Wait    string
}

// ErrorPage shows an error as a page, with the API's wording.
func (a *App) ErrorPage(c echo.Context, status int, message string) {
	body := errorView{Status: status, Message: message}
	if d, ok := retryAfter(c); ok && status == http.StatusTooManyRequests {
		body.Message, body.Wait = "Too many requests.", waitWords(d)
	}
	// An unknown path's page has not been through webSecurity, nor its
	// request through Authenticate.
	setWebHeaders(c.Response().Header())
	c.Set(ctxSecure, a.secure(c))
	r := c.Request()
	if body.Status == http.StatusMethodNotAllowed && (r.Method == http.MethodGet || r.Method == http.MethodHead) {
		// A form's address, opened again from the address bar after its
		// errors were shown: the page the form is on.
		if err := c.Redirect(http.StatusSeeOther, formHome(r.URL.Path)); err != nil {
			a.log.Warn().Err(err).Str("request_id", a.o.RequestID(c)).Msg("writing a redirect failed")
		}
		return
	}
	if _, ok := input.Session(c); !ok {
		if sess, ok := a.webSession(c); ok {
			input.SetSession(c, sess)
		}
	}
	err := a.render(c, body.Status, "error", Page{Title: http.StatusText(body.Status), Data: body})
	if err != nil {
		a.log.Warn().Err(err).Str("request_id", a.o.RequestID(c)).Msg("writing an error page failed")
	}
}

// formHome is the page that holds the form posting to path: a person's,
// a journal's, the settings, or else the dashboard.
func formHome(path string) string {
	seg := strings.Split(strings.Trim(path, "/"), "/")
	switch {
	case len(seg) >= 2 && (seg[0] == "people" || seg[0] == "journals"):
		return "/" + seg[0] + "/" + url.PathEscape(seg[1])
	case seg[0] == "settings":
		return settingsHome(seg)
	}
	return "/"
}

func itoa64(n int64) string { return strconv.FormatInt(n, 10) }
