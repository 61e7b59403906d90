package server

import (
	"bytes"
	"encoding/json"
	"fmt"
	"mime/multipart"
	"net/url"
	"strings"
	"testing"
	"time"
)

// putTags makes names the person's tags, and fails the test unless that
// worked.
func (e *env) putTags(key, person string, names ...string) resp {
	e.t.Helper()
	body, _ := json.Marshal(map[string]any{"tags": names})
	r := e.do(req{method: "PUT", path: "/api/persons/" + person + "/tags", key: key, body: string(body)})
	if r.code != 200 {
		e.t.Fatalf("PUT tags: %d %s", r.code, r.body)
	}
	return r
}

// tagOf puts the one tag named name on the person and returns its id.
func (e *env) tagOf(key, person, name string) string {
	e.t.Helper()
	e.putTags(key, person, name)
	for _, tg := range e.list(key, "/api/tags") {
		if tg["name"] == name {
			return fmt.Sprint(tg["id"])
		}
	}
	e.t.Fatalf("no tag %q", name)
	return ""
}

// personTags is the tags of the person as its show answers them.
func (e *env) personTags(key, person string) string {
	e.t.Helper()
	r := e.do(req{method: "GET", path: "/api/persons/" + person, key: key})
	if r.code != 200 {
		e.t.Fatalf("GET person: %d %s", r.code, r.body)
	}
	b, _ := json.Marshal(r.json(e.t)["data"].(map[string]any)["tags"])
	return string(b)
}

// tagList is the account's tags as "name:persons_count", in order.
func (e *env) tagList(key string) string {
	e.t.Helper()
	var out []string
	for _, tg := range e.list(key, "/api/tags") {
		out = append(out, fmt.Sprintf("%v:%v", tg["name"], tg["persons_count"]))
	}
	return strings.Join(out, " ")
}

func TestPersonTagsUpdate(t *testing.T) {
	e := newEnv(t)
	_, key := e.user("ada@example.com")
	_, bob := e.user("bob@example.com")
	jim := e.person(key, "first_name=Jim&last_name=Halpert")
	bobs := e.person(bob, "first_name=Bob")
	path := "/api/persons/" + jim + "/tags"
	put := func(query, body string) req { return req{method: "PUT", path: path + query, key: key, body: body} }
	var mp bytes.Buffer
	w := multipart.NewWriter(&mp)
	w.WriteField("tags[]", "Darts")
	w.WriteField("tags[]", "Golf")
	w.Close()
	hundred := make([]string, 100)
	for i := range hundred {
		hundred[i] = fmt.Sprintf("t%02d", i)
	}
	tooMany, _ := json.Marshal(map[string]any{"tags": append(hundred, "one more")})
	exactly, _ := json.Marshal(map[string]any{"tags": hundred})
	long := strings.Repeat("x", 51)
	present := errBody(422, "The tags field must be present.")
	array := errBody(422, "The tags field must be an array.")
	e.clock.Advance(time.Hour)
	now := fmt.Sprint(e.clock.Now().Unix())
	e.run(t, []scenario{
		{"JSON: trimmed, empty skipped, equal ignoring case once, sorted ignoring case",
			put("", `{"tags":["work"," Book club ","","WORK","Étude","étude","abc"]}`), 200,
			[]string{`"tags":["abc","Book club","work","Étude"]`, `"updated_at":` + now, `"name":"Jim Halpert"`}},
		{"query tags[] repeated; a name the account has keeps its spelling", put("?tags[]=Chess&tags[]=WORK", ""), 200,
			[]string{`"tags":["Chess","work"]`}},
		{"a form's tags[] repeated", req{method: "PUT", path: path, key: key, body: "tags%5B%5D=Golf&tags%5B%5D=golf",
			ctype: "application/x-www-form-urlencoded"}, 200, []string{`"tags":["Golf"]`}},
		{"a multipart form's tags[] repeated", req{method: "PUT", path: path, key: key, body: mp.String(), ctype: w.FormDataContentType()},
			200, []string{`"tags":["Darts","Golf"]`}},
		{"100 names, one of 50 characters with spaces around", put("", strings.Replace(string(exactly), "t00", "  "+strings.Repeat("y", 50)+" ", 1)),
			200, []string{`"t99"`, `"` + strings.Repeat("y", 50) + `"`}},
		{"a lone empty tags[]= is the empty array", put("?tags[]=", ""), 200, []string{`"tags":[]`}},
		{"an array wins over a plain value", put("?tags=Work&tags[]=Chess", ""), 200, []string{`"tags":["Chess"]`}},
		{"the JSON empty array takes every tag off", put("", `{"tags":[]}`), 200, []string{`"tags":[]`}},
		{"missing", put("", ""), 422, present},
		{"null", put("", `{"tags":null}`), 422, present},
		{"an empty string", put("?tags=", ""), 422, present},
		{"a string", put("", `{"tags":"Work"}`), 422, array},
		{"a string in the query", put("?tags=Work", ""), 422, array},
		{"a number", put("", `{"tags":5}`), 422, array},
		{"an object", put("", `{"tags":{"0":"Work"}}`), 422, array},
		{"101 names", put("", string(tooMany)), 422,
			append(errBody(422, "The tags field must not have more than 100 items."), `"errors":{"tags":["The tags field must not have more than 100 items."]}`)},
		{"a name over 50 characters", put("", `{"tags":["a","b","`+long+`"]}`), 422,
			append(errBody(422, "The tags.2 field must not be greater than 50 characters."),
				`"errors":{"tags.2":["The tags.2 field must not be greater than 50 characters."]}`)},
		{"a name over 50 characters in the query", put("?tags[]=a&tags[]="+long, ""), 422,
			errBody(422, "The tags.1 field must not be greater than 50 characters.")},
		{"a number among the names", put("", `{"tags":["a",5]}`), 422, errBody(422, "The tags.1 field must be a string.")},
		{"null among the names", put("", `{"tags":[null]}`), 422, errBody(422, "The tags.0 field must be a string.")},
		{"an object among the names", put("", `{"tags":[{"name":"a"}]}`), 422, errBody(422, "The tags.0 field must be a string.")},
		{"a control character", put("", `{"tags":["a\u0000b"]}`), 422, errBody(422, "The tags.0 field format is invalid.")},
		{"half a surrogate pair", put("", `{"tags":["a\ud800"]}`), 422, errBody(422, "The tags.0 field format is invalid.")},
		{"bytes that are not UTF-8", put("?tags[]=%ff", ""), 422, errBody(422, "The tags.0 field format is invalid.")},
		{"every bad name is told", put("", `{"tags":[1,"ok","`+long+`"]}`), 422,
			[]string{`"message":"The tags.0 field must be a string. (and 1 more error)"`, `"tags.2":["The tags.2 field must not be greater than 50 characters."]`}},
		{"a missing person with bad names is 404", req{method: "PUT", path: "/api/persons/9999/tags", key: key, body: `{"tags":5}`}, 404,
			errBody(404, "Person not found.")},
		{"a person id that is not a number", req{method: "PUT", path: "/api/persons/jim/tags?tags[]=a", key: key}, 404,
			errBody(404, "Person not found.")},
		{"another account's person", req{method: "PUT", path: "/api/persons/" + bobs + "/tags?tags[]=a", key: key}, 404,
			errBody(404, "Person not found.")},
		{"GET is no method of a person's tags", req{method: "GET", path: path, key: key}, 405, errBody(405, "Method not allowed.")},
		{"without a key", req{method: "PUT", path: path + "?tags[]=a"}, 401, errBody(401, "Unauthenticated.")},
	})
	// The failures changed nothing: the tags are those of the last success.
	if got := e.personTags(key, jim); got != `[]` {
		t.Errorf("Jim's tags after the failures: %s", got)
	}
	if got := e.tagList(bob); got != "" {
		t.Errorf("Bob's tags: %s", got)
	}
	if n := e.count(`SELECT count(*) FROM tags WHERE name IN ('a', 'b', 'ok')`); n != 0 {
		t.Errorf("%d tags made by refused requests", n)
	}
	logs := e.list(key, "/api/administration/logs")
	if a := logs[0]["attributes"].(map[string]any); a["action"] != "tags_update" || a["description"] != "Updated the tags of Jim Halpert" {
		t.Errorf("log %v", a)
	}
}

// TestTagsInPersons: every answer that is a person carries its tags.
func TestTagsInPersons(t *testing.T) {
	e := newEnv(t)
	_, key := e.user("ada@example.com")
	jim := e.person(key, "first_name=Jim")
	e.putTags(key, jim, "zebra", "Apple", "mango")
	want := `"tags":["Apple","mango","zebra"]`
	for _, r := range []req{
		{method: "GET", path: "/api/persons/" + jim},
		{method: "GET", path: "/api/persons"},
		{method: "PUT", path: "/api/persons/" + jim + "?first_name=James"},
		{method: "PATCH", path: "/api/persons/" + jim + "/age?age_type=estimated&estimated_age=30&add_yearly_reminder=0"},
		{method: "PATCH", path: "/api/persons/" + jim + "/physical-appearance?height=180"},
	} {
		r.key = key
		if got := e.do(r); got.code != 200 || !strings.Contains(got.body, want) {
			t.Errorf("%s %s: %d %s", r.method, r.path, got.code, got.body)
		}
	}
	if r := e.do(req{method: "POST", path: "/api/persons?first_name=Pam", key: key}); r.code != 201 || !strings.Contains(r.body, `"tags":[]`) {
		t.Errorf("a new person: %d %s", r.code, r.body)
	}
}

func TestTags(t *testing.T) {
	e := newEnv(t)
	_, key := e.user("ada@example.com")
	_, bob := e.user("bob@example.com")
	jim, pam, dwight := e.person(key, "first_name=Jim"), e.person(key, "first_name=Pam"), e.person(key, "first_name=Dwight")
	e.putTags(key, jim, "Work", "chess")
	e.putTags(key, pam, "work", "Étude", "Zebra")
	e.putTags(key, dwight, "étude")
	e.putTags(bob, e.person(bob, "first_name=Bob"), "Bob's")
	created := float64(e.clock.Now().Unix())

	list := e.list(key, "/api/tags")
	if got := e.tagList(key); got != "chess:1 Work:2 Zebra:1 Étude:2" {
		t.Fatalf("tags by name ignoring case, with their persons: %s", got)
	}
	ids := map[string]string{}
	for _, tg := range list {
		m := keysOf(t, tg, "id", "object", "name", "persons_count", "created_at", "updated_at")
		if m["object"] != "tag" || m["created_at"] != created || m["updated_at"] != created {
			t.Errorf("tag %v", m)
		}
		ids[m["name"].(string)] = fmt.Sprint(m["id"])
	}
	bobsTag := fmt.Sprint(e.list(bob, "/api/tags")[0]["id"])
	base := "/api/tags/"
	notFound := errBody(404, "Tag not found.")
	do := func(method, path, body string) req { return req{method: method, path: path, key: key, body: body} }
	e.clock.Advance(time.Hour)
	now := fmt.Sprint(e.clock.Now().Unix())
	e.run(t, []scenario{
		{"show", do("GET", base+ids["Work"], ""), 200,
			[]string{`"data":{"id":` + ids["Work"] + `,"object":"tag","name":"Work","persons_count":2,`}},
		{"show a missing one", do("GET", base+"9999", ""), 404, notFound},
		{"show an id that is not a number", do("GET", base+"work", ""), 404, notFound},
		{"show id zero", do("GET", base+"0", ""), 404, notFound},
		{"show another account's", do("GET", base+bobsTag, ""), 404, notFound},
		{"rename without a name", do("PUT", base+ids["chess"], ""), 422, errBody(422, "The name field is required.")},
		{"rename to blanks", do("PUT", base+ids["chess"]+"?name=+++", ""), 422, errBody(422, "The name field is required.")},
		{"rename to a name over 50 characters", do("PUT", base+ids["chess"]+"?name="+strings.Repeat("n", 51), ""), 422,
			errBody(422, "The name field must not be greater than 50 characters.")},
		{"rename to a name that is not a string", do("PUT", base+ids["chess"], `{"name":["x"]}`), 422,
			errBody(422, "The name field must be a string.")},
		{"rename a missing one with a bad name is 404", do("PUT", base+"9999", ""), 404, notFound},
		{"rename another account's", do("PUT", base+bobsTag+"?name=Mine", ""), 404, notFound},
		{"rename to its own name in another case just renames", do("PUT", base+ids["chess"], `{"name":" Chess "}`), 200,
			[]string{`"id":` + ids["chess"] + `,"object":"tag","name":"Chess","persons_count":1,`, `"updated_at":` + now}},
		{"rename to a new name", do("PUT", base+ids["Zebra"]+"?name=Book+club", ""), 200,
			[]string{`"id":` + ids["Zebra"] + `,"object":"tag","name":"Book club","persons_count":1`}},
		{"rename onto another's name merges into that one", do("PUT", base+ids["Étude"]+"?name=WORK", ""), 200,
			[]string{`"id":` + ids["Work"] + `,"object":"tag","name":"Work","persons_count":3,`, `"updated_at":` + now}},
		{"the merged one is gone", do("GET", base+ids["Étude"], ""), 404, notFound},
		{"delete another account's", do("DELETE", base+bobsTag, ""), 404, notFound},
		{"delete a tag", do("DELETE", base+ids["chess"], ""), 204, nil},
		{"delete it again", do("DELETE", base+ids["chess"], ""), 404, notFound},
		{"delete an id that is not a number", do("DELETE", base+"x", ""), 404, notFound},
		{"PATCH is no method of a tag", do("PATCH", base+ids["Work"], ""), 405, errBody(405, "Method not allowed.")},
		{"POST is no method of the tags", do("POST", "/api/tags?name=x", ""), 405, errBody(405, "Method not allowed.")},
	})
	if got := e.tagList(key); got != "Book club:1 Work:3" {
		t.Errorf("after the renames and the deletion: %s", got)
	}
	for person, want := range map[string]string{jim: `["Work"]`, pam: `["Book club","Work"]`, dwight: `["Work"]`} {
		if got := e.personTags(key, person); got != want {
			t.Errorf("person %s's tags %s, want %s", person, got, want)
		}
	}
	if got := e.tagList(bob); got != "Bob's:1" {
		t.Errorf("Bob's tags: %s", got)
	}
	var actions []string
	for _, l := range e.list(key, "/api/administration/logs")[:4] {
		a := l["attributes"].(map[string]any)
		actions = append(actions, fmt.Sprint(a["action"], ": ", a["description"]))
	}
	want := []string{"tag_deletion: Deleted the tag called Chess", "tag_update: Updated the tag called Work",
		"tag_update: Updated the tag called Book club", "tag_update: Updated the tag called Chess"}
	if strings.Join(actions, "|") != strings.Join(want, "|") {
		t.Errorf("logs %q, want %q", actions, want)
	}
	// Deleting a person takes its tags off; the tags stay.
	e.do(req{method: "DELETE", path: "/api/persons/" + pam, key: key})
	if got := e.tagList(key); got != "Book club:0 Work:2" {
		t.Errorf("after Pam's deletion: %s", got)
	}
	if r := e.do(req{method: "HEAD", path: "/api/tags", key: key}); r.code != 200 || r.body != "" {
		t.Errorf("HEAD: %d %q", r.code, r.body)
	}
	if r := e.do(req{method: "GET", path: "/api/tags", key: key}); r.code != 200 || !strings.HasPrefix(r.body, `{"data":[{"id":`) {
		t.Errorf("list: %d %s", r.code, r.body)
	}
	// A prune deletes the persons and keeps the tags, at 0.
	if r := e.do(req{method: "PUT", path: "/api/administration/prune", key: key}); r.code != 204 {
		t.Fatalf("prune: %d %s", r.code, r.body)
	}
	if got := e.tagList(key); got != "Book club:0 Work:0" {
		t.Errorf("after a prune: %s", got)
	}
	_, carol := e.user("carol@example.com")
	if r := e.do(req{method: "GET", path: "/api/tags", key: carol}); r.code != 200 || r.body != `{"data":[]}`+"\n" {
		t.Errorf("no tags: %d %s", r.code, r.body)
	}
}

func TestPersonsByTag(t *testing.T) {
	e := newEnv(t)
	_, key := e.user("ada@example.com")
	_, bob := e.user("bob@example.com")
	var ids []string
	for _, name := range []string{"Jim", "Jan", "Dwight", "Pam"} {
		id := e.person(key, "first_name="+name)
		ids = append(ids, id)
		if name != "Dwight" {
			e.putTags(key, id, "Étude")
		}
	}
	e.putTags(bob, e.person(bob, "first_name=Jim"), "étude")
	names := func(r resp) string {
		var out []string
		for _, p := range r.json(t)["data"].([]any) {
			out = append(out, p.(map[string]any)["first_name"].(string))
		}
		return strings.Join(out, " ")
	}
	get := func(query string) resp {
		t.Helper()
		r := e.do(req{method: "GET", path: "/api/persons?" + query, key: key})
		if r.code != 200 {
			t.Fatalf("GET ?%s: %d %s", query, r.code, r.body)
		}
		return r
	}
	for _, c := range []struct{ query, want string }{
		{"tag=%C3%A9tude", "Jim Jan Pam"},
		{"tag=%C3%89TUDE", "Jim Jan Pam"},
		{"tag=+%C3%89tude+", "Jim Jan Pam"},
		{"tag=%C3%A9tude&q=ja", "Jan"},
		{"tag=%C3%A9tude&q=dw", ""},
		{"tag=nothing", ""},
		{"tag=" + strings.Repeat("x", 300), ""},
		{"tag=", "Jim Jan Dwight Pam"},
	} {
		if r := get(c.query); names(r) != c.want {
			t.Errorf("?%s: %s, want %s", c.query, names(r), c.want)
		}
	}
	r := get("tag=%C3%A9tude&q=j&per_page=1&page=2")
	if names(r) != "Jan" {
		t.Errorf("page 2: %s", names(r))
	}
	links := r.json(t)["links"].(map[string]any)
	meta := r.json(t)["meta"].(map[string]any)
	q := url.Values{"page": {"1"}, "per_page": {"1"}, "q": {"j"}, "tag": {"étude"}}
	if links["first"] != "http://example.com/api/persons?"+q.Encode() || meta["total"] != float64(2) {
		t.Errorf("links %v, meta %v", links, meta)
	}
	q.Set("page", "2")
	if links["last"] != "http://example.com/api/persons?"+q.Encode() || links["next"] != nil {
		t.Errorf("last and next: %v", links)
	}
	q.Set("page", "1")
	if links["prev"] != "http://example.com/api/persons?"+q.Encode() {
		t.Errorf("prev: %v", links)
	}
	if r := get("tag=nothing"); r.json(t)["meta"].(map[string]any)["total"] != float64(0) || !strings.Contains(r.body, `"data":[]`) {
		t.Errorf("an unknown tag: %s", r.body)
	}
	if r := e.do(req{method: "GET", path: "/api/persons", key: key, body: `{"tag":["x"]}`}); r.code != 422 ||
		!strings.Contains(r.body, `"The tag field must be a string."`) {
		t.Errorf("a tag that is not a string: %d %s", r.code, r.body)
	}
}

// TestMergeUnitesTags: a merge gives the kept person the union of both
// persons' tags, each once, and the merged-away person's go with it.
func TestMergeUnitesTags(t *testing.T) {
	e := newEnv(t)
	_, key := e.user("ada@example.com")
	kept, other := e.person(key, "first_name=Pam"), e.person(key, "first_name=Pamela")
	e.putTags(key, kept, "Art", "Reception")
	e.putTags(key, other, "art", "Watercolour")
	r := e.merge(key, kept, other)
	if r.code != 200 || !strings.Contains(r.body, `"tags":["Art","Reception","Watercolour"]`) {
		t.Fatalf("merge: %d %s", r.code, r.body)
	}
	if got := e.personTags(key, kept); got != `["Art","Reception","Watercolour"]` {
		t.Errorf("the kept person's tags %s", got)
	}
	if got := e.tagList(key); got != "Art:1 Reception:1 Watercolour:1" {
		t.Errorf("the tags after the merge: %s", got)
	}
}
