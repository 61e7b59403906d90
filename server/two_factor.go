package server

import (
	"context"
	"net/http"

	"github.com/labstack/echo/v4"

	"kith/server/input"
	"kith/server/totp"
	"kith/server/web"
	"kith/store"
)

// Two-factor sign-in (contract-signin.md §2): a TOTP secret set up by
// POST, turned on by its first code, turned off with the password and a
// code. A code works once: the last accepted step is kept.

var (
	errCodeRequired     = &input.Error{Status: http.StatusUnauthorized, Message: "A two-factor code is required."}
	errCodeInvalid      = &input.Error{Status: http.StatusUnauthorized, Message: "The two-factor code is invalid."}
	errTwoFactorOn      = &input.Error{Status: http.StatusConflict, Message: "Two-factor authentication is already enabled."}
	errTwoFactorOff     = &input.Error{Status: http.StatusConflict, Message: "Two-factor authentication is not enabled."}
	errNothingToConfirm = &input.Error{Status: http.StatusConflict, Message: "There is no two-factor setup to confirm."}
)

type twoFactorJSON struct {
	Object        string   `json:"object"`
	Enabled       bool     `json:"enabled"`
	RecoveryLeft  int      `json:"recovery_codes_left"`
	RecoveryCodes []string `json:"recovery_codes,omitempty"`
}

type twoFactorSetupJSON struct {
	Object     string `json:"object"`
	Secret     string `json:"secret"`
	OtpauthURL string `json:"otpauth_url"`
}

func twoFactorOf(t store.TwoFactor) twoFactorJSON {
	j := twoFactorJSON{Object: "two_factor", Enabled: t.Enabled()}
	if j.Enabled {
		j.RecoveryLeft = t.RecoveryLeft
	}
	return j
}

// useSecondFactor accepts code for the user, whose two-factor is on (tf):
// a TOTP code of a step later than the last accepted one, or an unused
// recovery code, which is used up. It returns how ("totp" or
// "recovery"), or "" for a refused code.
func (s *Server) useSecondFactor(ctx context.Context, userID int64, tf store.TwoFactor, code string) (string, error) {
	if step, ok := totp.Match(tf.Secret, code, s.store.Now()); ok {
		if step <= tf.LastStep {
			return "", nil
		}
		used, err := s.store.UseTwoFactorStep(ctx, userID, step)
		if err != nil || !used {
			return "", err
		}
		return "totp", nil
	}
	if len(totp.NormalizeRecovery(code)) != 10 {
		return "", nil
	}
	used, err := s.store.UseRecoveryCode(ctx, userID, totp.HashRecovery(code))
	if err != nil || !used {
		return "", err
	}
	return "recovery", nil
}

// SetUpTwoFactor makes a new pending secret for the user; false while
// two-factor is on.
func (s *Server) setUpTwoFactor(ctx context.Context, userID int64) (string, bool, error) {
	secret := totp.NewSecret()
	kept, err := s.store.SetPendingTwoFactor(ctx, userID, secret)
	return secret, kept, err
}

// confirmTwoFactor turns two-factor on with the pending secret's code and
// returns the recovery codes, signing out the user's web sessions but
// keep. A refusal is an *input.Error or a *input.ValidationError.
func (s *Server) confirmTwoFactor(ctx context.Context, userID int64, code string, keep int64) ([]string, error) {
	tf, err := s.store.UserTwoFactor(ctx, userID)
	switch {
	case err != nil:
		return nil, err
	case tf.Enabled():
		return nil, errTwoFactorOn
	case tf.Pending == "":
		return nil, errNothingToConfirm
	case code == "":
		return nil, input.Invalid("code", "The code field is required.")
	}
	step, ok := totp.Match(tf.Pending, code, s.store.Now())
	if !ok {
		return nil, input.Invalid("code", "The code is invalid.")
	}
	codes := totp.NewRecoveryCodes(10)
	hashes := make([][]byte, len(codes))
	for i, c := range codes {
		hashes[i] = totp.HashRecovery(c)
	}
	if err := s.store.ConfirmTwoFactor(ctx, userID, tf.Pending, step, hashes, keep); err != nil {
		if err == store.ErrTwoFactorChanged {
			return nil, input.Invalid("code", "The code is invalid.")
		}
		return nil, err
	}
	return codes, nil
}

// disableTwoFactor turns two-factor off behind the password and a code,
// each counted as a login when wrong (§2): a stolen key must not guess
// the password here faster than at the login.
func (s *Server) disableTwoFactor(c echo.Context, email string, userID int64, password, code, via string) error {
	ctx := c.Request().Context()
	if _, err := s.checkPasswordStep(c, email, password, via); err != nil {
		if err == input.ErrInvalidCredentials {
			return input.Invalid("password", "The password is incorrect.")
		}
		return err
	}
	tf, err := s.store.UserTwoFactor(ctx, userID)
	if err != nil {
		return err
	}
	how, err := s.useSecondFactor(ctx, userID, tf, code)
	if err != nil {
		return err
	}
	if how == "" {
		s.failLogin(c, email, via)
		return input.Invalid("code", "The code is invalid.")
	}
	_, err = s.store.DisableTwoFactor(ctx, userID)
	return err
}

func (s *Server) handleTwoFactorShow(c echo.Context) error {
	sess, _ := input.Session(c)
	tf, err := s.store.UserTwoFactor(c.Request().Context(), sess.UserID)
	if err != nil {
		return err
	}
	return c.JSON(http.StatusOK, dataBody[twoFactorJSON]{twoFactorOf(tf)})
}

func (s *Server) handleTwoFactorCreate(c echo.Context) error {
	sess, _ := input.Session(c)
	secret, kept, err := s.setUpTwoFactor(c.Request().Context(), sess.UserID)
	if err != nil {
		return err
	}
	if !kept {
		return errTwoFactorOn
	}
	return c.JSON(http.StatusCreated, dataBody[twoFactorSetupJSON]{twoFactorSetupJSON{
		Object: "two_factor_setup", Secret: secret, OtpauthURL: totp.OtpauthURL(sess.Email, secret)}})
}

func (s *Server) handleTwoFactorConfirm(c echo.Context) error {
	sess, _ := input.Session(c)
	// §2's order: the state's 409s before any parameter's 422.
	tf, err := s.store.UserTwoFactor(c.Request().Context(), sess.UserID)
	switch {
	case err != nil:
		return err
	case tf.Enabled():
		return errTwoFactorOn
	case tf.Pending == "":
		return errNothingToConfirm
	}
	p, err := input.ReadParams(c)
	if err != nil {
		return err
	}
	code := p.Text("code", 255)
	if err := p.Err(); err != nil {
		return err
	}
	var typed string
	if code != nil {
		typed = *code
	}
	// An API confirmation keeps no web session: every one of them was
	// opened with the password alone.
	codes, err := s.confirmTwoFactor(c.Request().Context(), sess.UserID, typed, 0)
	if err != nil {
		return err
	}
	return c.JSON(http.StatusOK, dataBody[twoFactorJSON]{twoFactorJSON{Object: "two_factor", Enabled: true,
		RecoveryLeft: len(codes), RecoveryCodes: codes}})
}

func (s *Server) handleTwoFactorDelete(c echo.Context) error {
	sess, _ := input.Session(c)
	tf, err := s.store.UserTwoFactor(c.Request().Context(), sess.UserID)
	if err != nil {
		return err
	}
	if !tf.Enabled() {
		return errTwoFactorOff
	}
	p, err := input.ReadParams(c)
	if err != nil {
		return err
	}
	password := p.Password("password", 255)
	code := p.RequiredText("code", 255)
	if err := p.Err(); err != nil {
		return err
	}
	if err := s.disableTwoFactor(c, sess.Email, sess.UserID, password, code, viaAPI); err != nil {
		return err
	}
	return c.NoContent(http.StatusNoContent)
}

// webLogin is the web sign-in's password step: with two-factor on, a
// right password is web.ErrCodeNeeded and clears no throttle.
func (s *Server) webLogin(c echo.Context, email, password string) (store.User, error) {
	u, err := s.checkPasswordStep(c, email, password, viaWeb)
	if err != nil {
		return u, err
	}
	tf, err := s.store.UserTwoFactor(c.Request().Context(), u.ID)
	if err != nil {
		return store.User{}, err
	}
	if tf.Enabled() {
		return u, web.ErrCodeNeeded
	}
	s.clearLogin(c, email)
	return u, nil
}

// webSecondFactor is the web sign-in's Code step, under the throttles of
// the password step: blocked, even a right code waits.
func (s *Server) webSecondFactor(c echo.Context, userID int64, code string) (store.User, error) {
	ctx := c.Request().Context()
	u, err := s.store.User(ctx, userID)
	if err != nil {
		return store.User{}, err
	}
	if err := s.loginBlocked(c, u.Email, viaWeb); err != nil {
		return store.User{}, err
	}
	tf, err := s.store.UserTwoFactor(ctx, userID)
	if err != nil {
		return store.User{}, err
	}
	// Turned off since the password step (kith user two-factor disable):
	// the password was right, and no code is asked any more.
	if tf.Enabled() {
		how, err := s.useSecondFactor(ctx, userID, tf, code)
		if err != nil {
			return store.User{}, err
		}
		if how == "" {
			s.failLogin(c, u.Email, viaWeb)
			return store.User{}, errCodeInvalid
		}
		s.log.Info().Int64("user_id", u.ID).Str("via", viaWeb).Str("second_factor", how).Msg("sign-in with a second factor")
	}
	s.clearLogin(c, u.Email)
	return u, nil
}
