package server

import (
	"net/url"
	"testing"
)

// TestWebDuplicatesAndMerge: the People page leads to the possible
// duplicates; a pair's Merge asks first (data-confirm) and, sent, keeps
// the first person with the second's records, and the second is gone.
func TestWebDuplicatesAndMerge(t *testing.T) {
	e := newEnv(t)
	_, key := e.user("ada@example.com")
	pam := e.person(key, "first_name=Pam&last_name=Beesly")
	twin := e.person(key, "first_name=pam&last_name=BEESLY")
	e.note(key, twin, "Paints watercolours")
	e.person(key, "first_name=Jim")
	b := e.signIn(t, "ada@example.com")

	b.get("/people").has(t, `href="/people/duplicates"`, "Possible duplicates")
	pg := b.get("/people/duplicates")
	if pg.code != 200 {
		t.Fatalf("duplicates page: %d %s", pg.code, pg.body)
	}
	pg.has(t, "<h1>Possible duplicates</h1>", "Pam Beesly", "pam BEESLY", "same name",
		`action="/people/`+pam+`/merge"`, `name="person_id" value="`+twin+`"`, `data-confirm="Merge pam BEESLY into Pam Beesly?`)
	pg.lacks(t, "Jim")

	done := b.post("/people/"+pam+"/merge", url.Values{"person_id": {twin}})
	if done.code != 303 || done.header.Get("Location") != "/people/"+pam {
		t.Fatalf("merge: %d %s %s", done.code, done.header.Get("Location"), done.body)
	}
	b.follow(done).has(t, "Merged into Pam Beesly.", "Paints watercolours")
	if r := e.do(req{method: "GET", path: "/api/persons/" + twin, key: key}); r.code != 404 {
		t.Errorf("the merged-away person: %d", r.code)
	}
	b.get("/people/duplicates").has(t, "No possible duplicates")

	// Refusals are pages, and change nothing.
	if pg := b.post("/people/"+pam+"/merge", url.Values{"person_id": {pam}}); pg.code != 422 {
		t.Errorf("merging a person into itself: %d", pg.code)
	}
	if pg := b.post("/people/"+pam+"/merge", url.Values{"person_id": {"999"}}); pg.code != 422 {
		t.Errorf("merging an unknown person: %d", pg.code)
	}
	if pg := b.post("/people/"+pam+"/merge", url.Values{"person_id": {e.person(key, "first_name=Boss&can_be_deleted=0")}}); pg.code != 403 {
		t.Errorf("merging a protected person: %d", pg.code)
	}
	if pg := b.post("/people/"+pam+"/merge", url.Values{"person_id": {twin}, "csrf": {"forged"}}); pg.code != 403 {
		t.Errorf("a forged merge: %d", pg.code)
	}
}
