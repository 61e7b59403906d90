package server

import (
	"context"
	"crypto/rand"
	"errors"
	"net/http"
	"time"

	"github.com/labstack/echo/v4"

	"kith/server/input"
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
	p, err := input.ReadParams(c)
	if err != nil {
		return err
	}
	email := p.Email("email", 255)
	password := p.Password("password", 255)
	code := p.Text("code", 255)
	if err := p.Err(); err != nil {
		return err
	}
	if s.passwordOff {
		return errPasswordOff
	}

	u, err := s.checkPasswordStep(c, email, password, viaAPI)
	if err != nil {
		return err
	}
	tf, err := s.store.UserTwoFactor(c.Request().Context(), u.ID)
	if err != nil {
		return err
	}
	if tf.Enabled() {
		if code == nil || *code == "" {
			return errCodeRequired
		}
		how, err := s.useSecondFactor(c.Request().Context(), u.ID, tf, *code)
		if err != nil {
			return err
		}
		if how == "" {
			s.failLogin(c, email, viaAPI)
			return errCodeInvalid
		}
		s.log.Info().Int64("user_id", u.ID).Str("via", viaAPI).Str("second_factor", how).Msg("sign-in with a second factor")
	}
	s.clearLogin(c, email)
	if !u.Verified() {
		return errUnverified
	}

	// A login is no logged action, even with a key in its header.
	_, token, err := s.store.CreateAPIKey(store.WithoutActor(c.Request().Context()), u.ID, "API token for "+u.Email)
	if err != nil {
		return err
	}
	s.signedIn(c, u.ID, viaAPI)
	body := loginBody{Message: "Authenticated", Status: http.StatusOK}
	body.Data.Token = token
	return c.JSON(http.StatusOK, body)
}

// errPasswordOff answers POST /api/login with oidc.allow_password off,
// before any password is looked at.
var errPasswordOff = &input.Error{Status: http.StatusForbidden, Message: "Password sign-in is turned off."}

// ssoAutoCreate is how single sign-on makes a user when on: verified (the
// provider checked the email), in a new account, with a random password
// that nobody is told. A hash rather than none: a user without one is an
// invitation not yet accepted, and a login for the email takes the time
// of any other wrong password. Hashing it takes a password slot.
func (s *Server) ssoAutoCreate(on bool) func(ctx context.Context, nu store.NewUser) (store.User, error) {
	if !on {
		return nil
	}
	return func(ctx context.Context, nu store.NewUser) (store.User, error) {
		nu.Password, nu.AccountID = rand.Text(), 0
		return s.inPasswordSlot(ctx, func() (store.User, error) { return s.store.CreateUser(ctx, nu) })
	}
}

// signInRefused counts and logs a refused passkey or single sign-on: why
// is a few words of Kith's, never the provider's token or the assertion.
func (s *Server) signInRefused(c echo.Context, via, why string) {
	s.metrics.failedLogin(via)
	s.log.Warn().Str("via", via).Str("why", why).Str("ip", c.RealIP()).
		Str("request_id", requestID(c)).Msg("sign-in refused")
}

// signedIn counts and logs a whole sign-in by via: who and how, never a
// password, code, key or token.
func (s *Server) signedIn(c echo.Context, userID int64, via string) {
	s.metrics.signedIn(via)
	s.log.Info().Int64("user_id", userID).Str("via", via).Str("ip", c.RealIP()).
		Str("request_id", requestID(c)).Msg("signed in")
}

// errChecksBusy is checkPassword's answer when every slot stayed taken.
var errChecksBusy = errors.New("server: every password check is busy")

// checkPassword runs the store's login, which spends a bcrypt comparison
// (tens of milliseconds of one core, unknown emails included), in a
// password slot.
func (s *Server) checkPassword(ctx context.Context, email, password string) (store.User, error) {
	return s.inPasswordSlot(ctx, func() (store.User, error) { return s.login(ctx, email, password) })
}

// inPasswordSlot runs fn, which hashes or compares a password, in one of
// the few slots of s.checks. Callers beyond them wait up to s.checkWait,
// then get errChecksBusy: a crowd of logins, honest or not, cannot take
// every core from the requests of users who already hold a key.
func (s *Server) inPasswordSlot(ctx context.Context, fn func() (store.User, error)) (store.User, error) {
	wait := time.NewTimer(s.checkWait)
	defer wait.Stop()
	select {
	case s.checks <- struct{}{}:
	case <-wait.C:
		return store.User{}, errChecksBusy
	case <-ctx.Done():
		return store.User{}, ctx.Err()
	}
	defer func() { <-s.checks }()
	return fn()
}

// changePassword is the pages' password change, its bcrypt hash in a
// password slot as a login's comparison is: a crowd of changes cannot take
// the CPU from requests made with a key.
func (s *Server) changePassword(ctx context.Context, userID int64, password string, keep int64) error {
	_, err := s.inPasswordSlot(ctx, func() (store.User, error) {
		return store.User{}, s.store.ChangePassword(ctx, userID, password, keep)
	})
	if errors.Is(err, errChecksBusy) {
		return input.Invalid("current_password", "Too many attempts. Wait a minute, then try again.")
	}
	return err
}

// handleLogout revokes the key that authenticated the request.
func (s *Server) handleLogout(c echo.Context) error {
	sess, _ := input.Session(c)
	// A logout is no logged action.
	if err := s.store.DeleteAPIKey(store.WithoutActor(c.Request().Context()), sess.UserID, sess.KeyID); err != nil {
		return err
	}
	return c.JSON(http.StatusOK, messageBody{"Logged out successfully", http.StatusOK})
}

// handleHealth reports whether the database answers.
// errDamaged is health's answer while the database has damaged pages.
var errDamaged = &input.Error{Status: http.StatusServiceUnavailable,
	Message: "The database has damaged pages: restore a backup. The server's log says what the check found."}

func (s *Server) handleHealth(c echo.Context) error {
	ctx, cancel := context.WithTimeout(c.Request().Context(), 2*time.Second)
	defer cancel()
	if err := s.store.Ping(ctx); err != nil {
		return errors.Join(input.ErrUnavailable, err)
	}
	if _, bad := s.damaged(); bad {
		// Answered here rather than through the error handler, which
		// would log every probe: the check logged the damage once.
		return c.JSON(errDamaged.Status, errorBody{Message: errDamaged.Message, Status: errDamaged.Status})
	}
	return c.JSON(http.StatusOK, messageBody{"ok", http.StatusOK})
}

// checkLogin checks an email and password, for the API's login and the
// web app's sign-in (via): five failures for one email from one address
// (an IPv6 /64) block both for the rest of the minute, the right password
// included, so guessing stays slow; failures for one email from anywhere
// back off too (s.accounts), so that many addresses do not make many
// guessers. A refusal is an *input.Error: 401 or 429 with Retry-After.
func (s *Server) checkLogin(c echo.Context, email, password string, via string) (store.User, error) {
	u, err := s.checkPasswordStep(c, email, password, via)
	if err == nil {
		s.clearLogin(c, email)
	}
	return u, err
}

// loginBlocked is ErrTooManyAttempts, with Retry-After, while either
// throttle blocks the email.
func (s *Server) loginBlocked(c echo.Context, email, via string) error {
	if wait, blocked := s.accounts.Blocked(email); blocked {
		s.metrics.throttledLogin(via)
		setRetryAfter(c, wait)
		return input.ErrTooManyAttempts
	}
	if wait, blocked := s.logins.Blocked(loginThrottle(c, email)); blocked {
		s.metrics.throttledLogin(via)
		setRetryAfter(c, wait)
		return input.ErrTooManyAttempts
	}
	return nil
}

// loginThrottle is the key of the throttle of one email from one address.
func loginThrottle(c echo.Context, email string) string { return email + "|" + clientKey(c.RealIP()) }

// failLogin counts a failed sign-in in both throttles.
func (s *Server) failLogin(c echo.Context, email, via string) {
	s.metrics.failedLogin(via)
	s.logins.Fail(loginThrottle(c, email))
	s.accounts.Fail(email)
}

// clearLogin forgets the failures of a whole sign-in's email.
func (s *Server) clearLogin(c echo.Context, email string) {
	s.logins.Clear(loginThrottle(c, email))
	s.accounts.Clear(email)
}

// checkPasswordStep is checkLogin without clearing the throttles: with
// two-factor on, a right password is only half a sign-in, and wrong codes
// between code-less requests must still reach the block.
func (s *Server) checkPasswordStep(c echo.Context, email, password string, via string) (store.User, error) {
	if err := s.loginBlocked(c, email, via); err != nil {
		return store.User{}, err
	}
	u, err := s.checkPassword(c.Request().Context(), email, password)
	switch {
	case errors.Is(err, errChecksBusy):
		s.metrics.throttledLogin(via)
		setRetryAfter(c, time.Second)
		return store.User{}, input.ErrTooManyAttempts
	case errors.Is(err, store.ErrInvalidCredentials):
		s.failLogin(c, email, via)
		return store.User{}, input.ErrInvalidCredentials
	case err != nil:
		return store.User{}, err
	}
	return u, nil
}
