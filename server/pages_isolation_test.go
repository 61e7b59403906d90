package server

import (
	"fmt"
	"kith/server/web"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strings"
	"testing"
)

// TestWebIsolation tries every web route that takes an id with the ids of
// another account's rows: each must answer the 404 page and change
// nothing. A route with a parameter this test cannot fill fails it, so a
// new route gets its check.
func TestWebIsolation(t *testing.T) {
	e := newEnv(t)
	_, ada := e.user("ada@example.com")
	e.user("bob@example.com")
	rows := e.webRows(t, ada)
	person := rows.person
	snapshot := func() string {
		var b strings.Builder
		for _, p := range []string{"/api/persons/" + person, "/api/journals", "/api/me/channels", "/api/administration/api",
			"/api/administration/task-categories", "/api/administration/genders", "/api/administration/relationship-types",
			"/api/persons/" + person + "/relationships", "/api/tags"} {
			b.WriteString(e.do(req{method: "GET", path: p, key: ada}).body)
		}
		for _, k := range web.Children { // in order: a map's would differ each time
			kind := k.Slug
			b.WriteString(e.do(req{method: "GET", path: "/api/persons/" + person + "/" + kind, key: ada}).body)
		}
		return b.String()
	}
	before := snapshot()
	bob := e.signIn(t, "bob@example.com")
	form := url.Values{}
	for k, v := range mustParseQuery(t, everything) {
		form[k] = v
	}
	tried := 0
	for _, rt := range e.srv.Routes() {
		if !webPath(rt.Path) || !strings.Contains(rt.Path, ":") || strings.HasPrefix(rt.Path, "/static/") {
			continue
		}
		// An action link's signed token is its authority, not a session:
		// whoever holds it acts for the user it names, as an ntfy button
		// does with no cookie. TestActionSnoozeAndGone checks that a link
		// cannot reach another account's rows.
		if strings.HasPrefix(rt.Path, "/actions/") {
			continue
		}
		for _, path := range rows.paths(rt.Path) {
			if strings.Contains(path, ":") {
				t.Errorf("%s %s: a parameter this test cannot fill: add it", rt.Method, path)
				continue
			}
			var pg page
			switch rt.Method {
			case http.MethodGet, http.MethodHead:
				pg = bob.send(httpRequest(rt.Method, path))
			case http.MethodPost:
				pg = bob.post(path, cloneValues(form))
			default:
				t.Errorf("%s %s: a method this test does not try", rt.Method, path)
				continue
			}
			tried++
			if pg.code != http.StatusNotFound || rt.Method != http.MethodHead && !strings.Contains(strings.ToLower(pg.body), "not found.") {
				t.Errorf("%s %s as another account: %d, want the 404 page:\n%.400s", rt.Method, path, pg.code, pg.body)
			}
		}
	}
	if tried < 30 {
		t.Errorf("only %d requests tried", tried)
	}
	if after := snapshot(); after != before {
		t.Errorf("Ada's data changed:\nbefore %s\nafter  %s", before, after)
	}
}

// httpRequest is a request as a server receives it.
func httpRequest(method, path string) *http.Request { return httptest.NewRequest(method, path, nil) }

func mustParseQuery(t *testing.T, q string) url.Values {
	v, err := url.ParseQuery(q)
	if err != nil {
		t.Fatal(err)
	}
	return v
}

func cloneValues(v url.Values) url.Values {
	out := url.Values{}
	for k, vs := range v {
		out[k] = append([]string(nil), vs...)
	}
	return out
}

// jsonID is the data.id of an API answer.
func jsonID(t *testing.T, r resp) string {
	t.Helper()
	data, ok := r.json(t)["data"].(map[string]any)
	if !ok {
		t.Fatalf("no data in %d %s", r.code, r.body)
	}
	return fmt.Sprint(data["id"])
}
