package web

import (
	"encoding/base64"
	"errors"
	"html/template"
	"net/http"
	"strings"

	"github.com/labstack/echo/v4"
	qrcode "github.com/skip2/go-qrcode"

	"kith/server/input"
	"kith/server/totp"
)

// twoFactorView is the Security page's two-factor section: off with a
// Turn on button, a setup waiting for its first code, the recovery codes
// of a confirmation shown once, or on with the form that turns it off.
type twoFactorView struct {
	On           bool
	RecoveryLeft int
	TurnOn       Form
	// Setup is a pending secret being shown, with its URL and QR code.
	Setup      bool
	Secret     shown
	OtpauthURL string
	QR         template.URL
	Confirm    Form
	// Codes are the recovery codes of a confirmation, shown this once.
	Codes   shown
	TurnOff Form
}

// twoFactorState is what a two-factor form's answer shows.
type twoFactorState struct {
	setup bool     // show the pending secret
	codes []string // recovery codes just made
}

func (a *App) fillTwoFactor(c echo.Context, v *settingsView, st settingsState) error {
	sess, _ := input.Session(c)
	tf, err := a.store.UserTwoFactor(c.Request().Context(), sess.UserID)
	if err != nil {
		return err
	}
	t := &v.TwoFactor
	t.On, t.RecoveryLeft = tf.Enabled(), tf.RecoveryLeft
	token := csrf(c)
	t.TurnOn = Form{ID: "two-factor-on", Action: "/settings/two-factor", Submit: "Turn on", CSRF: token}
	if st.twoFactor.setup && tf.Pending != "" && !tf.Enabled() {
		t.Setup = true
		t.Secret = shown{"two-factor-secret", tf.Pending}
		t.OtpauthURL = totp.OtpauthURL(sess.Email, tf.Pending)
		png, err := qrcode.Encode(t.OtpauthURL, qrcode.Medium, 256)
		if err != nil {
			return err
		}
		// The CSP allows data: images (img-src 'self' data:), so the
		// code needs no route of its own that would serve the secret.
		t.QR = template.URL("data:image/png;base64," + base64.StdEncoding.EncodeToString(png))
		t.Confirm = Form{ID: "two-factor-confirm", Action: "/settings/two-factor/confirm", Submit: "Confirm", CSRF: token,
			Fields: []Field{{Name: "code", Label: "Code", Type: "text", Auto: "one-time-code", Required: true,
				Hint: "The 6 digits your app shows for Kith once it has read the code above."}}}
		t.Confirm = t.Confirm.Fill(formOr(st.failed, "two-factor-confirm", nil))
	}
	if len(st.twoFactor.codes) > 0 {
		t.Codes = shown{"two-factor-codes", strings.Join(st.twoFactor.codes, "\n")}
	}
	t.TurnOff = Form{ID: "two-factor-off", Action: "/settings/two-factor/delete", Submit: "Turn off", CSRF: token,
		Fields: []Field{
			{Name: "password", Label: "Password", Type: "password", Auto: "current-password", Required: true},
			{Name: "code", Label: "Code", Type: "text", Auto: "one-time-code", Required: true,
				Hint: "From your authenticator app, or a recovery code."},
		}}
	t.TurnOff = t.TurnOff.Fill(formOr(st.failed, "two-factor-off", nil))
	return nil
}

// handleTwoFactorSetUp makes a pending secret and shows it, this once: the
// page is the answer, not a redirect.
func (a *App) handleTwoFactorSetUp(c echo.Context) error {
	sess, _ := input.Session(c)
	_, kept, err := a.o.SetUpTwoFactor(c.Request().Context(), sess.UserID)
	if err != nil {
		return err
	}
	if !kept {
		return a.seeOther(c, "/settings/security#two-factor", "Two-factor authentication is already on.")
	}
	c.Response().Header().Set(echo.HeaderCacheControl, "no-store")
	return a.settingsPage(c, http.StatusOK, "security", settingsState{twoFactor: twoFactorState{setup: true}})
}

func (a *App) handleTwoFactorConfirm(c echo.Context) error {
	sess, _ := input.Session(c)
	code := strings.TrimSpace(c.Request().PostForm.Get("code"))
	codes, err := a.o.ConfirmTwoFactor(c.Request().Context(), sess.UserID, code, sess.KeyID)
	var ae *input.Error
	if errors.As(err, &ae) {
		return a.seeOther(c, "/settings/security#two-factor", ae.Message)
	}
	if fe := input.FieldErrors(err); fe != nil {
		st := failedForm(c, "two-factor-confirm", err)
		st.twoFactor.setup = true
		c.Response().Header().Set(echo.HeaderCacheControl, "no-store")
		return a.settingsPage(c, http.StatusUnprocessableEntity, "security", st)
	}
	if err != nil {
		return err
	}
	c.Response().Header().Set(echo.HeaderCacheControl, "no-store")
	return a.settingsPage(c, http.StatusOK, "security", settingsState{twoFactor: twoFactorState{codes: codes}})
}

func (a *App) handleTwoFactorOff(c echo.Context) error {
	sess, _ := input.Session(c)
	p := input.FormParams(c)
	password := p.Password("password", 255)
	code := p.RequiredText("code", 255)
	err := p.Err()
	status := http.StatusUnprocessableEntity
	if err == nil {
		err = a.o.DisableTwoFactor(c, sess.Email, sess.UserID, password, code)
	}
	var ae *input.Error
	if errors.As(err, &ae) {
		if ae.Status != http.StatusTooManyRequests {
			return a.seeOther(c, "/settings/security#two-factor", ae.Message)
		}
		status, err = ae.Status, input.Invalid("password", tooManyWords(c, "Too many attempts."))
	}
	if input.FieldErrors(err) != nil {
		return a.settingsPage(c, status, "security", failedForm(c, "two-factor-off", err))
	}
	if err != nil {
		return err
	}
	return a.seeOther(c, "/settings/security#two-factor", "Two-factor authentication is off.")
}
