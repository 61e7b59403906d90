package server

import (
	"context"
	"fmt"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/cdproto/cdp"
	"github.com/chromedp/cdproto/webauthn"
	"github.com/chromedp/chromedp"
)

// TestWebBrowserPasskeys adds a passkey in Settings → Security with
// Chromium's virtual authenticator, signs out, signs in with it without
// typing an email (two-factor on, and no Code step), removes it, and sees
// the next passkey sign-in refused: at 1280 and at 360 px.
func TestWebBrowserPasskeys(t *testing.T) {
	bin := browserBinary(t)
	for _, width := range []int64{1280, 360} {
		t.Run(fmt.Sprint(width), func(t *testing.T) { browsePasskeys(t, bin, width) })
	}
}

// openLocalBrowser is openBrowser at http://localhost:<port>: browsers
// refuse WebAuthn on an IP address, and the relying party's id is the
// request's host.
func openLocalBrowser(t *testing.T, bin string, e *env) *chrome {
	t.Helper()
	ts := httptest.NewServer(e.srv)
	t.Cleanup(ts.Close)
	ctx, stop, err := launchChromium(t, bin)
	if err != nil {
		needsBrowser(t, err.Error())
	}
	b := &chrome{t: t, ctx: ctx, base: strings.Replace(ts.URL, "127.0.0.1", "localhost", 1)}
	b.listen()
	t.Cleanup(func() {
		b.noConsoleErrors()
		stop()
	})
	return b
}

// virtualAuthenticator gives the browser a platform authenticator that
// keeps discoverable credentials and verifies its user at once.
func (b *chrome) virtualAuthenticator() {
	b.t.Helper()
	b.do(chromedp.Func(func(ctx context.Context, tg *chromedp.Target) error {
		if _, err := cdp.Call(ctx, tg, webauthn.Enable, webauthn.EnableParams{}); err != nil {
			return err
		}
		_, err := cdp.Call(ctx, tg, webauthn.AddVirtualAuthenticator, webauthn.AddVirtualAuthenticatorParams{
			Options: &webauthn.VirtualAuthenticatorOptions{Protocol: webauthn.AuthenticatorProtocolCtap2,
				Transport: webauthn.AuthenticatorTransportInternal, HasResidentKey: true, HasUserVerification: true,
				IsUserVerified: true, AutomaticPresenceSimulation: true}})
		return err
	}))
}

// clickAndWait clicks a button whose form the script sends later, after
// its ceremony, and waits for the next page, which must be at path. The
// old page is marked, so that a new one at the same address is told apart.
func (b *chrome) clickAndWait(xpath, path string) {
	b.t.Helper()
	if _, err := chromedp.Run(b.ctx, chromedp.Evaluate[bool](`window.kithOldPage = true`)); err != nil {
		b.t.Fatal(err)
	}
	b.do(chromedp.Click(xpath))
	deadline := time.Now().Add(10 * time.Second)
	for {
		fresh, err := chromedp.Run(b.ctx, chromedp.Evaluate[bool](`!window.kithOldPage && document.readyState === "complete"`))
		if err == nil && fresh {
			break
		}
		if time.Now().After(deadline) {
			b.t.Fatalf("no new page after the click; the page says: %s", b.text("main"))
		}
		time.Sleep(50 * time.Millisecond)
	}
	b.at(path)
}

func browsePasskeys(t *testing.T, bin string, width int64) {
	e := newEnv(t)
	_, key := e.user("ada@example.com")
	b := openLocalBrowser(t, bin, e)
	b.do(chromedp.EmulateViewport(width, 900))
	b.virtualAuthenticator()
	b.signInAs("ada@example.com", "correct horse")

	b.open("/settings/security")
	b.sees("#passkeys", "Passkeys", "No passkeys.")
	b.fits(width)
	b.sendKeys(b.labelledIn("#passkeys", "Passkey name"), "This laptop")
	b.clickAndWait(`//section[@id="passkeys"]//button[normalize-space()="Add a passkey"]`, "/settings/security")
	b.sees("body", "Passkey “This laptop” added.")
	b.sees("#passkeys", "This laptop", "never used")
	b.lacks("#passkeys", "No passkeys.")
	b.oneH1()
	b.fits(width)
	// Two-factor on, which signs the browser out: the passkey still needs no code.
	e.twoFactorOn(key)
	b.open("/login")
	b.sees("main", "Sign in with a passkey")
	b.fits(width)
	b.clickAndWait(`//button[normalize-space()="Sign in with a passkey"]`, "/")
	b.sees("body", "Log out")
	if n := b.count(`input[name="code"]`); n != 0 {
		t.Errorf("a Code step after a passkey: %d code fields", n)
	}
	b.open("/settings/security")
	b.sees("#passkeys", "This laptop", "last used")

	// Remove asks first, as every delete does: the answer here is yes.
	if _, err := chromedp.Run(b.ctx, chromedp.Evaluate[bool](
		`window.confirm = function (m) { sessionStorage.setItem("asked", m); return true; }; true`)); err != nil {
		t.Fatal(err)
	}
	b.click(`//section[@id="passkeys"]//button[normalize-space()="Remove"]`)
	asked, err := chromedp.Run(b.ctx, chromedp.Evaluate[string](`sessionStorage.getItem("asked") || ""`))
	if err != nil || asked != "Remove the passkey This laptop? It will no longer sign you in." {
		t.Errorf("asked %q before removing (%v)", asked, err)
	}
	b.sees("body", "Passkey removed.")
	b.sees("#passkeys", "No passkeys.")

	b.click(`//button[normalize-space()="Log out"]`)
	b.at("/login")
	b.expect("/login/passkey")
	b.clickAndWait(`//button[normalize-space()="Sign in with a passkey"]`, "/login/passkey")
	b.sees("main", "That passkey did not sign you in.")
	b.sees("body", "Sign in with a passkey")
	b.lacks("body", "Log out")
	b.fits(width)
}
