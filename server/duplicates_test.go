package server

import (
	"fmt"
	"net/url"
	"strings"
	"testing"
)

// duplicatePairs lists a page of duplicates as "reason first-second",
// checking each item's shape and that its names are the persons'.
func (e *env) duplicatePairs(t *testing.T, key, query string, names map[string]string) ([]string, map[string]any) {
	t.Helper()
	r := e.do(req{method: "GET", path: "/api/persons/duplicates?" + query, key: key})
	if r.code != 200 {
		t.Fatalf("duplicates %s: %d %s", query, r.code, r.body)
	}
	body := r.json(t)
	var out []string
	for _, item := range body["data"].([]any) {
		m := keysOf(t, item, "object", "reason", "persons")
		ps := m["persons"].([]any)
		if m["object"] != "duplicate" || len(ps) != 2 {
			t.Fatalf("item %v", m)
		}
		var ids [2]string
		for i, p := range ps {
			pm := keysOf(t, p, "id", "name")
			ids[i] = fmt.Sprint(pm["id"])
			if want, ok := names[ids[i]]; !ok || pm["name"] != want {
				t.Errorf("person %s named %q, want %q", ids[i], pm["name"], want)
			}
		}
		out = append(out, fmt.Sprintf("%s %s-%s", m["reason"], ids[0], ids[1]))
	}
	return out, body["meta"].(map[string]any)
}

func TestDuplicates(t *testing.T) {
	e := newEnv(t)
	_, key := e.user("ada@example.com")
	_, bob := e.user("bob@example.com")
	names := map[string]string{}
	person := func(key, first, last string) string {
		t.Helper()
		q := "first_name=" + url.QueryEscape(first)
		if last != "" {
			q += "&last_name=" + url.QueryEscape(last)
		}
		id := e.person(key, q)
		names[id] = strings.TrimSpace(first + " " + last)
		return id
	}
	email := func(key, id, value string) { e.contactDetail(key, id, "kind=email&value="+url.QueryEscape(value)) }
	phone := func(key, id, value string) { e.contactDetail(key, id, "kind=phone&value="+url.QueryEscape(value)) }

	// Before anyone: an empty page.
	if pairs, meta := e.duplicatePairs(t, key, "", names); len(pairs) != 0 || meta["total"] != 0.0 {
		t.Fatalf("no persons: %v %v", pairs, meta)
	}

	pam := person(key, "Pam", "Beesly")
	pam2 := person(key, "pam", "BEESLY") // case
	mary := person(key, "Mary   Ann", "Smith")
	mary2 := person(key, "mary", "ann smith") // white space runs, and where the name splits
	dwight := person(key, "Dwight", "Schrute")
	mose := person(key, "Mose", "Schrute")
	email(key, dwight, "D.Schrute@Example.com")
	email(key, dwight, "d.schrute@example.com") // the same person twice: never paired with itself
	email(key, mose, "d.schrute@EXAMPLE.COM")
	jim := person(key, "Jim", "Halpert")
	jim2 := person(key, "JIM", "halpert")
	email(key, jim, "jim@example.com") // name and email: the reason is name
	email(key, jim2, "JIM@example.com")
	kevin := person(key, "Kevin", "")
	oscar := person(key, "Oscar", "")
	phone(key, kevin, "+1 (555) 010-7788")
	phone(key, oscar, "15550107788")
	angela := person(key, "Angela", "")
	phyllis := person(key, "Phyllis", "")
	email(key, angela, "cats@example.com") // email and phone: the reason is email
	email(key, phyllis, "Cats@Example.com")
	phone(key, angela, "555 0199")
	phone(key, phyllis, "(555) 01-99")
	creed := person(key, "Creed", "")
	meredith := person(key, "Meredith", "")
	phone(key, creed, "٥٥٥٠١٠٠") // Arabic-Indic digits: no 0–9, so nothing to match
	phone(key, meredith, "٥٥٥٠١٠٠")
	toby := person(key, "Toby", "Flenderson")
	toby2 := person(key, "toby", "flenderson")
	toby3 := person(key, "TOBY", "FLENDERSON")
	olaf := person(key, "Ølaf", "Σίσυφος")
	olaf2 := person(key, "øLAF", "ΣΊΣΥΦΟΣ") // non-ASCII case, final sigma
	person(key, "Stanley", "Hudson")        // nobody's double

	// Another account's persons, with the same names, emails and phones,
	// are never paired with these.
	bobPam := person(bob, "Pam", "Beesly")
	email(bob, bobPam, "d.schrute@example.com")
	phone(bob, bobPam, "15550107788")

	want := []string{
		"name " + pam + "-" + pam2,
		"name " + mary + "-" + mary2,
		"email " + dwight + "-" + mose,
		"name " + jim + "-" + jim2,
		"phone " + kevin + "-" + oscar,
		"email " + angela + "-" + phyllis,
		"name " + toby + "-" + toby2,
		"name " + toby + "-" + toby3,
		"name " + toby2 + "-" + toby3,
		"name " + olaf + "-" + olaf2,
	}
	pairs, meta := e.duplicatePairs(t, key, "per_page=100", names)
	if strings.Join(pairs, "|") != strings.Join(want, "|") {
		t.Errorf("pairs\n %q\nwant\n %q", pairs, want)
	}
	if meta["total"] != float64(len(want)) {
		t.Errorf("total %v, want %d", meta["total"], len(want))
	}

	// Paginated as persons are: 15 a page by default, pages from 1.
	for _, c := range []struct {
		query string
		want  []string
	}{
		{"", want},
		{"per_page=3&page=2", want[3:6]},
		{"per_page=3&page=4", want[9:]},
		{"per_page=3&page=5", nil},
		{"per_page=1&page=10", want[9:]},
	} {
		if got, _ := e.duplicatePairs(t, key, c.query, names); strings.Join(got, "|") != strings.Join(c.want, "|") {
			t.Errorf("%s: %q, want %q", c.query, got, c.want)
		}
	}
	if pairs, meta := e.duplicatePairs(t, bob, "", names); len(pairs) != 0 || meta["total"] != 0.0 {
		t.Errorf("Bob's one person is paired: %v", pairs)
	}

	self := "http://example.com/api/persons/duplicates"
	get := func(query string) req { return req{method: "GET", path: "/api/persons/duplicates?" + query, key: key} }
	e.run(t, []scenario{
		{"the envelope", get("per_page=4&page=2"), 200, []string{`"current_page":2`, `"from":5`, `"to":8`, `"last_page":3`,
			`"per_page":4`, `"total":10`, `"path":"` + self + `"`, `"prev":"` + self + `?page=1&per_page=4"`,
			`"next":"` + self + `?page=3&per_page=4"`}},
		{"past the end", get("page=2"), 200, []string{`"data":[]`, `"from":null`, `"total":10`}},
		{"per_page over 100", get("per_page=101"), 422, []string{`"per_page":[`}},
		{"page 0", get("page=0"), 422, errBody(422, "The page field must be at least 1.")},
		{"no key", req{method: "GET", path: "/api/persons/duplicates"}, 401, errBody(401, "Unauthenticated.")},
		{"a person's own routes still read their id", req{method: "GET", path: "/api/persons/" + pam, key: key}, 200,
			[]string{`"name":"Pam Beesly"`}},
		{"under it, duplicates is a person id that names nobody", req{method: "GET", path: "/api/persons/duplicates/notes", key: key}, 404,
			errBody(404, "Person not found.")},
	})
	head := e.do(req{method: "HEAD", path: "/api/persons/duplicates", key: key})
	if head.code != 200 || head.body != "" {
		t.Errorf("HEAD: %d %q", head.code, head.body)
	}
	// Never a person whose id is "duplicates": the person's methods are
	// not this path's.
	for _, m := range []string{"PUT", "DELETE", "POST", "PATCH"} {
		e.wrongMethod(t, m, "/api/persons/duplicates", key, "OPTIONS, GET, HEAD")
	}
	if n := e.count(`SELECT count(*) FROM persons`); n != 21 {
		t.Errorf("%d persons, want the 21 made", n)
	}
}
