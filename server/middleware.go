package server

import (
	"crypto/rand"
	"errors"
	"fmt"
	"net/http"
	"net/netip"
	"strconv"
	"strings"
	"time"

	"github.com/labstack/echo/v4"

	"kith/rate"
	"kith/server/input"
	"kith/server/photo"
	"kith/server/transfer"
	"kith/store"
)

const (
	ctxRequestID = "request_id"
	// ctxRateResult is the rate limit's answer when authenticate got it
	// with the key (SharedLimiter), for limitRate to use.
	ctxRateResult = "rate result"
)

// validRequestID is what an incoming X-Request-Id must look like to be
// kept: a proxy's id joins our logs to its own, but a client must not fill
// our logs with whatever it likes: 1 to 64 letters, digits, '.', '_' and
// '-'. Every request asks, so it is a loop, not a regexp to compile.
func validRequestID(id string) bool {
	if id == "" || len(id) > 64 {
		return false
	}
	for i := 0; i < len(id); i++ {
		switch b := id[i]; {
		case 'a' <= b && b <= 'z', 'A' <= b && b <= 'Z', '0' <= b && b <= '9', b == '.', b == '_', b == '-':
		default:
			return false
		}
	}
	return true
}

// withRequestID gives every request an id, in its response header and its
// log lines.
func withRequestID(next echo.HandlerFunc) echo.HandlerFunc {
	return func(c echo.Context) error {
		id := c.Request().Header.Get(echo.HeaderXRequestID)
		if !validRequestID(id) {
			id = rand.Text()
		}
		c.Set(ctxRequestID, id)
		c.Response().Header().Set(echo.HeaderXRequestID, id)
		return next(c)
	}
}

// privateAnswer marks every answer, errors included, as one a cache must
// not keep (it may carry the user's data: shared caches and the browser's
// disk alike) and whose type a browser must not second-guess.
func privateAnswer(next echo.HandlerFunc) echo.HandlerFunc {
	return func(c echo.Context) error {
		h := c.Response().Header()
		h.Set(echo.HeaderCacheControl, "no-store")
		h.Set(echo.HeaderXContentTypeOptions, "nosniff")
		return next(c)
	}
}

// strictTransport tells a browser that reached us over HTTPS (ours, or a
// trusted proxy's) to come back over HTTPS only, for a year: a later
// http:// link or typed address cannot be caught in the clear. Over plain
// HTTP the header means nothing (RFC 6797 §8.1) and is not sent.
func (s *Server) strictTransport(next echo.HandlerFunc) echo.HandlerFunc {
	return func(c echo.Context) error {
		if s.overHTTPS(c.Request()) {
			c.Response().Header().Set(echo.HeaderStrictTransportSecurity, "max-age=31536000")
		}
		return next(c)
	}
}

func requestID(c echo.Context) string {
	id, _ := c.Get(ctxRequestID).(string)
	return id
}

// accessLog writes one line per request. It logs the path without the
// query string, which may hold a password (the reference client logs in
// with ?email=…&password=…), and never a header. An answer whose writing
// failed (the write timeout passed, or the client went away) is logged
// as cut, with the status it began with as sent_status: the client never
// got that answer whole.
func (s *Server) accessLog(next echo.HandlerFunc) echo.HandlerFunc {
	return func(c echo.Context) error {
		start := time.Now()
		ww := &writeWatcher{ResponseWriter: c.Response().Writer}
		c.Response().Writer = ww
		if err := next(c); err != nil {
			c.Error(err) // write the error now, so its status is logged
		}
		r, res := c.Request(), c.Response()
		took := time.Since(start)
		s.metrics.request(c.Path(), r.Method, res.Status, took)
		ev := s.log.Info()
		if res.Status >= 500 || ww.err != nil {
			ev = s.log.Warn()
		}
		if sess, ok := input.Session(c); ok {
			ev = ev.Int64("user_id", sess.UserID)
		}
		if ww.err != nil {
			ev = ev.Str("cut", ww.err.Error()).Int("sent_status", res.Status)
		} else {
			ev = ev.Int("status", res.Status)
		}
		ev.Str("request_id", requestID(c)).
			Str("method", r.Method).
			Str("path", logPath(r)).
			Int64("bytes", res.Size).
			Str("ip", c.RealIP()).
			Dur("duration_ms", took).
			Msg("request")
		return nil
	}
}

// writeWatcher remembers the first write of the answer that failed.
type writeWatcher struct {
	http.ResponseWriter
	err error
}

func (w *writeWatcher) Write(b []byte) (int, error) {
	n, err := w.ResponseWriter.Write(b)
	if err != nil && w.err == nil {
		w.err = err
	}
	return n, err
}

// Unwrap lets http.ResponseController reach the connection's writer.
func (w *writeWatcher) Unwrap() http.ResponseWriter { return w.ResponseWriter }

// logPath is the request's path as logs show it: a calendar feed's path
// is its secret, which a log must not keep.
func logPath(r *http.Request) string {
	if strings.HasPrefix(r.URL.Path, "/ical/") {
		return "/ical/…"
	}
	return r.URL.Path
}

// bodiless answers HEAD with the status and headers GET would have, and
// no body: the handler writes as for GET into a headWriter, which keeps
// only the status and counts the bytes, sent as Content-Length.
func bodiless(next echo.HandlerFunc) echo.HandlerFunc {
	return func(c echo.Context) error {
		if c.Request().Method != http.MethodHead {
			return next(c)
		}
		res := c.Response()
		hw := &headWriter{ResponseWriter: res.Writer}
		res.Writer = hw
		err := next(c)
		res.Writer = hw.ResponseWriter
		hw.finish()
		return err
	}
}

// headWriter holds back the status until the handler is done, so that the
// length of the body it dropped can go out as Content-Length.
type headWriter struct {
	http.ResponseWriter
	status int
	size   int
}

func (w *headWriter) WriteHeader(code int) {
	if w.status == 0 {
		w.status = code
	}
}

func (w *headWriter) Write(b []byte) (int, error) {
	w.WriteHeader(http.StatusOK)
	w.size += len(b)
	return len(b), nil
}

// Unwrap lets http.ResponseController reach the connection's writer.
func (w *headWriter) Unwrap() http.ResponseWriter { return w.ResponseWriter }

func (w *headWriter) finish() {
	if w.status == 0 {
		return // nothing written: net/http sends 200 with no body
	}
	if w.size > 0 && w.ResponseWriter.Header().Get(echo.HeaderContentLength) == "" {
		w.ResponseWriter.Header().Set(echo.HeaderContentLength, strconv.Itoa(w.size))
	}
	w.ResponseWriter.WriteHeader(w.status)
}

// recoverPanic turns a panic into an ordinary error, so a bug in one
// handler answers 500 and is logged instead of dropping the connection.
func recoverPanic(next echo.HandlerFunc) echo.HandlerFunc {
	return func(c echo.Context) (err error) {
		defer func() {
			if r := recover(); r != nil {
				if r == http.ErrAbortHandler {
					panic(r)
				}
				err = fmt.Errorf("server: panic: %v", r)
			}
		}()
		return next(c)
	}
}

// wholeSegments answers 404 to a path with more segments than the route
// it reached: echo lets a route's last parameter take the rest of the
// path, so /genders/3/x reached the gender route with the id "3/x" (a 404
// that named a gender, or a 405 for another method), while it is no route
// of Kith's at all.
func wholeSegments(next echo.HandlerFunc) echo.HandlerFunc {
	return func(c echo.Context) error {
		route := c.Path()
		if strings.Contains(route, ":") && strings.Count(c.Request().URL.Path, "/") > strings.Count(route, "/") {
			return echo.ErrNotFound
		}
		return next(c)
	}
}

// ownPath answers 405 to an API route's own path asked by a method that
// route does not take. Echo would try a parameter's route beside it
// instead: PUT /api/persons/duplicates reached PUT /api/persons/:person,
// which read "duplicates" as a person's id.
func (s *Server) ownPath(next echo.HandlerFunc) echo.HandlerFunc {
	return func(c echo.Context) error {
		// A path with ":" or "*" is no route's own: those are patterns.
		path := c.Request().URL.Path
		if surfaceOf(c) != surfaceAPI || !strings.Contains(c.Path(), ":") || strings.ContainsAny(path, ":*") {
			return next(c)
		}
		var allow []string
		for _, m := range []string{http.MethodGet, http.MethodHead, http.MethodPost, http.MethodPut, http.MethodPatch, http.MethodDelete} {
			if _, ok := s.surfaces[m+" "+path]; ok {
				allow = append(allow, m)
			}
		}
		if allow == nil {
			return next(c)
		}
		c.Response().Header().Set(echo.HeaderAllow, strings.Join(append([]string{http.MethodOptions}, allow...), ", "))
		return echo.ErrMethodNotAllowed
	}
}

// maxEntryRequestBytes is what a write of a journal entry's text may send:
// its 100,000 characters fit even at four UTF-8 bytes each, written as
// JSON's \u escapes or a form's percent escapes (twelve bytes a
// character), so that the limit a client meets is the characters' 422,
// not a 413.
const maxEntryRequestBytes = 2 << 20

// bodyLimits are the routes that read more than input.MaxBodyBytes. A
// photo's route reads a body on PUT (the page's, on POST) alone: its GET
// and DELETE read none.
var bodyLimits = map[string]int64{"/api/import": transfer.MaxImportBytes, "/api/import/vcard": maxVCardImportBytes,
	"/settings/import": transfer.MaxImportBytes, "/settings/import/vcard": maxVCardImportBytes,
	"/api/journals/:journal/entries/:year/:month/:day": maxEntryRequestBytes, "/journals/:journal/:year/:month/:day": maxEntryRequestBytes,
	"/api/persons/:person/photo": photo.MaxBytes, "/people/:person/photo": photo.MaxBytes,
	"/api/import/monica": transfer.MaxMonicaBytes, "/api/import/csv": transfer.MaxCSVBytes,
	"/settings/import/monica": transfer.MaxMonicaBytes, "/settings/import/csv": transfer.MaxCSVBytes}

// limitBody refuses bodies over input.MaxBodyBytes, or the route's own limit:
// at once when the declared length is over, else when reading passes it.
// The route is known here: echo routes before it runs this.
func limitBody(next echo.HandlerFunc) echo.HandlerFunc {
	return func(c echo.Context) error {
		r := c.Request()
		limit, ok := bodyLimits[c.Path()]
		if !ok {
			limit = input.MaxBodyBytes
		}
		if r.ContentLength > limit {
			return input.ErrBodyTooLarge
		}
		r.Body = http.MaxBytesReader(c.Response().Writer, r.Body, limit)
		return next(c)
	}
}

// authenticate looks up a bearer key when there is one and remembers whose
// it is. It refuses nothing: requireUser does, on the routes that need a
// user, so that the rate limiter in between can count a bad key against
// its client address.
func (s *Server) authenticate(next echo.HandlerFunc) echo.HandlerFunc {
	return func(c echo.Context) error {
		switch surfaceOf(c) {
		case surfacePage:
			// The web app's pages take their cookie, never a key, and no
			// other route takes a cookie for a key (which would open the
			// API to cross-site requests).
			return s.web.Authenticate(c, next)
		case surfaceFile:
			return next(c) // the stylesheet and script need nobody
		}
		token, ok := bearer(c.Request())
		if !ok {
			return next(c)
		}
		ctx := c.Request().Context()
		sess, err := s.authenticateKey(c, token)
		if errors.Is(err, store.ErrUnauthenticated) {
			return next(c)
		}
		if err != nil {
			return err
		}
		input.SetSession(c, sess)
		// The store logs the writes of this request as the user's.
		c.SetRequest(c.Request().WithContext(store.WithActor(ctx, sess.UserID)))
		if s.store.NeedsTouch(sess) {
			// last_used_at is a courtesy: failing to record it must not
			// fail the request.
			if err := s.store.TouchAPIKey(ctx, sess.KeyID); err != nil {
				s.log.Warn().Err(err).Str("request_id", requestID(c)).Msg("recording key use failed")
			}
		}
		return next(c)
	}
}

// authenticateKey looks the key up; with a shared limiter it takes its
// user's token in the same round trip (store.AuthenticateTaking) and
// leaves the answer for limitRate, which would otherwise make a second.
func (s *Server) authenticateKey(c echo.Context, token string) (store.Session, error) {
	ctx := c.Request().Context()
	l, shared := s.limiter.(*SharedLimiter)
	if !shared || !l.Enabled() || c.Path() == "/api/health" {
		return s.store.Authenticate(ctx, token)
	}
	tctx, cancel := l.ctx()
	defer cancel()
	sess, b, taken, err := s.store.AuthenticateTaking(tctx, token, l.perMinute)
	if err != nil && !errors.Is(err, store.ErrUnauthenticated) {
		// The statement also writes (the bucket): a database that takes no
		// writes, or stutters, must not refuse the users, as Allow does not.
		l.failed(err, "rate limit")
		return s.store.Authenticate(ctx, token)
	}
	if taken {
		c.Set(ctxRateResult, l.result(b))
	}
	return sess, err
}

func bearer(r *http.Request) (string, bool) {
	h := r.Header.Get(echo.HeaderAuthorization)
	scheme, token, ok := strings.Cut(h, " ")
	if !ok || !strings.EqualFold(scheme, "Bearer") {
		return "", false
	}
	token = strings.TrimSpace(token)
	return token, token != ""
}

// requireUser answers 401 unless the request carries a valid key, and 403
// while the key's user has an unverified email.
func requireUser(next echo.HandlerFunc) echo.HandlerFunc {
	return func(c echo.Context) error {
		sess, ok := input.Session(c)
		if !ok {
			return input.ErrUnauthenticated
		}
		if !sess.Verified {
			return errUnverified
		}
		return next(c)
	}
}

// requireKey answers 401 unless the request carries a valid key, verified
// or not: for the routes an unverified user still needs.
func requireKey(next echo.HandlerFunc) echo.HandlerFunc {
	return func(c echo.Context) error {
		if _, ok := input.Session(c); !ok {
			return input.ErrUnauthenticated
		}
		return next(c)
	}
}

// limitRate spends one token of the user's bucket, or of the client
// address's when no user is known, and says what is left in headers. The
// web app's pages and their files spend from buckets of their own
// (Options.PageLimiter), so that a person reading pages never runs their
// API clients out of requests, nor those clients the pages.
func (s *Server) limitRate(next echo.HandlerFunc) echo.HandlerFunc {
	return func(c echo.Context) error {
		limiter, prefix := s.limiter, ""
		if sf := surfaceOf(c); sf == surfacePage || sf == surfaceFile {
			// One database table holds both kinds of shared buckets.
			limiter, prefix = s.pages, "page:"
		}
		if !limiter.Enabled() || c.Path() == "/api/health" {
			return next(c)
		}
		key := prefix + "ip:" + clientKey(c.RealIP())
		if sess, ok := input.Session(c); ok {
			key = prefix + "user:" + strconv.FormatInt(sess.UserID, 10)
		}
		res, ok := c.Get(ctxRateResult).(rate.Result)
		if !ok {
			res = limiter.Allow(key)
		}
		h := c.Response().Header()
		h.Set("X-RateLimit-Limit", strconv.Itoa(res.Limit))
		h.Set("X-RateLimit-Remaining", strconv.Itoa(res.Remaining))
		if !res.Allowed {
			s.metrics.rateLimited.Inc()
			setRetryAfter(c, res.RetryAfter)
			h.Set("X-RateLimit-Reset", strconv.FormatInt(res.Reset.Unix(), 10))
			return input.ErrTooManyAttempts
		}
		return next(c)
	}
}

// clientKey is what every per-address limit counts a client address under:
// an IPv4 address itself, an IPv6 address its /64. A /64 is the smallest
// network a home or a hosted server is given, and its holder picks any of
// its 2^64 addresses at will: counted one by one, they would be 2^64
// clients.
func clientKey(ip string) string {
	a, err := netip.ParseAddr(ip)
	if err != nil {
		return ip
	}
	a = a.WithZone("").Unmap()
	if a.Is4() {
		return a.String()
	}
	p, _ := a.Prefix(64)
	return p.String()
}

func setRetryAfter(c echo.Context, d time.Duration) {
	c.Response().Header().Set(echo.HeaderRetryAfter, strconv.Itoa(int(d/time.Second)))
}
