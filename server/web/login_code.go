package web

import (
	"crypto/hmac"
	"crypto/rand"
	"crypto/sha256"
	"encoding/base64"
	"errors"
	"net/http"
	"strconv"
	"strings"
	"sync"

	"github.com/labstack/echo/v4"

	"kith/server/input"
)

// The Code step of a sign-in with two-factor on: the password step ends
// with no session, only a cookie that names the user and expires within
// five minutes, signed with a key that lives as long as the process. It
// is no session: no page but this step's reads it, so GET / with it alone
// answers as signed out.

// CodeCookie carries the password step to the Code step.
const CodeCookie = "kith_code"

// codeStepLife is how long the Code step waits, in seconds.
const codeStepLife = 5 * 60

// ErrCodeNeeded is Login's answer for a right password of a user whose
// two-factor is on: the sign-in needs the Code step.
var ErrCodeNeeded = errors.New("web: a two-factor code is needed")

// codeKey is drawn at the first sign-in that needs it, not at every start.
var codeKey = sync.OnceValue(func() []byte {
	k := make([]byte, 32)
	rand.Read(k)
	return k
})

func codeMAC(payload string) string {
	m := hmac.New(sha256.New, codeKey())
	m.Write([]byte(payload))
	return base64.RawURLEncoding.EncodeToString(m.Sum(nil))
}

// codeToken binds the user to the step until expires (Unix seconds), and
// the first step's way in (a password, single sign-on), which the
// sign-in is counted by.
func codeToken(userID, expires int64, via string) string {
	payload := strconv.FormatInt(userID, 10) + "." + strconv.FormatInt(expires, 10) + "." + via
	return payload + "." + codeMAC(payload)
}

// codeTokenUser is the user and way in of a token that is Kith's and not
// expired at now.
func codeTokenUser(token string, now int64) (int64, string, bool) {
	i := strings.LastIndexByte(token, '.')
	if i < 0 || !hmac.Equal([]byte(token[i+1:]), []byte(codeMAC(token[:i]))) {
		return 0, "", false
	}
	parts := strings.SplitN(token[:i], ".", 3)
	if len(parts) != 3 {
		return 0, "", false
	}
	userID, err1 := strconv.ParseInt(parts[0], 10, 64)
	expires, err2 := strconv.ParseInt(parts[1], 10, 64)
	if err1 != nil || err2 != nil || now >= expires {
		return 0, "", false
	}
	return userID, parts[2], true
}

func codeForm(token string) Form {
	return Form{ID: "code", Action: "/login/code", Submit: "Verify", CSRF: token, Fields: []Field{
		{Name: "code", Label: "Code", Type: "text", Auto: "one-time-code", Required: true,
			Hint: "The 6 digits your authenticator app shows for Kith, or one of your recovery codes."},
	}}
}

// codePage draws the Code step, the CSRF value in the sign-in's cookie.
func (a *App) codePage(c echo.Context, status int, refusal string) error {
	token := newLoginToken()
	c.SetCookie(&http.Cookie{Name: LoginCookie, Value: token, Path: "/login", HttpOnly: true,
		SameSite: http.SameSiteStrictMode, Secure: a.secure(c), MaxAge: 3600})
	f := codeForm(token)
	if refusal != "" {
		f.Errors = []string{refusal}
	}
	c.Response().Header().Set(echo.HeaderCacheControl, "no-store")
	return a.render(c, status, "login_code", Page{Title: "Two-factor code", Data: f})
}

// startCodeStep answers a first step that came in by via (a right
// password, a single sign-on) for a user with two-factor on.
func (a *App) startCodeStep(c echo.Context, userID int64, via string) error {
	c.SetCookie(&http.Cookie{Name: CodeCookie, Value: codeToken(userID, a.store.Now().Unix()+codeStepLife, via),
		Path: "/login", HttpOnly: true, SameSite: http.SameSiteStrictMode, Secure: a.secure(c), MaxAge: codeStepLife})
	return a.codePage(c, http.StatusOK, "")
}

// handleLoginCode checks the Code step's code under the login throttles;
// a right one starts the session.
func (a *App) handleLoginCode(c echo.Context) error {
	if err := input.ParseForm(c); err != nil {
		return err
	}
	ck, err := c.Cookie(LoginCookie)
	if err != nil || !sameToken(c.Request().PostForm.Get("csrf"), ck.Value) {
		return errCSRF
	}
	step, err := c.Cookie(CodeCookie)
	var userID int64
	var via string
	ok := err == nil
	if ok {
		userID, via, ok = codeTokenUser(step.Value, a.store.Now().Unix())
	}
	if !ok {
		c.SetCookie(&http.Cookie{Name: CodeCookie, Path: "/login", MaxAge: -1})
		return a.loginPage(c, http.StatusUnauthorized, "", nil, "The sign-in took more than 5 minutes. Log in again.")
	}
	code := strings.TrimSpace(c.Request().PostForm.Get("code"))
	if code == "" {
		return a.codePage(c, http.StatusUnprocessableEntity, "The code field is required.")
	}
	u, err := a.o.SecondFactor(c, userID, code)
	var ae *input.Error
	if errors.As(err, &ae) {
		refusal := "That code is not right, or was used already. Try the next one."
		if ae == input.ErrTooManyAttempts {
			refusal = tooManyWords(c, "Too many attempts.")
		}
		return a.codePage(c, ae.Status, refusal)
	}
	if err != nil {
		return err
	}
	if err := a.startSession(c, u, via); err != nil {
		return err
	}
	c.SetCookie(&http.Cookie{Name: CodeCookie, Path: "/login", MaxAge: -1})
	c.SetCookie(&http.Cookie{Name: LoginCookie, Path: "/login", MaxAge: -1})
	return c.Redirect(http.StatusSeeOther, "/")
}
