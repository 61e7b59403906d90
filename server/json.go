package server

import (
	"encoding/json"

	"github.com/labstack/echo/v4"
)

// jsonSerializer writes JSON as clients of the reference system see it:
// without HTML escaping, so a link's "&" stays "&" rather than "\u0026".
// An API answer is never embedded in HTML, which that escaping exists for.
type jsonSerializer struct{}

func (jsonSerializer) Serialize(c echo.Context, v any, indent string) error {
	enc := json.NewEncoder(c.Response())
	enc.SetEscapeHTML(false)
	if indent != "" {
		enc.SetIndent("", indent)
	}
	return enc.Encode(v)
}

// Deserialize is unused: parameters are read by readParams.
func (jsonSerializer) Deserialize(c echo.Context, v any) error {
	return json.NewDecoder(c.Request().Body).Decode(v)
}
