package server

import (
	"bytes"
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

// jsonBuffers are encoding buffers for reuse; one that grew past
// maxPooledJSON (a person's tasks are not paginated) is left to the GC.
var jsonBuffers = sync.Pool{New: func() any { return new(bytes.Buffer) }}

const maxPooledJSON = 64 << 10

func (jsonSerializer) Serialize(c echo.Context, v any, indent string) error {
	buf := jsonBuffers.Get().(*bytes.Buffer)
	defer func() {
		if buf.Cap() <= maxPooledJSON {
			buf.Reset()
			jsonBuffers.Put(buf)
		}
	}()
	enc := json.NewEncoder(buf)
	enc.SetEscapeHTML(false)
	if indent != "" {
		enc.SetIndent("", indent)
	}
	if err := enc.Encode(v); err != nil {
		return err
	}
	res := c.Response()
	if !res.Committed {
		res.Header().Set(echo.HeaderContentLength, strconv.Itoa(buf.Len()))
	}
	_, err := res.Write(buf.Bytes())
	return err
}

// jsonBytes are buffers for writeJSON, as jsonBuffers are for Serialize.
var jsonBytes = sync.Pool{New: func() any { return new([]byte) }}

// writeJSON answers with the JSON that appendJSON appends, as Serialize
// sends c.JSON's: whole, with its Content-Length.
func writeJSON(c echo.Context, status int, appendJSON func([]byte) []byte) error {
	p := jsonBytes.Get().(*[]byte)
	b := appendJSON((*p)[:0])
	defer func() {
		if cap(b) <= maxPooledJSON {
			*p = b
			jsonBytes.Put(p)
		}
	}()
	c.Response().Header().Set(echo.HeaderContentLength, strconv.Itoa(len(b)))
	return c.Blob(status, echo.MIMEApplicationJSON, b)
}

// Deserialize is unused: parameters are read by readParams.
func (jsonSerializer) Deserialize(c echo.Context, v any) error {
	return json.NewDecoder(c.Request().Body).Decode(v)
}
