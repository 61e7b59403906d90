package server

import (
	"context"
	"fmt"
	"net/http"
	"strings"
	"testing"

	"github.com/chromedp/cdproto/cdp"
	"github.com/chromedp/cdproto/emulation"
	"github.com/chromedp/chromedp"
)

// TestWebBrowserDash drives the dashboard and the people list as a new
// user would, at a phone's width and a laptop's: the first steps on an
// empty dashboard and where each leads, the offer of the browser's time
// zone, quick add by the labels, Log a call on a person overdue, a
// journal's day, and the people list's faces, second lines and orders.
func TestWebBrowserDash(t *testing.T) {
	bin := browserBinary(t)
	for _, w := range []int64{1280, 360} {
		t.Run(fmt.Sprint(w, "px"), func(t *testing.T) { dashInBrowser(t, bin, w) })
	}
}

func dashInBrowser(t *testing.T, bin string, w int64) {
	e := newEnv(t) // today is 2026-03-15, 12:00 UTC
	_, key := e.user("ada@example.com")
	b := openBrowser(t, bin, e)
	b.do(chromedp.EmulateViewport(w, 800), chromedp.Func(func(ctx context.Context, tg *chromedp.Target) error {
		_, err := cdp.Call(ctx, tg, emulation.SetTimezoneOverride, emulation.SetTimezoneOverrideParams{TimezoneID: "Europe/Berlin"})
		return err
	}))

	b.open("/login")
	b.sendKeys(b.labelled("Email"), "ada@example.com")
	b.sendKeys(b.labelled("Password"), "correct horse")
	b.submit(b.labelled("Password"), "Log in")
	b.at("/")
	b.fits(w)

	// The first steps, each to a page of its own.
	b.sees("main", "Add a person", "Import contacts", "Connect your phone")
	b.follows("Import contacts", "/settings/data", func() {
		if b.count(`main input[type=file]`) == 0 {
			t.Errorf("Import contacts leads to a page without a file field")
		}
	})
	b.open("/")
	b.follows("Connect your phone", "/settings/phone", func() { b.sees("main", "CardDAV") })

	// The browser's zone, offered while the user's is UTC.
	b.open("/")
	use := `//main//button[normalize-space()="Use Europe/Berlin"]`
	if b.xcount(use) != 1 || b.count("#tz-proposal:not([hidden])") != 1 {
		t.Fatalf("no visible button Use Europe/Berlin on the dashboard")
	}
	if w < 1280 {
		// Keep UTC: the offer is gone, and stays gone in this browser.
		b.do(chromedp.Click(`//main//button[normalize-space()="Keep UTC"]`))
		b.open("/")
		if b.count("#tz-proposal:not([hidden])") != 0 {
			t.Error("the offer is back after Keep UTC")
		}
		if _, err := chromedp.Run(b.ctx, chromedp.Evaluate[bool](`(localStorage.clear(), true)`)); err != nil {
			t.Fatal(err)
		}
		b.open("/")
	}
	b.click(use)
	b.at("/")
	if r := e.do(req{method: "GET", path: "/api/me/timezone", key: key}); !strings.Contains(r.body, `"Europe/Berlin"`) {
		t.Errorf("after Use Europe/Berlin the API says %s", r.body)
	}
	if b.xcount(use) != 0 {
		t.Error("the button is still there once the zone is set")
	}

	// Quick add, by the labels; the rest of the fields behind More details.
	b.click(`//main//a[normalize-space()="Add a person"]`)
	b.at("/people/new")
	if b.visible(b.labelled("Prefix")) {
		t.Error("Prefix shows before More details is opened")
	}
	b.do(chromedp.Click(`//main//summary[normalize-space()="More details"]`))
	for _, f := range []string{"Prefix", "Suffix", "Maiden name", "Marital status", "Kids"} {
		if !b.visible(b.labelled(f)) {
			t.Errorf("%s does not show once More details is open", f)
		}
	}
	b.sendKeys(b.labelled("First name"), "Katherine")
	b.sendKeys(b.labelled("Last name"), "Johnson")
	b.setValue(b.labelled("Birthday"), "1986-05-03")
	b.sendKeys(b.labelled("Email"), "katherine@nasa.example")
	b.sendKeys(b.labelled("Phone"), "+1 (555) 010-2030")
	b.sendKeys(b.labelled("Prefix"), "Dr")
	b.submit(b.labelled("First name"), "Add person")
	katherine := strings.TrimPrefix(b.path(), "/people/")
	r := e.do(req{method: "GET", path: "/api/persons/" + katherine, key: key})
	age := r.json(t)["data"].(map[string]any)["age"].(map[string]any)
	if age["age_type"] != "exact" || fmt.Sprint(age["birth_year"], "-", age["birth_month"], "-", age["birth_day"]) != "1986-5-3" {
		t.Errorf("the quick-added person's age: %v", age)
	}
	r = e.do(req{method: "GET", path: "/api/persons/" + katherine + "/contact-details", key: key})
	var details []string
	for _, d := range r.json(t)["data"].([]any) {
		details = append(details, fmt.Sprint(d.(map[string]any)["kind"], " ", d.(map[string]any)["value"]))
	}
	if got := strings.Join(details, ", "); got != "email katherine@nasa.example, phone +1 (555) 010-2030" {
		t.Errorf("the quick-added details: %s", got)
	}
	b.open("/")
	b.lacks("main", "Import contacts", "Connect your phone")

	// Due for a call: every 7 days, last contact 20 days ago.
	grace := e.person(key, "first_name=Grace&last_name=Hopper")
	e.interaction(key, grace, "happened_on=2026-02-23&kind=call")
	if r := e.do(req{method: "PUT", path: "/api/persons/" + grace + "/stay-in-touch?every_days=7", key: key}); r.code != http.StatusOK {
		t.Fatalf("stay in touch: %d %s", r.code, r.body)
	}
	b.open("/")
	item := `//section[.//h2[normalize-space()="Due for a call"]]//li[.//a[normalize-space()="Grace Hopper"]]`
	if b.xcount(item+`[contains(normalize-space(), "overdue by 13 days")]`) != 1 {
		t.Errorf("Grace Hopper is not listed as overdue by 13 days:\n%s", b.text("main"))
	}
	b.fits(w)
	b.click(item + `//button[normalize-space()="Log a call"]`)
	b.at("/")
	if b.xcount(item) != 0 {
		t.Error("Grace Hopper is still due for a call after Log a call")
	}

	// A journal's day: Open, write, Save, read on the journal's page.
	j := e.journal(key, "Diary")
	b.open("/journals/" + j)
	b.setValue(b.labelled("Date"), "2026-03-10")
	b.submit(b.labelled("Date"), "Open")
	b.at("/journals/" + j + "/2026/3/10")
	b.sendKeys(b.labelled("Entry"), "Rain all day.\nRead a book.")
	b.submit(b.labelled("Entry"), "Save")
	b.open("/journals/" + j)
	b.sees("#entries", "Rain all day.", "Read a book.")
	if b.xcount(`//section[@id="entries"]//li[contains(., "Mar") and contains(., "10") and contains(., "Rain all day.")]`) != 1 {
		t.Errorf("the text is not under its date:\n%s", b.text("#entries"))
	}
	if r := e.do(req{method: "GET", path: "/api/journals/" + j + "/entries/2026/3/10", key: key}); !strings.Contains(r.body, `"body":"Rain all day.\nRead a book."`) {
		t.Errorf("the API's entry: %s", r.body)
	}

	// The people list: faces, second lines, orders.
	ada := e.person(key, "first_name=Ada&last_name=Young")
	e.interaction(key, ada, "happened_on=2026-03-12&kind=call")
	bob := e.person(key, "first_name=Bob&last_name=Adams")
	e.interaction(key, bob, "happened_on=2025-11-02&kind=call")
	e.workEntry(key, bob, "job_title=Boss&company_name=Acme&active=1")
	b.click(`//header//a[normalize-space()="People"]`)
	b.at("/people")
	b.fits(w)
	row := func(name string) string { return `//main//li[.//a[normalize-space()="` + name + `"]]` }
	if b.xcount(row("Ada Young")+`//*[normalize-space()="AY"]`) != 1 {
		t.Error("Ada Young's row shows no initials AY")
	}
	if b.xcount(row("Bob Adams")+`[contains(., "Acme")]`) != 1 {
		t.Error("Bob Adams's row does not say Acme")
	}
	if b.xcount(row("Ada Young")+`[contains(., "last in touch 3 days ago")]`) != 1 {
		t.Error("Ada Young's row does not say when last in touch")
	}
	b.click(`//main//a[normalize-space()="Last name"]`)
	if got := b.names(); got != "Bob Adams, Grace Hopper, Katherine Johnson, Ada Young" {
		t.Errorf("by last name: %s", got)
	}
	b.click(`//main//a[normalize-space()="Last contacted"]`)
	if got := b.names(); got != "Grace Hopper, Ada Young, Bob Adams, Katherine Johnson" {
		t.Errorf("by last contact: %s", got)
	}
}

// follows finds the main link of text, which must lead to path, opens
// it, and checks the page there, which must answer 200, with check.
func (b *chrome) follows(text, path string, check func()) {
	b.t.Helper()
	href, err := chromedp.Run(b.ctx, chromedp.Evaluate[string](`(Array.from(document.querySelectorAll("main a")).find(a => a.textContent.trim() === `+quoteJS(text)+`) || {}).pathname || ""`))
	if err != nil || href != path {
		b.t.Errorf("the link %s goes to %q, want %s (%v)", text, href, path, err)
		return
	}
	b.expect(path)
	res, err := chromedp.RunResponse(b.ctx, chromedp.Navigate(b.base+path))
	if err != nil {
		b.t.Fatalf("open %s: %v", path, err)
	}
	if res.Status != http.StatusOK {
		b.t.Errorf("%s answers %d", path, res.Status)
		return
	}
	check()
}

// xcount is how many elements the XPath finds.
func (b *chrome) xcount(xpath string) int {
	b.t.Helper()
	n, err := chromedp.Run(b.ctx, chromedp.Evaluate[int](`document.evaluate(`+quoteJS(xpath)+
		`, document, null, XPathResult.ORDERED_NODE_SNAPSHOT_TYPE, null).snapshotLength`))
	if err != nil {
		b.t.Fatal(err)
	}
	return n
}

// visible reports whether the element the CSS selector finds is drawn.
func (b *chrome) visible(sel string) bool {
	b.t.Helper()
	v, err := chromedp.Run(b.ctx, chromedp.Evaluate[bool](`(el => !!el && (el.checkVisibility ? el.checkVisibility() : el.getClientRects().length > 0))(document.querySelector(`+quoteJS(sel)+`))`))
	if err != nil {
		b.t.Fatal(err)
	}
	return v
}

// names are the people list's names, in its order.
func (b *chrome) names() string {
	b.t.Helper()
	s, err := chromedp.Run(b.ctx, chromedp.Evaluate[string](`Array.from(document.querySelectorAll("main li.person a")).map(a => a.textContent.trim()).join(", ")`))
	if err != nil {
		b.t.Fatal(err)
	}
	return s
}
