package web

import (
	"strconv"
	"time"

	"github.com/labstack/echo/v4"
)

// waitWords says how long to wait before trying again, in whole seconds,
// as a person reads it: "Try again in 42 seconds.", "… in 1 second.".
func waitWords(d time.Duration) string {
	n := int((d + time.Second - 1) / time.Second)
	if n <= 1 {
		return "Try again in 1 second."
	}
	return "Try again in " + strconv.Itoa(n) + " seconds."
}

// retryAfter is the wait that whoever refused the request set in its
// Retry-After header (a limit, a login throttle), if any: the page that
// says so to a person reads it there, so that the header and the page
// never disagree.
func retryAfter(c echo.Context) (time.Duration, bool) {
	n, err := strconv.Atoi(c.Response().Header().Get(echo.HeaderRetryAfter))
	if err != nil || n < 0 {
		return 0, false
	}
	return time.Duration(n) * time.Second, true
}

// tooManyWords words a refusal for having tried too often: what happened,
// then how long to wait when the refusal said it.
func tooManyWords(c echo.Context, what string) string {
	if d, ok := retryAfter(c); ok {
		return what + " " + waitWords(d)
	}
	return what + " Wait a minute, then try again."
}
