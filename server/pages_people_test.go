package server

import (
	"context"
	"fmt"
	"net/http"
	"net/url"
	"regexp"
	"strings"
	"testing"

	"kith/server/web"
	"kith/store"
)

// form makes url.Values of pairs of name and value.
func form(kv ...string) url.Values {
	v := url.Values{}
	for i := 0; i+1 < len(kv); i += 2 {
		v.Add(kv[i], kv[i+1])
	}
	return v
}

// personForm is the person form as a browser sends it: every field, most
// of them empty.
func personForm(kv ...string) url.Values {
	v := form("first_name", "", "middle_name", "", "last_name", "", "nickname", "", "maiden_name", "", "prefix", "",
		"suffix", "", "gender_id", "", "marital_status", "unknown", "kids_status", "unknown", "how_we_met", "")
	for i := 0; i+1 < len(kv); i += 2 {
		v.Set(kv[i], kv[i+1])
	}
	return v
}

// idIn finds the number a pattern's group matches in the page.
func idIn(t testing.TB, pg page, pattern string) string {
	t.Helper()
	m := regexp.MustCompile(pattern).FindStringSubmatch(pg.body)
	if m == nil {
		t.Fatalf("no %s in the page:\n%s", pattern, pg.body)
	}
	return m[1]
}

func TestWebPeopleList(t *testing.T) {
	e := newEnv(t)
	u, _ := e.user("ada@example.com")
	ctx := context.Background()
	for i := 1; i <= 60; i++ {
		if _, err := e.st.CreatePerson(ctx, u.AccountID, store.PersonInput{FirstName: fmt.Sprintf("Person%02d", i),
			MaritalStatus: "unknown", KidsStatus: "unknown", CanBeDeleted: true, IsListed: true}); err != nil {
			t.Fatal(err)
		}
	}
	b := e.signIn(t, "ada@example.com")
	rows := regexp.MustCompile(`<li class="person">`)
	pg := b.get("/people")
	pg.status(t, http.StatusOK)
	if n := len(rows.FindAllString(pg.body, -1)); n != 50 {
		t.Errorf("page 1 lists %d", n)
	}
	pg.has(t, `href="/people?page=2" rel="next"`, "1–50 of 60")
	pg.lacks(t, `rel="prev"`)
	pg = b.get("/people?page=2")
	if n := len(rows.FindAllString(pg.body, -1)); n != 10 {
		t.Errorf("page 2 lists %d", n)
	}
	pg.has(t, `href="/people?page=1" rel="prev"`, "51–60 of 60")
	pg.lacks(t, `rel="next"`)
	// Past the end, and nonsense: no 5xx, no link to a page of nonsense.
	for _, q := range []string{"page=3", "page=0", "page=-1", "page=abc", "page=99999999999999999999", "page=9223372036854775807",
		"page=184467440737095517"} {
		pg := b.get("/people?" + q)
		if pg.code != http.StatusOK {
			t.Errorf("?%s: %d", q, pg.code)
		}
		if strings.Contains(pg.body, "page=-") || strings.Contains(pg.body, "of 60") && !strings.Contains(pg.body, "1–50 of 60") {
			t.Errorf("?%s: %s", q, regexp.MustCompile(`(?s)<nav class="pager".*</nav>`).FindString(pg.body))
		}
	}
}

func TestWebPeopleSearch(t *testing.T) {
	e := newEnv(t)
	_, key := e.user("ada@example.com")
	grace := e.person(key, "first_name=Grace&last_name=Hopper&nickname=Amazing")
	e.person(key, "first_name=Alan&last_name=Turing")
	e.contactDetail(key, grace, "kind=email&value=grace@navy.example")
	b := e.signIn(t, "ada@example.com")
	for _, q := range []string{"race", "HOPP", "mazin", "navy.example"} {
		pg := b.get("/people?q=" + url.QueryEscape(q))
		pg.status(t, http.StatusOK)
		pg.has(t, `<a href="/people/`+grace+`">Grace Hopper</a>`, "“Amazing”", `value="`+q+`"`)
		pg.lacks(t, "Alan Turing")
	}
	pg := b.get("/people?q=zzz")
	pg.status(t, http.StatusOK)
	pg.has(t, "Nobody matches “zzz”.")
	pg.lacks(t, "Grace Hopper")
	pg = b.get("/people?q=" + strings.Repeat("g", 300))
	pg.status(t, http.StatusUnprocessableEntity)
	pg = b.get("/people?q=%FF%FE")
	if pg.code != http.StatusUnprocessableEntity {
		t.Errorf("non-UTF-8 search: %d", pg.code)
	}
	// A search of a script shows it as text.
	b.get("/people?q="+url.QueryEscape(`<b>x</b>`)).has(t, "&lt;b&gt;x&lt;/b&gt;")
}

func TestWebPersonAdd(t *testing.T) {
	e := newEnv(t)
	e.user("ada@example.com")
	b := e.signIn(t, "ada@example.com")
	pg := b.get("/people/new")
	pg.status(t, http.StatusOK)
	pg.has(t, `<label for="person-first_name">First name`, `action="/people"`, "Add person")

	pg = b.post("/people", personForm("first_name", "", "last_name", "Hopper", "nickname", "Amazing", "how_we_met", "At the\nnavy"))
	pg.status(t, http.StatusUnprocessableEntity)
	pg.has(t, `<p class="error" id="person-first_name-err">The first name field is required.</p>`,
		`value="Hopper"`, `value="Amazing"`, ">At the\nnavy</textarea>", `aria-invalid="true"`)

	pg = b.post("/people", personForm("first_name", "Grace", "last_name", "Hopper", "nickname", "Amazing",
		"marital_status", "couple", "kids_status", "no_kids", "how_we_met", "At the navy"))
	if pg.code != http.StatusSeeOther || !regexp.MustCompile(`^/people/\d+$`).MatchString(pg.location()) {
		t.Fatalf("%d %s", pg.code, pg.location())
	}
	to := pg.location()
	pg = b.follow(pg)
	pg.status(t, http.StatusOK)
	pg.has(t, "Grace Hopper added.", "<h1>Grace Hopper</h1>", "Amazing", "Couple", "No kids", "At the navy")
	// The flash shows once.
	b.get(to).lacks(t, "Grace Hopper added.")
	b.get("/people").lacks(t, "Grace Hopper added.")
}

// TestWebLongFlash: the report of a form about something with a long
// name is shortened, not lost.
func TestWebLongFlash(t *testing.T) {
	e := newEnv(t)
	e.user("ada@example.com")
	b := e.signIn(t, "ada@example.com")
	for _, name := range []string{strings.Repeat("é", 255), strings.Repeat("x", 255), strings.Repeat("ab€", 85)} {
		pg := b.follow(b.post("/people", personForm("first_name", name)))
		pg.status(t, http.StatusOK)
		m := regexp.MustCompile(`<p class="notice" role="status">([^<]*)</p>`).FindStringSubmatch(pg.body)
		if m == nil || !strings.HasSuffix(m[1], " added.") || !strings.Contains(m[1], "…") || len(m[1]) > 200 {
			t.Errorf("flash %q", m)
		}
	}
}

func TestWebPersonEditAndDelete(t *testing.T) {
	e := newEnv(t)
	_, key := e.user("ada@example.com")
	id := e.person(key, "first_name=Grace&last_name=Hopper&nickname=Amazing&how_we_met=Navy")
	me := e.person(key, "first_name=Myself&can_be_deleted=0")
	b := e.signIn(t, "ada@example.com")
	base := "/people/" + id

	pg := b.get(base + "/edit")
	pg.status(t, http.StatusOK)
	pg.has(t, `value="Grace"`, `value="Hopper"`, `value="Amazing"`, ">Navy</textarea>", `action="`+base+`"`, "Edit Grace Hopper")

	pg = b.post(base, personForm("first_name", "Grace", "last_name", "", "nickname", "Amazing"))
	pg.redirects(t, base)
	pg = b.follow(pg)
	pg.has(t, "Saved.", "<h1>Grace</h1>")
	pg.lacks(t, "Hopper", "Navy")

	pg = b.post(base, personForm("first_name", "  ", "last_name", "Hopper"))
	pg.status(t, http.StatusUnprocessableEntity)
	pg.has(t, `id="person-first_name-err">The first name field is required.`, `value="Hopper"`)

	pg = b.post(base, personForm("first_name", "Grace", "gender_id", "999999"))
	pg.status(t, http.StatusUnprocessableEntity)
	pg.has(t, `id="person-gender_id-err"`)

	// Editing keeps a person protected.
	b.post("/people/"+me, personForm("first_name", "Me")).redirects(t, "/people/"+me)
	pg = b.get("/people/" + me)
	pg.has(t, "<h1>Me</h1>")
	pg.lacks(t, `action="/people/`+me+`/delete"`)
	b.post("/people/"+me+"/delete", nil).status(t, http.StatusForbidden)
	b.get("/people/"+me).status(t, http.StatusOK)

	// Delete is on the edit page, asking first; the person page has none.
	b.get(base).lacks(t, `action="`+base+`/delete"`)
	b.get("/people/"+me+"/edit").lacks(t, `action="/people/`+me+`/delete"`)
	pg = b.get(base + "/edit")
	pg.has(t, `action="`+base+`/delete" data-confirm="Delete this person and everything about them?"`, "Delete this person")
	pg = b.post(base+"/delete", nil)
	pg.redirects(t, "/people")
	b.follow(pg).has(t, "Grace deleted.")
	b.get(base).status(t, http.StatusNotFound)
	b.get(base+"/edit").status(t, http.StatusNotFound)
	b.post(base+"/delete", nil).status(t, http.StatusNotFound)

	for _, bad := range []string{"/people/0", "/people/abc", "/people/-1", "/people/99999999999999999999"} {
		b.get(bad).status(t, http.StatusNotFound)
	}
}

func TestWebPersonPageSections(t *testing.T) {
	e := newEnv(t)
	_, key := e.user("ada@example.com")
	id := e.person(key, "first_name=Grace")
	b := e.signIn(t, "ada@example.com")
	pg := b.get("/people/" + id)
	pg.status(t, http.StatusOK)
	for _, title := range []string{"About", "Contact details", "Important dates", "Tasks", "Notes", "Interactions", "Gifts",
		"Life events", "Work history", "Appearance", "Birthday and age", "Stay in touch"} {
		pg.has(t, ">"+title+"</h2>")
	}
	for _, k := range web.Children {
		pg.has(t, `id="`+k.Slug+`"`, `action="/people/`+id+`/`+k.Slug+`"`, "Add "+k.Noun)
	}
	pg.lacks(t, "<details open")
}

// kindCase is one kind's walk through the person page.
type kindCase struct {
	add       url.Values
	shown     []string // on the page after adding
	bad       url.Values
	badField  string
	badMsg    string
	prefilled []string // in the edit form
	edit      url.Values
	edited    []string // on the page after the edit
}

var kindCases = map[string]kindCase{
	"contact-details": {
		add:       form("kind", "phone", "value", "555-0100", "label", "mobile", "network", "", "street", "", "city", "", "postal_code", "", "region", "", "country", ""),
		shown:     []string{"555-0100", "Phone · mobile"},
		bad:       form("kind", "email", "value", "not-an-email", "label", "home"),
		badField:  "value",
		badMsg:    "Enter a valid email address, such as ada@example.com.",
		prefilled: []string{`value="555-0100"`, `value="mobile"`, `<option value="phone" selected>`},
		edit:      form("kind", "email", "value", "grace@navy.example", "label", "work"),
		edited:    []string{"grace@navy.example", "Email · work"},
	},
	"important-dates": {
		add:       form("label", "Wedding", "date", "2019-05-04", "remind_yearly", "0", "remind_yearly", "1"),
		shown:     []string{"Wedding", "4 May 2019 · reminded every year"},
		bad:       form("label", "Wedding", "date", "2019-13-45", "remind_yearly", "0"),
		badField:  "date",
		badMsg:    "“Date” is not a date Kith can read.",
		prefilled: []string{`value="Wedding"`, `value="2019-05-04"`, `name="remind_yearly" value="1" checked`},
		edit:      form("label", "Name day", "date", "--06-01", "remind_yearly", "0"),
		edited:    []string{"Name day", "1 June"},
	},
	"reminders": {
		add:       form("label", "Call about the flat", "starts_on", "2026-01-31", "frequency", "monthly", "every", "", "until", ""),
		shown:     []string{"Call about the flat", "every month from Sat 31 Jan 2026 · next Tue 31 Mar 2026"},
		bad:       form("label", "Call", "starts_on", "2026-03-20", "frequency", "weekly", "every", "2", "until", "2026-03-19"),
		badField:  "until",
		badMsg:    "“Until” cannot be before the first date.",
		prefilled: []string{`value="Call about the flat"`, `value="2026-01-31"`, `<option value="monthly" selected>`, `name="every" value="1"`},
		edit:      form("label", "Send the photos", "starts_on", "2026-04-02", "frequency", "one_time", "every", "x", "until", "nope"),
		edited:    []string{"Send the photos", "once, on Thu 2 Apr 2026"},
	},
	"tasks": {
		add:       form("name", "Call about the job", "due_at", "2026-03-20", "task_category_id", ""),
		shown:     []string{"Call about the job", "due Fri 20 Mar 2026", "Mark done"},
		bad:       form("name", "", "due_at", "2026-03-20"),
		badField:  "name",
		badMsg:    "Fill in “Task”.",
		prefilled: []string{`value="Call about the job"`, `value="2026-03-20"`},
		edit:      form("name", "Call back", "due_at", "", "task_category_id", ""),
		edited:    []string{"Call back"},
	},
	"notes": {
		add:       form("content", "Likes tea\nand <cake>"),
		shown:     []string{"Likes tea\nand &lt;cake&gt;"},
		bad:       form("content", "   "),
		badField:  "content",
		badMsg:    "Fill in “Note”.",
		prefilled: []string{">Likes tea\nand &lt;cake&gt;</textarea>"},
		edit:      form("content", "Likes coffee now"),
		edited:    []string{"Likes coffee now"},
	},
	"interactions": {
		add:       form("kind", "call", "happened_on", "2026-03-10", "note", "Talked about boats"),
		shown:     []string{"Call · Tue 10 Mar 2026", "Talked about boats"},
		bad:       form("kind", "call", "happened_on", "2026-04-01", "note", ""),
		badField:  "happened_on",
		badMsg:    "“On” cannot be later than tomorrow.",
		prefilled: []string{`value="2026-03-10"`, ">Talked about boats</textarea>", `<option value="call" selected>`},
		edit:      form("kind", "meeting", "happened_on", "2026-03-12", "note", ""),
		edited:    []string{"Meeting · Thu 12 Mar 2026"},
	},
	"gifts": {
		add:       form("name", "Teapot", "status", "idea", "occasion", "Birthday", "url", "https://example.com/teapot", "date", ""),
		shown:     []string{"Teapot", `Idea · Birthday · <a href="https://example.com/teapot" rel="noopener noreferrer">https://example.com/teapot</a>`},
		bad:       form("name", "Teapot", "status", "idea", "url", "not a url"),
		badField:  "url",
		badMsg:    "Enter a web address that starts with http:// or https://.",
		prefilled: []string{`value="Teapot"`, `value="Birthday"`, `value="https://example.com/teapot"`, `<option value="idea" selected>`},
		edit:      form("name", "Teapot", "status", "given", "occasion", "", "url", "", "date", "2026-03-01"),
		edited:    []string{"Given · Sun 1 Mar 2026"},
	},
	"life-events": {
		add:       form("description", "Moved to Paris", "happened_at", "2020-01-01", "comment", "Big move", "should_be_reminded", "0"),
		shown:     []string{"Moved to Paris", "Wed 1 Jan 2020", "Big move"},
		bad:       form("description", "Moved", "happened_at", "yesterday", "should_be_reminded", "0"),
		badField:  "happened_at",
		badMsg:    "“When” is not a date Kith can read.",
		prefilled: []string{`value="Moved to Paris"`, `value="2020-01-01"`, `value="Big move"`},
		edit:      form("description", "Moved to Lyon", "happened_at", "2021-02-03", "comment", "", "should_be_reminded", "0", "should_be_reminded", "1"),
		edited:    []string{"Moved to Lyon", "Wed 3 Feb 2021 · reminded every year"},
	},
	"work-history": {
		add:       form("job_title", "Engineer", "company_name", "Acme", "duration", "2019–2023", "estimated_salary", "", "active", "0", "active", "1"),
		shown:     []string{"Engineer at Acme", "current · 2019–2023"},
		bad:       form("job_title", "", "company_name", "Acme", "active", "0"),
		badField:  "job_title",
		badMsg:    "Fill in “Job title”.",
		prefilled: []string{`value="Engineer"`, `value="Acme"`, `name="active" value="1" checked`},
		edit:      form("job_title", "Admiral", "company_name", "", "duration", "", "estimated_salary", "", "active", "0"),
		edited:    []string{"Admiral"},
	},
}

// TestWebKinds adds, fails to add, edits and deletes one of every kind the
// person page shows.
func TestWebKinds(t *testing.T) {
	e := newEnv(t)
	_, key := e.user("ada@example.com")
	id := e.person(key, "first_name=Grace")
	b := e.signIn(t, "ada@example.com")
	base := "/people/" + id
	if len(kindCases) != len(web.Children) {
		t.Errorf("%d kinds tested, %d served", len(kindCases), len(web.Children))
	}
	for _, k := range web.Children {
		t.Run(k.Slug, func(t *testing.T) {
			c, ok := kindCases[k.Slug]
			if !ok {
				t.Fatal("no case")
			}
			b.get(base)
			pg := b.post(base+"/"+k.Slug, cloneValues(c.add))
			pg.redirects(t, base+"#"+k.Slug)
			pg = b.follow(pg)
			pg.has(t, capitalized(k.Noun)+" added.")
			pg.has(t, c.shown...)
			item := idIn(t, pg, base+"/"+k.Slug+`/(\d+)/edit`)

			pg = b.post(base+"/"+k.Slug, cloneValues(c.bad))
			pg.status(t, http.StatusUnprocessableEntity)
			errID := k.Slug + "-" + c.badField + "-err"
			pg.has(t, `<p class="error" id="`+errID+`">`+c.badMsg+`</p>`, `<details open><summary>Add `+k.Noun+`</summary>`)
			if n := strings.Count(pg.body, "<details open"); n != 1 {
				t.Errorf("%d sections open", n)
			}

			pg = b.get(base + "/" + k.Slug + "/" + item + "/edit")
			pg.status(t, http.StatusOK)
			pg.has(t, c.prefilled...)
			pg.has(t, `action="`+base+"/"+k.Slug+"/"+item+`"`, "Edit "+k.Noun+" · Grace")

			pg = b.post(base+"/"+k.Slug+"/"+item, cloneValues(c.bad))
			pg.status(t, http.StatusUnprocessableEntity)
			pg.has(t, `<p class="error" id="`+errID+`">`+c.badMsg+`</p>`)

			pg = b.post(base+"/"+k.Slug+"/"+item, cloneValues(c.edit))
			pg.redirects(t, base+"#"+k.Slug)
			pg = b.follow(pg)
			pg.has(t, "Saved.")
			pg.has(t, c.edited...)

			pg = b.post(base+"/"+k.Slug+"/"+item+"/delete", nil)
			pg.redirects(t, base+"#"+k.Slug)
			pg = b.follow(pg)
			pg.has(t, capitalized(k.Noun)+" deleted.")
			pg.lacks(t, base+"/"+k.Slug+"/"+item+"/edit")
			b.get(base+"/"+k.Slug+"/"+item+"/edit").status(t, http.StatusNotFound)
			b.post(base+"/"+k.Slug+"/"+item+"/delete", nil).status(t, http.StatusNotFound)
			b.post(base+"/"+k.Slug+"/"+item, cloneValues(c.edit)).status(t, http.StatusNotFound)
		})
	}
	b.post(base+"/nonsense", form("name", "x")).status(t, http.StatusNotFound)
	b.get(base+"/nonsense/1/edit").status(t, http.StatusNotFound)
}

// TestWebKindOfAnotherPerson: an item reached through another person of
// the same account is not found.
func TestWebKindOfAnotherPerson(t *testing.T) {
	e := newEnv(t)
	_, key := e.user("ada@example.com")
	grace := e.person(key, "first_name=Grace")
	alan := e.person(key, "first_name=Alan")
	task := e.task(key, grace, "name=Call")
	note := e.note(key, grace, "Hello")
	b := e.signIn(t, "ada@example.com")
	b.get("/people/" + alan)
	b.get("/people/"+alan+"/notes/"+note+"/edit").status(t, http.StatusNotFound)
	b.post("/people/"+alan+"/notes/"+note, form("content", "x")).status(t, http.StatusNotFound)
	// Another person's note with a form that fails: the 404 comes first,
	// so the form's errors tell nothing of whose rows exist.
	b.post("/people/"+alan+"/notes/"+note, form("content", "")).status(t, http.StatusNotFound)
	b.post("/people/"+grace+"/notes/999999", form("content", "")).status(t, http.StatusNotFound)
	b.post("/people/"+alan+"/notes/"+note+"/delete", nil).status(t, http.StatusNotFound)
	b.post("/people/"+alan+"/tasks/"+task+"/toggle", nil).status(t, http.StatusNotFound)
	b.post("/people/"+alan+"/notes/"+note+"/toggle", nil).status(t, http.StatusNotFound)
	pg := b.get("/people/" + grace)
	pg.has(t, "Hello", "Call", "Mark done")
}

func TestWebAge(t *testing.T) {
	e := newEnv(t)
	_, key := e.user("ada@example.com")
	id := e.person(key, "first_name=Grace")
	b := e.signIn(t, "ada@example.com")
	base := "/people/" + id
	age := func(kv ...string) url.Values {
		v := form("age_type", "exact", "age_year", "", "age_month", "", "age_day", "", "estimated_age", "", "age_bracket", "",
			"add_yearly_reminder", "0", "add_yearly_reminder", "1")
		for i := 0; i+1 < len(kv); i += 2 {
			v.Set(kv[i], kv[i+1])
		}
		return v
	}
	b.get(base)
	pg := b.post(base+"/age", age("age_year", "1990", "age_month", "3", "age_day", "18"))
	pg.redirects(t, base+"#age")
	pg = b.follow(pg)
	pg.has(t, "Age saved.", "35 (born Sun 18 Mar 1990)", `id="age-age_year" name="age_year" value="1990"`)
	b.lang = "en-US"
	b.get(base).has(t, "35 (born Sun, Mar 18, 1990)")
	b.lang = ""

	b.post(base+"/age", age("age_year", "1990", "age_month", "3", "age_day", "15")).redirects(t, base+"#age")
	b.get(base).has(t, "36 (born Thu 15 Mar 1990)")

	pg = b.post(base+"/age", age("age_year", "1800"))
	pg.status(t, http.StatusUnprocessableEntity)
	pg.has(t, `id="age-age_year-err">“Birth year” takes a number from 1900 to 2026.</p>`, `<details open><summary>Change`)
	pg = b.post(base+"/age", age("age_year", "x"))
	pg.status(t, http.StatusUnprocessableEntity)
	pg.has(t, `id="age-age_year-err">“Birth year” takes a whole number.</p>`, `value="x"`)
	pg = b.post(base+"/age", age("age_year", "2001", "age_month", "2", "age_day", "29"))
	pg.status(t, http.StatusUnprocessableEntity)
	pg.has(t, `id="age-age_day-err">That month has no such day.`)
	pg = b.post(base+"/age", age("age_year", ""))
	pg.status(t, http.StatusUnprocessableEntity)
	pg.has(t, `id="age-age_year-err">Fill in “Birth year”.</p>`)
	pg = b.post(base+"/age", age("age_type", "nonsense"))
	pg.status(t, http.StatusUnprocessableEntity)

	b.post(base+"/age", age("age_type", "estimated", "estimated_age", "40")).redirects(t, base+"#age")
	b.get(base).has(t, "about 40")
	b.post(base+"/age", age("age_type", "bracket", "age_bracket", "30-40")).redirects(t, base+"#age")
	b.get(base).has(t, "between 30-40 years")
}

func TestWebAppearance(t *testing.T) {
	e := newEnv(t)
	_, key := e.user("ada@example.com")
	id := e.person(key, "first_name=Grace")
	b := e.signIn(t, "ada@example.com")
	base := "/people/" + id
	b.get(base).has(t, "Nothing noted.")
	pg := b.post(base+"/appearance", form("height", "170 cm", "eye_color", "brown"))
	pg.redirects(t, base+"#appearance")
	pg = b.follow(pg)
	pg.has(t, "Appearance saved.", "<dt>Height</dt><dd>170 cm</dd>", "<dt>Eye color</dt><dd>brown</dd>", `value="170 cm"`)
	pg = b.post(base+"/appearance", form("height", strings.Repeat("x", 300)))
	pg.status(t, http.StatusUnprocessableEntity)
	pg.has(t, `id="appearance-height-err">“Height” takes at most 255 characters.`, `<details open><summary>Change appearance`)
}

func TestWebStayInTouch(t *testing.T) {
	e := newEnv(t)
	_, key := e.user("ada@example.com")
	id := e.person(key, "first_name=Grace")
	b := e.signIn(t, "ada@example.com")
	base := "/people/" + id
	b.get(base).has(t, "No reminder to get in touch.")
	pg := b.post(base+"/stay-in-touch", form("every_days", "30"))
	pg.redirects(t, base+"#stay-in-touch")
	pg = b.follow(pg)
	pg.has(t, "Every 30 days; due in 30 days", `name="every_days" value="30"`)
	pg = b.post(base+"/stay-in-touch", form("every_days", "0"))
	pg.status(t, http.StatusUnprocessableEntity)
	pg.has(t, `id="stay-in-touch-every_days-err">“Get in touch every (days)” takes a number from 1 to 3650.</p>`, `<details open><summary>Change`)
	pg = b.post(base+"/stay-in-touch", form("every_days", "x"))
	pg.status(t, http.StatusUnprocessableEntity)
	pg = b.post(base+"/stay-in-touch", form("every_days", ""))
	pg.redirects(t, base+"#stay-in-touch")
	b.follow(pg).has(t, "No reminder to get in touch.")
}

func TestWebTaskToggle(t *testing.T) {
	e := newEnv(t)
	_, key := e.user("ada@example.com")
	id := e.person(key, "first_name=Grace")
	task := e.task(key, id, "name=Call&due_at=2026-03-10")
	b := e.signIn(t, "ada@example.com")
	base := "/people/" + id
	toggle := base + "/tasks/" + task + "/toggle"
	pg := b.get(base)
	pg.has(t, `action="`+toggle+`"`, "Mark done")
	pg = b.post(toggle, nil)
	pg.redirects(t, base+"#tasks")
	pg = b.follow(pg)
	pg.has(t, "“Call” is done.", `<span class="done">Call</span>`, "Mark to do", "done Sun 15 Mar 2026")
	b.get("/").has(t, "Nothing due in the next 14 days.")
	pg = b.post(toggle, nil)
	pg.redirects(t, base+"#tasks")
	pg = b.follow(pg)
	pg.has(t, "“Call” is to do again.", "Mark done")
	pg.lacks(t, `class="done"`)

	// From the dashboard, back to the dashboard.
	pg = b.get("/")
	pg.has(t, `action="/tasks/`+task+`/toggle"`, "overdue since Tue 10 Mar 2026")
	pg = b.post("/tasks/"+task+"/toggle", nil)
	pg.redirects(t, "/")
	b.follow(pg).has(t, "“Call” is done.", "Nothing due in the next 14 days.")
	b.post("/tasks/999999/toggle", nil).status(t, http.StatusNotFound)
	b.post("/tasks/abc/toggle", nil).status(t, http.StatusNotFound)
}

func TestWebDashboard(t *testing.T) {
	e := newEnv(t)
	_, key := e.user("ada@example.com")
	e.birthday(key, "Grace", 1990, 3, 18, true)
	alan := e.person(key, "first_name=Alan")
	e.importantDate(key, alan, "label=Wedding&date=2010-03-20&remind_yearly=1")
	e.task(key, alan, "name=Return+the+book&due_at=2026-03-10")
	e.task(key, alan, "name=Send+the+card&due_at=2026-03-17")
	e.task(key, alan, "name=Far+away&due_at=2026-06-01")
	ada := e.person(key, "first_name=Ada")
	b := e.signIn(t, "ada@example.com")
	b.post("/people/"+ada+"/stay-in-touch", form("every_days", "7")).redirects(t, "/people/"+ada+"#stay-in-touch")
	pg := b.get("/")
	pg.status(t, http.StatusOK)
	pg.has(t, "Sun 15 Mar 2026", "Wed 18 Mar 2026", "in 3 days", "Grace", "Fri 20 Mar 2026", "Wedding",
		"Return the book", "overdue since Tue 10 Mar 2026", "Send the card", "in 2 days", "Nobody is due for a call.")
	// Due in 7 days is not due yet: the list holds who is due today or overdue.
	pg.lacks(t, "Far away", `<a href="/people/`+ada+`">Ada</a>`)
	b.lang = "en-US"
	pg = b.get("/")
	pg.has(t, "Sun, Mar 15, 2026", "Wed, Mar 18, 2026", "overdue since Tue, Mar 10, 2026")
	pg.lacks(t, "18 Mar 2026")
	b.lang = "fr-FR, en-US;q=0.5"
	b.get("/").has(t, "Wed 18 Mar 2026")
}

func TestWebTimezone(t *testing.T) {
	e := newEnv(t)
	_, key := e.user("ada@example.com")
	b := e.signIn(t, "ada@example.com")
	b.get("/").has(t, "Sun 15 Mar 2026")
	e.timezone(key, "Pacific/Auckland")
	pg := b.get("/")
	pg.has(t, "Mon 16 Mar 2026")
	pg.lacks(t, "15 Mar 2026")
	e.timezone(key, "America/Los_Angeles")
	b.get("/").has(t, "Sun 15 Mar 2026")
}

func TestWebEscaping(t *testing.T) {
	e := newEnv(t)
	_, key := e.user("ada@example.com")
	b := e.signIn(t, "ada@example.com")
	script := `<script>alert(1)</script>`
	pg := b.post("/people", personForm("first_name", script, "nickname", `"><img src=x>`))
	pg = b.follow(pg)
	for _, p := range []page{pg, b.get("/people"), b.get("/people?q=alert")} {
		p.has(t, "&lt;script&gt;alert(1)&lt;/script&gt;")
		p.lacks(t, script, `<img src=x>`)
	}
	grace := e.person(key, "first_name=Grace")
	e.task(key, grace, "name="+url.QueryEscape(script)+"&due_at=2026-03-16")
	pg = b.get("/")
	pg.has(t, "&lt;script&gt;alert(1)&lt;/script&gt;")
	pg.lacks(t, script)
}

// TestWebGarbage posts what no form sends to every route: never a 5xx,
// and a 4xx from every route that reads the form.
func TestWebGarbage(t *testing.T) {
	e := newEnv(t)
	_, key := e.user("ada@example.com")
	rows := e.webRows(t, key)
	person, items := rows.person, rows.items
	b := e.signIn(t, "ada@example.com")
	fields := []string{"first_name", "middle_name", "last_name", "nickname", "maiden_name", "prefix", "suffix", "gender_id",
		"marital_status", "kids_status", "how_we_met", "age_type", "age_year", "age_month", "age_day", "estimated_age", "age_bracket",
		"add_yearly_reminder", "every_days", "kind", "value", "label", "network", "street", "city", "postal_code", "region", "country",
		"date", "remind_yearly", "name", "due_at", "task_category_id", "content", "happened_on", "note", "status", "occasion", "url",
		"description", "happened_at", "comment", "should_be_reminded", "job_title", "company_name", "duration", "estimated_salary",
		"active", "email", "password"}
	fields = append(fields, store.AppearanceFields...)
	all := func(v func(field string) string) url.Values {
		out := url.Values{}
		for _, f := range fields {
			out.Set(f, v(f))
		}
		return out
	}
	sets := map[string]url.Values{
		"non-UTF-8": all(func(string) string { return "a\xff\xfe\xc0" }),
		"huge": all(func(f string) string {
			if f == "content" {
				return strings.Repeat("y", 20001)
			}
			return strings.Repeat("x", 300)
		}),
		"wrong types": func() url.Values {
			v := all(func(string) string { return "x" })
			for _, f := range store.AppearanceFields {
				v.Set(f, strings.Repeat("z", 256))
			}
			v.Set("content", "")
			return v
		}(),
		"NUL and controls": all(func(string) string { return "a\x00b\x1b[31m" }),
		"numbers too big":  all(func(string) string { return "99999999999999999999999" }),
	}
	sets["numbers too big"].Set("content", "")
	for _, f := range store.AppearanceFields {
		sets["numbers too big"].Set(f, strings.Repeat("9", 256))
	}
	sets["wrong types"].Set("gender_id", "abc")
	sets["wrong types"].Set("age_type", "exact")
	sets["wrong types"].Set("age_year", "x")
	sets["wrong types"].Set("kind", "call")
	sets["wrong types"].Set("status", "idea")

	// Routes that read the form: a 4xx.
	reads := []string{"/login", "/people", "/people/" + person, "/people/" + person + "/age", "/people/" + person + "/appearance",
		"/people/" + person + "/stay-in-touch"}
	for kind, id := range items {
		reads = append(reads, "/people/"+person+"/"+kind, "/people/"+person+"/"+kind+"/"+id)
	}
	before := e.count(`SELECT count(*) FROM persons`)
	for name, set := range sets {
		for _, path := range reads {
			if path == "/login" {
				lb := e.browser(t)
				lb.get("/login")
				pg := lb.post(path, cloneValues(set))
				if pg.code < 400 || pg.code >= 500 {
					t.Errorf("%s: POST %s: %d", name, path, pg.code)
				}
				continue
			}
			b.get("/people/" + person)
			pg := b.post(path, cloneValues(set))
			if pg.code < 400 || pg.code >= 500 {
				t.Errorf("%s: POST %s: %d\n%.300s", name, path, pg.code, pg.body)
			}
		}
	}
	if after := e.count(`SELECT count(*) FROM persons`); after != before {
		t.Errorf("%d persons, then %d", before, after)
	}
	// A body that does not parse, a multipart one, a bad csrf.
	for _, path := range reads[1:] {
		b.get("/people/" + person)
		r := httpRequest(http.MethodPost, path)
		r.Body = http.NoBody
		r.Header.Set("Content-Type", "multipart/form-data; boundary=nope")
		if pg := b.send(r); pg.code < 400 || pg.code >= 500 {
			t.Errorf("broken multipart to %s: %d", path, pg.code)
		}
		f := cloneValues(sets["non-UTF-8"])
		f.Set("csrf", "\xff")
		if pg := b.post(path, f); pg.code != http.StatusForbidden {
			t.Errorf("non-UTF-8 csrf to %s: %d", path, pg.code)
		}
	}
	r := httpRequest(http.MethodPost, "/people")
	r.Body = http.NoBody
	r.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	r.URL.RawQuery = "%zz"
	if pg := b.send(r); pg.code >= 500 {
		t.Errorf("a query that does not parse: %d", pg.code)
	}
	// Routes whose form is only the token: garbage beside it is no 5xx.
	others := []string{"/tasks/" + items["tasks"] + "/toggle", "/people/" + person + "/tasks/" + items["tasks"] + "/toggle",
		"/verification"}
	for kind, id := range items {
		others = append(others, "/people/"+person+"/"+kind+"/"+id+"/delete")
	}
	others = append(others, "/people/"+person+"/delete", "/logout")
	for _, path := range others {
		for name, set := range sets {
			b.get("/")
			if pg := b.post(path, cloneValues(set)); pg.code >= 500 {
				t.Errorf("%s: POST %s: %d", name, path, pg.code)
			}
		}
	}
}

// TestWebFormAddressOpened opens the address of a form that showed its
// errors, as a person does from the address bar: the page the form is on,
// not a 405.
func TestWebFormAddressOpened(t *testing.T) {
	e := newEnv(t)
	_, key := e.user("ada@example.com")
	person := e.person(key, "first_name=Grace")
	b := e.signIn(t, "ada@example.com")
	for path, want := range map[string]string{
		"/people/" + person + "/notes":          "/people/" + person,
		"/people/" + person + "/age":            "/people/" + person,
		"/people/" + person + "/tasks/1/toggle": "/people/" + person,
		"/settings/keys":                        "/settings/security",
		"/journals/1/entries":                   "/journals/1",
		"/logout":                               "/",
	} {
		pg := b.get(path)
		if pg.code != http.StatusSeeOther || pg.header.Get("Location") != want {
			t.Errorf("GET %s: %d to %q, want 303 to %s", path, pg.code, pg.header.Get("Location"), want)
		}
	}
	if pg := b.post("/people", nil); pg.code == http.StatusSeeOther {
		t.Errorf("a POST was redirected too")
	}
}

// capitalized is s with its first letter in upper case, as a flash
// begins.
func capitalized(s string) string { return strings.ToUpper(s[:1]) + s[1:] }
