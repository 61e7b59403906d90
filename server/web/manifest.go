package web

import (
	"net/http"

	"github.com/labstack/echo/v4"
)

//go:generate go run icons_gen.go

// The colours the manifest gives the installed app: the stylesheet's
// page background (--bg), shown while it starts, and its accent, the
// brand's green, for the window's bar.
const (
	backgroundColor = "#f7f6f3"
	themeColor      = "#2f6f5e"
)

// manifestIcon is one of the manifest's icons: a PNG under /static/.
type manifestIcon struct {
	Src     string `json:"src"`
	Sizes   string `json:"sizes"`
	Type    string `json:"type"`
	Purpose string `json:"purpose"`
}

// manifest makes the web app installable: a phone's "Add to Home Screen"
// opens it in a window of its own, at the dashboard.
var manifest = struct {
	Name            string         `json:"name"`
	ShortName       string         `json:"short_name"`
	Description     string         `json:"description"`
	StartURL        string         `json:"start_url"`
	Scope           string         `json:"scope"`
	Display         string         `json:"display"`
	BackgroundColor string         `json:"background_color"`
	ThemeColor      string         `json:"theme_color"`
	Icons           []manifestIcon `json:"icons"`
}{
	Name: "Kith", ShortName: "Kith", Description: "Your people, and what to remember about them.",
	StartURL: "/", Scope: "/", Display: "standalone",
	BackgroundColor: backgroundColor, ThemeColor: themeColor,
	Icons: []manifestIcon{
		{Src: "/static/icon-192.png", Sizes: "192x192", Type: "image/png", Purpose: "any"},
		{Src: "/static/icon-512.png", Sizes: "512x512", Type: "image/png", Purpose: "any"},
		{Src: "/static/icon-maskable-512.png", Sizes: "512x512", Type: "image/png", Purpose: "maskable"},
	},
}

// handleManifest answers the web app's manifest, to anyone: a browser
// fetches it without the session's cookie.
func handleManifest(c echo.Context) error {
	c.Response().Header().Set(echo.HeaderCacheControl, "public, max-age=3600")
	c.Response().Header().Set(echo.HeaderContentType, "application/manifest+json")
	return c.JSON(http.StatusOK, manifest)
}
