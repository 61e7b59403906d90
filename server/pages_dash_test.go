package server

import (
	"fmt"
	"net/http"
	"net/url"
	"regexp"
	"strings"
	"testing"
)

// quickForm is the quick add form as a browser sends it.
func quickForm(kv ...string) url.Values {
	v := personForm("birthday", "", "email", "", "phone", "")
	for i := 0; i+1 < len(kv); i += 2 {
		v.Set(kv[i], kv[i+1])
	}
	return v
}

// TestWebQuickAdd: Add a person takes a birthday, an email and a phone
// with the names, the rest behind More details; one press makes it all,
// and a refused part makes nothing.
func TestWebQuickAdd(t *testing.T) {
	e := newEnv(t)
	_, key := e.user("ada@example.com")
	b := e.signIn(t, "ada@example.com")
	pg := b.get("/people/new")
	pg.status(t, http.StatusOK)
	pg.has(t, `<label for="person-first_name">First name`, `<label for="person-last_name">Last name`,
		`<input type="date" id="person-birthday" name="birthday"`, `<input type="email" id="person-email" name="email"`,
		`<input type="tel" id="person-phone" name="phone"`, `<details class="more"><summary>More details</summary>`)
	more := pg.body[strings.Index(pg.body, "<summary>More details</summary>"):]
	for _, f := range []string{"Prefix", "Suffix", "Maiden name", "Marital status", "Kids", "Middle name", "Nickname", "Gender", "How we met"} {
		if !strings.Contains(more, `">`+f+`</label>`) {
			t.Errorf("%s is not behind More details", f)
		}
	}
	// The edit page keeps every field in sight.
	if strings.Contains(pg.body[:strings.Index(pg.body, "<details")], `name="prefix"`) {
		t.Error("Prefix is outside More details")
	}

	pg = b.post("/people", quickForm("first_name", "Ada", "last_name", "Young", "birthday", "1986-05-03",
		"email", "ada@young.example", "phone", "+1 (555) 010-2030", "prefix", "Dr"))
	if pg.code != http.StatusSeeOther || !regexp.MustCompile(`^/people/\d+$`).MatchString(pg.location()) {
		t.Fatalf("add: %d %s %s", pg.code, pg.location(), pg.body)
	}
	id := strings.TrimPrefix(pg.location(), "/people/")
	r := e.do(req{method: "GET", path: "/api/persons/" + id, key: key})
	age := r.json(t)["data"].(map[string]any)["age"].(map[string]any)
	if age["age_type"] != "exact" || fmt.Sprint(age["birth_year"], age["birth_month"], age["birth_day"]) != "1986 5 3" {
		t.Errorf("age %v, want exact 1986-05-03", age)
	}
	r = e.do(req{method: "GET", path: "/api/persons/" + id + "/contact-details", key: key})
	var got []string
	for _, d := range r.json(t)["data"].([]any) {
		d := d.(map[string]any)
		got = append(got, fmt.Sprint(d["kind"], " ", d["value"]))
	}
	if want := "email ada@young.example|phone +1 (555) 010-2030"; strings.Join(got, "|") != want {
		t.Errorf("contact details %q, want %q", got, want)
	}
	b.follow(pg).has(t, "Ada Young added.", "ada@young.example")

	// Only a name: no age, no details.
	pg = b.post("/people", quickForm("first_name", "Bea"))
	id = strings.TrimPrefix(pg.location(), "/people/")
	if r := e.do(req{method: "GET", path: "/api/persons/" + id + "/contact-details", key: key}); !strings.Contains(r.body, `"data":[]`) {
		t.Errorf("a name alone made details: %s", r.body)
	}

	before := e.count(`SELECT count(*) FROM persons`)
	for _, c := range []struct{ field, value, msg string }{
		{"email", "not-an-email", "The email field must be a valid email address."},
		{"phone", "call me", "The phone field format is invalid."},
		{"birthday", "03/05/1986", "The birthday field must match the format Y-m-d."},
		{"birthday", "2027-01-01", "The birthday field must be a date between 1900-01-01 and today."},
		{"birthday", "1899-12-31", "The birthday field must be a date between 1900-01-01 and today."},
	} {
		pg = b.post("/people", quickForm("first_name", "Cy", "last_name", "Young", "birthday", "1990-01-02",
			"email", "cy@young.example", "phone", "555", c.field, c.value))
		if pg.code != http.StatusUnprocessableEntity {
			t.Errorf("%s %q: %d", c.field, c.value, pg.code)
			continue
		}
		pg.has(t, `<p class="error" id="person-`+c.field+`-err">`+c.msg+`</p>`, `value="`+c.value+`"`, `value="Cy"`, `value="Young"`)
	}
	// An error behind More details opens it.
	b.post("/people", quickForm("first_name", "Cy", "prefix", strings.Repeat("p", 256))).has(t, `<details class="more" open>`)
	if after := e.count(`SELECT count(*) FROM persons`); after != before {
		t.Errorf("refused forms made %d persons", after-before)
	}
}

// TestWebDashboardFirstRun: an account without people is shown the ways
// to get some; with a person, only Add a person may stay.
func TestWebDashboardFirstRun(t *testing.T) {
	e := newEnv(t)
	_, key := e.user("ada@example.com")
	b := e.signIn(t, "ada@example.com")
	links := []string{`<a href="/people/new">Add a person</a>`, `<a href="/settings/data">Import contacts</a>`,
		`<a href="/settings/phone">Connect your phone</a>`}
	b.get("/").has(t, links...)
	e.person(key, "first_name=Grace")
	b.get("/").lacks(t, "Import contacts", "Connect your phone")
}

// TestWebTimezoneProposal: while the user's zone is UTC the dashboard
// holds the form that sets the browser's (the script fills it), which
// comes back to the dashboard; then it is gone.
func TestWebTimezoneProposal(t *testing.T) {
	e := newEnv(t)
	_, key := e.user("ada@example.com")
	b := e.signIn(t, "ada@example.com")
	pg := b.get("/")
	pg.has(t, `<form class="card tz-proposal" id="tz-proposal" method="post" action="/settings/timezone" data-zones="`,
		"Europe/Berlin\n", `name="back" value="dashboard"`, `name="timezone" value=""`, "Keep UTC")
	pg.lacks(t, "<script>")

	pg = b.post("/settings/timezone", form("timezone", "Mars/Olympus", "back", "dashboard"))
	pg.status(t, http.StatusUnprocessableEntity)
	pg = b.post("/settings/timezone", form("timezone", "Europe/Berlin", "back", "dashboard"))
	pg.redirects(t, "/")
	b.follow(pg).lacks(t, "tz-proposal")
	if r := e.do(req{method: "GET", path: "/api/me/timezone", key: key}); !strings.Contains(r.body, `"Europe/Berlin"`) {
		t.Errorf("the API's zone: %s", r.body)
	}
	// From Settings it goes back to its Profile page.
	b.post("/settings/timezone", form("timezone", "UTC")).redirects(t, "/settings/profile")
}

// TestWebDueForCall: each person due has a Log a call button that comes
// back to the dashboard, and says by how many days they are overdue in
// the user's calendar.
func TestWebDueForCall(t *testing.T) {
	e := newEnv(t) // today is 2026-03-15
	_, key := e.user("ada@example.com")
	_, theirKey := e.user("bob@example.com")
	due := func(name, every, last string) string {
		id := e.person(key, "first_name="+name)
		e.interaction(key, id, "happened_on="+last+"&kind=call")
		if r := e.do(req{method: "PUT", path: "/api/persons/" + id + "/stay-in-touch?every_days=" + every, key: key}); r.code != 200 {
			t.Fatalf("stay in touch: %d %s", r.code, r.body)
		}
		return id
	}
	grace := due("Grace", "7", "2026-02-23")
	due("Alan", "7", "2026-03-07")
	due("Edsger", "7", "2026-03-08")
	b := e.signIn(t, "ada@example.com")
	pg := b.get("/")
	calls := pg.body[strings.Index(pg.body, `id="calls"`):]
	item := func(name, when string) string {
		return `">` + name + `</a><span class="small [a-z]+">` + when + `</span></div>\s*<div class="actions"><form class="inline" method="post" action="/people/\d+/call">` +
			`<input type="hidden" name="csrf" value="[^"]+"><input type="hidden" name="back" value="dashboard"><button type="submit" class="quiet">Log a call</button>`
	}
	for name, when := range map[string]string{"Grace": "overdue by 13 days", "Alan": "overdue by 1 day", "Edsger": "due today"} {
		if !regexp.MustCompile(item(name, when)).MatchString(calls) {
			t.Errorf("no item %q with %q and Log a call in:\n%s", name, when, calls)
		}
	}
	pg = b.post("/people/"+grace+"/call", form("back", "dashboard"))
	pg.redirects(t, "/")
	pg = b.follow(pg)
	if calls := pg.body[strings.Index(pg.body, `id="calls"`):]; strings.Contains(calls, ">Grace</a>") {
		t.Errorf("Grace is still due after a call:\n%s", calls)
	}
	theirs := e.person(theirKey, "first_name=Eve")
	b.post("/people/"+theirs+"/call", form("back", "dashboard")).status(t, http.StatusNotFound)
}

// TestWebJournalDay: Open leads to the day's page without making an
// entry, Save makes it with LF line breaks, and the journal's page shows
// the text under its date.
func TestWebJournalDay(t *testing.T) {
	e := newEnv(t)
	_, key := e.user("ada@example.com")
	j := e.journal(key, "Diary")
	b := e.signIn(t, "ada@example.com")
	b.get("/journals/" + j)
	pg := b.post("/journals/"+j+"/entries", form("date", "2026-03-10"))
	pg.redirects(t, "/journals/"+j+"/2026/3/10")
	pg = b.follow(pg)
	pg.has(t, `<label for="entry-body">Entry</label>`, `<textarea id="entry-body" name="body">`, `<button type="submit">Save</button>`)
	b.get("/journals/"+j).lacks(t, `<li id="entry-`)
	b.post("/journals/"+j+"/2026/3/10", form("body", "First line\r\nsecond line")).redirects(t, "/journals/"+j+"/2026/3/10")
	r := e.do(req{method: "GET", path: "/api/journals/" + j + "/entries/2026/3/10", key: key})
	if !strings.Contains(r.body, `"body":"First line\nsecond line"`) {
		t.Errorf("the API's entry: %d %s", r.code, r.body)
	}
	b.get("/journals/"+j).has(t, "<strong>Tue 10 Mar 2026</strong>", `<p class="pre entry-text">First line
second line</p>`)
}

// TestWebPeopleSortAndLines: the people list sorts by last name and by
// last contact, keeps the order across pages, search and tag, and says
// under each name where they work or when last in touch.
func TestWebPeopleSortAndLines(t *testing.T) {
	e := newEnv(t)
	_, key := e.user("ada@example.com")
	ada := e.person(key, "first_name=Ada&last_name=Young")
	bob := e.person(key, "first_name=Bob&last_name=Adams")
	cy := e.person(key, "first_name=Cy&last_name=Moss")
	e.interaction(key, ada, "happened_on=2026-03-12&kind=call")
	e.interaction(key, bob, "happened_on=2025-11-02&kind=call")
	e.workEntry(key, bob, "job_title=Boss&company_name=Acme&active=1")
	e.workEntry(key, cy, "job_title=Clerk&company_name=Gone+Ltd&active=0")
	if r := e.do(req{method: "PUT", path: "/api/persons/" + ada + "/tags?tags[]=chess", key: key}); r.code != 200 {
		t.Fatalf("tags: %d %s", r.code, r.body)
	}
	b := e.signIn(t, "ada@example.com")
	order := func(path string) string {
		var out []string
		for _, m := range regexp.MustCompile(`<a href="/people/\d+">([^<]+)</a>`).FindAllStringSubmatch(b.get(path).body, -1) {
			out = append(out, m[1])
		}
		return strings.Join(out, ", ")
	}
	for path, want := range map[string]string{
		"/people":                     "Ada Young, Bob Adams, Cy Moss",
		"/people?sort=last_name":      "Bob Adams, Cy Moss, Ada Young",
		"/people?sort=last_contacted": "Ada Young, Bob Adams, Cy Moss",
		"/people?sort=nonsense":       "",
	} {
		if got := order(path); got != want {
			t.Errorf("%s: %q, want %q", path, got, want)
		}
	}
	b.get("/people?sort=nonsense").status(t, http.StatusUnprocessableEntity)

	pg := b.get("/people?q=o&tag=chess")
	pg.has(t, `<a href="/people?q=o&amp;sort=last_name&amp;tag=chess">Last name</a>`,
		`<a href="/people?q=o&amp;sort=last_contacted&amp;tag=chess">Last contacted</a>`,
		`<select id="tag-filter" name="tag"><option value="">Everyone</option><option value="chess" selected>chess</option></select>`)
	pg = b.get("/people?sort=last_name")
	pg.has(t, `<input type="hidden" name="sort" value="last_name">`, `aria-current="true">Last name</a>`)

	lines := b.get("/people").body
	for id, want := range map[string]string{ada: "last in touch 3 days ago", bob: "Acme", cy: ""} {
		m := regexp.MustCompile(`<a href="/people/` + id + `">[^<]+</a>\s*(?:<span class="line muted small">([^<]*)</span>)?</span>`).FindStringSubmatch(lines)
		if m == nil || m[1] != want {
			t.Errorf("person %s: line %q, want %q", id, m, want)
		}
	}
	e.workEntry(key, ada, "job_title=Poet&active=1")
	if !strings.Contains(b.get("/people").body, `<span class="line muted small">Poet</span>`) {
		t.Error("an active job without a company shows no title")
	}
}
