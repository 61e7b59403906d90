package server

import (
	"encoding/json"
	"fmt"
	"net/http"
	"os"
	"path"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	cdpbrowser "github.com/chromedp/cdproto/browser"
	"github.com/chromedp/chromedp"
	"github.com/rs/zerolog"
)

// settingsPages are the settings menu's links and where each leads.
var settingsPages = []struct{ link, path string }{
	{"Profile", "/settings/profile"}, {"Reminders", "/settings/reminders"}, {"Phone and calendar", "/settings/phone"},
	{"Data", "/settings/data"}, {"Lists", "/settings/lists"}, {"Security", "/settings/security"}, {"Users", "/settings/users"},
}

// TestWebBrowserSettings goes through the settings' seven pages, copies a
// new key's token and a feed's address, and invites someone who joins
// from the logged link: at 1280 and at 360 px.
func TestWebBrowserSettings(t *testing.T) {
	bin := browserBinary(t)
	for _, width := range []int64{1280, 360} {
		t.Run(fmt.Sprint(width), func(t *testing.T) { browseSettings(t, bin, width) })
	}
}

func browseSettings(t *testing.T, bin string, width int64) {
	logs := &lockedLog{}
	e := newEnv(t, func(o *Options) { o.Logger = zerolog.New(logs) })
	ada, _ := e.user("ada@example.com")
	for _, name := range []string{"Phone", "Backup script"} {
		if _, _, err := e.st.CreateAPIKey(t.Context(), ada.ID, name); err != nil {
			t.Fatal(err)
		}
	}
	b := openBrowser(t, bin, e)
	b.do(chromedp.EmulateViewport(width, 900))
	for _, name := range []string{"clipboard-read", "clipboard-write"} {
		_, err := chromedp.CallBrowser(b.ctx, cdpbrowser.SetPermission, cdpbrowser.SetPermissionParams{
			Permission: &cdpbrowser.PermissionDescriptor{Name: name, AllowWithoutSanitization: true}, Setting: "granted", Origin: b.base})
		if err != nil {
			t.Fatalf("grant %s: %v", name, err)
		}
	}

	b.signInAs("ada@example.com", "correct horse")
	b.click(`//header//a[normalize-space()="Settings"]`)
	b.at("/settings")
	b.settingsPage(width)
	b.shot("/settings/menu", width)
	for _, p := range settingsPages {
		b.click(`//nav[@aria-label="Settings"]//a[normalize-space()="` + p.link + `"]`)
		b.at(p.path)
		b.settingsPage(width)
		b.shot(p.path, width)
		if n := b.count(`nav[aria-label="Settings"] a[aria-current="page"]`); n != 1 {
			t.Errorf("%s: %d menu links marked current", p.path, n)
		}
	}

	b.open("/settings/lists")
	b.sees("main", "Task categories", "Thank you", "Woman", "uncle or aunt")
	for _, scheme := range []string{"light", "dark"} {
		b.dark(scheme == "dark")
		b.swatches(scheme)
	}
	b.noClassNames()

	// A new key's token, copied.
	b.open("/settings/security")
	b.sendKeys(b.labelled("Label"), "Laptop")
	b.submit(b.labelled("Label"), "Create key")
	token := b.text("#new-key-token")
	if !regexp.MustCompile(`^\d+\|\S{20,}$`).MatchString(token) {
		t.Fatalf("the new key shows %q", token)
	}
	b.copies(token)
	b.shot("/settings/security-new-key", width)
	if r := e.do(req{method: "GET", path: "/api/me", key: token}); r.code != 200 {
		t.Errorf("the token shown: %d", r.code)
	}

	// A calendar feed's address, copied.
	b.open("/settings/phone")
	b.click(`//main//button[normalize-space()="Create a feed"]`)
	feed := b.text("#new-feed-url")
	if !strings.Contains(feed, "/ical/") {
		t.Fatalf("the feed shows %q", feed)
	}
	b.copies(feed)

	// Invite, join from the logged link, once.
	b.open("/settings/users")
	b.sendKeys(b.labelled("Email"), "pam@example.com")
	b.sendKeys(b.labelled("First name"), "Pam")
	b.sendKeys(b.labelled("Last name"), "Beesly")
	b.submit(b.labelled("Email"), "Invite")
	b.at("/settings/users")
	b.sees("main", "Invitation sent to pam@example.com", "invited, not joined yet")
	link := loggedInvitation(t, logs, "pam@example.com")
	b.click(`//header//button[normalize-space()="Log out"]`)
	b.at("/login")

	b.open(link)
	b.sees("main", "Password", "Confirm password", "Join")
	b.fits(width)
	b.oneH1()
	b.sendKeys(b.labelled("Password"), "pam's password")
	b.sendKeys(b.labelled("Confirm password"), "pam's passwort")
	b.expect("/join")
	b.submit(b.labelled("Password"), "Join")
	b.sees("main", "The password field confirmation does not match.")
	b.sendKeys(b.labelled("Password"), "pam's password")
	b.sendKeys(b.labelled("Confirm password"), "pam's password")
	b.submit(b.labelled("Password"), "Join")
	b.at("/")
	b.sees("h1", "Dashboard")
	b.sees("header", "Log out")
	if r := e.do(req{method: "POST", path: "/api/login", body: `{"email":"pam@example.com","password":"pam's password"}`}); r.code != 200 {
		t.Errorf("API login with the password chosen: %d %s", r.code, r.body)
	}

	b.click(`//header//button[normalize-space()="Log out"]`)
	b.expect(link)
	res, err := chromedp.RunResponse(b.ctx, chromedp.Navigate(b.base+link))
	if err != nil || res.Status != http.StatusForbidden {
		t.Fatalf("the used link: %v %v", res, err)
	}
	b.sees("main", "This invitation link is invalid or has expired.")
	if n := b.count(`button`); n != 0 {
		t.Errorf("the used link's page has %d buttons", n)
	}
	b.oneH1()
}

// loggedInvitation waits up to 3 s for the invitation link to email in the
// log, and is its path.
func loggedInvitation(t *testing.T, logs *lockedLog, email string) string {
	t.Helper()
	for deadline := time.Now().Add(3 * time.Second); ; {
		for _, l := range strings.Split(logs.String(), "\n") {
			if strings.Contains(l, email) {
				if link := linkPattern.FindString(l); strings.Contains(link, "/api/invitations/accept?token=") {
					return pathOf(link)
				}
			}
		}
		if time.Now().After(deadline) {
			t.Fatalf("no invitation link for %s in the log within 3 s", email)
		}
		time.Sleep(50 * time.Millisecond)
	}
}

// signInAs signs in through the form.
func (b *chrome) signInAs(email, password string) {
	b.t.Helper()
	b.open("/login")
	b.sendKeys(b.labelled("Email"), email)
	b.sendKeys(b.labelled("Password"), password)
	b.submit(b.labelled("Password"), "Log in")
	b.at("/")
}

// oneH1 fails the test unless the page has exactly one h1.
func (b *chrome) oneH1() {
	b.t.Helper()
	if n := b.count("h1"); n != 1 {
		b.t.Errorf("%s has %d h1", b.path(), n)
	}
}

// settingsPage checks a settings page: the menu with its Security link,
// one h1, no sideways scrolling, and at 1280 px no more than 2,500 px tall.
func (b *chrome) settingsPage(width int64) {
	b.t.Helper()
	b.sees(`nav[aria-label="Settings"]`, "Profile", "Security", "Users")
	b.oneH1()
	b.fits(width)
	if width < 1280 {
		return
	}
	if h := b.height(); h > 2500 {
		b.t.Errorf("%s is %d px tall at 1280 × 900", b.path(), h)
	}
}

// swatches fails the test unless each task category's list item holds an
// empty swatch of at least 6 × 6 px whose colour differs from around it.
func (b *chrome) swatches(scheme string) {
	b.t.Helper()
	out, err := chromedp.Run(b.ctx, chromedp.Evaluate[string](`JSON.stringify((() => {
		const fill = el => { for (; el; el = el.parentElement) { const c = getComputedStyle(el).backgroundColor;
			if (c !== "rgba(0, 0, 0, 0)" && c !== "transparent") return c; } return "rgb(255, 255, 255)"; };
		const items = Array.from(document.querySelectorAll("#categories ul.list > li"));
		const bad = [];
		for (const li of items) {
			const s = li.querySelector(".swatch");
			if (!s) { bad.push(li.textContent.trim() + ": no swatch"); continue; }
			const r = s.getBoundingClientRect(), c = getComputedStyle(s).backgroundColor, around = fill(s.parentElement);
			if (r.width < 6 || r.height < 6 || c === around || c === "rgba(0, 0, 0, 0)" || s.textContent.trim() !== "")
				bad.push(li.textContent.trim() + ": " + r.width + "x" + r.height + " " + c + " on " + around);
		}
		return {n: items.length, bad: bad};
	})())`))
	if err != nil {
		b.t.Fatal(err)
	}
	var got struct {
		N   int
		Bad []string
	}
	if err := json.Unmarshal([]byte(out), &got); err != nil {
		b.t.Fatal(err)
	}
	if got.N != 6 || len(got.Bad) != 0 {
		b.t.Errorf("%s: %d categories, swatches wanting: %v", scheme, got.N, got.Bad)
	}
}

// noClassNames fails the test if the page's text or its options show a
// colour's class.
func (b *chrome) noClassNames() {
	b.t.Helper()
	text, err := chromedp.Run(b.ctx, chromedp.Evaluate[string](`document.body.innerText + "\n" +
		Array.from(document.querySelectorAll("option")).map(o => o.text).join("\n")`))
	if err != nil {
		b.t.Fatal(err)
	}
	if m := regexp.MustCompile(`bg-[a-z]+-\d+`).FindString(text); m != "" {
		b.t.Errorf("%s shows %q", b.path(), m)
	}
	if !strings.Contains(text, "Purple") {
		b.t.Errorf("%s names no colour", b.path())
	}
}

// copies presses Copy beside the secret: the page stays, says Copied, and
// the clipboard holds the secret.
func (b *chrome) copies(secret string) {
	b.t.Helper()
	before := b.path()
	b.do(chromedp.Click(`//button[normalize-space()="Copy"]`))
	var status string
	for deadline := time.Now().Add(2 * time.Second); time.Now().Before(deadline); time.Sleep(50 * time.Millisecond) {
		if status = b.text(`.copyable [role="status"]`); status != "" {
			break
		}
	}
	if status != "Copied" {
		b.t.Errorf("after Copy the page says %q", status)
	}
	if after := b.path(); after != before {
		b.t.Errorf("Copy left %s for %s", before, after)
	}
	got, err := chromedp.Run(b.ctx, chromedp.Evaluate[string](`navigator.clipboard.readText()`, chromedp.EvalAwaitPromise))
	if err != nil || got != secret {
		b.t.Errorf("the clipboard holds %q (%v), want %q", got, err, secret)
	}
}

// shot saves a screenshot of the page into $KITH_SCREENSHOTS, when set,
// named after name's last element and the width.
func (b *chrome) shot(name string, width int64) {
	b.t.Helper()
	if shots := os.Getenv("KITH_SCREENSHOTS"); shots != "" {
		b.screenshot(filepath.Join(shots, "settings-"+path.Base(name)+"-"+fmt.Sprint(width)+".png"))
	}
}
