package server

import (
	"net/http"
	"net/url"
	"strings"
	"testing"
)

// TestWebNoServerError sends every web route, as its owner, forms of
// every field the app reads filled with garbage: each answer is a page
// or a refusal, never a 5xx. Routes come from the router, so a new one
// is tried too.
func TestWebNoServerError(t *testing.T) {
	e := newEnv(t)
	_, key := e.user("ada@example.com")
	rows := e.webRows(t, key)
	garbage := map[string]string{
		"non-UTF-8": "a\xff\xfe\xc0",
		"huge":      strings.Repeat("x", 70000),
		"controls":  "a\x00b\x1b[31m",
		"number":    "99999999999999999999999",
		"negative":  "-1",
		"date-ish":  "2025-02-30",
	}
	fields := []string{"first_name", "last_name", "nickname", "gender_id", "marital_status", "age_type", "age_year",
		"estimated_age", "age_bracket", "every_days", "kind", "value", "country", "date", "name", "due_at",
		"task_category_id", "content", "happened_on", "status", "url", "happened_at", "active", "email", "password",
		"timezone", "born_at", "send_at", "days", "label", "token", "enabled", "q", "page", "height"}
	b := e.signIn(t, "ada@example.com")
	tried := 0
	for _, rt := range e.srv.Routes() {
		if !webPath(rt.Path) || strings.HasPrefix(rt.Path, "/static/") || rt.Path == "/logout" {
			continue // signing out would end the test's session
		}
		for _, path := range rows.paths(rt.Path) {
			for name, junk := range garbage {
				form := url.Values{}
				for _, f := range fields {
					form.Set(f, junk)
				}
				var pg page
				switch rt.Method {
				case http.MethodPost:
					pg = b.post(path, form)
				case http.MethodGet, http.MethodHead:
					pg = b.send(httpRequest(rt.Method, path+"?"+form.Encode()))
				default:
					continue
				}
				tried++
				if pg.code >= 500 {
					t.Errorf("%s %s with %s: %d\n%.300s", rt.Method, path, name, pg.code, pg.body)
				}
				if pg.code == http.StatusForbidden && strings.Contains(pg.body, "This form has expired") && path != "/login" && path != "/login/code" && path != "/join" &&
					path != "/login/passkey" && path != "/login/passkey/options" {
					t.Errorf("%s %s with %s: the session's token was refused", rt.Method, path, name)
				}
			}
			b.get("/") // a fresh token, whatever the last page was (the sign-in form's)
		}
	}
	if tried < 200 {
		t.Errorf("only %d requests tried", tried)
	}
}
