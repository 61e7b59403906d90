package server

import (
	"encoding/json"
	"strconv"
	"sync"

	"github.com/labstack/echo/v4"
)

// jsonSerializer writes JSON as clients of the reference system see it:
// without HTML escaping, so a link's "&" stays "&" rather than "\u0026".
// An API answer is never embedded in HTML, which that escaping exists for.
//
// It encodes into a buffer and sends the answer with its Content-Length:
// encoded straight into the response, an answer over net/http's 2 KiB
// buffer went out chunked, with one more write(2) for its last chunk, and
// one that failed to encode had already sent part of itself.
type jsonSerializer struct{}

func (jsonSerializer) Serialize(c echo.Context, v any, indent string) error {
	return sendJSON(c, func(w *jsonBuffer) error {
		enc := json.NewEncoder(w)
		enc.SetEscapeHTML(false)
		if indent != "" {
			enc.SetIndent("", indent)
		}
		return enc.Encode(v)
	})
}

// writeJSON answers status with the JSON that appendJSON appends, as
// c.JSON answers through Serialize.
func writeJSON(c echo.Context, status int, appendJSON func([]byte) []byte) error {
	c.Response().Header().Set(echo.HeaderContentType, echo.MIMEApplicationJSON)
	c.Response().Status = status // written with the body, as c.JSON does
	return sendJSON(c, func(w *jsonBuffer) error {
		w.b = appendJSON(w.b)
		return nil
	})
}

// jsonBuffer is an encoding buffer, kept in jsonBuffers for reuse; one
// that grew past maxPooledJSON (a person's tasks are not paginated) is
// left to the GC.
type jsonBuffer struct{ b []byte }

func (w *jsonBuffer) Write(p []byte) (int, error) {
	w.b = append(w.b, p...)
	return len(p), nil
}

var jsonBuffers = sync.Pool{New: func() any { return new(jsonBuffer) }}

const maxPooledJSON = 64 << 10

// sendJSON sends what fill writes into a pooled buffer as the answer's
// body, whole, with its Content-Length.
func sendJSON(c echo.Context, fill func(*jsonBuffer) error) error {
	w := jsonBuffers.Get().(*jsonBuffer)
	w.b = w.b[:0]
	defer func() {
		if cap(w.b) <= maxPooledJSON {
			jsonBuffers.Put(w)
		}
	}()
	if err := fill(w); err != nil {
		return err
	}
	res := c.Response()
	if !res.Committed {
		res.Header().Set(echo.HeaderContentLength, strconv.Itoa(len(w.b)))
	}
	_, err := res.Write(w.b)
	return err
}

// Deserialize is unused: parameters are read by input.ReadParams.
func (jsonSerializer) Deserialize(c echo.Context, v any) error {
	return json.NewDecoder(c.Request().Body).Decode(v)
}

// The envelopes every resource answers in.

// dataBody wraps a resource, or a list of them, as {"data": ...}.
type dataBody[T any] struct {
	Data T `json:"data"`
}

// links is a resource's own address, as {"self": url}.
type links struct {
	Self string `json:"self"`
}

// messageBody is an answer that is only a message, as {"message", "status"}.
type messageBody struct {
	Message string `json:"message"`
	Status  int    `json:"status"`
}
