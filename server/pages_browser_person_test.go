package server

import (
	"strings"
	"testing"

	"github.com/chromedp/chromedp"
)

// TestWebBrowserPerson opens a person's page in a headless Chromium, at a
// laptop's width and a phone's, and checks what web-app.md §2, §5, §9 and
// §11 ask of it through the DOM: the contact details are links (mailto:,
// tel:, the website with rel noopener, a map of the address) before the
// notes and tasks; an overdue task says so; the next birthday "turns N
// on"; a relationship and a tag are links; Log a call is in the header.
// Then it presses Log a call and reads the call back from the API, adds
// an address by its labels with the country "Germany" and reads back DE,
// and sees the form show the fields of the kind chosen.
func TestWebBrowserPerson(t *testing.T) {
	bin := browserBinary(t)
	e := newEnv(t)
	_, key := e.user("ada@example.com")
	// By the test's clock, 15 March 2026: her 40th birthday in two days.
	grace := e.birthday(key, "Grace", 1986, 3, 17, true)
	alan := e.person(key, "first_name=Alan&last_name=Turing")
	e.contactDetail(key, grace, "kind=email&value=grace@example.com")
	e.contactDetail(key, grace, "kind=phone&value=%2B1+(555)+010-2030")
	e.contactDetail(key, grace, "kind=website&value=https://example.com/grace")
	e.contactDetail(key, grace, "kind=address&street=1725+Slough+Avenue&city=Scranton&country=US")
	e.task(key, grace, "name=Return+the+book&due_at=2026-03-10")
	e.task(key, grace, "name=Book+a+table&due_at=2026-03-20")
	e.note(key, grace, "Keeps a clock that runs counterclockwise.")
	e.gift(key, grace, "name=Teapot&status=idea&url=https://example.com/teapot")
	mentor := typeID(t, e, key, "mentor")
	e.do(req{method: "POST", path: "/api/persons/" + grace + "/relationships?relationship_type_id=" + mentor + "&person_id=" + alan, key: key})
	e.do(req{method: "PUT", path: "/api/persons/" + grace + "/tags?tags[]=Navy", key: key})
	personPath := "/people/" + grace

	b := openBrowser(t, bin, e)

	b.open("/login")
	b.sendKeys("#login-email", "ada@example.com")
	b.sendKeys("#login-password", "correct horse")
	b.submit("#login-password", "Log in")
	b.at("/")

	for _, w := range []int64{1280, 360} {
		b.do(chromedp.EmulateViewport(w, 900))
		b.open(personPath)
		b.fits(w)
		b.truths(map[string]string{
			"the email is a mailto: link": `a('mailto:grace@example.com').textContent === 'grace@example.com'`,
			"the phone is a tel: link":    `a('tel:+15550102030').textContent === '+1 (555) 010-2030'`,
			"the website is a link, rel noopener": `a('https://example.com/grace').relList.contains('noopener') &&
				a('https://example.com/grace').textContent === 'https://example.com/grace'`,
			"the address is a map search of its street and city": `(() => {
				const l = [...document.querySelectorAll('a')].find(l => l.hostname.endsWith('openstreetmap.org'));
				const q = l && decodeURIComponent(l.search.replace(/\+/g, ' '));
				return !!q && q.includes('1725 Slough Avenue') && q.includes('Scranton'); })()`,
			"the contact details come before the notes and tasks": `['notes', 'tasks'].every(id =>
				document.getElementById('contact-details').compareDocumentPosition(document.getElementById(id)) & Node.DOCUMENT_POSITION_FOLLOWING)`,
			"an overdue task says so":           `item('Return the book').includes('overdue')`,
			"a task due later does not":         `!item('Book a table').includes('overdue')`,
			"the gift's URL is a link":          `a('https://example.com/teapot').textContent === 'https://example.com/teapot'`,
			"the birthday ahead is told":        `head().includes('turns 40 on')`,
			"a relationship links to the other": `named('Alan Turing').getAttribute('href') === '/people/` + alan + `'`,
			"a tag is a chip to the people list filtered by it": `named('Navy').pathname === '/people' &&
				new URLSearchParams(named('Navy').search).get('tag') === 'Navy'`,
			"Log a call is in the header, posting to the call": `(() => {
				const btn = [...document.querySelectorAll('button')].find(b => b.textContent.trim() === 'Log a call');
				return !!btn && (btn.compareDocumentPosition(document.querySelector('h2')) & Node.DOCUMENT_POSITION_FOLLOWING) &&
					btn.form.method === 'post' && new URL(btn.form.action).pathname === '` + personPath + `/call' &&
					!!btn.form.querySelector('input[name=csrf]').value; })()`,
			"one h1, the name": `document.querySelectorAll('h1').length === 1 && document.querySelector('h1').textContent === 'Grace'`,
		})
		// The header's menus, open, still fit.
		b.openSection("relationships")
		b.openSection("tags")
		b.fits(w)
	}

	// Log a call: a call today, as the API shows it.
	b.click(`//button[normalize-space()="Log a call"]`)
	b.at(personPath)
	b.sees("main", "Call with Grace logged for today.")
	calls := e.do(req{method: "GET", path: "/api/persons/" + grace + "/interactions", key: key}).body
	if !strings.Contains(calls, `"kind":"call"`) || !strings.Contains(calls, `"happened_on":"2026-03-15"`) {
		t.Errorf("interactions after Log a call: %s", calls)
	}

	// An address by the form's labels, its country written out. The form
	// shows an address's fields once Address is chosen, and hides them
	// again for an email.
	b.openSection("contact-details")
	kind := b.labelledIn("#contact-details", "Kind")
	street := b.labelledIn("#contact-details", "Street")
	b.choose(kind, "Address")
	b.truths(map[string]string{"Street shows for an address": `document.querySelector('` + street + `').offsetParent !== null`})
	b.sendKeys(street, "Unter den Linden 1")
	b.sendKeys(b.labelledIn("#contact-details", "City"), "Berlin")
	b.sendKeys(b.labelledIn("#contact-details", "Country"), "Germany")
	b.submit(street, "Add contact detail")
	b.sees("#contact-details", "Unter den Linden 1, Berlin, DE")
	got := e.do(req{method: "GET", path: "/api/persons/" + grace + "/contact-details?kind=address", key: key}).body
	if !strings.Contains(got, `"city":"Berlin"`) || !strings.Contains(got, `"country":"DE"`) {
		t.Errorf("the address added: %s", got)
	}
	b.openSection("contact-details")
	b.choose(kind, "Email")
	b.truths(map[string]string{
		"Street is hidden for an email": `document.querySelector('` + street + `').offsetParent === null`,
		"Value shows for an email":      `document.querySelector('` + b.labelledIn("#contact-details", "Value") + `').offsetParent !== null`,
	})
	b.openSection("age")
	b.choose(b.labelledIn("#age", "What you know"), "Their age, roughly")
	b.truths(map[string]string{
		"the age form shows the estimate": `document.getElementById('age-estimated_age').offsetParent !== null`,
		"and hides the birth year":        `document.getElementById('age-age_year').offsetParent === null`,
	})
	b.fits(360)
}

// personJS are the helpers the truths are written with: a(href) is the
// link to href, named(text) the link that says text, item(text) the text
// of the list item that holds text, head() the text before the first h2.
const personJS = `
const a = href => [...document.querySelectorAll('a')].find(l => l.getAttribute('href') === href) || {relList: {contains: () => false}};
const named = text => [...document.querySelectorAll('a')].find(l => l.textContent.trim() === text) || {getAttribute: () => null};
const item = text => ([...document.querySelectorAll('li')].find(li => li.textContent.includes(text)) || {textContent: ''}).textContent;
const head = () => { const r = document.createRange(); r.setStartBefore(document.querySelector('main'));
	r.setEndBefore(document.querySelector('h2')); return r.toString(); };
`

// truths fails the test for each JavaScript expression, by what it
// checks, that is not true on the page.
func (b *chrome) truths(checks map[string]string) {
	b.t.Helper()
	for what, js := range checks {
		ok, err := chromedp.Run(b.ctx, chromedp.Evaluate[bool](`(() => {`+personJS+` return !!(`+js+`); })()`))
		if err != nil || !ok {
			b.t.Errorf("on %s: %s: not so (%v)", b.path(), what, err)
		}
	}
}

// choose picks the option of the select that shows text, as a person
// does: the select's change event fires.
func (b *chrome) choose(sel, text string) {
	b.t.Helper()
	ok, err := chromedp.Run(b.ctx, chromedp.Evaluate[bool](`(() => { const s = document.querySelector(`+quoteJS(sel)+`);
		const o = [...s.options].find(o => o.text === `+quoteJS(text)+`); if (!o) return false;
		s.value = o.value; s.dispatchEvent(new Event('change', {bubbles: true})); return true; })()`))
	if err != nil || !ok {
		b.t.Fatalf("no option %q in %s: %v", text, sel, err)
	}
}
