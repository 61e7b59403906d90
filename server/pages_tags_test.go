package server

import (
	"context"
	"fmt"
	"net/http"
	"reflect"
	"regexp"
	"strings"
	"testing"

	"kith/store"
)

// apiTags are the person's tags as the API answers them.
func apiTags(t *testing.T, e *env, key, person string) []string {
	t.Helper()
	data := e.do(req{method: "GET", path: "/api/persons/" + person, key: key}).json(t)["data"].(map[string]any)
	out := []string{}
	for _, tag := range data["tags"].([]any) {
		out = append(out, tag.(string))
	}
	return out
}

func wantTags(t *testing.T, e *env, key, person string, want ...string) {
	t.Helper()
	if want == nil {
		want = []string{}
	}
	if got := apiTags(t, e, key, person); !reflect.DeepEqual(got, want) {
		t.Errorf("tags %q, want %q", got, want)
	}
}

// TestWebPersonTags: the person page's Tags form replaces the tags by the
// API's rules, from names separated by commas, and shows each as a chip
// that opens the people list filtered by it.
func TestWebPersonTags(t *testing.T) {
	e := newEnv(t)
	_, key := e.user("ada@example.com")
	_, bobKey := e.user("bob@example.com")
	grace := e.person(key, "first_name=Grace&last_name=Hopper")
	bobs := e.person(bobKey, "first_name=Robert")
	base := "/people/" + grace
	b := e.signIn(t, "ada@example.com")

	pg := b.get(base)
	pg.status(t, http.StatusOK)
	pg.has(t, `<div class="head-links" id="tags">`, "<summary>Add tags</summary>", `action="`+base+`/tags"`, `<label for="tags-tags">Tags</label>`,
		`<input type="text" id="tags-tags" name="tags" value=""`, "A comma separates tags", "Save tags")

	// Names trimmed, empty ones skipped, one name once ignoring case,
	// spelled as first typed.
	pg = b.post(base+"/tags", form("tags", " Work, Book club,, work ,"))
	pg.redirects(t, base+"#tags")
	pg = b.follow(pg)
	pg.has(t, "Tags saved.", `<a class="chip" href="/people?tag=Book%20club">Book club</a>`,
		`<a class="chip" href="/people?tag=Work">Work</a>`, `id="tags-tags" name="tags" value="Book club, Work"`)
	pg.lacks(t, "<summary>Add tags</summary>")
	wantTags(t, e, key, grace, "Book club", "Work")

	// Refused by the API's rules, worded by the name refused beside the field, the
	// text kept, the tags unchanged.
	long := strings.Repeat("x", 51)
	pg = b.post(base+"/tags", form("tags", "Chess, "+long))
	pg.status(t, http.StatusUnprocessableEntity)
	pg.has(t, `<details class="quiet-menu" open><summary>Change tags</summary>`, `aria-invalid="true"`,
		`<p class="error" id="tags-tags-err">“`+long+`” is too long: a tag takes at most 50 characters.</p>`, `value="Chess, `+long+`"`)
	pg = b.post(base+"/tags", form("tags", strings.Repeat("a,b,", 51)))
	pg.status(t, http.StatusUnprocessableEntity)
	pg.has(t, `id="tags-tags-err">A person may have at most 100 tags.</p>`)
	pg = b.post(base+"/tags", form("tags", "Chess, Bad\x01Tag"))
	pg.status(t, http.StatusUnprocessableEntity)
	pg.has(t, `id="tags-tags-err">“Bad`+"\x01"+`Tag” holds a character a tag cannot have.</p>`)
	wantTags(t, e, key, grace, "Book club", "Work")

	// A tag whose name holds a comma (the API's, or a card's) is kept
	// whole when the form is saved as it was filled.
	e.do(req{method: "PUT", path: "/api/persons/" + grace + "/tags?tags[]=Smith,%20Jones%20%26%20Co&tags[]=Work", key: key})
	pg = b.get(base)
	pg.has(t, `value="Smith, Jones &amp; Co, Work"`)
	b.post(base+"/tags", form("tags", "Smith, Jones & Co, Work")).redirects(t, base+"#tags")
	wantTags(t, e, key, grace, "Smith, Jones & Co", "Work")
	b.post(base+"/tags", form("tags", "work,smith, jones & co ,Chess")).redirects(t, base+"#tags")
	wantTags(t, e, key, grace, "Chess", "Smith, Jones & Co", "Work")
	b.post(base+"/tags", form("tags", "Smith, Jones")).redirects(t, base+"#tags")
	wantTags(t, e, key, grace, "Jones", "Smith")

	// Empty: no tags.
	b.post(base+"/tags", form("tags", " ")).redirects(t, base+"#tags")
	wantTags(t, e, key, grace)
	b.get(base).has(t, "<summary>Add tags</summary>")

	// Not without the form's token; not on another account's person.
	b.post(base+"/tags", form("tags", "Forged", "csrf", "forged")).status(t, http.StatusForbidden)
	wantTags(t, e, key, grace)
	b.get(base)
	b.post("/people/"+bobs+"/tags", form("tags", "Mine")).status(t, http.StatusNotFound)
	wantTags(t, e, bobKey, bobs)
	b.post("/people/999999/tags", form("tags", "Mine")).status(t, http.StatusNotFound)
}

// TestWebPeopleTagFilter: /people?tag= lists only the people who have the
// tag (ignoring case), says so, and leads back to everyone; a chip on a
// person's page leads there.
func TestWebPeopleTagFilter(t *testing.T) {
	e := newEnv(t)
	_, key := e.user("ada@example.com")
	_, bobKey := e.user("bob@example.com")
	ada := e.person(key, "first_name=Ada&last_name=Young")
	bill := e.person(key, "first_name=Bill&last_name=Stone")
	e.person(key, "first_name=Carl")
	e.do(req{method: "PUT", path: "/api/persons/" + ada + "/tags?tags[]=Work", key: key})
	e.do(req{method: "PUT", path: "/api/persons/" + bill + "/tags?tags[]=Work&tags[]=Chess", key: key})
	e.do(req{method: "PUT", path: "/api/persons/" + e.person(bobKey, "first_name=Bobby") + "/tags?tags[]=Work", key: bobKey})
	b := e.signIn(t, "ada@example.com")

	// The chip on Ada's page opens the list of those with the tag.
	chip := idIn(t, b.get("/people/"+ada), `<a class="chip" href="([^"]+)">Work</a>`)
	pg := b.get(chip)
	pg.status(t, http.StatusOK)
	pg.has(t, `<a href="/people/`+ada+`">Ada Young</a>`, `<a href="/people/`+bill+`">Bill Stone</a>`,
		`Tagged <span class="chip">Work</span> <a href="/people">Show everyone</a>`, `<input type="hidden" name="tag" value="Work">`)
	pg.lacks(t, "Carl", "Bobby")

	pg = b.get("/people?tag=chess")
	pg.has(t, "Bill Stone")
	pg.lacks(t, "Ada Young", "Carl")
	// With a search, both; the way back keeps the search.
	pg = b.get("/people?tag=work&q=stone")
	pg.has(t, "Bill Stone", `<a href="/people?q=stone">Show everyone</a>`)
	pg.lacks(t, "Ada Young")
	pg = b.get("/people?tag=Nothing")
	pg.status(t, http.StatusOK)
	pg.has(t, "Nobody is tagged “Nothing”.")
	pg.lacks(t, "Ada Young", "Bill Stone", "Carl")
	b.get("/people?tag=Work&q=zzz").has(t, "Nobody who matches “zzz” is tagged “Work”.")
	// Without a tag, everyone, and no filter shown.
	pg = b.get("/people?tag=+")
	pg.has(t, "Ada Young", "Bill Stone", "Carl")
	pg.lacks(t, "Tagged", `type="hidden" name="tag"`)
	b.get("/people?tag=%FF").status(t, http.StatusUnprocessableEntity)

	// The pages of a filtered list keep the filter: 55 of 60 people.
	u, _ := e.user("many@example.com")
	ctx := context.Background()
	for i := range 60 {
		p, err := e.st.CreatePerson(ctx, u.AccountID, store.PersonInput{FirstName: fmt.Sprintf("P%02d", i),
			MaritalStatus: "unknown", KidsStatus: "unknown", CanBeDeleted: true, IsListed: true})
		if err != nil {
			t.Fatal(err)
		}
		if i%12 == 0 {
			continue
		}
		if _, err := e.st.SetPersonTags(ctx, u.AccountID, p.ID, []string{"Club"}); err != nil {
			t.Fatal(err)
		}
	}
	many := e.signIn(t, "many@example.com")
	rows := regexp.MustCompile(`<li class="person">`)
	pg = many.get("/people?tag=club")
	if n := len(rows.FindAllString(pg.body, -1)); n != 50 {
		t.Errorf("page 1 of the club lists %d", n)
	}
	pg.has(t, `href="/people?page=2&amp;tag=club" rel="next"`, "1–50 of 55")
	pg.lacks(t, ">P00<", ">P12<")
	pg = many.get("/people?page=2&tag=club")
	if n := len(rows.FindAllString(pg.body, -1)); n != 5 {
		t.Errorf("page 2 of the club lists %d", n)
	}
	pg.has(t, `href="/people?page=1&amp;tag=club" rel="prev"`, "51–55 of 55")
	pg.lacks(t, `rel="next"`)
}

// TestWebPeopleFaces: each row of the people list, and the head of a
// person's page, shows the person's initials.
func TestWebPeopleFaces(t *testing.T) {
	e := newEnv(t)
	_, key := e.user("ada@example.com")
	for _, p := range []struct{ query, initials string }{
		{"first_name=Ada&last_name=Young", "AY"},
		{"first_name=grace", "G"},
		{"first_name=%C3%A9mile&last_name=zola", "ÉZ"},
		{"first_name=(Bob)&last_name=%27t+Hooft", "BT"},
		{"first_name=%F0%9F%99%82", "🙂"},
	} {
		id := e.person(key, p.query)
		b := e.signIn(t, "ada@example.com")
		b.get("/people/"+id).has(t, `<div class="who"><span class="face" aria-hidden="true">`+p.initials+`</span><div><h1>`)
		row := regexp.MustCompile(`<li class="person"><span class="face" aria-hidden="true">([^<]*)</span><span class="name-lines"><a href="/people/` + id + `">`)
		if m := row.FindStringSubmatch(b.get("/people").body); m == nil || m[1] != p.initials {
			t.Errorf("%s: row %q, want the initials %q", p.query, m, p.initials)
		}
	}
}
