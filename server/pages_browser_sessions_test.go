package server

import (
	"fmt"
	"net/http"
	"strings"
	"testing"

	cdppage "github.com/chromedp/cdproto/page"
	"github.com/chromedp/chromedp"
)

// TestWebBrowserSessions: signed in from Chromium and, as HTTP clients,
// from an iPhone and an Android phone, Settings → Security lists all
// three in words, this browser first; Sign out ends the iPhone's session,
// Sign out all other sessions (once its question is accepted) the rest,
// and this browser stays signed in. At 1280 and at 360 px.
func TestWebBrowserSessions(t *testing.T) {
	bin := browserBinary(t)
	for _, width := range []int64{1280, 360} {
		t.Run(fmt.Sprint(width), func(t *testing.T) { browseSessions(t, bin, width) })
	}
}

func browseSessions(t *testing.T, bin string, width int64) {
	e := newEnv(t)
	e.user("ada@example.com")
	phone := e.signInFrom(t, "ada@example.com", safariIPhone, "[2001:db8:85a3::8a2e:370:7334]:5000")
	android := e.signInFrom(t, "ada@example.com", chromeAndroid, "203.0.113.11:5000")
	b := openBrowser(t, bin, e)
	b.do(chromedp.EmulateViewport(width, 900))
	b.signInAs("ada@example.com", "correct horse")

	b.open("/settings/security")
	b.sees("#sessions", "Sessions", "Safari on iPhone", "2001:db8:85a3::8a2e:370:7334", "Chrome on Android", "203.0.113.11",
		"Sign out all other sessions")
	b.sees("#sessions li:first-child", "Chrome on Linux", "This browser", "Active now", "127.0.0.1")
	if n := b.count(`#sessions li button`); n != 2 {
		t.Errorf("%d Sign out buttons, want one for each other session", n)
	}
	b.oneH1()
	b.fits(width)

	b.click(`//section[@id="sessions"]//li[.//strong[normalize-space()="Safari on iPhone"]]//button[normalize-space()="Sign out"]`)
	b.at("/settings/security")
	b.sees("main", "Safari on iPhone is signed out.")
	b.lacks("#sessions ul", "Safari on iPhone")
	phone.get("/").redirects(t, "/login")
	android.get("/").status(t, http.StatusOK)

	// Sign out all other sessions asks first: the question, accepted.
	questions := make(chan string, 1)
	go func() {
		for ev, err := range chromedp.Events(b.ctx, cdppage.JavascriptDialogOpening) {
			if err != nil {
				return
			}
			questions <- ev.Message
			if _, err := chromedp.Call(b.ctx, cdppage.HandleJavaScriptDialog, cdppage.HandleJavaScriptDialogParams{Accept: true}); err != nil {
				return
			}
		}
	}()
	b.click(`//section[@id="sessions"]//button[normalize-space()="Sign out all other sessions"]`)
	if q := <-questions; !strings.Contains(q, "Sign out every browser but this one?") {
		t.Errorf("asked %q", q)
	}
	b.at("/settings/security")
	b.sees("main", "Every other session is signed out.")
	b.lacks("#sessions", "Chrome on Android", "Sign out all other sessions")
	if n := b.count(`#sessions li`); n != 1 {
		t.Errorf("%d sessions listed, want this browser's", n)
	}
	android.get("/").redirects(t, "/login")
	b.fits(width)
	b.open("/")
	b.sees("body", "Log out")
}
