package server

import (
	"net/http"
	"strings"

	"github.com/labstack/echo/v4"
)

// surface is which part of Kith a route belongs to: it decides how a
// request is authenticated and how its errors are answered.
type surface uint8

const (
	surfaceUnknown surface = iota // no route: see unknownSurface
	surfaceAPI                    // JSON, a bearer key
	surfacePage                   // the web app's pages: HTML, the session cookie
	surfaceFile                   // the pages' stylesheet and script: nobody
	surfaceDAV                    // CardDAV: Basic auth with a key
)

const ctxSurface = "surface"

// surfaceRouter adds a surface's routes to the server and marks them as
// the surface's.
type surfaceRouter struct {
	s       *Server
	surface surface
}

func (s *Server) router(sf surface) surfaceRouter { return surfaceRouter{s, sf} }

// Add registers a route of the router's surface.
func (r surfaceRouter) Add(method, path string, h echo.HandlerFunc, m ...echo.MiddlewareFunc) *echo.Route {
	r.s.surfaces[method+" "+path] = r.surface
	return r.s.echo.Add(method, path, h, m...)
}

// get serves GET and HEAD, which echo does not add by itself: HEAD runs
// the same handler and bodiless drops what it writes.
func (r surfaceRouter) get(path string, h echo.HandlerFunc, m ...echo.MiddlewareFunc) {
	r.Add(http.MethodGet, path, h, m...)
	r.Add(http.MethodHead, path, h, m...)
}

func (r surfaceRouter) GET(path string, h echo.HandlerFunc, m ...echo.MiddlewareFunc) {
	r.Add(http.MethodGet, path, h, m...)
}

func (r surfaceRouter) HEAD(path string, h echo.HandlerFunc, m ...echo.MiddlewareFunc) {
	r.Add(http.MethodHead, path, h, m...)
}

func (r surfaceRouter) POST(path string, h echo.HandlerFunc, m ...echo.MiddlewareFunc) {
	r.Add(http.MethodPost, path, h, m...)
}

func (r surfaceRouter) PUT(path string, h echo.HandlerFunc, m ...echo.MiddlewareFunc) {
	r.Add(http.MethodPut, path, h, m...)
}

func (r surfaceRouter) PATCH(path string, h echo.HandlerFunc, m ...echo.MiddlewareFunc) {
	r.Add(http.MethodPatch, path, h, m...)
}

func (r surfaceRouter) DELETE(path string, h echo.HandlerFunc, m ...echo.MiddlewareFunc) {
	r.Add(http.MethodDelete, path, h, m...)
}

// markSurface marks the request with its route's surface, before any
// other middleware asks it. echo has routed it by then.
func (s *Server) markSurface(next echo.HandlerFunc) echo.HandlerFunc {
	return func(c echo.Context) error {
		sf, ok := s.surfaces[c.Request().Method+" "+c.Path()]
		if !ok {
			sf = unknownSurface(c)
		}
		c.Set(ctxSurface, sf)
		return next(c)
	}
}

// unknownSurface is the one rule for a request no route took (an unknown
// path, or a method its path does not serve): a browser asking for a page
// gets its error as a page, everything else as JSON.
func unknownSurface(c echo.Context) surface {
	p := c.Request().URL.Path
	for _, api := range []string{"/api/", "/dav", "/ical/", "/.well-known"} {
		if strings.HasPrefix(p, api) {
			return surfaceUnknown
		}
	}
	if strings.Contains(c.Request().Header.Get(echo.HeaderAccept), "text/html") {
		return surfacePage
	}
	return surfaceUnknown
}

// surfaceOf is the request's surface, as markSurface found it.
func surfaceOf(c echo.Context) surface {
	sf, _ := c.Get(ctxSurface).(surface)
	return sf
}

// isDAV reports whether the request is CardDAV's, whose OPTIONS are no
// CORS preflights: go-webdav answers them.
func (s *Server) isDAV(c echo.Context) bool { return surfaceOf(c) == surfaceDAV }
