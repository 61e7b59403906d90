package server

import (
	"context"
	"fmt"
	"net/http"
	"regexp"
	"testing"

	"kith/store"
)

// typeID is the id of the account's relationship type of the name.
func typeID(t *testing.T, e *env, key, name string) string {
	t.Helper()
	for _, v := range e.do(req{method: "GET", path: "/api/administration/relationship-types", key: key}).json(t)["data"].([]any) {
		if tp := v.(map[string]any); tp["name"] == name {
			return fmt.Sprint(tp["id"])
		}
	}
	t.Fatalf("no relationship type %q", name)
	return ""
}

// apiRelationships are the person's relationships as the API lists them:
// "type:person id" each.
func apiRelationships(t *testing.T, e *env, key, person string) []string {
	t.Helper()
	out := []string{}
	for _, v := range e.do(req{method: "GET", path: "/api/persons/" + person + "/relationships", key: key}).json(t)["data"].([]any) {
		r := v.(map[string]any)
		out = append(out, fmt.Sprint(r["type"].(map[string]any)["name"], ":", r["person"].(map[string]any)["id"]))
	}
	return out
}

// TestWebRelationships: a person's page lists their relationships, each
// the other person's name as a link with what they are to this one; the
// form adds one by the API's rules (a select of the account's people and
// one of its types), and each has a remove button that asks first.
func TestWebRelationships(t *testing.T) {
	e := newEnv(t)
	_, key := e.user("ada@example.com")
	_, bobKey := e.user("bob@example.com")
	grace := e.person(key, "first_name=Grace&last_name=Hopper")
	jim := e.person(key, "first_name=Jim&last_name=Halpert&nickname=Big+Tuna")
	pam := e.person(key, "first_name=Pam")
	bobs := e.person(bobKey, "first_name=Robert")
	parent, friend := typeID(t, e, key, "parent"), typeID(t, e, key, "friend")
	bobsType := typeID(t, e, bobKey, "parent")
	base := "/people/" + grace
	b := e.signIn(t, "ada@example.com")

	pg := b.get(base)
	pg.status(t, http.StatusOK)
	pg.has(t, `<div class="head-links" id="relationships">`, `<summary>Add a relationship</summary>`, `action="`+base+`/relationships"`,
		`<label for="relationships-person_id">Person</label>`, `<option value="`+jim+`">Jim Halpert “Big Tuna”</option>`,
		`<option value="`+pam+`">Pam</option>`, `<label for="relationships-relationship_type_id">Relationship</label>`,
		`<option value="`+parent+`">parent</option>`, `<option value="`+typeID(t, e, key, "uncle or aunt")+`">uncle or aunt</option>`,
		"What they are to Grace Hopper.", "Add relationship")
	people := idIn(t, pg, `(?s)(<select id="relationships-person_id".*?</select>)`)
	if regexp.MustCompile(`<option value="` + grace + `"`).MatchString(people) {
		t.Errorf("Grace may be chosen as her own relation: %s", people)
	}
	pg.lacks(t, "Robert")

	// Jim is Grace's parent: so Grace is Jim's child.
	pg = b.post(base+"/relationships", form("person_id", jim, "relationship_type_id", parent))
	pg.redirects(t, base+"#relationships")
	pg = b.follow(pg)
	pg.has(t, "Relationship added.", `<a href="/people/`+jim+`">Jim Halpert</a> <span class="muted">(parent)</span>`, `<summary>Change relationships</summary>`)
	rel := idIn(t, pg, `action="`+base+`/relationships/(\d+)/delete" data-confirm="Remove Jim Halpert as Grace Hopper&#39;s parent\?"`)
	pg = b.get("/people/" + jim)
	pg.has(t, `<a href="/people/`+grace+`">Grace Hopper</a> <span class="muted">(child)</span>`,
		`action="/people/`+jim+`/relationships/`+rel+`/delete"`)
	if got := apiRelationships(t, e, key, grace); fmt.Sprint(got) != "[parent:"+jim+"]" {
		t.Errorf("Grace's relationships: %v", got)
	}

	// Refusals: the API's refusals in the page's words beside the fields, the choices kept, the
	// form open, nothing made.
	for _, c := range []struct {
		name               string
		person, kind       string
		personErr, typeErr string
	}{
		{"nothing chosen", "", "", "Fill in “Person”.", "Fill in “Relationship”."},
		{"twice", jim, parent, "The relationship already exists.", ""},
		{"the other way round", jim, parent, "The relationship already exists.", ""},
		{"themself", grace, friend, "Choose someone else: a person is not their own relation.", ""},
		{"another account's person", bobs, friend, "Choose one of the choices of “Person”.", ""},
		{"another account's type", pam, bobsType, "", "Choose one of the choices of “Relationship”."},
		{"not numbers", "x", "y", "“Person” takes a whole number.", "“Relationship” takes a whole number."},
	} {
		path := base
		if c.name == "the other way round" { // Grace as Jim's parent: the same two, the same type
			path, c.person = "/people/"+jim, grace
		}
		pg := b.post(path+"/relationships", form("person_id", c.person, "relationship_type_id", c.kind))
		if pg.code != http.StatusUnprocessableEntity {
			t.Errorf("%s: %d", c.name, pg.code)
			continue
		}
		pg.has(t, `<details class="quiet-menu" open><summary>Change relationships</summary>`)
		for field, msg := range map[string]string{"person_id": c.personErr, "relationship_type_id": c.typeErr} {
			if msg != "" {
				pg.has(t, `<p class="error" id="relationships-`+field+`-err">`+msg+`</p>`)
			} else {
				pg.lacks(t, `id="relationships-`+field+`-err"`)
			}
		}
	}
	if got := apiRelationships(t, e, key, grace); fmt.Sprint(got) != "[parent:"+jim+"]" {
		t.Errorf("after the refusals, Grace's relationships: %v", got)
	}
	// The choice made is kept.
	b.post(base+"/relationships", form("person_id", pam, "relationship_type_id", "")).
		has(t, `<option value="`+pam+`" selected>Pam</option>`)

	// Removed from the other side; a relationship that is not the
	// person's is not found; no token, no removal.
	b.post("/people/"+pam+"/relationships/"+rel+"/delete", nil).status(t, http.StatusNotFound)
	b.get(base)
	b.post("/people/"+jim+"/relationships/"+rel+"/delete", form("csrf", "forged")).status(t, http.StatusForbidden)
	b.get(base)
	pg = b.post("/people/"+jim+"/relationships/"+rel+"/delete", nil)
	pg.redirects(t, "/people/"+jim+"#relationships")
	b.follow(pg).has(t, "Relationship removed.")
	if got := apiRelationships(t, e, key, grace); len(got) != 0 {
		t.Errorf("after removal: %v", got)
	}
	b.get(base).has(t, "<summary>Add a relationship</summary>")
	b.post("/people/"+jim+"/relationships/"+rel+"/delete", nil).status(t, http.StatusNotFound)
	b.post("/people/"+jim+"/relationships/abc/delete", nil).status(t, http.StatusNotFound)

	// Not on another account's person, nor with them.
	b.get(base)
	b.post("/people/"+bobs+"/relationships", form("person_id", grace, "relationship_type_id", parent)).status(t, http.StatusNotFound)
	b.post(base+"/relationships", form("person_id", jim, "relationship_type_id", parent, "csrf", "forged")).status(t, http.StatusForbidden)
	if got := apiRelationships(t, e, key, grace); len(got) != 0 {
		t.Errorf("after refusals: %v", got)
	}
}

// TestWebRelationshipByName: past 200 people, the form takes the other
// person's name: the one person of that name (ignoring case) is chosen; a
// name of several, or of none exactly, offers those it matches.
func TestWebRelationshipByName(t *testing.T) {
	e := newEnv(t)
	u, key := e.user("ada@example.com")
	ctx := context.Background()
	for i := range 200 {
		last := fmt.Sprintf("Crowd%03d", i)
		if _, err := e.st.CreatePerson(ctx, u.AccountID, store.PersonInput{FirstName: "Extra", LastName: &last,
			MaritalStatus: "unknown", KidsStatus: "unknown", CanBeDeleted: true, IsListed: true}); err != nil {
			t.Fatal(err)
		}
	}
	grace := e.person(key, "first_name=Grace&last_name=Hopper")
	jim := e.person(key, "first_name=Jim&last_name=Halpert")
	pamton := e.person(key, "first_name=Pam&last_name=Beeslyton")
	pam1 := e.person(key, "first_name=Pam&last_name=Beesly&nickname=Pammy")
	pam2 := e.person(key, "first_name=Pam&last_name=Beesly")
	pamela := e.person(key, "first_name=Pamela&last_name=Beesly")
	friend := typeID(t, e, key, "friend")
	base := "/people/" + grace
	b := e.signIn(t, "ada@example.com")

	pg := b.get(base)
	pg.has(t, `<label for="relationships-person">Person</label>`, `<input type="text" id="relationships-person" name="person" value=""`,
		"Their name, as their page shows it.")
	pg.lacks(t, `id="relationships-person_id"`, "Crowd000")

	pg = b.post(base+"/relationships", form("person", "  jim HALPERT ", "relationship_type_id", friend))
	pg.redirects(t, base+"#relationships")
	b.follow(pg).has(t, `<a href="/people/`+jim+`">Jim Halpert</a>`)

	// Errors of the person that the name named go beside the name.
	for name, msg := range map[string]string{
		"":             "Fill in “Person”.",
		"Grace Hopper": "Choose someone else: a person is not their own relation.",
		"Jim Halpert":  "The relationship already exists.",
		"Nobody Here":  "Nobody matches “Nobody Here”.",
	} {
		pg := b.post(base+"/relationships", form("person", name, "relationship_type_id", friend))
		pg.status(t, http.StatusUnprocessableEntity)
		pg.has(t, `<p class="error" id="relationships-person-err">`+msg+`</p>`, `name="person" value="`+name+`"`)
		pg.lacks(t, "Type another name")
	}

	// Two of one name: those to choose from, the name's own first; a
	// choice made, the relationship.
	pg = b.post(base+"/relationships", form("person", "pam beesly", "relationship_type_id", friend))
	pg.status(t, http.StatusUnprocessableEntity)
	pg.has(t, `<select id="relationships-person_id" name="person_id"`,
		`id="relationships-person_id-err">“pam beesly” is not the name of one person: choose who you mean.</p>`,
		`<option value="`+friend+`" selected>friend</option>`, `href="`+base+`#relationships">Type another name</a>`)
	opts := regexp.MustCompile(`<option value="(\d*)"`).FindAllStringSubmatch(idIn(t, pg, `(?s)(<select id="relationships-person_id".*?</select>)`), -1)
	if len(opts) != 4 || opts[0][1] != "" || opts[1][1] != pam1 || opts[2][1] != pam2 || opts[3][1] != pamton {
		t.Errorf("choices %q, want nobody, %s, %s, %s", opts, pam1, pam2, pamton)
	}
	pg.has(t, `<option value="`+pam1+`">Pam Beesly “Pammy”</option>`)
	pg = b.post(base+"/relationships", form("person_id", pam2, "relationship_type_id", friend))
	pg.redirects(t, base+"#relationships")
	if got := apiRelationships(t, e, key, grace); fmt.Sprint(got) != "[friend:"+jim+" friend:"+pam2+"]" {
		t.Errorf("Grace's relationships: %v", got)
	}
	// A name that is part of one person's only is chosen too, once
	// confirmed: "pamela" alone is no one's whole name.
	pg = b.post(base+"/relationships", form("person", "pamela", "relationship_type_id", friend))
	pg.status(t, http.StatusUnprocessableEntity)
	pg.has(t, `<option value="`+pamela+`">Pamela Beesly</option>`)
	pg.lacks(t, `<option value="`+pam1+`">`)

	// Of a hundred matches, ten are offered.
	pg = b.post(base+"/relationships", form("person", "extra", "relationship_type_id", friend))
	if n := len(regexp.MustCompile(`<option value="\d+">Extra Crowd`).FindAllString(pg.body, -1)); n != 10 {
		t.Errorf("%d of the crowd offered, want 10", n)
	}
}
