package server

import (
	"fmt"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"kith/server/totp"
)

// TestWebBrowserTwoFactor turns two-factor on in Settings → Security,
// reading the secret off the page and computing its code here, sees the
// recovery codes, logs out, and signs in again through the Code step: at
// 1280 and at 360 px.
func TestWebBrowserTwoFactor(t *testing.T) {
	bin := browserBinary(t)
	for _, width := range []int64{1280, 360} {
		t.Run(fmt.Sprint(width), func(t *testing.T) { browseTwoFactor(t, bin, width) })
	}
}

func browseTwoFactor(t *testing.T, bin string, width int64) {
	e := newEnv(t)
	e.user("ada@example.com")
	b := openBrowser(t, bin, e)
	b.do(chromedp.EmulateViewport(width, 900))
	b.signInAs("ada@example.com", "correct horse")
	b.open("/settings/security")
	b.sees("#two-factor", "Two-factor authentication", "off")
	b.click(`//button[normalize-space()="Turn on"]`)
	b.at("/settings/two-factor")
	secret := strings.TrimSpace(b.text("#two-factor-secret"))
	if !regexp.MustCompile(`^[A-Z2-7]{32}$`).MatchString(secret) {
		t.Fatalf("secret %q", secret)
	}
	b.sees("#two-factor", "otpauth://totp/Kith:ada@example.com?secret="+secret)
	b.loaded("#two-factor img.qr")
	b.oneH1()
	b.fits(width)
	b.sendKeys(b.labelled("Code"), totp.Code(secret, totp.Step(e.clock.Now())))
	b.submit(b.labelled("Code"), "Confirm")
	codes := regexp.MustCompile(`[a-z0-9]{5}-[a-z0-9]{5}`).FindAllString(b.text("#two-factor-codes"), -1)
	if len(codes) != 10 {
		t.Fatalf("recovery codes %v", codes)
	}
	if b.count(`button[data-copy="two-factor-codes"]:not([hidden])`) != 1 {
		t.Error("no Copy button beside the recovery codes")
	}
	b.fits(width)
	b.open("/settings/security")
	b.sees("#two-factor", "on", "Recovery codes left: 10.")

	b.click(`//button[normalize-space()="Log out"]`)
	b.at("/login")
	e.clock.Advance(totp.Period * time.Second) // the confirming code works once
	b.sendKeys(b.labelled("Email"), "ada@example.com")
	b.sendKeys(b.labelled("Password"), "correct horse")
	b.submit(b.labelled("Password"), "Log in")
	if n := b.count(`input[type="password"]`); n != 0 {
		t.Errorf("the Code step has %d password fields", n)
	}
	b.oneH1()
	b.fits(width)
	b.sendKeys(b.labelled("Code"), totp.Code(secret, totp.Step(e.clock.Now())))
	b.submit(b.labelled("Code"), "Verify")
	b.at("/")
	b.sees("body", "Log out")
}
