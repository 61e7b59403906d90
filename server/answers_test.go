package server

import (
	"io"
	"maps"
	"net/http"
	"slices"
	"strconv"
	"strings"
	"testing"

	"kith/rate"
)

// TestEveryAnswerIsPrivate: answers, errors included, tell caches not to
// keep them and browsers not to guess their type.
func TestEveryAnswerIsPrivate(t *testing.T) {
	e := newEnv(t, func(o *Options) { o.Limiter = rate.New(1000) })
	_, token := e.user("ada@example.com")
	id := e.person(token, "first_name=Jim")
	for _, r := range []req{
		{method: "GET", path: "/api/health"},
		{method: "GET", path: "/api/openapi.json"},
		{method: "POST", path: "/api/login?email=ada@example.com&password=correct%20horse"},
		{method: "POST", path: "/api/login?email=ada@example.com&password=wrong"},
		{method: "GET", path: "/api/me", key: token},
		{method: "GET", path: "/api/me"},
		{method: "POST", path: "/api/persons?first_name=Michael", key: token},
		{method: "POST", path: "/api/persons", key: token},
		{method: "POST", path: "/api/persons", key: token, body: `{"first_name":`},
		{method: "POST", path: "/api/persons", key: token, body: `{"pad":"` + strings.Repeat("x", 1<<20) + `"}`},
		{method: "GET", path: "/api/persons/999", key: token},
		{method: "DELETE", path: "/api/persons/" + id, key: token},
		{method: "GET", path: "/api/nothing"},
		{method: "POST", path: "/api/me", key: token},
		{method: "OPTIONS", path: "/api/me", header: map[string]string{"Origin": "https://app.example", "Access-Control-Request-Method": "PUT"}},
	} {
		got := e.do(r)
		if got.header.Get("Cache-Control") != "no-store" || got.header.Get("X-Content-Type-Options") != "nosniff" {
			t.Errorf("%s %s (%d): Cache-Control %q, X-Content-Type-Options %q", r.method, r.path, got.code,
				got.header.Get("Cache-Control"), got.header.Get("X-Content-Type-Options"))
		}
	}
}

// getOnly are the GET routes that change something, and so answer no HEAD.
var getOnly = map[string]bool{
	"/api/verify-email":                                true,
	"/api/journals/:journal/:year/:month/:day":         true,
	"/api/journals/:journal/entries/:year/:month/:day": true,
}

// TestHeadWhereverGet: every GET route the router serves answers HEAD with
// GET's status and headers and no body, for answers and errors alike;
// Content-Length is the length of GET's body.
func TestHeadWhereverGet(t *testing.T) {
	e := newEnv(t)
	_, token := e.user("ada@example.com")
	person := e.person(token, "first_name=Jim")
	task := e.task(token, person, "name=Call")
	keyID := strings.Split(token, "|")[0]
	ids := strings.NewReplacer(":person", person, ":task", task, ":id", keyID)
	tried := 0
	for _, rt := range e.srv.Routes() {
		if rt.Method != http.MethodGet || getOnly[rt.Path] || webPath(rt.Path) || e.srv.surfaces["GET "+rt.Path] == surfacePage {
			continue // a page under /api/ (the invitation's) is the pages' tests'
		}
		path := ids.Replace(rt.Path)
		if strings.Contains(rt.Path, "task-categories/:id") {
			path = strings.Replace(rt.Path, ":id", "1", 1)
		}
		for _, r := range []req{
			{path: path, key: token},
			{path: path},                   // 401 where a key is needed
			{path: path + "x", key: token}, // 404 where an id is read, else unknown
		} {
			r.method = http.MethodGet
			get := e.do(r)
			r.method = http.MethodHead
			head := e.do(r)
			tried++
			if head.code != get.code || head.body != "" {
				t.Errorf("HEAD %s: %d %q, GET %d", r.path, head.code, head.body, get.code)
				continue
			}
			if cl := head.header.Get("Content-Length"); cl != strconv.Itoa(len(get.body)) {
				t.Errorf("HEAD %s: Content-Length %q, GET's body has %d bytes", r.path, cl, len(get.body))
			}
			for _, h := range []http.Header{get.header, head.header} {
				h.Del("X-Request-Id")
				h.Del("Content-Length")
			}
			if !maps.EqualFunc(get.header, head.header, slices.Equal) {
				t.Errorf("HEAD %s headers %v\nGET's %v", r.path, head.header, get.header)
			}
		}
	}
	if tried < 30 {
		t.Errorf("only %d HEAD requests tried", tried)
	}
	e.run(t, []scenario{
		{"HEAD where only POST is served", req{method: "HEAD", path: "/api/login"}, 405, nil},
	})
}

// TestHeadDoesNotSpendAVerificationLink: HEAD /api/verify-email, as a mail
// system's link checker sends it, is refused and leaves the link working.
func TestHeadDoesNotSpendAVerificationLink(t *testing.T) {
	e := newEnv(t)
	_, key := e.user("ada@example.com")
	e.changeEmail(key, "new@example.com")
	e.waitMail()
	path := pathOf(regexpLink(t, e.logs.String()))
	r := e.do(req{method: "HEAD", path: path})
	if r.code != 405 || r.header.Get("Allow") == "" || strings.Contains(r.header.Get("Allow"), "HEAD") {
		t.Errorf("HEAD on the link: %d, Allow %q", r.code, r.header.Get("Allow"))
	}
	if r := e.do(req{method: "GET", path: path}); r.code != 200 {
		t.Errorf("the link after a HEAD: %d %s", r.code, r.body)
	}
}

// TestHeadOverTheWire: through the real http.Server, HEAD /api/health
// answers as GET does, and the connection carries on with no stray body.
func TestHeadOverTheWire(t *testing.T) {
	e := newEnv(t)
	addr := e.listen(t)
	client := &http.Client{}
	get, err := client.Get("http://" + addr + "/api/health")
	if err != nil {
		t.Fatal(err)
	}
	body, _ := io.ReadAll(get.Body)
	get.Body.Close()
	for range 2 { // the second HEAD reuses the connection
		head, err := client.Head("http://" + addr + "/api/health")
		if err != nil {
			t.Fatal(err)
		}
		head.Body.Close()
		if head.StatusCode != 200 || head.ContentLength != int64(len(body)) || head.Header.Get("Content-Type") != "application/json" {
			t.Errorf("HEAD: %d, length %d (GET's body %d), %q", head.StatusCode, head.ContentLength, len(body), head.Header.Get("Content-Type"))
		}
	}
}
