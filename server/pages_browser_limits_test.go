package server

import (
	"fmt"
	"net/http"
	"testing"

	"github.com/chromedp/chromedp"

	"kith/rate"
)

// TestWebBrowserPagesAreNotAPICalls: with the API's limit at 5 a minute
// (KITH_RATE_PER_MINUTE=5) and the pages' own at its default, a person
// signs in and opens 40 pages in a row in a real browser, with their
// stylesheet, script and icons, and none is refused (web-app.md §8).
func TestWebBrowserPagesAreNotAPICalls(t *testing.T) {
	bin := browserBinary(t)
	for _, w := range []int64{1280, 360} {
		t.Run(fmt.Sprint(w, "px"), func(t *testing.T) { pagesInBrowser(t, bin, w) })
	}
}

func pagesInBrowser(t *testing.T, bin string, w int64) {
	e := newEnv(t, func(o *Options) { o.Limiter, o.PageLimiter = rate.New(5), rate.New(600) })
	e.user("ada@example.com")
	b := openBrowser(t, bin, e)
	b.do(chromedp.EmulateViewport(w, 800))
	b.open("/login")
	b.sendKeys(b.labelled("Email"), "ada@example.com")
	b.sendKeys(b.labelled("Password"), "correct horse")
	b.submit(b.labelled("Password"), "Log in")
	b.at("/")
	paths := []string{"/", "/people", "/journals", "/settings", "/people/new"}
	for i := range 40 {
		p := paths[i%len(paths)]
		res, err := chromedp.RunResponse(b.ctx, chromedp.Navigate(b.base+p))
		if err != nil {
			t.Fatalf("page %d, %s: %v", i+1, p, err)
		}
		if res.Status != http.StatusOK {
			t.Fatalf("page %d, %s: %d", i+1, p, res.Status)
		}
	}
	b.sees("header", "Log out")
}
