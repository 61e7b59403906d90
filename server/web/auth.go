package web

import (
	"errors"
	"net/http"

	"github.com/labstack/echo/v4"

	"kith/server/input"
	"kith/store"
)

func loginForm(token string) Form {
	return Form{ID: "login", Action: "/login", Submit: "Log in", CSRF: token, Fields: []Field{
		{Name: "email", Label: "Email", Type: "email", Auto: "username", Required: true},
		{Name: "password", Label: "Password", Type: "password", Auto: "current-password", Required: true},
	}}
}

// handleLoginPage shows the sign-in form, or sends a signed-in user on.
func (a *App) handleLoginPage(c echo.Context) error {
	if _, ok := input.Session(c); ok {
		return c.Redirect(http.StatusSeeOther, "/")
	}
	return a.loginPage(c, http.StatusOK, "", nil, "")
}

// loginView is the sign-in page: the password form (nil when passwords
// are off), the single sign-on link's name (empty when it is off), and
// why the last try was refused when there is no form to say it.
type loginView struct {
	Form    *Form
	SSO     string
	Refusal string
	// CSRF is the passkey button's form's value, the password form's too.
	CSRF string
}

// loginPage draws the form with a fresh CSRF value in its cookie.
func (a *App) loginPage(c echo.Context, status int, email string, errs map[string][]string, refusal string) error {
	token := newLoginToken()
	c.SetCookie(&http.Cookie{Name: LoginCookie, Value: token, Path: "/login", HttpOnly: true,
		SameSite: http.SameSiteStrictMode, Secure: a.secure(c), MaxAge: 3600})
	v := loginView{Refusal: refusal, CSRF: token}
	if a.o.SSO != nil {
		v.SSO = a.o.SSO.Name()
	}
	if !a.o.PasswordOff {
		f := loginForm(token).Fill(map[string][]string{"email": {email}}, errs)
		if refusal != "" {
			f.Errors = []string{refusal}
		}
		v.Form, v.Refusal = &f, ""
	}
	return a.render(c, status, "login", Page{Title: "Log in", Data: v})
}

// passwordOffRefusal answers a password sign-in with oidc.allow_password off.
const passwordOffRefusal = "Password sign-in is turned off."

// handleLogin checks the form as the API's login does, under the same
// throttles, and starts a session.
func (a *App) handleLogin(c echo.Context) error {
	if a.o.PasswordOff {
		return a.loginPage(c, http.StatusForbidden, "", nil, passwordOffRefusal)
	}
	if err := input.ParseForm(c); err != nil {
		return err
	}
	ck, err := c.Cookie(LoginCookie)
	if err != nil || !sameToken(c.Request().PostForm.Get("csrf"), ck.Value) {
		return errCSRF
	}
	p := input.FormParams(c)
	email := p.Email("email", 255)
	password := p.Password("password", 255)
	if err := p.Err(); err != nil {
		return a.loginPage(c, http.StatusUnprocessableEntity, c.Request().PostForm.Get("email"), input.FieldErrors(err), "")
	}
	u, err := a.o.Login(c, email, password)
	if errors.Is(err, ErrCodeNeeded) {
		return a.startCodeStep(c, u.ID, ViaPassword)
	}
	var ae *input.Error
	if errors.As(err, &ae) {
		return a.loginPage(c, ae.Status, email, nil, webLoginRefusal(c, ae))
	}
	if err != nil {
		return err
	}
	if err := a.startSession(c, u, ViaPassword); err != nil {
		return err
	}
	c.SetCookie(&http.Cookie{Name: LoginCookie, Path: "/login", MaxAge: -1})
	return c.Redirect(http.StatusSeeOther, "/")
}

// webLoginRefusal words a refused sign-in for a person: a throttled one
// says how long to wait, as its Retry-After does.
func webLoginRefusal(c echo.Context, ae *input.Error) string {
	switch ae {
	case input.ErrInvalidCredentials:
		return "That email and password do not match an account."
	case input.ErrTooManyAttempts:
		return tooManyWords(c, "Too many attempts.")
	}
	return ae.Message
}

// handleLogout ends the session: its row goes, so the cookie signs
// nobody in even if a copy of it survives.
func (a *App) handleLogout(c echo.Context) error {
	sess, _ := input.Session(c)
	if err := a.store.DeleteWebSession(store.WithoutActor(c.Request().Context()), sess.UserID, sess.KeyID); err != nil {
		return err
	}
	c.SetCookie(&http.Cookie{Name: sessionCookie(c), Path: "/", MaxAge: -1, HttpOnly: true, SameSite: http.SameSiteLaxMode, Secure: a.secure(c)})
	return a.seeOther(c, "/login", "You are logged out.")
}

// handleResend sends a new verification link, under the API's budget.
func (a *App) handleResend(c echo.Context) error {
	sess, _ := input.Session(c)
	if wait, blocked := a.o.ResendWait(sess.UserID); blocked && !sess.Verified {
		askToWait(c, wait)
		return a.render(c, http.StatusTooManyRequests, "unverified", Page{Title: "Verify your email",
			Flash: "A link was sent a moment ago. " + waitWords(wait)})
	}
	u, secret, err := a.store.NewVerification(c.Request().Context(), sess.UserID)
	if errors.Is(err, store.ErrAlreadyVerified) {
		return a.seeOther(c, "/", "Your email is verified.")
	}
	if err != nil {
		return err
	}
	a.o.SendVerification(c, u, secret)
	return a.seeOther(c, "/", "A new link is on its way to "+u.Email+".")
}

// VerifiedPage answers the emailed link opened in a browser: a page, where
// an API client gets JSON.
func (a *App) VerifiedPage(c echo.Context, err error) error {
	webSecurity(func(echo.Context) error { return nil })(c)
	c.Set(ctxSecure, a.secure(c))
	if errors.Is(err, store.ErrVerificationInvalid) {
		return a.render(c, http.StatusForbidden, "verified", Page{Title: "Link not valid",
			Data: "This link is not valid: it may have expired, or been used already. Log in to ask for a new one."})
	}
	if err != nil {
		return err
	}
	return a.render(c, http.StatusOK, "verified", Page{Title: "Email verified"})
}
