package server

import (
	"context"
	"net/http"
	"net/url"
	"regexp"
	"sort"
	"strings"
	"testing"

	"github.com/chromedp/cdproto/cdp"
	"github.com/chromedp/cdproto/emulation"
	"github.com/chromedp/chromedp"
)

// TestWebBrowserEveryPage visits every page of the web app in a headless
// Chromium, at 360 and 1280 px, and holds each to web-app.md §13 and §14:
// exactly one <h1>; a label on every field; no sideways scroll; fields
// whose edge stands out 3:1 from around them (sign-in, People, Add a
// person and the settings pages, in light and dark mode); a focus ring
// that stands out 3:1 on every stop of Tab through the sign-in page and
// People; and a clean console. The pages are every GET page route the
// server has, filled with one row of everything (webRows), and every page
// the settings pages link to, so that a page added later is swept too.
// It ends with the sign-in throttle's page saying how long to wait (§8).
func TestWebBrowserEveryPage(t *testing.T) {
	bin := browserBinary(t)
	e := newEnv(t)
	_, key := e.user("ada@example.com")
	e.user("bob@example.com")
	rows := e.webRows(t, key)
	// What must wrap on a phone: a long email, a long link, a long word.
	e.contactDetail(key, rows.person, "kind=email&value="+url.QueryEscape("grace.brewster.murray.hopper.rear.admiral@navy-computation-laboratory.example.org"))
	e.note(key, rows.person, "https://example.org/"+strings.Repeat("a-very-long-path-segment/", 8)+" and "+strings.Repeat("x", 90))
	e.person(key, "first_name="+strings.Repeat("Wolfeschlegelsteinhausen", 3)+"&last_name=Bergerdorff")
	b := openBrowser(t, bin, e)

	// Signed out: the sign-in page itself.
	for _, w := range []int64{360, 1280} {
		b.do(chromedp.EmulateViewport(w, 800))
		b.open("/login")
		b.audit(true)
	}
	b.tabThrough()
	b.dark(true)
	b.audit(true)
	b.tabThrough()
	b.dark(false)

	b.sendKeys("#login-email", "ada@example.com")
	b.sendKeys("#login-password", "correct horse")
	b.submit("#login-password", "Log in")
	b.at("/")

	paths := b.sweepPaths(e, rows)
	if len(paths) < 20 {
		t.Fatalf("only %d pages to sweep: %v", len(paths), paths)
	}
	fields := func(p string) bool {
		return p == "/people" || p == "/people/new" || p == "/settings" || strings.HasPrefix(p, "/settings/")
	}
	for _, w := range []int64{360, 1280} {
		b.do(chromedp.EmulateViewport(w, 800))
		for _, p := range paths {
			b.open(p)
			b.audit(fields(p))
		}
		b.expect("/no-such-page")
		b.openStatus("/no-such-page", http.StatusNotFound)
		b.audit(false)
	}
	b.do(chromedp.EmulateViewport(1280, 800))
	b.open("/people")
	b.tabThrough()
	b.dark(true)
	for _, p := range paths {
		if fields(p) {
			b.open(p)
			b.audit(true)
		}
	}
	b.open("/people")
	b.tabThrough()
	b.dark(false)
	t.Logf("swept %d pages at 360 and 1280 px: %v", len(paths), paths)

	// Five wrong passwords, then the sixth attempt's page says how long
	// to wait (§8): the throttle's 429s are the pages' own.
	b.open("/")
	b.click(`//header//button[normalize-space()="Log out"]`)
	b.expect("/login")
	for range 5 {
		b.setValue("#login-email", "bob@example.com")
		b.sendKeys("#login-password", "wrong horse")
		b.submit("#login-password", "Log in")
		b.sees("main", "That email and password do not match an account.")
	}
	b.setValue("#login-email", "bob@example.com")
	b.sendKeys("#login-password", "correct horse")
	b.submit("#login-password", "Log in")
	b.at("/login")
	if got := b.text("main"); !regexp.MustCompile(`Try again in \d+ seconds?\.`).MatchString(got) {
		t.Errorf("the throttled sign-in page does not say how long to wait:\n%s", got)
	}
	b.audit(true)
}

// sweepPaths are the pages to visit: every GET route of the pages with
// its parameters filled from rows, then whatever /settings/… pages the
// settings pages link to; downloads and images are left out, being no
// pages.
func (b *chrome) sweepPaths(e *env, rows webRows) []string {
	b.t.Helper()
	// One page of each shape: the edit pages of twelve relationship types
	// are one page twelve times.
	seen := map[string]bool{"/login": true} // swept signed out
	shape := regexp.MustCompile(`/[0-9]+`)
	var paths []string
	add := func(p string) {
		s := shape.ReplaceAllString(p, "/N")
		if !seen[s] && !strings.Contains(p, ":") && !strings.Contains(p, "*") && b.isPage(p) {
			paths = append(paths, p)
		}
		seen[s] = true
	}
	var routes []string
	for _, r := range e.srv.Routes() {
		if r.Method == http.MethodGet && e.srv.surfaces[r.Method+" "+r.Path] == surfacePage {
			routes = append(routes, r.Path)
		}
	}
	sort.Strings(routes)
	for _, r := range routes {
		if r == "/api/invitations/accept" {
			// The join page is a page with a live link's token; without
			// one it is its deliberate 403.
			link, _ := url.Parse(e.invitedLink("invitee@example.com"))
			add(link.RequestURI())
			continue
		}
		for _, p := range rows.paths(r) {
			add(p)
		}
	}
	// The settings menu's pages, and theirs in turn.
	for i := 0; i < len(paths); i++ {
		if paths[i] != "/settings" && !strings.HasPrefix(paths[i], "/settings/") {
			continue
		}
		b.open(paths[i])
		links, err := chromedp.Run(b.ctx, chromedp.Evaluate[[]string](`[...document.querySelectorAll('main a[href], nav a[href]')]
			.filter(a => a.origin === location.origin && !a.hasAttribute('download') && /^\/settings(\/|$)/.test(a.pathname))
			.map(a => a.pathname + a.search)`))
		if err != nil {
			b.t.Fatal(err)
		}
		for _, l := range links {
			add(l)
		}
	}
	if len(paths) > 120 {
		b.t.Fatalf("%d pages to sweep: a link loop?", len(paths))
	}
	return paths
}

// isPage reports whether path answers an HTML page to the signed-in
// browser, as a fetch of it says: not an image, not a download.
func (b *chrome) isPage(path string) bool {
	b.t.Helper()
	ok, err := chromedp.Run(b.ctx, chromedp.Evaluate[bool](`fetch(`+quoteJS(path)+`).then(r =>
		r.ok && (r.headers.get('content-type') || '').startsWith('text/html') &&
		!(r.headers.get('content-disposition') || '').startsWith('attachment'))`, chromedp.EvalAwaitPromise))
	if err != nil {
		b.t.Fatalf("fetch %s: %v", path, err)
	}
	return ok
}

// openStatus loads a path that answers with status, on purpose.
func (b *chrome) openStatus(path string, status int64) {
	b.t.Helper()
	res, err := chromedp.RunResponse(b.ctx, chromedp.Navigate(b.base+path))
	if err != nil {
		b.t.Fatalf("open %s: %v", path, err)
	}
	if res.Status != status {
		b.t.Fatalf("open %s: status %d, want %d", path, res.Status, status)
	}
}

// dark turns the emulated prefers-color-scheme to dark, or back to light.
func (b *chrome) dark(on bool) {
	b.t.Helper()
	scheme := "light"
	if on {
		scheme = "dark"
	}
	b.do(chromedp.Func(func(ctx context.Context, t *chromedp.Target) error {
		_, err := cdp.Call(ctx, t, emulation.SetEmulatedMedia, emulation.SetEmulatedMediaParams{
			Features: []*emulation.MediaFeature{{Name: "prefers-color-scheme", Value: scheme}}})
		return err
	}))
}

// a11yJS defines the page's checks in the page: kithAudit(fields) lists
// what is wrong with it, kithFocus() measures the focused element's
// indicator. Contrast is WCAG 2.1's, of colours composited over the
// background behind them.
const a11yJS = `(() => {
if (window.kithAudit) return;
const parse = c => {
  const m = /rgba?\(([^)]+)\)/.exec(c || '');
  if (!m) return null;
  const p = m[1].split(/[\s,\/]+/).filter(Boolean).map(Number);
  return {r: p[0], g: p[1], b: p[2], a: p.length > 3 ? p[3] : 1};
};
const over = (top, under) => ({r: top.r * top.a + under.r * (1 - top.a), g: top.g * top.a + under.g * (1 - top.a),
  b: top.b * top.a + under.b * (1 - top.a), a: 1});
const lum = c => {
  const f = v => { v /= 255; return v <= 0.03928 ? v / 12.92 : Math.pow((v + 0.055) / 1.055, 2.4); };
  return 0.2126 * f(c.r) + 0.7152 * f(c.g) + 0.0722 * f(c.b);
};
const ratio = (a, b) => { const x = lum(a), y = lum(b); return (Math.max(x, y) + 0.05) / (Math.min(x, y) + 0.05); };
// The colour behind an element's content: its own background over its
// ancestors', over the canvas.
const behind = el => {
  const layers = [];
  for (let n = el; n && n.nodeType === 1; n = n.parentElement) {
    const c = parse(getComputedStyle(n).backgroundColor);
    if (c && c.a > 0) { layers.push(c); if (c.a >= 1) break; }
  }
  const dark = matchMedia('(prefers-color-scheme: dark)').matches;
  let base = dark ? {r: 0, g: 0, b: 0, a: 1} : {r: 255, g: 255, b: 255, a: 1};
  for (let i = layers.length - 1; i >= 0; i--) base = over(layers[i], base);
  return base;
};
const shadows = (s, against) => (s.boxShadow.match(/rgba?\([^)]+\)/g) || []).map(c => ratio(over(parse(c), against), against));
const name = el => el.tagName.toLowerCase() + (el.id ? '#' + el.id : '') + (el.name ? '[name=' + el.name + ']' : '') +
  (el.type && el.tagName === 'INPUT' ? '[type=' + el.type + ']' : '') + ' "' + (el.textContent || '').trim().slice(0, 30) + '"';
const visible = el => el.getClientRects().length > 0 && getComputedStyle(el).visibility !== 'hidden';
const textLike = el => el.tagName !== 'INPUT' ||
  ['text', 'email', 'password', 'search', 'tel', 'url', 'number', 'date', 'time', 'datetime-local', 'month', 'week'].includes(el.type);
// A field's boundary: the best of a border side, its fill and a shadow.
const boundary = el => {
  const s = getComputedStyle(el), around = behind(el.parentElement);
  const fill = parse(s.backgroundColor) || {r: 0, g: 0, b: 0, a: 0};
  const inside = over(fill, around);
  let best = ratio(inside, around);
  for (const side of ['Top', 'Right', 'Bottom', 'Left']) {
    const c = parse(s['border' + side + 'Color']);
    if (c && parseFloat(s['border' + side + 'Width']) >= 1 && !['none', 'hidden'].includes(s['border' + side + 'Style'])) {
      best = Math.max(best, ratio(over(c, inside), around));
    }
  }
  return Math.max(best, ...shadows(s, around));
};
// kithStart begins a round of Tab: nothing focused yet, and every
// element's border colour unfocused, to tell a border changed on focus.
window.kithStart = () => {
  if (document.activeElement) document.activeElement.blur();
  window.kithStops = new Set();
  window.kithBorders = new Map();
  for (const el of document.querySelectorAll('*')) kithBorders.set(el, getComputedStyle(el).borderTopColor);
};
window.kithAudit = fields => {
  const out = [];
  const h1 = document.querySelectorAll('h1').length;
  if (h1 !== 1) out.push(h1 + ' <h1> elements, want 1');
  for (const el of document.querySelectorAll('input, select, textarea')) {
    if (el.type === 'hidden') continue;
    const text = n => n && n.textContent.trim() !== '';
    const labelled = [...(el.labels || [])].some(text) || (el.getAttribute('aria-label') || '').trim() !== '' ||
      (el.getAttribute('aria-labelledby') || '').split(/\s+/).some(id => id && text(document.getElementById(id))) ||
      (el.getAttribute('title') || '').trim() !== '';
    if (!labelled) out.push('no label: ' + name(el));
    if (fields && visible(el) && textLike(el)) {
      const r = boundary(el);
      if (r < 3) out.push('field edge ' + r.toFixed(2) + ':1, want 3:1: ' + name(el));
    }
  }
  const root = document.documentElement;
  if (root.scrollWidth > root.clientWidth + 1) {
    const wide = [...document.querySelectorAll('body *')].filter(el => el.getBoundingClientRect().right > root.clientWidth + 1);
    out.push('scrolls sideways: ' + root.scrollWidth + ' px in ' + root.clientWidth + ', past the edge: ' + wide.slice(-3).map(name).join(', '));
  }
  return out;
};
// kithFocus measures the focused element's indicator: its outline against
// the background outside it (inside it, with a negative offset), a shadow,
// or a border colour changed on focus. null: nothing has the focus.
window.kithFocus = () => {
  const el = document.activeElement;
  if (!el || el === document.body || el === document.documentElement) return null;
  const s = getComputedStyle(el), outside = behind(el.parentElement);
  let best = 0;
  const outline = parse(s.outlineColor);
  if (outline && s.outlineStyle !== 'none' && parseFloat(s.outlineWidth) >= 1) {
    const against = parseFloat(s.outlineOffset) < 0 ? behind(el) : outside;
    best = ratio(over(outline, against), against);
  }
  best = Math.max(best, ...shadows(s, outside));
  const border = parse(s.borderTopColor);
  if (border && s.borderTopColor !== kithBorders.get(el) && parseFloat(s.borderTopWidth) >= 1) {
    best = Math.max(best, ratio(over(border, outside), outside));
  }
  const again = kithStops.has(el);
  kithStops.add(el);
  return {name: name(el), ratio: best, again};
};
})()`

// audit fails the test for whatever kithAudit finds wrong with the page;
// fields also holds its fields' edges to 3:1.
func (b *chrome) audit(fields bool) {
	b.t.Helper()
	b.do(chromedp.Evaluate[chromedp.Void](a11yJS))
	problems, err := chromedp.Run(b.ctx, chromedp.Evaluate[[]string](`kithAudit(`+map[bool]string{true: "true", false: "false"}[fields]+`)`))
	if err != nil {
		b.t.Fatal(err)
	}
	w, err := chromedp.Run(b.ctx, chromedp.Evaluate[int](`window.innerWidth`))
	if err != nil {
		b.t.Fatal(err)
	}
	for _, p := range problems {
		b.t.Errorf("%s at %d px: %s", b.path(), w, p)
	}
}

// focusStop is what kithFocus says of one stop of Tab.
type focusStop struct {
	Name  string
	Ratio float64
	Again bool
}

// tabThrough presses Tab through the page, from its top, until the focus
// comes round again, and fails the test for every stop whose indicator
// stands out less than 3:1 from the background next to it.
func (b *chrome) tabThrough() {
	b.t.Helper()
	b.do(chromedp.Evaluate[chromedp.Void](a11yJS), chromedp.Evaluate[chromedp.Void](`kithStart()`))
	stops, blanks := 0, 0
	for range 120 {
		b.do(chromedp.KeyEvent("\t"))
		s, err := chromedp.Run(b.ctx, chromedp.Evaluate[*focusStop](`kithFocus()`))
		if err != nil {
			b.t.Fatal(err)
		}
		if s == nil {
			if blanks++; blanks > 1 {
				break
			}
			continue
		}
		if s.Again {
			break
		}
		stops++
		if s.Ratio < 3 {
			b.t.Errorf("on %s the focus on %s stands out %.2f:1, want 3:1", b.path(), s.Name, s.Ratio)
		}
	}
	if stops < 3 {
		b.t.Errorf("on %s Tab stopped at %d elements only", b.path(), stops)
	}
}
