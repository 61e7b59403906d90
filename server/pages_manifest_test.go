package server

import (
	"bytes"
	"encoding/json"
	"image/png"
	"net/http"
	"net/http/httptest"
	"net/url"
	"regexp"
	"strconv"
	"strings"
	"testing"
)

// TestWebManifest: the manifest and its icons answer without a session
// (web-app.md §12), and every page links them, the sign-in page too.
func TestWebManifest(t *testing.T) {
	e := newEnv(t)
	e.user("ada@example.com")
	r := e.do(req{method: "GET", path: "/manifest.webmanifest"})
	if r.code != http.StatusOK || r.header.Get("Content-Type") != "application/manifest+json" {
		t.Fatalf("manifest: %d %q %s", r.code, r.header.Get("Content-Type"), r.body)
	}
	var m struct {
		Name, ShortName, StartURL, Display, BackgroundColor, ThemeColor string
		Icons                                                           []struct{ Src, Sizes, Type, Purpose string }
	}
	if err := json.Unmarshal([]byte(strings.NewReplacer(`"short_name"`, `"ShortName"`, `"start_url"`, `"StartURL"`,
		`"background_color"`, `"BackgroundColor"`, `"theme_color"`, `"ThemeColor"`).Replace(r.body)), &m); err != nil {
		t.Fatal(err)
	}
	if m.Name != "Kith" || m.ShortName != "Kith" || m.StartURL != "/" || m.Display != "standalone" ||
		m.BackgroundColor != "#f7f6f3" || m.ThemeColor != "#2f6f5e" {
		t.Errorf("manifest: %+v", m)
	}
	sizes := map[string]bool{}
	for _, icon := range m.Icons {
		src, err := url.Parse(icon.Src)
		if err != nil || icon.Type != "image/png" {
			t.Errorf("icon %+v", icon)
			continue
		}
		want, err := strconv.Atoi(strings.Split(icon.Sizes, "x")[0])
		if err != nil || icon.Sizes != strconv.Itoa(want)+"x"+strconv.Itoa(want) {
			t.Errorf("icon sizes %q", icon.Sizes)
			continue
		}
		w := httptest.NewRecorder()
		e.srv.ServeHTTP(w, httptest.NewRequest(http.MethodGet, (&url.URL{Path: "/manifest.webmanifest"}).ResolveReference(src).Path, nil))
		if w.Code != http.StatusOK || w.Header().Get("Content-Type") != "image/png" {
			t.Errorf("icon %s: %d %q", icon.Src, w.Code, w.Header().Get("Content-Type"))
			continue
		}
		img, err := png.DecodeConfig(bytes.NewReader(w.Body.Bytes()))
		if err != nil || img.Width != want || img.Height != want {
			t.Errorf("icon %s: %dx%d, want %s: %v", icon.Src, img.Width, img.Height, icon.Sizes, err)
		}
		if icon.Purpose == "any" {
			sizes[icon.Sizes] = true
		}
	}
	if !sizes["192x192"] || !sizes["512x512"] {
		t.Errorf("icons for any purpose: %v, want 192x192 and 512x512", sizes)
	}

	links := regexp.MustCompile(`<link rel="manifest" href="/manifest.webmanifest">`)
	b := e.browser(t)
	if pg := b.get("/login"); !links.MatchString(pg.body) || !strings.Contains(pg.body, `<link rel="apple-touch-icon" href="/static/icon-192.png">`) ||
		!strings.Contains(pg.body, `<meta name="theme-color"`) {
		t.Errorf("the sign-in page links no manifest, touch icon or theme colour:\n%s", pg.body)
	}
	if pg := e.signIn(t, "ada@example.com").get("/"); !links.MatchString(pg.body) {
		t.Errorf("the dashboard links no manifest")
	}
}
