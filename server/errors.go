package server

import (
	"errors"
	"net/http"
	"strconv"
	"strings"

	"github.com/labstack/echo/v4"

	"kith/store"
)

// apiError is an error with the status and message a client sees.
type apiError struct {
	status  int
	message string
}

func (e *apiError) Error() string { return strconv.Itoa(e.status) + " " + e.message }

// The errors of the contract (§2) that are not tied to one resource.
var (
	errUnauthenticated    = &apiError{http.StatusUnauthorized, "Unauthenticated."}
	errInvalidCredentials = &apiError{http.StatusUnauthorized, "Invalid credentials"}
	errInvalidJSON        = &apiError{http.StatusBadRequest, "The request body is not valid JSON."}
	errNotJSONObject      = &apiError{http.StatusBadRequest, "The request body must be a JSON object."}
	errInvalidForm        = &apiError{http.StatusBadRequest, "The request body is not a valid form."}
	errBodyTooLarge       = &apiError{http.StatusRequestEntityTooLarge, "The request body is too large."}
	errTooManyAttempts    = &apiError{http.StatusTooManyRequests, "Too Many Attempts."}
	errUnavailable        = &apiError{http.StatusServiceUnavailable, "Service Unavailable."}
	errServer             = &apiError{http.StatusInternalServerError, "Server Error."}
)

// statusClientClosed is the status of a request whose client went away.
const statusClientClosed = 499

// statusMessages words the errors that echo itself raises (routing,
// middleware) the contract's way.
var statusMessages = map[int]string{
	http.StatusBadRequest:            "Bad request.",
	http.StatusUnauthorized:          "Unauthenticated.",
	http.StatusForbidden:             "Forbidden.",
	http.StatusNotFound:              "Not found.",
	http.StatusMethodNotAllowed:      "Method not allowed.",
	http.StatusRequestEntityTooLarge: "The request body is too large.",
	http.StatusTooManyRequests:       "Too Many Attempts.",
	http.StatusServiceUnavailable:    "Service Unavailable.",
	// net/http's own refusals (JSONErrors).
	http.StatusRequestHeaderFieldsTooLarge: "The request headers are too large.",
	http.StatusExpectationFailed:           "Expectation failed.",
	http.StatusNotImplemented:              "Not implemented.",
	http.StatusHTTPVersionNotSupported:     "HTTP version not supported.",
}

// statusMessage words an error status that carries no message of its own.
func statusMessage(code int) string {
	if msg, ok := statusMessages[code]; ok {
		return msg
	}
	return strings.TrimSpace(http.StatusText(code)) + "."
}

// ValidationError holds every failed rule of one request, field by field in
// the order the fields were checked.
type ValidationError struct {
	fields   []string
	messages map[string][]string
}

func (v *ValidationError) add(field, msg string) {
	if v.messages == nil {
		v.messages = make(map[string][]string)
	}
	if _, seen := v.messages[field]; !seen {
		v.fields = append(v.fields, field)
	}
	v.messages[field] = append(v.messages[field], msg)
}

// invalid returns a validation error of one field and message.
func invalid(field, msg string) *ValidationError {
	v := &ValidationError{}
	v.add(field, msg)
	return v
}

// Error is Laravel's summary: the first message, then how many more.
func (v *ValidationError) Error() string {
	n := 0
	for _, msgs := range v.messages {
		n += len(msgs)
	}
	msg := v.messages[v.fields[0]][0]
	switch n - 1 {
	case 0:
		return msg
	case 1:
		return msg + " (and 1 more error)"
	default:
		return msg + " (and " + strconv.Itoa(n-1) + " more errors)"
	}
}

// Messages lists every failure's message, field by field: for the command
// line, which has no errors object to show.
func (v *ValidationError) Messages() []string {
	var out []string
	for _, f := range v.fields {
		out = append(out, v.messages[f]...)
	}
	return out
}

type errorBody struct {
	Message string              `json:"message"`
	Status  int                 `json:"status"`
	Errors  map[string][]string `json:"errors,omitempty"`
}

// handleError is echo's one error handler: every error a handler or a
// middleware returns becomes the contract's body here, and nothing else
// writes an error.
func (s *Server) handleError(err error, c echo.Context) {
	if c.Response().Committed {
		return
	}
	body := s.errorBody(err, c)
	if isWeb(c) {
		s.webError(c, body)
		return
	}
	if body.Status == http.StatusUnauthorized && c.Response().Header().Get("WWW-Authenticate") == "" {
		// CardDAV's Basic challenge (davChallenge) stays.
		c.Response().Header().Set("WWW-Authenticate", "Bearer")
	}
	// HEAD too: bodiless drops the body and keeps its headers.
	if err := c.JSON(body.Status, body); err != nil {
		s.log.Warn().Err(err).Str("request_id", requestID(c)).Msg("writing an error response failed")
	}
}

func (s *Server) errorBody(err error, c echo.Context) errorBody {
	var (
		ae *apiError
		ve *ValidationError
		he *echo.HTTPError
	)
	switch {
	case errors.As(err, &ve):
		return errorBody{Message: ve.Error(), Status: http.StatusUnprocessableEntity, Errors: ve.messages}
	case errors.As(err, &ae) && ae.status < 500:
		return errorBody{Message: ae.message, Status: ae.status}
	case errors.Is(err, store.ErrNotFound):
		return errorBody{Message: notFoundMessage(err), Status: http.StatusNotFound}
	case errors.As(err, &he) && he.Code < 500:
		return errorBody{Message: statusMessage(he.Code), Status: he.Code}
	case c.Request().Context().Err() != nil:
		// The client went away before the answer, and the work it asked
		// for was cut short with it (a query cancelled, a connection
		// dropped): nobody reads this answer, and nothing is wrong here.
		// 499 is nginx's status for it, which the access log shows.
		s.log.Info().Err(err).Str("request_id", requestID(c)).
			Str("method", c.Request().Method).Str("path", logPath(c.Request())).Msg("the client went away before the answer")
		return errorBody{Message: "Client Closed Request.", Status: statusClientClosed}
	}
	// Everything else is our fault: the client gets no details, the log
	// gets the cause under the request id the client was given.
	status, msg := errServer.status, errServer.message
	if errors.As(err, &ae) {
		status, msg = ae.status, ae.message
	} else if store.Unavailable(err) {
		// A full disk or a lost lock is the host's trouble and passes:
		// 503 tells the client to try again later.
		status, msg = errUnavailable.status, errUnavailable.message
	}
	s.log.Error().Err(err).Str("request_id", requestID(c)).
		Str("method", c.Request().Method).Str("path", logPath(c.Request())).Msg("request failed")
	return errorBody{Message: msg, Status: status}
}
