package server

import (
	"context"
	"errors"
	"net/http"
	"strings"

	"github.com/labstack/echo/v4"

	"kith/server/dav"
	"kith/server/input"
	"kith/store"
)

// davRealm is the realm of the Basic challenge: a constant, since a client
// keeps a password per host, port and realm, and one that named the host
// would find none under the server's other names.
const davRealm = `Basic realm="Kith", charset="UTF-8"`

// davRoutes serves CardDAV: the tree at /dav/, discovery at
// /.well-known/carddav (GET redirected, PROPFIND answered in place) and
// the site root's PROPFIND and OPTIONS, where iOS looks first.
func (s *Server) davRoutes(r surfaceRouter) {
	h := dav.New(s.store, func(ctx context.Context, err error) {
		s.log.Error().Err(err).Msg("carddav")
	})
	serve, root := s.davAuth(echo.WrapHandler(h)), s.davAuth(echo.WrapHandler(h.Root()))
	methods := []string{http.MethodOptions, http.MethodGet, http.MethodHead, http.MethodPut, http.MethodDelete, "PROPFIND", "REPORT"}
	for _, p := range []string{dav.Prefix, dav.Prefix + "/*"} {
		for _, m := range methods {
			r.Add(m, p, serve)
		}
	}
	redirect := func(c echo.Context) error {
		c.Response().Header().Set(echo.HeaderContentLength, "0")
		return c.Redirect(http.StatusMovedPermanently, dav.Prefix+"/")
	}
	r.get("/.well-known/carddav", redirect)
	for _, m := range []string{"PROPFIND", http.MethodOptions} {
		r.Add(m, "/.well-known/carddav", root)
		r.Add(m, "/", root)
	}
	// GET / is the web app's dashboard (web.App.Routes).
}

// davAuth authenticates a DAV request by HTTP Basic: the user's email
// and one of their API keys as the password, so that each phone has a key
// of its own to revoke. Failures count against the login throttle, like a
// wrong password. OPTIONS needs none: clients ask it first.
func (s *Server) davAuth(next echo.HandlerFunc) echo.HandlerFunc {
	return func(c echo.Context) error {
		r := c.Request()
		if r.Method == http.MethodOptions {
			// The tree's layout is the same for everyone; a user of 0
			// answers OPTIONS alike.
			c.SetRequest(r.WithContext(dav.WithUser(r.Context(), dav.User{})))
			return next(c)
		}
		email, key, ok := r.BasicAuth()
		email = strings.ToLower(strings.TrimSpace(email))
		if !ok || email == "" || key == "" {
			return davChallenge(c, input.ErrUnauthenticated)
		}
		// The key is looked up first: a valid one is never refused by the
		// throttles, which count wrong passwords, so that anyone who knows
		// the email cannot stop the phone's sync by failing on purpose
		// (a key is 256 random bits, not a password to guess).
		ctx := r.Context()
		sess, err := s.davSession(ctx, email, key)
		if errors.Is(err, store.ErrUnauthenticated) {
			return s.davFailure(c, email)
		}
		if err != nil {
			return err
		}
		if !sess.Verified {
			return errUnverified
		}
		if s.store.NeedsTouch(sess) {
			if err := s.store.TouchAPIKey(ctx, sess.KeyID); err != nil {
				s.log.Warn().Err(err).Str("request_id", requestID(c)).Msg("recording key use failed")
			}
		}
		ctx = dav.WithUser(store.WithActor(ctx, sess.UserID), dav.User{ID: sess.UserID, AccountID: sess.AccountID})
		c.SetRequest(r.WithContext(ctx))
		return next(c)
	}
}

// davFailure answers a wrong key: 429 while the email, or the email from
// this address, is held back by the login throttles, else 401 with the
// challenge, counted against both.
func (s *Server) davFailure(c echo.Context, email string) error {
	throttle := email + "|" + clientKey(c.RealIP())
	for _, t := range []struct {
		th  Throttle
		key string
	}{{s.accounts, email}, {s.logins, throttle}} {
		if wait, blocked := t.th.Blocked(t.key); blocked {
			s.metrics.throttledLogin(viaCardDAV)
			setRetryAfter(c, wait)
			return input.ErrTooManyAttempts
		}
	}
	s.metrics.failedLogin(viaCardDAV)
	s.logins.Fail(throttle)
	s.accounts.Fail(email)
	return davChallenge(c, input.ErrInvalidCredentials)
}

// davSession is the key's session if it is a key of the user of that
// email; store.ErrUnauthenticated otherwise.
func (s *Server) davSession(ctx context.Context, email, key string) (store.Session, error) {
	sess, err := s.store.Authenticate(ctx, key)
	if err == nil && !strings.EqualFold(sess.Email, email) {
		return store.Session{}, store.ErrUnauthenticated
	}
	return sess, err
}

// davChallenge answers 401 with the Basic challenge that makes a client
// ask for (or send) its password.
func davChallenge(c echo.Context, err error) error {
	c.Response().Header().Set(echo.HeaderWWWAuthenticate, davRealm)
	return err
}
