package server

import (
	"fmt"
	"net/url"
	"strings"
	"testing"
)

func TestPersonSearch(t *testing.T) {
	e := newEnv(t)
	_, key := e.user("ada@example.com")
	_, bob := e.user("bob@example.com")
	michael := e.person(key, "first_name=Michael&last_name=Scott&nickname=Mike")
	jose := e.person(key, "first_name=Jos%C3%A9&last_name=N%C3%BA%C3%B1ez")
	e.contactDetail(key, jose, "kind=email&value=jose.nunez@example.es")
	e.contactDetail(key, michael, "kind=phone&value=5550100")
	for i := range 20 {
		e.person(key, fmt.Sprintf("first_name=Dwight%d&last_name=Schrute", i))
	}
	e.person(bob, "first_name=Michael&last_name=Bob%27s")
	get := func(q string) req { return req{method: "GET", path: "/api/persons?" + q, key: key} }
	e.run(t, []scenario{
		{"by a part of the first name", get("q=chae"), 200, []string{`"name":"Michael Scott"`, `"total":1`}},
		{"by the nickname, any case", get("q=MIKE"), 200, []string{`"name":"Michael Scott"`, `"total":1`}},
		{"by an accented name", get("q=" + url.QueryEscape("núñ")), 200, []string{`"total":1`}},
		{"by an email", get("q=nunez@"), 200, []string{`"first_name":"José"`, `"total":1`}},
		{"not by a phone", get("q=5550100"), 200, []string{`"total":0`}},
		{"across names", get("q=" + url.QueryEscape("el sc")), 200, []string{`"name":"Michael Scott"`}},
		{"not another account's", get("q=bob"), 200, []string{`"data":[]`, `"total":0`}},
		{"paginated, the links keep q", get("q=schrute&per_page=5&page=2"), 200,
			[]string{`"total":20`, `"current_page":2`, `q=schrute`, `"from":6`, `"to":10`}},
		{"an empty q lists everyone", get("q="), 200, []string{`"total":22`}},
		{"a q too long", get("q=" + strings.Repeat("x", 256)), 422, errBody(422, "The q field must not be greater than 255 characters.")},
		{"a q that is no text", req{method: "GET", path: "/api/persons", key: key, body: `{"q":["x"]}`}, 422, nil},
		{"no key", req{method: "GET", path: "/api/persons?q=x"}, 401, nil},
	})
}
