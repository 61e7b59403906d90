package server

import (
	"errors"
	"net/http"
	"strings"

	"github.com/labstack/echo/v4"

	"kith/server/input"
	"kith/store"
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
	if surfaceOf(c) == surfacePage {
		s.web.ErrorPage(c, body.Status, body.Message)
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
		ae *input.Error
		ve *input.ValidationError
		he *echo.HTTPError
	)
	switch {
	case errors.As(err, &ve):
		return errorBody{Message: ve.Error(), Status: http.StatusUnprocessableEntity, Errors: ve.ByField()}
	case errors.As(err, &ae) && ae.Status < 500:
		return errorBody{Message: ae.Message, Status: ae.Status}
	case errors.Is(err, store.ErrNotFound):
		return errorBody{Message: notFoundMessage(err), Status: http.StatusNotFound}
	case errors.Is(err, store.ErrTooManyContactDetails):
		return errorBody{Message: input.MsgTooManyContactDetails, Status: http.StatusUnprocessableEntity}
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
	status, msg := input.ErrServer.Status, input.ErrServer.Message
	if errors.As(err, &ae) {
		status, msg = ae.Status, ae.Message
	} else if store.Unavailable(err) {
		// A full disk or a lost lock is the host's trouble and passes:
		// 503 tells the client to try again later.
		status, msg = input.ErrUnavailable.Status, input.ErrUnavailable.Message
		c.Response().Header().Set(echo.HeaderRetryAfter, "5")
	}
	s.log.Error().Err(err).Str("request_id", requestID(c)).
		Str("method", c.Request().Method).Str("path", logPath(c.Request())).Msg("request failed")
	return errorBody{Message: msg, Status: status}
}
