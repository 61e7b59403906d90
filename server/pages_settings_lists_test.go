package server

import (
	"fmt"
	"net/http"
	"net/url"
	"regexp"
	"strings"
	"testing"
)

// idOf is the id in the first link of the page that re matches.
func idOf(t *testing.T, pg page, re string) string {
	t.Helper()
	m := regexp.MustCompile(re).FindStringSubmatch(pg.body)
	if m == nil {
		t.Fatalf("no %s in:\n%s", re, pg.body)
	}
	return m[1]
}

func TestWebSettingsChannelEdit(t *testing.T) {
	e := newEnv(t)
	_, adaKey := e.user("ada@example.com")
	_, bobKey := e.user("bob@example.com")
	id := jsonID(t, e.do(req{method: "POST", path: "/api/me/channels?kind=gotify&name=Phone&url=https://gotify.example.com&token=old-secret-token", key: adaKey}))
	bobChannel := jsonID(t, e.do(req{method: "POST", path: "/api/me/channels?kind=ntfy&url=http://127.0.0.1:9/bob", key: bobKey}))
	b := e.signIn(t, "ada@example.com")

	b.get("/settings/reminders").has(t, `href="/settings/channels/`+id+`/edit">Edit</a>`)
	pg := b.get("/settings/channels/" + id + "/edit")
	if pg.code != http.StatusOK {
		t.Fatalf("edit: %d %s", pg.code, pg.body)
	}
	pg.has(t, `action="/settings/channels/`+id+`"`, `value="Phone"`, `value="https://gotify.example.com"`, "Empty keeps the token")
	pg.lacks(t, "old-secret-token", "style=", "<script>")

	// Refused: the API's message beside the field, the token not sent back.
	pg = b.post("/settings/channels/"+id, url.Values{"name": {"Tablet"}, "url": {"not a url"}, "token": {"new-secret-token"}})
	if pg.code != http.StatusUnprocessableEntity {
		t.Fatalf("bad channel: %d %s", pg.code, pg.body)
	}
	pg.has(t, `id="channel-edit-url-err">The url field must be a valid URL.`, `value="Tablet"`)
	pg.lacks(t, "new-secret-token", "old-secret-token")
	if pg := b.post("/settings/channels/"+id, url.Values{"csrf": {"wrong"}, "name": {"Eve"}, "url": {"https://eve.example"}}); pg.code != http.StatusForbidden {
		t.Errorf("without the token: %d", pg.code)
	}

	// Saved, the empty token keeping the old one, kind and switch kept.
	pg = b.post("/settings/channels/"+id, url.Values{"name": {"Tablet"}, "url": {"https://push.example.com"}, "token": {""}})
	if pg.code != http.StatusSeeOther {
		t.Fatalf("save: %d %s", pg.code, pg.body)
	}
	b.follow(pg).has(t, "Channel saved.", "Tablet", "https://push.example.com")
	if n := e.count(`SELECT count(*) FROM channels WHERE id = ? AND name = 'Tablet' AND kind = 'gotify' AND enabled AND token = 'old-secret-token'`, id); n != 1 {
		t.Errorf("the empty token did not keep the old one")
	}
	b.get("/settings")
	pg = b.post("/settings/channels/"+id, url.Values{"name": {"Tablet"}, "url": {"https://push.example.com"}, "token": {"new-secret-token"}})
	if pg.code != http.StatusSeeOther {
		t.Fatalf("new token: %d %s", pg.code, pg.body)
	}
	if n := e.count(`SELECT count(*) FROM channels WHERE id = ? AND token = 'new-secret-token'`, id); n != 1 {
		t.Errorf("the new token was not kept")
	}

	// Bob's channel is not found, and not changed.
	b.get("/settings")
	if pg := b.get("/settings/channels/" + bobChannel + "/edit"); pg.code != http.StatusNotFound {
		t.Errorf("edit bob's: %d", pg.code)
	}
	if pg := b.post("/settings/channels/"+bobChannel, url.Values{"name": {"Mine"}, "url": {"https://ada.example"}}); pg.code != http.StatusNotFound {
		t.Errorf("save bob's: %d", pg.code)
	}
	if n := e.count(`SELECT count(*) FROM channels WHERE id = ? AND name IS NULL`, bobChannel); n != 1 {
		t.Errorf("bob's channel was changed")
	}

	// An email channel has a name only.
	var mail string
	for _, ch := range e.do(req{method: "GET", path: "/api/me/channels", key: adaKey}).json(t)["data"].([]any) {
		if ch := ch.(map[string]any); ch["kind"] == "email" {
			mail = fmt.Sprint(ch["id"])
		}
	}
	pg = b.get("/settings/channels/" + mail + "/edit")
	pg.has(t, `name="name"`)
	pg.lacks(t, `name="url"`, `name="token"`)
}

func TestWebSettingsCategories(t *testing.T) {
	e := newEnv(t)
	_, adaKey := e.user("ada@example.com")
	_, bobKey := e.user("bob@example.com")
	bobCat := jsonID(t, e.do(req{method: "POST", path: "/api/administration/task-categories?name=Bobs&color=bg-red-100", key: bobKey}))
	b := e.signIn(t, "ada@example.com")

	pg := b.get("/settings/lists")
	pg.has(t, "Task categories", "Follow up", `<span class="swatch swatch-yellow" aria-hidden="true"></span> Follow up`,
		`<span class="small muted">Yellow</span>`, `action="/settings/categories"`, `<option value="bg-blue-100" selected>Blue</option>`)
	if text := pageText(pg.body); strings.Contains(text, "bg-") {
		t.Errorf("a colour's class shows:\n%s", text)
	}
	pg.lacks(t, "Bobs")

	// Add: refused with the API's messages, then made.
	pg = b.post("/settings/categories", url.Values{"name": {"Visit"}})
	if pg.code != http.StatusUnprocessableEntity {
		t.Fatalf("bad category: %d %s", pg.code, pg.body)
	}
	pg.has(t, `id="category-color-err">The color field is required.`, `value="Visit"`, "<details open><summary>Add a category")
	pg = b.post("/settings/categories", url.Values{"name": {"Visit <b>"}, "color": {"bg-pink-100"}})
	if pg.code != http.StatusSeeOther {
		t.Fatalf("add: %d %s", pg.code, pg.body)
	}
	pg = b.follow(pg)
	pg.has(t, "Category added.", "Visit &lt;b&gt;", `<span class="swatch swatch-pink" aria-hidden="true"></span> Visit &lt;b&gt;`)
	pg.lacks(t, "Visit <b>")
	id := idOf(t, pg, `/settings/categories/(\d+)/edit">Edit</a>\s*<form[^>]*action="/settings/categories/\d+/delete"[^>]*data-confirm="Delete the category Visit &lt;b&gt;`)

	// The person page's task form offers it.
	person := e.person(adaKey, "first_name=Grace")
	b.get("/people/"+person).has(t, "Visit &lt;b&gt;</option>")

	// Edit: prefilled, refused, saved.
	pg = b.get("/settings/categories/" + id + "/edit")
	if pg.code != http.StatusOK {
		t.Fatalf("edit: %d %s", pg.code, pg.body)
	}
	pg.has(t, `value="Visit &lt;b&gt;"`, `<option value="bg-pink-100" selected>Pink</option>`, `action="/settings/categories/`+id+`"`)
	pg.lacks(t, "style=", "<script>")
	pg = b.post("/settings/categories/"+id, url.Values{"name": {""}, "color": {"bg-pink-100"}})
	if pg.code != http.StatusUnprocessableEntity {
		t.Fatalf("bad edit: %d %s", pg.code, pg.body)
	}
	pg.has(t, `id="category-edit-name-err">The name field is required.`)
	if pg := b.post("/settings/categories/"+id, url.Values{"csrf": {"wrong"}, "name": {"Eve"}, "color": {"x"}}); pg.code != http.StatusForbidden {
		t.Errorf("without the token: %d", pg.code)
	}
	pg = b.post("/settings/categories/"+id, url.Values{"name": {"Visits"}, "color": {"bg-gray-100"}})
	if pg.code != http.StatusSeeOther {
		t.Fatalf("save: %d %s", pg.code, pg.body)
	}
	b.follow(pg).has(t, "Category saved.", "Visits", `<span class="small muted">Gray</span>`)
	if n := e.count(`SELECT count(*) FROM task_categories WHERE id = ? AND name = 'Visits' AND color = 'bg-gray-100'`, id); n != 1 {
		t.Errorf("not saved")
	}

	// Bob's category is not found, neither changed nor deleted.
	if pg := b.get("/settings/categories/" + bobCat + "/edit"); pg.code != http.StatusNotFound {
		t.Errorf("edit bob's: %d", pg.code)
	}
	b.get("/settings")
	for _, path := range []string{"/settings/categories/" + bobCat, "/settings/categories/" + bobCat + "/delete"} {
		if pg := b.post(path, url.Values{"name": {"Mine"}, "color": {"x"}}); pg.code != http.StatusNotFound {
			t.Errorf("%s: %d", path, pg.code)
		}
	}
	if n := e.count(`SELECT count(*) FROM task_categories WHERE id = ? AND name = 'Bobs'`, bobCat); n != 1 {
		t.Errorf("bob's category was touched")
	}

	// Delete: its tasks stay, without a category.
	e.task(adaKey, person, "name=Visit+her&task_category_id="+id)
	pg = b.post("/settings/categories/"+id+"/delete", nil)
	if pg.code != http.StatusSeeOther {
		t.Fatalf("delete: %d %s", pg.code, pg.body)
	}
	b.follow(pg).has(t, "Category “Visits” deleted.")
	if n := e.count(`SELECT count(*) FROM tasks WHERE name = 'Visit her' AND task_category_id IS NULL`); n != 1 {
		t.Errorf("the task went with its category")
	}
	if pg := b.post("/settings/categories/"+id+"/delete", nil); pg.code != http.StatusNotFound {
		t.Errorf("delete again: %d", pg.code)
	}
}

func TestWebSettingsGenders(t *testing.T) {
	e := newEnv(t)
	_, adaKey := e.user("ada@example.com")
	_, bobKey := e.user("bob@example.com")
	bobGender := jsonID(t, e.do(req{method: "POST", path: "/api/administration/genders?name=Bobs", key: bobKey}))
	b := e.signIn(t, "ada@example.com")

	pg := b.get("/settings/lists")
	pg.has(t, "Genders", `action="/settings/genders"`)
	pg.lacks(t, "Bobs")

	pg = b.post("/settings/genders", url.Values{"name": {""}})
	if pg.code != http.StatusUnprocessableEntity {
		t.Fatalf("bad gender: %d %s", pg.code, pg.body)
	}
	pg.has(t, `id="gender-name-err">The name field is required.`, "<details open><summary>Add a gender")
	pg = b.post("/settings/genders", url.Values{"name": {"Non-binary & more"}})
	if pg.code != http.StatusSeeOther {
		t.Fatalf("add: %d %s", pg.code, pg.body)
	}
	pg = b.follow(pg)
	pg.has(t, "Gender added.", "Non-binary &amp; more")
	id := idOf(t, pg, `/settings/genders/(\d+)/edit">Edit</a>\s*<form[^>]*action="/settings/genders/\d+/delete"[^>]*data-confirm="Delete the gender Non-binary &amp; more`)

	// The person form offers it.
	b.get("/people/new").has(t, "Non-binary &amp; more</option>")

	pg = b.get("/settings/genders/" + id + "/edit")
	if pg.code != http.StatusOK {
		t.Fatalf("edit: %d %s", pg.code, pg.body)
	}
	pg.has(t, `value="Non-binary &amp; more"`, `name="position"`, `action="/settings/genders/`+id+`"`)
	pg = b.post("/settings/genders/"+id, url.Values{"name": {"Enby"}, "position": {"first"}})
	if pg.code != http.StatusUnprocessableEntity {
		t.Fatalf("bad edit: %d %s", pg.code, pg.body)
	}
	pg.has(t, `id="gender-edit-position-err">The position field must be an integer.`, `value="Enby"`)
	pg = b.post("/settings/genders/"+id, url.Values{"name": {"Enby"}})
	pg.has(t, `id="gender-edit-position-err">The position field is required.`)
	if pg := b.post("/settings/genders/"+id, url.Values{"csrf": {"wrong"}, "name": {"Eve"}, "position": {"1"}}); pg.code != http.StatusForbidden {
		t.Errorf("without the token: %d", pg.code)
	}
	pg = b.post("/settings/genders/"+id, url.Values{"name": {"Enby"}, "position": {"-5"}})
	if pg.code != http.StatusSeeOther {
		t.Fatalf("save: %d %s", pg.code, pg.body)
	}
	b.follow(pg).has(t, "Gender saved.", "Enby", "position -5")
	if n := e.count(`SELECT count(*) FROM genders WHERE id = ? AND name = 'Enby' AND position = -5`, id); n != 1 {
		t.Errorf("not saved")
	}

	if pg := b.get("/settings/genders/" + bobGender + "/edit"); pg.code != http.StatusNotFound {
		t.Errorf("edit bob's: %d", pg.code)
	}
	b.get("/settings")
	for _, path := range []string{"/settings/genders/" + bobGender, "/settings/genders/" + bobGender + "/delete"} {
		if pg := b.post(path, url.Values{"name": {"Mine"}, "position": {"1"}}); pg.code != http.StatusNotFound {
			t.Errorf("%s: %d", path, pg.code)
		}
	}
	if n := e.count(`SELECT count(*) FROM genders WHERE id = ? AND name = 'Bobs'`, bobGender); n != 1 {
		t.Errorf("bob's gender was touched")
	}

	// Delete: the people who have it stay, without a gender.
	person := e.person(adaKey, "first_name=Grace&gender_id="+id)
	pg = b.post("/settings/genders/"+id+"/delete", nil)
	if pg.code != http.StatusSeeOther {
		t.Fatalf("delete: %d %s", pg.code, pg.body)
	}
	b.follow(pg).has(t, "Gender “Enby” deleted.")
	if n := e.count(`SELECT count(*) FROM persons WHERE id = ? AND gender_id IS NULL`, person); n != 1 {
		t.Errorf("the person kept the deleted gender")
	}
	if pg := b.post("/settings/genders/"+id+"/delete", nil); pg.code != http.StatusNotFound {
		t.Errorf("delete again: %d", pg.code)
	}
}

// pageText is what a page shows: its text, without tags and attributes,
// and its options' labels.
func pageText(body string) string {
	return regexp.MustCompile(`(?s)<[^>]*>`).ReplaceAllString(body, " ")
}

// TestWebSettingsColours: a category's colour is named and drawn, never
// shown as its class; one the pages do not know (the API takes any text)
// is "Other colour", kept as it is by an edit that leaves it.
func TestWebSettingsColours(t *testing.T) {
	e := newEnv(t)
	_, key := e.user("ada@example.com")
	odd := jsonID(t, e.do(req{method: "POST", path: "/api/administration/task-categories?name=Odd&color=text-red-500", key: key}))
	deep := jsonID(t, e.do(req{method: "POST", path: "/api/administration/task-categories?name=Deep&color=bg-purple-300", key: key}))
	b := e.signIn(t, "ada@example.com")
	pg := b.get("/settings/lists")
	pg.has(t, `<span class="swatch swatch-other" aria-hidden="true"></span> Odd`, "Other colour",
		`<span class="swatch swatch-purple" aria-hidden="true"></span> Deep`, "Purple, shade 300")
	for _, p := range []page{pg, b.get("/settings/categories/" + odd + "/edit"), b.get("/settings/categories/" + deep + "/edit")} {
		if text := pageText(p.body); strings.Contains(text, "bg-") || strings.Contains(text, "text-red") {
			t.Errorf("a colour's class shows:\n%s", text)
		}
	}
	b.get("/settings/categories/"+odd+"/edit").has(t, `<option value="text-red-500" selected>Other colour (as it is)</option>`)
	b.follow(b.post("/settings/categories/"+odd, url.Values{"name": {"Odder"}, "color": {"text-red-500"}})).has(t, "Category saved.")
	if n := e.count(`SELECT count(*) FROM task_categories WHERE id = ? AND color = 'text-red-500'`, odd); n != 1 {
		t.Errorf("an edit changed a colour it left as it was")
	}
}
