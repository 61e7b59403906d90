package server

import (
	"context"
	"io"
	"net/http"
	"regexp"
	"sort"
	"strings"
	"sync"
	"testing"

	"github.com/getkin/kin-openapi/openapi3"
	"github.com/getkin/kin-openapi/openapi3filter"
	"github.com/getkin/kin-openapi/routers"
	"github.com/getkin/kin-openapi/routers/legacy"
)

// apiDoc loads and validates the served document once for the suite.
var apiDoc = sync.OnceValues(func() (*openapi3.T, error) {
	b, err := openapiJSON()
	if err != nil {
		return nil, err
	}
	loader := openapi3.NewLoader()
	doc, err := loader.LoadFromData(b)
	if err != nil {
		return nil, err
	}
	if err := doc.Validate(loader.Context); err != nil {
		return nil, err
	}
	return doc, nil
})

var apiRouter = sync.OnceValues(func() (routers.Router, error) {
	// A vCard file is a body the validator takes as it is.
	openapi3filter.RegisterBodyDecoder("text/vcard", openapi3filter.FileBodyDecoder)
	openapi3filter.RegisterBodyDecoder("image/jpeg", openapi3filter.FileBodyDecoder) // a photo
	doc, err := apiDoc()
	if err != nil {
		return nil, err
	}
	return legacy.NewRouter(doc)
})

// checkOpenAPI holds one exchange of the suite to the document: the status
// must be documented for the operation and the body must match its schema,
// which forbids unknown properties; a request Kith accepted (2xx) must be
// one the document allows. Requests to no documented operation (unknown
// routes, wrong methods, preflights) are left to the tests themselves.
func checkOpenAPI(t testing.TB, r req, out resp) {
	t.Helper()
	router, err := apiRouter()
	if err != nil {
		t.Fatalf("openapi.yaml: %v", err)
	}
	hr := r.httpRequest()
	hr.Host = "example.com"
	route, params, err := router.FindRoute(hr)
	if err != nil {
		return
	}
	ctx := context.Background()
	in := &openapi3filter.RequestValidationInput{Request: hr, PathParams: params, Route: route,
		Options: &openapi3filter.Options{AuthenticationFunc: openapi3filter.NoopAuthenticationFunc}}
	if out.code < 300 {
		if err := openapi3filter.ValidateRequest(ctx, in); err != nil {
			t.Errorf("OpenAPI: %s %s was accepted with %d but the document refuses it: %v", r.method, r.path, out.code, err)
		}
	}
	err = openapi3filter.ValidateResponse(ctx, &openapi3filter.ResponseValidationInput{
		RequestValidationInput: in, Status: out.code, Header: out.header,
		Body:    io.NopCloser(strings.NewReader(out.body)),
		Options: &openapi3filter.Options{IncludeResponseStatus: true},
	})
	if err != nil {
		t.Errorf("OpenAPI: %s %s answered %d, which the document does not describe: %v\n%s", r.method, r.path, out.code, err, out.body)
	}
}

// webPath tells the web app's routes: pages and their files, no API.
func webPath(path string) bool {
	for _, p := range []string{"/api/", "/dav", "/ical/", "/.well-known"} {
		if strings.HasPrefix(path, p) {
			return false
		}
	}
	return path != ""
}

// davRoute tells the routes of CardDAV and its discovery.
func davRoute(method, path string) bool {
	return path == "/dav" || strings.HasPrefix(path, "/dav/") || path == "/.well-known/carddav" ||
		path == "/" && (method == "PROPFIND" || method == http.MethodOptions || method == http.MethodGet)
}

// TestOpenAPICoversTheRouter compares the router's routes with the
// document's operations in both directions.
func TestOpenAPICoversTheRouter(t *testing.T) {
	doc, err := apiDoc()
	if err != nil {
		t.Fatal(err)
	}
	documented := map[string]bool{}
	for path, item := range doc.Paths.Map() {
		for method := range item.Operations() {
			documented[method+" "+path] = true
		}
	}
	served := map[string]bool{}
	for _, rt := range newEnv(t).srv.Routes() {
		if rt.Method == http.MethodHead {
			continue // every GET's, without the body (TestHeadWhereverGet); the document says so once
		}
		if davRoute(rt.Method, rt.Path) {
			continue // CardDAV is no JSON API: docs/api.md describes it (TestCardDAV*)
		}
		if webPath(rt.Path) {
			continue // the web app's pages: TestWeb* test them
		}
		path := rt.Path
		for _, p := range []string{"person", "task", "id", "gender"} {
			path = strings.ReplaceAll(path, ":"+p, "{"+p+"}")
		}
		path = strings.NewReplacer(":event", "{event}", ":entry", "{entry}").Replace(path)
		path = pathParam.ReplaceAllString(path, "{$1}") // the ids of the newer routes
		path = strings.NewReplacer(":journal", "{journal}", ":year", "{year}", ":month", "{month}", ":day", "{day}").Replace(path)
		served[rt.Method+" "+path] = true
	}
	var missing, extra []string
	for k := range served {
		if !documented[k] {
			missing = append(missing, k)
		}
	}
	for k := range documented {
		if !served[k] {
			extra = append(extra, k)
		}
	}
	sort.Strings(missing)
	sort.Strings(extra)
	if len(missing) > 0 || len(extra) > 0 {
		t.Errorf("served but not documented: %v\ndocumented but not served: %v", missing, extra)
	}
	if len(served) < 30 {
		t.Errorf("only %d routes", len(served))
	}
}

func TestOpenAPIServed(t *testing.T) {
	e := newEnv(t)
	r := e.do(req{method: http.MethodGet, path: "/api/openapi.json"})
	doc := r.json(t)
	if r.code != 200 || doc["openapi"] != "3.1.0" || r.header.Get("Content-Type") != "application/json" {
		t.Fatalf("%d %s %v", r.code, r.header.Get("Content-Type"), doc["openapi"])
	}
	if _, ok := doc["paths"].(map[string]any)["/api/persons/{person}/tasks/{task}"]; !ok {
		t.Error("the served document lacks a path")
	}
}

// pathParam is an echo path parameter, which OpenAPI writes in braces.
var pathParam = regexp.MustCompile(`:(\w+)`)
