package server

import (
	_ "embed"
	"encoding/json"
	"fmt"
	"net/http"
	"sync"

	"github.com/labstack/echo/v4"
	"go.yaml.in/yaml/v3"
)

// openapiYAML is the API document, written as YAML for people; clients get
// it as JSON. The tests validate every request and response against it.
//
//go:embed openapi.yaml
var openapiYAML []byte

// openapiJSON converts the document once.
var openapiJSON = sync.OnceValues(func() ([]byte, error) {
	var doc any
	if err := yaml.Unmarshal(openapiYAML, &doc); err != nil {
		return nil, fmt.Errorf("server: openapi.yaml: %w", err)
	}
	return json.Marshal(doc)
})

func (s *Server) handleOpenAPI(c echo.Context) error {
	doc, err := openapiJSON()
	if err != nil {
		return err
	}
	return c.JSONBlob(http.StatusOK, doc)
}
