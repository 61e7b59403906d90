package server

import (
	"strings"
	"testing"

	cdpbrowser "github.com/chromedp/cdproto/browser"
	"github.com/chromedp/chromedp"
)

// TestWebBrowserMailIn: the Data page shows the mail-in address with a
// Copy button that copies it, and makes a new one after asking.
func TestWebBrowserMailIn(t *testing.T) {
	bin := browserBinary(t)
	e := newEnv(t, func(o *Options) { o.MailInDomain = mailInDomain })
	_, key := e.user("ada@example.com")
	b := openBrowser(t, bin, e)
	for _, name := range []string{"clipboard-read", "clipboard-write"} {
		_, err := chromedp.CallBrowser(b.ctx, cdpbrowser.SetPermission, cdpbrowser.SetPermissionParams{
			Permission: &cdpbrowser.PermissionDescriptor{Name: name, AllowWithoutSanitization: true}, Setting: "granted", Origin: b.base})
		if err != nil {
			t.Fatalf("grant %s: %v", name, err)
		}
	}
	b.signInAs("ada@example.com", "correct horse")
	b.open("/settings/data")
	first := b.text("#mail-in-address")
	if !mailInShown.MatchString(first) || first != (&mailInEnv{env: e}).address(key) {
		t.Fatalf("the page shows %q", first)
	}
	b.copies(first)

	// The form asks first; the test answers yes, and keeps the question.
	if _, err := chromedp.Run(b.ctx, chromedp.Evaluate[bool](
		`window.confirm = function (m) { sessionStorage.setItem("asked", m); return true; }; true`)); err != nil {
		t.Fatal(err)
	}
	b.click(`//main//button[normalize-space()="Make a new address"]`)
	b.at("/settings/data")
	b.sees("main", "New mail-in address made")
	asked, err := chromedp.Run(b.ctx, chromedp.Evaluate[string](`sessionStorage.getItem("asked") || ""`))
	if err != nil || !strings.Contains(asked, "The old one stops working") {
		t.Errorf("asked %q (%v) before making a new address", asked, err)
	}
	if second := b.text("#mail-in-address"); second == first || !mailInShown.MatchString(second) {
		t.Errorf("after a new one: %q, before %q", second, first)
	}
}
