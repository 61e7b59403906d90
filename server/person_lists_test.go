package server

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"testing"
)

// listTotal is the total that GET /api/persons gives, checked against the
// persons the account has, counted row by row, and against the web app's
// people page.
func (e *env) listTotal(t *testing.T, key string, b *browser, accountID int64) int {
	t.Helper()
	r := e.do(req{method: "GET", path: "/api/persons?per_page=2", key: key})
	if r.code != 200 {
		t.Fatalf("list: %d %s", r.code, r.body)
	}
	meta := r.json(t)["meta"].(map[string]any)
	total := int(meta["total"].(float64))
	if want := e.count(`SELECT count(*) FROM persons WHERE account_id = ?`, accountID); total != want {
		t.Errorf("total %d, but the account has %d persons", total, want)
	}
	if want := max(1, (total+1)/2); int(meta["last_page"].(float64)) != want {
		t.Errorf("last_page %v with %d persons, 2 a page, want %d", meta["last_page"], total, want)
	}
	pg := b.get("/people")
	if total > 0 {
		pg.has(t, fmt.Sprintf("1–%d of %d", min(total, 50), total))
	} else {
		pg.lacks(t, " of 0")
	}
	return total
}

// TestPersonListTotal: the list's total, which the store keeps rather
// than counts, stays the number of the account's persons after every
// write that makes or takes persons: create, delete, merge, import,
// prune and the account's own deletion; another account's persons never
// count.
func TestPersonListTotal(t *testing.T) {
	e := newEnv(t)
	u, key := e.user("ada@example.com")
	_, otherKey := e.user("bob@example.com")
	b := e.signIn(t, "ada@example.com")
	e.person(otherKey, "first_name=Someone")

	if n := e.listTotal(t, key, b, u.AccountID); n != 0 {
		t.Fatalf("a new account lists %d persons", n)
	}
	ids := []string{e.person(key, "first_name=Ann"), e.person(key, "first_name=Ben"), e.person(key, "first_name=Cat")}
	kept := e.person(key, "first_name=Dan")
	if n := e.listTotal(t, key, b, u.AccountID); n != 4 {
		t.Fatalf("%d persons after four creates", n)
	}
	if r := e.do(req{method: "DELETE", path: "/api/persons/" + ids[0], key: key}); r.code != 204 {
		t.Fatalf("delete: %d %s", r.code, r.body)
	}
	if n := e.listTotal(t, key, b, u.AccountID); n != 3 {
		t.Errorf("%d persons after a delete", n)
	}
	if r := e.merge(key, kept, ids[1]); r.code != 200 {
		t.Fatalf("merge: %d %s", r.code, r.body)
	}
	if n := e.listTotal(t, key, b, u.AccountID); n != 2 {
		t.Errorf("%d persons after a merge", n)
	}
	cards := "BEGIN:VCARD\r\nVERSION:3.0\r\nFN:Eve Example\r\nN:Example;Eve;;;\r\nEND:VCARD\r\n" +
		"BEGIN:VCARD\r\nVERSION:3.0\r\nFN:Fay Example\r\nN:Example;Fay;;;\r\nEND:VCARD\r\n"
	if r := e.do(req{method: "POST", path: "/api/import/vcard", key: key, body: cards, ctype: "text/vcard"}); r.code != 200 && r.code != 201 {
		t.Fatalf("import: %d %s", r.code, r.body)
	}
	if n := e.listTotal(t, key, b, u.AccountID); n != 4 {
		t.Errorf("%d persons after importing two", n)
	}
	// Deleting a protected person fails, and counts nothing.
	e.do(req{method: "PUT", path: "/api/persons/" + kept + "?first_name=Dan&can_be_deleted=false", key: key})
	if r := e.do(req{method: "DELETE", path: "/api/persons/" + kept, key: key}); r.code != 403 {
		t.Fatalf("delete of a protected person: %d %s", r.code, r.body)
	}
	if n := e.listTotal(t, key, b, u.AccountID); n != 4 {
		t.Errorf("%d persons after a refused delete", n)
	}
	if r := e.do(req{method: "PUT", path: "/api/administration/prune", key: key}); r.code != 204 {
		t.Fatalf("prune: %d %s", r.code, r.body)
	}
	if n := e.listTotal(t, key, b, u.AccountID); n != 0 {
		t.Errorf("%d persons after a prune", n)
	}
	e.person(key, "first_name=Gil")
	if n := e.listTotal(t, key, b, u.AccountID); n != 1 {
		t.Errorf("%d persons after a create that follows a prune", n)
	}
	if r := e.do(req{method: "GET", path: "/api/persons", key: otherKey}); !strings.Contains(r.body, `"total":1}`) {
		t.Errorf("the other account's list: %s", r.body)
	}
	if _, err := e.st.DeleteUser(context.Background(), "ada@example.com"); err != nil {
		t.Fatal(err)
	}
	if n := e.count(`SELECT count(*) FROM person_counts WHERE account_id = ?`, u.AccountID); n != 0 {
		t.Errorf("the deleted account keeps %d counts", n)
	}
}

// TestPersonListPages: pages of the list, with and without a search or a
// tag, hold what their links and meta say, and stay right after a delete.
func TestPersonListPages(t *testing.T) {
	e := newEnv(t)
	_, key := e.user("ada@example.com")
	var ids []string
	for i := range 5 {
		ids = append(ids, e.person(key, fmt.Sprintf("first_name=P%d&last_name=Smith", i)))
	}
	e.person(key, "first_name=Zed")
	page := func(path string) map[string]any {
		t.Helper()
		r := e.do(req{method: "GET", path: path, key: key})
		if r.code != 200 {
			t.Fatalf("%s: %d %s", path, r.code, r.body)
		}
		return r.json(t)
	}
	names := func(body map[string]any) string {
		var out []string
		for _, p := range body["data"].([]any) {
			out = append(out, p.(map[string]any)["first_name"].(string))
		}
		return strings.Join(out, " ")
	}
	body := page("/api/persons?per_page=2&page=3")
	meta := body["meta"].(map[string]any)
	if names(body) != "P4 Zed" || meta["total"] != 6.0 || meta["last_page"] != 3.0 || meta["from"] != 5.0 || meta["to"] != 6.0 {
		t.Errorf("page 3: %s, meta %v", names(body), meta)
	}
	if links := body["links"].(map[string]any); links["next"] != nil || !strings.HasSuffix(links["prev"].(string), "/api/persons?page=2&per_page=2") {
		t.Errorf("page 3's links: %v", links)
	}
	body = page("/api/persons?q=smith&per_page=2&page=2")
	if meta := body["meta"].(map[string]any); names(body) != "P2 P3" || meta["total"] != 5.0 || meta["last_page"] != 3.0 {
		t.Errorf("search page 2: %s, meta %v", names(body), meta)
	}
	for _, id := range ids[1:3] {
		if r := e.do(req{method: "PUT", path: "/api/persons/" + id + "/tags", key: key, body: `{"tags":["chess"]}`, ctype: "application/json"}); r.code != 200 {
			t.Fatalf("tag: %d %s", r.code, r.body)
		}
	}
	body = page("/api/persons?tag=chess&per_page=1&page=2")
	if meta := body["meta"].(map[string]any); names(body) != "P2" || meta["total"] != 2.0 || meta["last_page"] != 2.0 {
		t.Errorf("tag page 2: %s, meta %v", names(body), meta)
	}
	e.do(req{method: "DELETE", path: "/api/persons/" + ids[1], key: key})
	body = page("/api/persons?per_page=2&page=3")
	if meta := body["meta"].(map[string]any); names(body) != "Zed" || meta["total"] != 5.0 || meta["last_page"] != 3.0 || meta["to"] != 5.0 {
		t.Errorf("page 3 after a delete: %q, meta %v", names(body), meta)
	}
	body = page("/api/persons?tag=chess")
	if meta := body["meta"].(map[string]any); names(body) != "P2" || meta["total"] != 1.0 {
		t.Errorf("the tag after a delete: %s, meta %v", names(body), meta)
	}
}

// TestPeopleByLastContacted: the people page sorted by last contact
// follows every write of an interaction (create, update, delete, a merge
// that moves them), the never-contacted last by name; logging one does
// not change the person's card.
func TestPeopleByLastContacted(t *testing.T) {
	e := newEnv(t)
	_, key := e.user("ada@example.com")
	b := e.signIn(t, "ada@example.com")
	ann := e.person(key, "first_name=Ann")
	ben := e.person(key, "first_name=Ben")
	cat := e.person(key, "first_name=Cat")
	dan := e.person(key, "first_name=Dan")
	order := func(want string) {
		t.Helper()
		pg := b.get("/people?sort=last_contacted")
		pg.status(t, 200)
		var seen []string
		for _, name := range []string{"Ann", "Ben", "Cat", "Dan"} {
			if i := strings.Index(pg.body, ">"+name+"<"); i >= 0 {
				seen = append(seen, fmt.Sprintf("%08d%s", i, name))
			}
		}
		slices.Sort(seen)
		var got []string
		for _, s := range seen {
			got = append(got, s[8:])
		}
		if strings.Join(got, " ") != want {
			t.Errorf("by last contact: %s, want %s", strings.Join(got, " "), want)
		}
	}
	order("Ann Ben Cat Dan")
	card := func(id string) int { return e.count(`SELECT card_seq FROM persons WHERE id = ?`, id) }
	before := card(ben)
	e.interaction(key, ben, "happened_on=2025-03-01&kind=call")
	if card(ben) != before {
		t.Errorf("logging an interaction changed the person's card")
	}
	catCall := e.interaction(key, cat, "happened_on=2025-01-01&kind=call")
	e.interaction(key, cat, "happened_on=2024-12-01&kind=email")
	order("Ben Cat Ann Dan")
	if r := e.do(req{method: "PUT", path: "/api/persons/" + cat + "/interactions/" + catCall + "?happened_on=2025-05-01&kind=call", key: key}); r.code != 200 {
		t.Fatalf("update: %d %s", r.code, r.body)
	}
	order("Cat Ben Ann Dan")
	if r := e.do(req{method: "DELETE", path: "/api/persons/" + cat + "/interactions/" + catCall, key: key}); r.code != 204 {
		t.Fatalf("delete: %d %s", r.code, r.body)
	}
	order("Ben Cat Ann Dan") // Cat's other interaction, of 2024, is their last now
	if r := e.merge(key, dan, ben); r.code != 200 {
		t.Fatalf("merge: %d %s", r.code, r.body)
	}
	order("Dan Cat Ann")
	_ = ann
}
