package server

import (
	"context"
	"fmt"
	"image/color"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"kith/server/photo/phototest"
	"kith/store/storetest"
)

// TestWebBrowser drives the web app in a real, headless Chromium, as a
// person would: through the labelled fields and the buttons, reading the
// text the page shows after each step. It signs in, adds a person, gives
// them a birthday and a phone number, adds a task and ticks it, tags them
// and follows a tag's chip to the people who have it, relates them to
// another person and follows the link to that one, gives them a photo,
// finds the person by
// search, signs out, and fails to sign in with a wrong
// password. On the way it takes screenshots of the dashboard and of a
// person page at 360 and 1280 px wide: into $KITH_SCREENSHOTS when set
// (the README's come from there), into a temporary directory otherwise.
// No page may log an error to the console: the CSP forbids inline scripts
// and styles, and a violation is logged there.
//
// Without a Chromium it is skipped, except in CI (CI=true), which must run
// it. It runs on SQLite only: the store is not what it tests, and
// PostgreSQL's run would only start a browser a second time.
func TestWebBrowser(t *testing.T) {
	bin := browserBinary(t)
	shots := os.Getenv("KITH_SCREENSHOTS")
	if shots == "" {
		shots = t.TempDir()
	} else if err := os.MkdirAll(shots, 0o755); err != nil {
		t.Fatal(err)
	}

	e := newEnv(t)
	u, _ := e.user("ada@example.com")
	b := openBrowser(t, bin, e)

	// Sign in.
	b.open("/")
	b.at("/login")
	b.sees("main", "Log in to Kith", "Email", "Password")
	b.sendKeys("#login-email", "ada@example.com")
	b.sendKeys("#login-password", "correct horse")
	b.submit("#login-password", "Log in")
	b.at("/")
	b.sees("main", "Dashboard", "Coming up", "Tasks", "Due for a call")
	b.sees("header", "Dashboard", "People", "Journals", "Settings", "Log out")

	// Add a person.
	b.click(`//header//a[normalize-space()="People"]`)
	b.at("/people")
	b.sees("main", "No people yet.")
	b.click(`//main//a[normalize-space()="Add a person"]`)
	b.at("/people/new")
	b.sendKeys("#person-first_name", "Grace")
	b.sendKeys("#person-last_name", "Hopper")
	b.do(chromedp.Click(`//main//summary[normalize-space()="More details"]`)) // the rest of the fields, behind a disclosure
	b.sendKeys("#person-nickname", "Amazing Grace")
	b.sendKeys("#person-how_we_met", "At the Harvard Computation Lab, over a moth in the Mark II.")
	b.submit("#person-first_name", "Add person")
	grace := b.path()
	if !strings.HasPrefix(grace, "/people/") {
		t.Fatalf("after adding a person: at %s, want their page", grace)
	}
	b.sees("main", "Grace Hopper", "Harvard Computation Lab")

	// A birthday: in two days, by the test's clock (15 March 2026).
	b.openSection("age")
	b.setValue("#age-age_type", "exact")
	b.sendKeys("#age-age_year", "1986")
	b.sendKeys("#age-age_month", "3")
	b.sendKeys("#age-age_day", "17")
	b.submit("#age-age_day", "Save age")
	b.sees("main", "39 (born")

	// A phone number.
	b.openSection("contact-details")
	b.setValue("#contact-details-kind", "phone")
	b.sendKeys("#contact-details-value", "+1 202 555 0143")
	b.sendKeys("#contact-details-label", "mobile")
	b.submit("#contact-details-value", "Add contact detail")
	b.sees("#contact-details", "+1 202 555 0143", "Phone", "mobile")

	// A task, then ticked.
	b.openSection("tasks")
	b.sendKeys("#tasks-name", "Send the COBOL book back")
	b.setValue("#tasks-due_at", "2026-03-16")
	b.submit("#tasks-name", "Add task")
	b.sees("#tasks", "Send the COBOL book back", "Mark done")
	b.click(`//section[@id="tasks"]//button[normalize-space()="Mark done"]`)
	b.sees("#tasks", "Send the COBOL book back", "Mark to do", "done ")
	if n := b.count(`#tasks .done`); n != 1 {
		t.Errorf("%d tasks drawn as done, want 1", n)
	}

	// More, so that the pages of the screenshots are not empty: a task due
	// soon, a note, an important date, how often to keep in touch; and two
	// more people whose birthdays come in the next days.
	b.openSection("tasks")
	b.sendKeys("#tasks-name", "Book a table for her birthday")
	b.setValue("#tasks-due_at", "2026-03-16")
	b.submit("#tasks-name", "Add task")
	b.openSection("notes")
	b.sendKeys("#notes-content", "Keeps a clock that runs counterclockwise.\nLikes nanosecond wires as presents.")
	b.submit("#notes-content", "Add note")
	b.openSection("important-dates")
	b.sendKeys("#important-dates-label", "Retirement")
	b.sendKeys("#important-dates-date", "1986-08-14")
	b.submit("#important-dates-label", "Add important date")
	b.openSection("stay-in-touch")
	b.sendKeys("#stay-in-touch-every_days", "30")
	b.submit("#stay-in-touch-every_days", "Save")
	// Three more, each added at once with a birthday and an email.
	people := map[string]string{}
	for _, p := range []struct{ first, last, birthday, task, due, every string }{
		{first: "Ada", last: "Lovelace", birthday: "1990-12-10"},
		{first: "Katherine", last: "Johnson", birthday: "1978-03-22", task: "Return her slide rule", due: "2026-03-12"},
		{first: "Alan", last: "Turing", birthday: "1992-03-26", every: "7"},
	} {
		b.open("/people/new")
		b.sendKeys(b.labelled("First name"), p.first)
		b.sendKeys(b.labelled("Last name"), p.last)
		b.setValue(b.labelled("Birthday"), p.birthday)
		b.sendKeys(b.labelled("Email"), strings.ToLower(p.first)+"@example.org")
		b.submit(b.labelled("First name"), "Add person")
		people[p.first] = b.path()
		b.sees("#contact-details", strings.ToLower(p.first)+"@example.org")
		if p.task != "" {
			b.openSection("tasks")
			b.sendKeys("#tasks-name", p.task)
			b.setValue("#tasks-due_at", p.due)
			b.submit("#tasks-name", "Add task")
		}
		if p.every != "" {
			b.openSection("stay-in-touch")
			b.sendKeys("#stay-in-touch-every_days", p.every)
			b.submit("#stay-in-touch-every_days", "Save")
		}
	}
	// Ada is to be called monthly since 20 January: overdue by 24 days.
	adaID, err := strconv.ParseInt(strings.TrimPrefix(people["Ada"], "/people/"), 10, 64)
	if err != nil {
		t.Fatal(err)
	}
	monthly := int64(30)
	if _, err := e.st.SetStayInTouch(t.Context(), u.AccountID, adaID, &monthly, "2026-01-20"); err != nil {
		t.Fatal(err)
	}

	// Tags on Grace, and a chip that opens the people who have one.
	b.open(grace)
	b.sees("#tags", "Add tags")
	b.openSection("tags")
	b.sendKeys("#tags-tags", "Navy, COBOL")
	b.submit("#tags-tags", "Save tags")
	b.sees("#tags", "Navy", "COBOL")
	b.click(`//*[@id="tags"]//a[normalize-space()="Navy"]`)
	b.at("/people")
	b.sees("main", "Tagged", "Grace Hopper")
	b.lacks("main", "Katherine Johnson", "Alan Turing")
	b.click(`//main//a[normalize-space()="Show everyone"]`)
	b.sees("main", "Grace Hopper", "Katherine Johnson", "Alan Turing")

	// A relationship: Alan is Grace's mentor, so she is his mentee; the
	// name is a link to the other's page.
	b.open(grace)
	b.openSection("relationships")
	b.setValue("#relationships-person_id", b.optionValue("#relationships-person_id", "Alan Turing"))
	b.setValue("#relationships-relationship_type_id", b.optionValue("#relationships-relationship_type_id", "mentor"))
	b.submit("#relationships-person_id", "Add relationship")
	b.sees("#relationships", "Alan Turing", "mentor")
	b.click(`//*[@id="relationships"]//a[normalize-space()="Alan Turing"]`)
	b.sees("h1", "Alan Turing")
	b.sees("#relationships", "Grace Hopper", "mentee")

	// A photo of Grace, shown beside her name and in the list.
	b.open(grace)
	face := filepath.Join(t.TempDir(), "grace.png")
	// A soft diagonal gradient, for the README's screenshots.
	portrait := phototest.Image(120, 80, func(x, y int) color.NRGBA {
		return color.NRGBA{uint8(90 + x), uint8(140 + y), uint8(160 - y/2), 255}
	})
	if err := os.WriteFile(face, phototest.PNG(portrait), 0o644); err != nil {
		t.Fatal(err)
	}
	b.openSection("photo")
	b.do(chromedp.SetUploadFiles(chromedp.CSS("#photo-photo"), []string{face}))
	b.submit("#photo-photo", "Save photo")
	b.sees("main", "Photo saved.", "Remove photo")
	b.loaded(".who img.face")
	b.open("/people")
	b.loaded(`img.face[src="` + grace + `/photo"]`)

	// The dashboard: the birthdays ahead, the task due tomorrow and the
	// overdue one (not the done one); Ada is due for a call (Alan is, in a
	// week).
	b.click(`//header//a[normalize-space()="Dashboard"]`)
	b.at("/")
	b.sees("#coming ~ ul", "Birthday of Grace Hopper", "Birthday of Katherine Johnson", "Birthday of Alan Turing")
	b.sees("#todo ~ ul", "Book a table for her birthday", "Return her slide rule", "overdue since")
	b.sees("#calls ~ ul", "Ada Lovelace", "overdue by 24 days", "Log a call")
	b.lacks("#calls ~ ul", "Alan Turing")
	b.lacks("main", "Send the COBOL book back", "Birthday of Ada Lovelace")

	// Find her by search: part of the name, then part of an email.
	b.click(`//header//a[normalize-space()="People"]`)
	b.sees("main", "Grace Hopper", "Katherine Johnson")
	b.sendKeys("#q", "hopp")
	b.submit("#q", "Search")
	b.sees("main", "Grace Hopper")
	b.lacks("main", "Katherine Johnson", "Alan Turing")
	b.open("/people")
	b.sendKeys("#q", "katherine@")
	b.submit("#q", "Search")
	b.sees("main", "Katherine Johnson")
	b.lacks("main", "Grace Hopper")
	b.open("/people")
	b.sendKeys("#q", "nobody-like-this")
	b.submit("#q", "Search")
	b.sees("main", "Nobody matches")
	b.open("/people")
	b.sendKeys("#q", "grace")
	b.submit("#q", "Search")
	b.click(`//main//a[normalize-space()="Grace Hopper"]`)
	b.at(grace)

	// The screenshots, at a phone's width (an iPhone's 390 px) and a
	// laptop's, with each page's height logged: a page that grows tall
	// on a phone is one to look at.
	for _, w := range []int64{390, 1280} {
		b.do(chromedp.EmulateViewport(w, 844))
		for _, s := range []struct{ name, path string }{
			{"dashboard", "/"}, {"person", grace}, {"people", "/people"}, {"settings", "/settings"},
			{"settings-profile", "/settings/profile"}, {"settings-lists", "/settings/lists"},
		} {
			b.open(s.path)
			b.fits(w)
			b.screenshot(filepath.Join(shots, s.name+"-"+strconv.FormatInt(w, 10)+".png"))
			tall, err := chromedp.Run(b.ctx, chromedp.Evaluate[int64](`Math.ceil(document.body.getBoundingClientRect().height)`))
			if err != nil {
				t.Fatal(err)
			}
			t.Logf("%s at %d px: %d px tall", s.path, w, tall)
		}
	}
	b.do(chromedp.EmulateViewport(1280, 900))

	// Sign out: the sign-in page again, and / sends there.
	b.open("/")
	b.click(`//header//button[normalize-space()="Log out"]`)
	b.at("/login")
	b.sees("main", "You are logged out.", "Log in to Kith")
	b.lacks("header", "Log out")
	b.open("/")
	b.at("/login")
	b.open(grace)
	b.at("/login")

	// A wrong password: refused, and still signed out.
	b.sendKeys("#login-email", "ada@example.com")
	b.sendKeys("#login-password", "wrong horse")
	b.expect("/login") // the refusal is a 401
	b.submit("#login-password", "Log in")
	b.at("/login")
	b.sees("main", "That email and password do not match an account.")
	b.lacks("header", "Log out", "Dashboard")
	b.open("/")
	b.at("/login")

	// The keyboard alone: Tab to a field, type, Enter; whatever has the
	// focus shows it.
	b.tabTo(`document.activeElement.id === "login-email"`)
	b.focusShows()
	b.do(chromedp.KeyEvent("ada@example.com"), chromedp.KeyEvent("\t"), chromedp.KeyEvent("correct horse"))
	b.press("\r")
	b.at("/")
	b.tabTo(`document.activeElement.textContent === "People"`)
	b.focusShows()
	b.press("\r")
	b.at("/people")
	b.tabTo(`document.activeElement.id === "q"`)
	b.do(chromedp.KeyEvent("hopp"))
	b.press("\r")
	b.sees("main", "Grace Hopper")
}

// tabTo presses Tab until the JavaScript condition holds of the focus.
func (b *chrome) tabTo(cond string) {
	b.t.Helper()
	for range 30 {
		ok, err := chromedp.Run(b.ctx, chromedp.Evaluate[bool](cond))
		if err != nil {
			b.t.Fatal(err)
		}
		if ok {
			return
		}
		b.do(chromedp.KeyEvent("\t"))
	}
	b.t.Fatalf("on %s, 30 presses of Tab never reached %s", b.path(), cond)
}

// press presses a key that loads a page, and waits for it.
func (b *chrome) press(key string) {
	b.t.Helper()
	if _, err := chromedp.RunResponse(b.ctx, chromedp.KeyEvent(key)); err != nil {
		b.t.Fatalf("press %q: %v", key, err)
	}
}

// focusShows fails the test unless the focused element is drawn with an
// outline, the visible focus a keyboard user follows.
func (b *chrome) focusShows() {
	b.t.Helper()
	style, err := chromedp.Run(b.ctx, chromedp.Evaluate[string](`getComputedStyle(document.activeElement).outlineStyle`))
	if err != nil {
		b.t.Fatal(err)
	}
	if style == "none" || style == "" {
		b.t.Errorf("on %s the focus has no outline (%q)", b.path(), style)
	}
}

// launchChromium starts a headless Chromium with one blank tab, for at
// most 90 seconds of use. A browser that fails to start (on a busy
// machine it can miss chromedp's start-up wait while other packages'
// tests run) is tried once more before the error is returned.
func launchChromium(t *testing.T, bin string) (context.Context, func(), error) {
	t.Helper()
	var err error
	for attempt := 1; attempt <= 2; attempt++ {
		ctx, cancel := context.WithTimeout(context.Background(), 90*time.Second)
		ctx, cancelAlloc := chromedp.NewExecAllocator(ctx,
			chromedp.ExecPath(bin),
			chromedp.NoFirstRun,
			chromedp.NoDefaultBrowserCheck,
			chromedp.Headless,
			chromedp.NoSandbox, // the tests may run as root
			chromedp.Flag("disable-gpu", true),
			chromedp.Flag("disable-dev-shm-usage", true),
			chromedp.Flag("disable-extensions", true),
			chromedp.Flag("disable-background-networking", true),
			chromedp.Flag("disable-sync", true),
			chromedp.Flag("lang", "en-GB"),
			chromedp.WindowSize(1280, 900),
		)
		ctx, cancelTab := chromedp.NewContext(ctx)
		stop := func() { cancelTab(); cancelAlloc(); cancel() }
		if err = chromedp.Do(ctx, chromedp.Navigate("about:blank")); err == nil {
			return ctx, stop, nil
		}
		stop()
		t.Logf("%s did not start (attempt %d of 2): %v", bin, attempt, err)
	}
	return nil, nil, fmt.Errorf("%s did not start twice: %w", bin, err)
}

// needsBrowser skips the test for want of a working browser, saying why,
// or fails it when CI=true: CI installs Chromium and must run the test.
func needsBrowser(t *testing.T, why string) {
	t.Helper()
	if os.Getenv("CI") == "true" {
		t.Fatal(why + ", and CI=true: the browser test must run")
	}
	t.Skip(why)
}

// chromiumPath finds a Chromium or Chrome on PATH.
func chromiumPath() string {
	for _, name := range []string{"chromium", "chromium-browser", "google-chrome", "google-chrome-stable"} {
		if p, err := exec.LookPath(name); err == nil {
			return p
		}
	}
	return ""
}

// chrome is a tab of a headless Chromium on the test server; each method
// fails the test on an error.
type chrome struct {
	t    *testing.T
	ctx  context.Context
	base string

	mu      sync.Mutex
	console []chromedp.ConsoleMessage
	// expected are the paths whose failed load the browser logs as a
	// console error on purpose: a refused sign-in is a 401.
	expected map[string]bool
}

func (b *chrome) do(steps ...chromedp.Action[chromedp.Void]) {
	b.t.Helper()
	if err := chromedp.Do(b.ctx, steps...); err != nil {
		b.t.Fatal(err)
	}
}

// listen keeps the console's messages: calls, exceptions and the browser
// log, where a CSP violation is reported.
func (b *chrome) listen() {
	messages := chromedp.Console(b.ctx)
	go func() {
		for m, err := range messages {
			if err != nil {
				return
			}
			b.mu.Lock()
			b.console = append(b.console, m)
			b.mu.Unlock()
		}
	}()
}

// noConsoleErrors fails the test if a page logged an error or a warning,
// or threw.
func (b *chrome) noConsoleErrors() {
	b.t.Helper()
	// Give the last page's messages a moment to arrive.
	time.Sleep(100 * time.Millisecond)
	b.mu.Lock()
	defer b.mu.Unlock()
	for _, m := range b.console {
		if m.Source == "network" && b.expected[strings.TrimPrefix(m.URL, b.base)] {
			continue
		}
		switch m.Type {
		case chromedp.ConsoleError, chromedp.ConsoleException, chromedp.ConsoleWarning:
			b.t.Errorf("console %s (%s %s:%d): %s", m.Type, m.Source, m.URL, m.Line, m.Text)
		}
	}
}

// expect says that loading path fails on purpose, with a status that the
// browser logs as an error.
func (b *chrome) expect(path string) {
	b.mu.Lock()
	defer b.mu.Unlock()
	if b.expected == nil {
		b.expected = map[string]bool{}
	}
	b.expected[path] = true
}

// open loads a path of the server.
func (b *chrome) open(path string) {
	b.t.Helper()
	res, err := chromedp.RunResponse(b.ctx, chromedp.Navigate(b.base+path))
	if err != nil {
		b.t.Fatalf("open %s: %v", path, err)
	}
	if res.Status != http.StatusOK {
		b.t.Fatalf("open %s: status %d", path, res.Status)
	}
}

// click clicks what the XPath finds, and waits for the page it loads.
func (b *chrome) click(xpath string) {
	b.t.Helper()
	if _, err := chromedp.RunResponse(b.ctx, chromedp.Click(xpath)); err != nil {
		b.t.Fatalf("click %s: %v", xpath, err)
	}
}

// submit clicks the button labelled label in the form of the field, and
// waits for the page it loads.
func (b *chrome) submit(field, label string) {
	b.t.Helper()
	id := strings.TrimPrefix(field, "#")
	b.click(`//*[@id="` + id + `"]/ancestor::form//button[normalize-space()="` + label + `"]`)
}

// openSection opens the <details> of a person page's section by clicking
// its summary.
func (b *chrome) openSection(id string) {
	b.t.Helper()
	b.do(chromedp.Click(chromedp.CSS("#" + id + " details:not([open]) > summary")))
}

func (b *chrome) sendKeys(sel, text string) {
	b.t.Helper()
	b.do(chromedp.SendKeys(chromedp.CSS(sel), text))
}

// setValue sets a select or a date field, whose keys depend on the
// platform.
func (b *chrome) setValue(sel, value string) {
	b.t.Helper()
	b.do(chromedp.SetValue(chromedp.CSS(sel), value))
}

// loaded fails the test unless the image the CSS selector finds has been
// loaded and has pixels.
func (b *chrome) loaded(sel string) {
	b.t.Helper()
	w, err := chromedp.Run(b.ctx, chromedp.Evaluate[int](`(document.querySelector(`+quoteJS(sel)+`) || {}).naturalWidth || 0`))
	if err != nil || w == 0 {
		b.t.Errorf("on %s, %s is not a loaded image: %v", b.path(), sel, err)
	}
}

// optionValue is the value of the select's option that shows text.
func (b *chrome) optionValue(sel, text string) string {
	b.t.Helper()
	v, err := chromedp.Run(b.ctx, chromedp.Evaluate[string](`(Array.from(document.querySelectorAll(`+quoteJS(sel+" option")+
		`)).find(o => o.text === `+quoteJS(text)+`) || {value: ""}).value`))
	if err != nil || v == "" {
		b.t.Fatalf("no option %q in %s: %v", text, sel, err)
	}
	return v
}

// path is the page's path.
func (b *chrome) path() string {
	b.t.Helper()
	loc, err := chromedp.Run(b.ctx, chromedp.Location())
	if err != nil {
		b.t.Fatal(err)
	}
	return strings.TrimPrefix(loc, b.base)
}

// at fails the test unless the page is path (no query or fragment).
func (b *chrome) at(path string) {
	b.t.Helper()
	got, _, _ := strings.Cut(b.path(), "#")
	got, _, _ = strings.Cut(got, "?")
	if got != path {
		b.t.Fatalf("at %s, want %s", got, path)
	}
}

// text is what the element shows.
func (b *chrome) text(sel string) string {
	b.t.Helper()
	s, err := chromedp.Run(b.ctx, chromedp.Text(chromedp.CSS(sel)))
	if err != nil {
		b.t.Fatalf("text of %s: %v", sel, err)
	}
	return s
}

// sees fails the test unless the element shows each of want.
func (b *chrome) sees(sel string, want ...string) {
	b.t.Helper()
	got := b.text(sel)
	for _, w := range want {
		if !strings.Contains(got, w) {
			b.t.Errorf("%s on %s shows no %q:\n%s", sel, b.path(), w, got)
		}
	}
}

// lacks fails the test if the element shows any of bad.
func (b *chrome) lacks(sel string, bad ...string) {
	b.t.Helper()
	got := b.text(sel)
	for _, w := range bad {
		if strings.Contains(got, w) {
			b.t.Errorf("%s on %s shows %q:\n%s", sel, b.path(), w, got)
		}
	}
}

// count is how many elements the CSS selector finds.
func (b *chrome) count(sel string) int {
	b.t.Helper()
	n, err := chromedp.Run(b.ctx, chromedp.Evaluate[int](`document.querySelectorAll(`+quoteJS(sel)+`).length`))
	if err != nil {
		b.t.Fatal(err)
	}
	return n
}

// labelled is the CSS selector of the field whose label (or aria-label)
// says label, as web-app.md's group finds fields: case, "(required)" and
// spaces ignored.
func (b *chrome) labelled(label string) string {
	b.t.Helper()
	return b.labelledIn("", label)
}

// labelledIn is labelled among the fields inside scope, a CSS selector
// (a page holds several forms with a field of one name).
func (b *chrome) labelledIn(scope, label string) string {
	b.t.Helper()
	id, err := chromedp.Run(b.ctx, chromedp.Evaluate[string](`(() => {
		const want = `+quoteJS(label)+`.toLowerCase();
		const read = s => s.replace(/\(required\)/i, "").replace(/\s+/g, " ").trim().toLowerCase();
		const all = sel => Array.from(document.querySelectorAll((`+quoteJS(scope)+` + " " + sel).trim()));
		const l = all("label").find(l => read(l.textContent) === want);
		if (l) return l.htmlFor;
		const a = all("[aria-label]").find(el => read(el.getAttribute("aria-label")) === want);
		return a ? a.id : "";
	})()`))
	if err != nil || id == "" {
		b.t.Fatalf("no field labelled %q in %q on %s: %v", label, scope, b.path(), err)
	}
	return "#" + id
}

// browserBinary is the Chromium to drive. Without one the test is
// skipped, except in CI (CI=true), which must run it. Browser tests run
// on SQLite only: the store is not what they test, and PostgreSQL's run
// would only start a browser a second time.
func browserBinary(t *testing.T) string {
	t.Helper()
	if storetest.Postgres() {
		t.Skip("the browser test runs on SQLite only")
	}
	bin := chromiumPath()
	if bin == "" {
		needsBrowser(t, "no chromium, chromium-browser or google-chrome on PATH")
	}
	return bin
}

// openBrowser serves e on a port of its own and starts Chromium, on
// about:blank, with its console listened to from the first page on: at
// the test's end any page's error, a CSP violation included, fails it.
func openBrowser(t *testing.T, bin string, e *env) *chrome {
	t.Helper()
	ts := httptest.NewServer(e.srv)
	t.Cleanup(ts.Close)
	ctx, stop, err := launchChromium(t, bin)
	if err != nil {
		needsBrowser(t, err.Error())
	}
	b := &chrome{t: t, ctx: ctx, base: ts.URL}
	b.listen()
	t.Cleanup(func() {
		b.noConsoleErrors()
		stop()
	})
	return b
}

func quoteJS(s string) string {
	return "'" + strings.NewReplacer(`\`, `\\`, `'`, `\'`).Replace(s) + "'"
}

// fits fails the test if the page is wider than the window of width w:
// nothing may make a reader scroll sideways.
func (b *chrome) fits(w int64) {
	b.t.Helper()
	got, err := chromedp.Run(b.ctx, chromedp.Evaluate[int64](`document.documentElement.scrollWidth`))
	if err != nil {
		b.t.Fatal(err)
	}
	if got > w {
		b.t.Errorf("%s is %d px wide in a window of %d", b.path(), got, w)
	}
}

// height is the page's whole height, scrolled or not.
func (b *chrome) height() int64 {
	b.t.Helper()
	h, err := chromedp.Run(b.ctx, chromedp.Evaluate[int64](`document.documentElement.scrollHeight`))
	if err != nil {
		b.t.Fatal(err)
	}
	return h
}

// screenshot saves a PNG of the whole page.
func (b *chrome) screenshot(file string) {
	b.t.Helper()
	png, err := chromedp.Run(b.ctx, chromedp.FullScreenshot(100))
	if err != nil {
		b.t.Fatal(err)
	}
	if err := os.WriteFile(file, png, 0o644); err != nil {
		b.t.Fatal(err)
	}
	b.t.Logf("screenshot %s: %d bytes", file, len(png))
}

// TestBrowserThatCannotStartIsSkipped: a Chromium that fails to start is
// tried twice, then the browser test skips saying why instead of failing
// a newcomer's go test ./... (CI=true fails it instead: see needsBrowser).
func TestBrowserThatCannotStartIsSkipped(t *testing.T) {
	dir := t.TempDir()
	tries := filepath.Join(dir, "tries")
	bin := filepath.Join(dir, "chromium")
	script := "#!/bin/sh\necho try >> " + tries + "\necho 'cannot open display' >&2\nexit 1\n"
	if err := os.WriteFile(bin, []byte(script), 0o755); err != nil {
		t.Fatal(err)
	}
	_, _, err := launchChromium(t, bin)
	if err == nil {
		t.Fatal("a browser that exits at once was taken as started")
	}
	if b, _ := os.ReadFile(tries); strings.Count(string(b), "try") != 2 {
		t.Errorf("the browser was started %d times, want 2 (one retry)", strings.Count(string(b), "try"))
	}
	var skipped bool
	t.Run("without CI", func(t *testing.T) {
		t.Setenv("CI", "")
		defer func() { skipped = t.Skipped() }()
		needsBrowser(t, "the browser did not start")
	})
	if !skipped {
		t.Error("without CI=true, a browser that cannot start does not skip the test")
	}
}
