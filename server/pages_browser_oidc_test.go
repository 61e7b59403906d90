package server

import (
	"fmt"
	"testing"

	"github.com/chromedp/chromedp"
)

// TestWebBrowserSSO clicks Sign in with <name> on the sign-in page, goes
// through the fake provider (which sends the browser straight back) and
// lands on the dashboard, signed in: at 1280 and at 360 px.
func TestWebBrowserSSO(t *testing.T) {
	bin := browserBinary(t)
	for _, width := range []int64{1280, 360} {
		t.Run(fmt.Sprint(width), func(t *testing.T) {
			e, p := ssoEnv(t)
			e.user("ada@example.com")
			b := openBrowser(t, bin, e)
			p.set(func(p *idp) { p.redirect = b.base + "/auth/oidc/callback" })
			b.do(chromedp.EmulateViewport(width, 900))
			b.open("/login")
			b.sees("main", "Sign in with Home SSO")
			b.fits(width)
			b.click(`//a[normalize-space()="Sign in with Home SSO"]`)
			b.at("/")
			b.sees("header", "Log out")
			b.fits(width)
		})
	}
}
