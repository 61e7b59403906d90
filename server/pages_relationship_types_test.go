package server

import (
	"net/http"
	"testing"
)

// apiType is a relationship type as the API answers it: name, reverse
// name and group, or the status when it is not there.
func apiType(t *testing.T, e *env, key, id string) string {
	t.Helper()
	r := e.do(req{method: "GET", path: "/api/administration/relationship-types/" + id, key: key})
	if r.code != http.StatusOK {
		return http.StatusText(r.code)
	}
	d := r.json(t)["data"].(map[string]any)
	return d["name"].(string) + "/" + d["name_reverse"].(string) + "/" + d["group"].(string)
}

// TestWebRelationshipTypes: the settings list the account's relationship
// types, and add, rename and delete them by the API's rules; a type in use
// is not deleted, and the API's message says so beside it.
func TestWebRelationshipTypes(t *testing.T) {
	e := newEnv(t)
	_, key := e.user("ada@example.com")
	_, bobKey := e.user("bob@example.com")
	bobs := typeID(t, e, bobKey, "friend")
	b := e.signIn(t, "ada@example.com")

	pg := b.get("/settings/lists")
	pg.status(t, http.StatusOK)
	uncle := typeID(t, e, key, "uncle or aunt")
	pg.has(t, `<h2 id="relationship-types-h">Relationship types</h2>`, "<strong>uncle or aunt / nephew or niece</strong>",
		"<strong>partner</strong>", `href="/settings/relationship-types/`+uncle+`/edit"`,
		`action="/settings/relationship-types/`+uncle+`/delete" data-confirm="Delete the relationship type uncle or aunt?"`,
		`<label for="relationship-type-name">Name`, `<label for="relationship-type-name_reverse">Reverse name</label>`,
		`<option value="other" selected>Other</option>`, "Add relationship type")
	pg.lacks(t, "partner / partner")

	// Refused by the API's rules, the values kept.
	pg = b.post("/settings/relationship-types", form("name", " ", "name_reverse", "godchild", "group", "clan"))
	pg.status(t, http.StatusUnprocessableEntity)
	pg.has(t, `<details open><summary>Add a relationship type</summary>`,
		`id="relationship-type-name-err">The name field is required.</p>`, `id="relationship-type-group-err">The selected group is invalid.</p>`,
		`value="godchild"`)

	pg = b.post("/settings/relationship-types", form("name", "godparent", "name_reverse", "godchild", "group", "family"))
	pg.redirects(t, "/settings/lists#relationship-types")
	pg = b.follow(pg)
	pg.has(t, "Relationship type added.", "<strong>godparent / godchild</strong>")
	god := typeID(t, e, key, "godparent")
	if got := apiType(t, e, key, god); got != "godparent/godchild/family" {
		t.Errorf("made %s", got)
	}

	// Edited: an empty reverse name is the name, as in the API.
	pg = b.get("/settings/relationship-types/" + god + "/edit")
	pg.status(t, http.StatusOK)
	pg.has(t, `action="/settings/relationship-types/`+god+`"`, `value="godparent"`, `value="godchild"`, `<option value="family" selected>`)
	pg = b.post("/settings/relationship-types/"+god, form("name", "", "name_reverse", "x", "group", "family"))
	pg.status(t, http.StatusUnprocessableEntity)
	pg.has(t, `id="relationship-type-edit-name-err">The name field is required.</p>`, `value="x"`)
	b.post("/settings/relationship-types/"+god, form("name", "sponsor", "name_reverse", "", "group", "friend")).
		redirects(t, "/settings/lists#relationship-types")
	if got := apiType(t, e, key, god); got != "sponsor/sponsor/friend" {
		t.Errorf("saved %s", got)
	}

	// In use: kept, with the API's message beside it; once unused, gone.
	grace, jim := e.person(key, "first_name=Grace"), e.person(key, "first_name=Jim")
	rel := jsonID(t, e.do(req{method: "POST", path: "/api/persons/" + grace + "/relationships?relationship_type_id=" + god + "&person_id=" + jim, key: key}))
	b.get("/settings/lists")
	pg = b.post("/settings/relationship-types/"+god+"/delete", nil)
	pg.status(t, http.StatusUnprocessableEntity)
	pg.has(t, "<strong>sponsor</strong>", `<p class="error" role="alert">The relationship type is in use.</p>`)
	if got := apiType(t, e, key, god); got != "sponsor/sponsor/friend" {
		t.Errorf("in use, deleted: %s", got)
	}
	e.do(req{method: "DELETE", path: "/api/persons/" + grace + "/relationships/" + rel, key: key})
	pg = b.post("/settings/relationship-types/"+god+"/delete", nil)
	pg.redirects(t, "/settings/lists#relationship-types")
	b.follow(pg).has(t, "Relationship type “sponsor” deleted.")
	if got := apiType(t, e, key, god); got != "Not Found" {
		t.Errorf("deleted, still %s", got)
	}

	// Another account's type is not found, and stays as it was; no
	// token, no change.
	b.get("/settings/relationship-types/"+bobs+"/edit").status(t, http.StatusNotFound)
	b.post("/settings/relationship-types/"+bobs, form("name", "mine")).status(t, http.StatusNotFound)
	b.post("/settings/relationship-types/"+bobs+"/delete", nil).status(t, http.StatusNotFound)
	if got := apiType(t, e, bobKey, bobs); got != "friend/friend/friend" {
		t.Errorf("Bob's type: %s", got)
	}
	b.get("/settings/lists")
	b.post("/settings/relationship-types/"+uncle+"/delete", form("csrf", "forged")).status(t, http.StatusForbidden)
	b.post("/settings/relationship-types", form("name", "forged", "csrf", "forged")).status(t, http.StatusForbidden)
	if got := apiType(t, e, key, uncle); got != "uncle or aunt/nephew or niece/family" {
		t.Errorf("forged: %s", got)
	}
}
