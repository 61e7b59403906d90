package server

import (
	"fmt"
	"kith/server/photo/phototest"
	"kith/server/remind"
	"kith/server/web"
	"kith/store"
	"net/http"
	"net/http/httptest"
	"net/url"
	"regexp"
	"strconv"
	"strings"
	"testing"
)

// browser is a web app user: cookies kept between requests, the last
// page's CSRF token sent with every form.
type browser struct {
	t       testing.TB
	e       *env
	cookies map[string]*http.Cookie
	csrf    string
	lang    string // Accept-Language
	ua      string // User-Agent
	remote  string // the client's address, "ip:port"
}

// page is one answer to a browser.
type page struct {
	code   int
	header http.Header
	body   string
}

var csrfField = regexp.MustCompile(`name="csrf" value="([^"]+)"`)

func (e *env) browser(t testing.TB) *browser {
	return &browser{t: t, e: e, cookies: map[string]*http.Cookie{}}
}

// signIn opens a browser signed in as the user of email (password
// "correct horse", as env.user makes them).
func (e *env) signIn(t testing.TB, email string) *browser {
	t.Helper()
	b := e.browser(t)
	b.get("/login")
	pg := b.post("/login", url.Values{"email": {email}, "password": {"correct horse"}})
	if pg.code != http.StatusSeeOther || pg.header.Get("Location") != "/" {
		t.Fatalf("sign-in: %d %s, %s", pg.code, pg.header.Get("Location"), pg.body)
	}
	b.get("/")
	return b
}

func (b *browser) get(path string) page {
	b.t.Helper()
	return b.send(httptest.NewRequest(http.MethodGet, path, nil))
}

// post sends a form with the last page's CSRF token, unless form has one.
func (b *browser) post(path string, form url.Values) page {
	b.t.Helper()
	if form == nil {
		form = url.Values{}
	}
	if !form.Has("csrf") {
		form.Set("csrf", b.csrf)
	}
	r := httptest.NewRequest(http.MethodPost, path, strings.NewReader(form.Encode()))
	r.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	return b.send(r)
}

func (b *browser) send(r *http.Request) page {
	b.t.Helper()
	r.Header.Set("Accept", "text/html,application/xhtml+xml,*/*;q=0.8")
	if b.lang != "" {
		r.Header.Set("Accept-Language", b.lang)
	}
	if b.ua != "" {
		r.Header.Set("User-Agent", b.ua)
	}
	if b.remote != "" {
		r.RemoteAddr = b.remote
	}
	for _, c := range b.cookies {
		r.AddCookie(c)
	}
	w := httptest.NewRecorder()
	b.e.srv.ServeHTTP(w, r)
	res := w.Result()
	for _, c := range res.Cookies() {
		if c.MaxAge < 0 {
			delete(b.cookies, c.Name)
		} else {
			b.cookies[c.Name] = c
		}
	}
	pg := page{code: w.Code, header: w.Header(), body: w.Body.String()}
	if m := csrfField.FindStringSubmatch(pg.body); m != nil {
		b.csrf = m[1]
	}
	return pg
}

// follow sends a GET to where a 303 points.
func (b *browser) follow(pg page) page {
	b.t.Helper()
	if pg.code != http.StatusSeeOther {
		b.t.Fatalf("want a 303, got %d: %s", pg.code, pg.body)
	}
	to, _, _ := strings.Cut(pg.header.Get("Location"), "#") // a browser keeps the fragment to itself
	return b.get(to)
}

// has fails the test unless the page holds each of want.
func (pg page) has(t testing.TB, want ...string) {
	t.Helper()
	for _, w := range want {
		if !strings.Contains(pg.body, w) {
			t.Errorf("page lacks %q:\n%s", w, pg.body)
		}
	}
}

// lacks fails the test if the page holds any of bad.
func (pg page) lacks(t testing.TB, bad ...string) {
	t.Helper()
	for _, w := range bad {
		if strings.Contains(pg.body, w) {
			t.Errorf("page holds %q", w)
		}
	}
}

// webRows are one row of everything a web route can name, the user's of
// key: items by kind (a person's things, for :kind/:item), and ids by
// path parameter.
type webRows struct {
	person string
	items  map[string]string
	ids    map[string]string
	// csvToken is a checked CSV file's :token; ids' is a Monica export's.
	csvToken string
}

func (e *env) webRows(t *testing.T, key string) webRows {
	t.Helper()
	person := e.person(key, "first_name=Grace")
	items := map[string]string{
		"tasks":           e.task(key, person, "name=Call"),
		"notes":           e.note(key, person, "A note"),
		"gifts":           e.gift(key, person, "name=Teapot&status=idea"),
		"contact-details": e.contactDetail(key, person, "kind=phone&value=555-0100"),
		"important-dates": e.importantDate(key, person, "label=met&date=2019-05-04"),
		"interactions":    e.interaction(key, person, "happened_on=2026-03-01&kind=call"),
		"life-events":     e.lifeEvent(key, person, "description=Moved&happened_at=2020-01-01"),
		"work-history":    e.workEntry(key, person, "job_title=Admiral&active=0"),
		"reminders":       e.reminder(key, person, "label=Call&starts_on=2026-03-20&frequency=weekly"),
	}
	if len(items) != len(web.Children) {
		t.Fatalf("%d kinds made, %d served", len(items), len(web.Children))
	}
	relType := jsonID(t, e.do(req{method: "POST", path: "/api/administration/relationship-types?name=godparent&name_reverse=godchild&group=family", key: key}))
	relative := e.person(key, "first_name=Walter")
	relationship := jsonID(t, e.do(req{method: "POST", path: "/api/persons/" + person + "/relationships?relationship_type_id=" + relType + "&person_id=" + relative, key: key}))
	e.do(req{method: "PUT", path: "/api/persons/" + person + "/tags?tags[]=Navy", key: key})
	e.setPhoto(key, person, phototest.PNG(phototest.Quadrants(40, 20)))
	return webRows{person: person, items: items, ids: map[string]string{
		":person":       person,
		":task":         items["tasks"],
		":journal":      e.journal(key, "Diary"),
		":year":         "2026",
		":month":        "3",
		":day":          "15",
		":channel":      jsonID(t, e.do(req{method: "POST", path: "/api/me/channels?kind=ntfy&url=http://127.0.0.1:9/ada", key: key})),
		":key":          strings.Split(key, "|")[0],
		":category":     jsonID(t, e.do(req{method: "POST", path: "/api/administration/task-categories?name=Visit&color=bg-blue-100", key: key})),
		":gender":       jsonID(t, e.do(req{method: "POST", path: "/api/administration/genders?name=Agender", key: key})),
		":type":         relType,
		":relationship": relationship,
		":user":         e.invite(key, "invitee@example.com"),
		":token":        e.monicaToken(t, key),
		":link":         e.liveActionLink(t, key, person),
		":session":      e.webSessionID(t, key),
		":passkey":      e.keysPasskey(t, key),
	}, csvToken: e.csvToken(t, key)}
}

// paths fills a route's parameters with the rows: one path, or one per
// kind for a route of a person's things. A parameter left unfilled stays
// in the path, for the caller to refuse.
func (w webRows) paths(route string) []string {
	paths := []string{route}
	if strings.Contains(route, ":kind") {
		paths = nil
		for _, k := range web.Children { // in order, so that runs compare
			paths = append(paths, strings.NewReplacer(":kind", k.Slug, ":item", w.items[k.Slug]).Replace(route))
		}
	}
	for i, p := range paths {
		if strings.HasPrefix(p, "/settings/import/csv/") {
			p = strings.ReplaceAll(p, ":token", w.csvToken)
		}
		for param, id := range w.ids {
			p = strings.ReplaceAll(p, param, id)
		}
		paths[i] = p
	}
	return paths
}

// liveActionLink is the token of a digest's "Log a call" link for the
// key's user and person, as GET /actions/:link shows it.
func (e *env) liveActionLink(t *testing.T, key, person string) string {
	t.Helper()
	me := e.do(req{method: "GET", path: "/api/me", key: key}).json(t)["data"].(map[string]any)
	uid, _ := strconv.ParseInt(fmt.Sprint(me["id"]), 10, 64)
	ref, _ := strconv.ParseInt(person, 10, 64)
	return strings.TrimPrefix(e.actionLink(t, remind.Action{UserID: uid, Do: store.ActionLogCall,
		Kind: "stay_in_touch", Ref: ref, Title: "Call Grace"}), "/actions/")
}
