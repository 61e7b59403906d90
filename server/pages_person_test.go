package server

import (
	"context"
	"html"
	"net/http"
	"net/url"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"kith/store"
)

// itemOf is the list item of the page that holds text: from the last
// <li before it to the </li> after it.
func itemOf(t *testing.T, pg page, text string) string {
	t.Helper()
	i := strings.Index(pg.body, text)
	if i < 0 {
		t.Fatalf("no %q in the page:\n%s", text, pg.body)
	}
	start := strings.LastIndex(pg.body[:i], "<li")
	end := strings.Index(pg.body[i:], "</li>")
	if start < 0 || end < 0 {
		t.Fatalf("%q is in no list item", text)
	}
	return pg.body[start : i+end]
}

// before fails the test unless each string is in the page, in this order.
func before(t *testing.T, pg page, in ...string) {
	t.Helper()
	last := -1
	for n, s := range in {
		i := strings.Index(pg.body, s)
		if i < 0 {
			t.Errorf("no %q in the page", s)
			return
		}
		if i < last {
			t.Errorf("%q comes before %q", s, in[n-1])
		}
		last = i
	}
}

var hrefs = regexp.MustCompile(`href="([^"]*)"`)

// TestWebPersonContactLinks: a person's contact details are links to
// what they are (web-app.md §2), before the notes and tasks; a stored
// value that is no web address is never a link's address.
func TestWebPersonContactLinks(t *testing.T) {
	e := newEnv(t)
	u, key := e.user("ada@example.com")
	id := e.person(key, "first_name=Grace")
	e.contactDetail(key, id, "kind=email&value=grace%2Bnavy@example.com")
	e.contactDetail(key, id, "kind=phone&value=%2B1+(555)+010-2030")
	e.contactDetail(key, id, "kind=phone&value=020+7946+0958+ext.+12")
	e.contactDetail(key, id, "kind=website&value=https://example.com/a?b=1%26c=2")
	e.contactDetail(key, id, "kind=social&network=github&value=@gracehopper")
	e.contactDetail(key, id, "kind=social&network=mastodon&value=@grace@navy.social")
	e.contactDetail(key, id, "kind=social&network=myspace&value=grace")
	e.contactDetail(key, id, "kind=address&street=1725+Slough+Avenue%0ASuite+200&city=Scranton&postal_code=18505&country=us")
	e.task(key, id, "name=Call")
	e.note(key, id, "A note")
	// What no form lets in, as an old import may have kept it.
	pid, _ := strconv.ParseInt(id, 10, 64)
	for _, v := range []string{"javascript:alert(1)", "JaVaScRiPt:alert(2)", "data:text/html,x"} {
		if _, err := e.st.CreateContactDetail(context.Background(), u.AccountID, pid, store.ContactDetailInput{Kind: "website", Value: &v}); err != nil {
			t.Fatal(err)
		}
		if _, err := e.st.CreateGift(context.Background(), u.AccountID, pid, store.GiftInput{Name: "Gift " + v, Status: "idea", URL: &v}); err != nil {
			t.Fatal(err)
		}
	}
	b := e.signIn(t, "ada@example.com")
	pg := b.get("/people/" + id)
	pg.status(t, http.StatusOK)
	pg.has(t, `<a href="mailto:grace&#43;navy@example.com">grace&#43;navy@example.com</a>`,
		`<a href="tel:&#43;15550102030">&#43;1 (555) 010-2030</a>`, `<a href="tel:02079460958">020 7946 0958 ext. 12</a>`,
		`<a href="https://example.com/a?b=1&amp;c=2" rel="noopener noreferrer">https://example.com/a?b=1&amp;c=2</a>`,
		`<a href="https://github.com/gracehopper" rel="noopener noreferrer">@gracehopper</a>`,
		`<a href="https://navy.social/@grace" rel="noopener noreferrer">@grace@navy.social</a>`,
		"<strong>grace</strong>")
	var osm string
	for _, m := range hrefs.FindAllStringSubmatch(pg.body, -1) {
		m[1] = html.UnescapeString(m[1])
		if strings.HasPrefix(m[1], "javascript") || strings.HasPrefix(strings.ToLower(m[1]), "data:") || strings.Contains(m[1], "ZgotmplZ") {
			t.Errorf("a link to %q", m[1])
		}
		if strings.HasPrefix(m[1], "https://www.openstreetmap.org/search?query=") {
			osm = m[1]
		}
	}
	q, err := url.QueryUnescape(strings.TrimPrefix(osm, "https://www.openstreetmap.org/search?query="))
	if err != nil || !strings.Contains(q, "1725 Slough Avenue") || !strings.Contains(q, "Scranton") {
		t.Errorf("the address's map link %q holds %q", osm, q)
	}
	pg.has(t, "javascript:alert(1)", "Gift javascript:alert(1)") // shown as text
	before(t, pg, `id="contact-details"`, `id="tasks"`)
	before(t, pg, `id="contact-details"`, `id="notes"`)
}

// TestWebPersonHeader: before the page's first <h2>, the name, the next
// birthday, Log a call (a form that posts to the handler), Edit, the
// relationships as links to the people and the tags as chips.
func TestWebPersonHeader(t *testing.T) {
	e := newEnv(t)
	_, key := e.user("ada@example.com")
	// By the test's clock, 15 March 2026: her 40th birthday in two days.
	grace := e.birthday(key, "Grace", 1986, 3, 17, true)
	alan := e.person(key, "first_name=Alan&last_name=Turing")
	mentor := typeID(t, e, key, "mentor")
	e.do(req{method: "POST", path: "/api/persons/" + grace + "/relationships?relationship_type_id=" + mentor + "&person_id=" + alan, key: key})
	e.do(req{method: "PUT", path: "/api/persons/" + grace + "/tags?tags[]=Navy&tags[]=Book%20club", key: key})
	b := e.signIn(t, "ada@example.com")
	pg := b.get("/people/" + grace)
	head, _, ok := strings.Cut(pg.body, "<h2")
	if !ok {
		t.Fatal("no <h2>")
	}
	hp := page{body: head}
	hp.has(t, "<h1>Grace</h1>", `<p class="birthday">turns 40 on 17 Mar, in 2 days</p>`,
		`<form class="inline" method="post" action="/people/`+grace+`/call"><input type="hidden" name="csrf" value="`+b.csrf+`"><button type="submit">Log a call</button></form>`,
		`<a class="button quiet" href="/people/`+grace+`/edit">Edit</a>`,
		`<a href="/people/`+alan+`">Alan Turing</a> <span class="muted">(mentor)</span>`,
		`<a class="chip" href="/people?tag=Navy">Navy</a>`, `<a class="chip" href="/people?tag=Book%20club">Book club</a>`)
	hp.lacks(t, `action="/people/`+grace+`/delete"`, ">Delete<")
	if n := strings.Count(pg.body, "<h1"); n != 1 {
		t.Errorf("%d <h1>", n)
	}
	b.lang = "en-US"
	b.get("/people/"+grace).has(t, "turns 40 on Mar 17, in 2 days")
	b.lang = ""

	// The button logs a call today and comes back.
	pg = b.post("/people/"+grace+"/call", nil)
	pg.redirects(t, "/people/"+grace)
	b.follow(pg).has(t, "Call with Grace logged for today.", "Call · Sun 15 Mar 2026")

	// A birthday without a year, as an important date; one too far ahead;
	// a birthday today.
	ann := e.person(key, "first_name=Ann")
	e.importantDate(key, ann, "label=Birthday&date=--03-20")
	b.get("/people/"+ann).has(t, `<p class="birthday">birthday on 20 Mar, in 5 days</p>`)
	far := e.birthday(key, "Far", 1990, 5, 1, true)
	b.get("/people/"+far).lacks(t, `class="birthday"`, "turns ")
	today := e.birthday(key, "Today", 2000, 3, 15, false)
	b.get("/people/"+today).has(t, "turns 26 on 15 Mar, today")
	b.get("/people/"+alan).lacks(t, `class="birthday"`)
}

// TestWebPersonTodoAndRecord: tasks past due are marked overdue, a gift's
// address is a link, and the parts come in order: contact details, what
// needs doing, the record.
func TestWebPersonTodoAndRecord(t *testing.T) {
	e := newEnv(t)
	_, key := e.user("ada@example.com")
	id := e.person(key, "first_name=Grace")
	e.task(key, id, "name=Return+the+book&due_at=2026-03-10")
	e.task(key, id, "name=Book+a+table&due_at=2026-03-20")
	e.task(key, id, "name=Due+today&due_at=2026-03-15")
	done := e.task(key, id, "name=Sent+the+card&due_at=2026-03-01")
	e.gift(key, id, "name=Teapot&status=idea&url=https://example.com/teapot")
	e.gift(key, id, "name=Scarf&status=idea")
	b := e.signIn(t, "ada@example.com")
	b.get("/people/" + id)
	b.post("/people/"+id+"/tasks/"+done+"/toggle", nil).redirects(t, "/people/"+id+"#tasks")
	pg := b.get("/people/" + id)
	if li := itemOf(t, pg, "Return the book"); !strings.Contains(li, ">overdue<") {
		t.Errorf("a task past its day is not overdue: %s", li)
	}
	for _, name := range []string{"Book a table", "Due today", "Sent the card"} {
		if li := itemOf(t, pg, name); strings.Contains(li, "overdue") {
			t.Errorf("%s is marked overdue: %s", name, li)
		}
	}
	if li := itemOf(t, pg, "Teapot"); !strings.Contains(li, `<a href="https://example.com/teapot" rel="noopener noreferrer">https://example.com/teapot</a>`) {
		t.Errorf("the gift's address is no link: %s", li)
	}
	before(t, pg, "<h1>", `id="contact-details"`, `id="tasks"`, `id="stay-in-touch"`, `id="important-dates"`,
		`id="age"`, `id="notes"`, `id="interactions"`, `id="gifts"`, `id="life-events"`, `id="work-history"`,
		`id="appearance"`, `id="photo"`)
}

// TestWebPersonQuietActions: a row of the person page has a quiet Edit
// and no Delete; Delete is on the edit page, and asks first.
func TestWebPersonQuietActions(t *testing.T) {
	e := newEnv(t)
	_, key := e.user("ada@example.com")
	rows := e.webRows(t, key)
	b := e.signIn(t, "ada@example.com")
	base := "/people/" + rows.person
	pg := b.get(base)
	for slug, item := range rows.items {
		edit := base + "/" + slug + "/" + item + "/edit"
		pg.has(t, `<a class="quiet-link" href="`+edit+`"`)
		pg.lacks(t, `action="`+base+"/"+slug+"/"+item+`/delete"`)
		ep := b.get(edit)
		ep.status(t, http.StatusOK)
		ep.has(t, `action="`+base+"/"+slug+"/"+item+`/delete" data-confirm="Delete this `)
	}
	pg.lacks(t, ">Delete<", `action="`+base+`/delete"`)
	// The one red button is the photo's, one for the page.
	if n := strings.Count(pg.body, `class="danger"`) - strings.Count(pg.body, "/relationships/"); n != 1 {
		t.Errorf("%d red buttons outside the relationships' menu, want the photo's one", n)
	}
	// Deleting from the edit page goes back to the person's page.
	del := base + "/notes/" + rows.items["notes"] + "/delete"
	b.post(del, nil).redirects(t, base+"#notes")
}

// TestWebPersonFormsFit: the contact-detail and age forms mark each field
// with the kinds it belongs to, for kith.js to show those of the kind
// chosen; without the script the page has every field, none hidden.
func TestWebPersonFormsFit(t *testing.T) {
	e := newEnv(t)
	_, key := e.user("ada@example.com")
	id := e.person(key, "first_name=Grace")
	b := e.signIn(t, "ada@example.com")
	pg := b.get("/people/" + id)
	pg.has(t, `<select id="contact-details-kind" name="kind" data-fits>`,
		`<div class="field" data-for="email phone website social">
<label for="contact-details-value">Value</label>`,
		`<div class="field" data-for="social">
<label for="contact-details-network">Network</label>`,
		`<div class="field" data-for="address">
<label for="contact-details-street">Street</label>`,
		`<div class="field" data-for="address">
<label for="contact-details-country">Country</label>`,
		`<div class="field">
<label for="contact-details-label">Label</label>`,
		`<select id="age-age_type" name="age_type" data-fits>`,
		`<div class="field" data-for="exact">
<label for="age-age_year">Birth year</label>`,
		`<div class="field" data-for="estimated">
<label for="age-estimated_age">Estimated age</label>`,
		`<div class="field" data-for="bracket">
<label for="age-age_bracket">Age range</label>`,
		"A two-letter code or the country&#39;s name in English: DE, Germany, United States.",
		`<label for="appearance-tatoos">Tattoos</label>`)
	pg.lacks(t, " hidden", "Tatoos")
	b.post("/people/"+id+"/appearance", form("tatoos", "an anchor")).redirects(t, "/people/"+id+"#appearance")
	b.get("/people/"+id).has(t, "<dt>Tattoos</dt><dd>an anchor</dd>")
}

// TestWebPersonCountryNames: the contact-detail form takes a country's
// name as well as its code (web-app.md §9), and says what it takes when
// it is neither, beside the field, the text kept.
func TestWebPersonCountryNames(t *testing.T) {
	e := newEnv(t)
	_, key := e.user("ada@example.com")
	id := e.person(key, "first_name=Grace")
	b := e.signIn(t, "ada@example.com")
	base := "/people/" + id
	address := func(country string) url.Values {
		return form("kind", "address", "value", "", "network", "", "street", "Unter den Linden 1", "city", "Berlin",
			"postal_code", "", "region", "", "country", country, "label", "")
	}
	for _, c := range []struct{ typed, code string }{{"Germany", "DE"}, {"United States", "US"}, {"FR", "FR"}, {"deutschland", "DE"}} {
		b.get(base)
		b.post(base+"/contact-details", address(c.typed)).redirects(t, base+"#contact-details")
		r := e.do(req{method: "GET", path: "/api/persons/" + id + "/contact-details?kind=address", key: key})
		if !strings.Contains(r.body, `"country":"`+c.code+`"`) {
			t.Errorf("%q: %s", c.typed, r.body)
		}
		b.get(base).has(t, "Unter den Linden 1, Berlin, "+c.code)
	}
	b.get(base)
	pg := b.post(base+"/contact-details", address("Atlantis"))
	pg.status(t, http.StatusUnprocessableEntity)
	pg.has(t, `<p class="error" id="contact-details-country-err">Enter a two-letter country code or the country&#39;s name in English: DE, Germany.</p>`,
		`id="contact-details-country" name="country" value="Atlantis"`, `<details open><summary>Add contact detail</summary>`)
	// The API keeps its own words.
	r := e.do(req{method: "POST", path: "/api/persons/" + id + "/contact-details?kind=address&country=Atlantis", key: key})
	if r.code != 422 || !strings.Contains(r.body, `"errors":{"country":["The selected country is invalid."]}`) {
		t.Errorf("the API on a bad country: %d %s", r.code, r.body)
	}
}

// TestWebPersonPlainMessages: a refused form says what is wrong by the
// field the person sees, not by the API's name of it; the API's answers
// keep the contract's words.
func TestWebPersonPlainMessages(t *testing.T) {
	e := newEnv(t)
	_, key := e.user("ada@example.com")
	id := e.person(key, "first_name=Grace")
	b := e.signIn(t, "ada@example.com")
	base := "/people/" + id
	detail := func(kv ...string) url.Values {
		v := form("kind", "email", "value", "", "network", "", "street", "", "city", "", "postal_code", "", "region", "", "country", "", "label", "")
		for i := 0; i+1 < len(kv); i += 2 {
			v.Set(kv[i], kv[i+1])
		}
		return v
	}
	for _, c := range []struct {
		form        url.Values
		field, want string
	}{
		{detail("value", "not-an-email"), "value", "Enter a valid email address, such as ada@example.com."},
		{detail("value", ""), "value", "Enter the email address."},
		{detail("kind", "phone", "value", "call me"), "value", "Enter a phone number: it needs digits."},
		{detail("kind", "website", "value", "javascript:alert(1)"), "value", "Enter a web address that starts with http:// or https://."},
		{detail("kind", "social", "value", "grace"), "network", "Enter the network: mastodon, github, …"},
		{detail("kind", "address"), "street", "Fill in at least one part of the address."},
		{detail("label", strings.Repeat("x", 256), "value", "a@example.com"), "label", "“Label” takes at most 255 characters."},
		{detail("kind", "fax"), "kind", "Choose one of the choices of “Kind”."},
	} {
		b.get(base)
		pg := b.post(base+"/contact-details", c.form)
		pg.status(t, http.StatusUnprocessableEntity)
		pg.has(t, `<p class="error" id="contact-details-`+c.field+`-err">`+strings.ReplaceAll(c.want, "'", "&#39;")+`</p>`)
		pg.lacks(t, "The value field", "The "+strings.ReplaceAll(c.field, "_", " ")+" field")
	}
	b.get(base)
	pg := b.post(base+"/tasks", form("name", "", "due_at", "2026-02-30"))
	pg.has(t, `id="tasks-name-err">Fill in “Task”.</p>`, `id="tasks-due_at-err">“Due on” is not a date Kith can read.</p>`)
	r := e.do(req{method: "POST", path: "/api/persons/" + id + "/contact-details?kind=email&value=x", key: key})
	if !strings.Contains(r.body, `"errors":{"value":["The value field must be a valid email address."]}`) {
		t.Errorf("the API's words changed: %s", r.body)
	}
}
