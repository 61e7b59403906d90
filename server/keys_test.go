package server

import (
	"bytes"
	"context"
	"mime/multipart"
	"strconv"
	"strings"
	"testing"
)

func TestKeyCreate(t *testing.T) {
	e := newEnv(t)
	_, token := e.user("ada@example.com")
	var mp bytes.Buffer
	w := multipart.NewWriter(&mp)
	w.WriteField("label", "From a form")
	w.Close()
	post := func(q string) req { return req{method: "POST", path: "/api/administration/api" + q, key: token} }
	e.run(t, []scenario{
		{"query string only, as the reference client sends it", post("?label=Angel"), 201, []string{`"name":"Angel"`}},
		{"JSON body", req{method: "POST", path: "/api/administration/api", key: token, body: `{"label":"Phone"}`}, 201, []string{`"name":"Phone"`}},
		{"multipart form", req{method: "POST", path: "/api/administration/api", key: token, body: mp.String(), ctype: w.FormDataContentType()},
			201, []string{`"name":"From a form"`}},
		{"missing label", post(""), 422, errBody(422, "The label field is required.")},
		{"blank label", post("?label=%20%20"), 422, errBody(422, "The label field is required.")},
		{"oversized label", post("?label=" + strings.Repeat("k", 256)), 422, errBody(422, "The label field must not be greater than 255 characters.")},
		{"label of the wrong type", req{method: "POST", path: "/api/administration/api", key: token, body: `{"label":["a"]}`},
			422, errBody(422, "The label field must be a string.")},
		{"label that is not UTF-8", post("?label=%ff%fe"), 422, errBody(422, "The label field format is invalid.")},
	})

	r := e.do(post("?label=Shape"))
	body := keysOf(t, r.json(t), "data", "token")
	data := keysOf(t, body["data"], "type", "id", "attributes", "links")
	attrs := keysOf(t, data["attributes"], "name", "token", "last_used_at", "created_at", "updated_at")
	if attrs["token"] != body["token"] || !strings.HasPrefix(body["token"].(string), data["id"].(string)+"|") {
		t.Errorf("token at top level %v and in attributes %v, id %v", body["token"], attrs["token"], data["id"])
	}
	now := float64(e.clock.Now().Unix())
	if data["type"] != "api_key" || attrs["last_used_at"] != nil || attrs["created_at"] != now || attrs["updated_at"] != now {
		t.Errorf("shape: %s", r.body)
	}
	if self := keysOf(t, data["links"], "self")["self"]; self != "http://example.com/api/administration/api/"+data["id"].(string) {
		t.Errorf("links.self %v", self)
	}
	if got := e.do(req{method: "GET", path: "/api/me", key: body["token"].(string)}); got.code != 200 {
		t.Errorf("the new key gets %d", got.code)
	}
}

func TestKeyListAndShow(t *testing.T) {
	e := newEnv(t)
	_, token := e.user("ada@example.com")
	_, bobToken := e.user("bob@example.com")
	e.do(req{method: "POST", path: "/api/login?email=ada@example.com&password=correct%20horse"})
	e.do(req{method: "POST", path: "/api/administration/api?label=Second", key: token})

	r := e.do(req{method: "GET", path: "/api/administration/api", key: token})
	list, ok := r.json(t)["data"].([]any)
	if !ok || len(list) != 3 {
		t.Fatalf("want ada's 3 keys: %s", r.body)
	}
	wantNames := []string{"test key", "API token for ada@example.com", "Second"}
	lastID := 0
	for i, item := range list {
		k := keysOf(t, item, "type", "id", "attributes", "links")
		attrs := k["attributes"].(map[string]any)
		id, _ := strconv.Atoi(k["id"].(string))
		if attrs["name"] != wantNames[i] || attrs["token"] != nil || id <= lastID {
			t.Errorf("key %d: %v (want %q, token null, ids ascending)", i, k, wantNames[i])
		}
		lastID = id
	}

	bobKeys := e.do(req{method: "GET", path: "/api/administration/api", key: bobToken})
	if strings.Count(bobKeys.body, `"type":"api_key"`) != 1 {
		t.Errorf("bob sees other users' keys: %s", bobKeys.body)
	}

	adaKeyID := strings.Split(token, "|")[0]
	bobKeyID := strings.Split(bobToken, "|")[0]
	notFound := errBody(404, "API key not found.")
	e.run(t, []scenario{
		{"own key", req{method: "GET", path: "/api/administration/api/" + adaKeyID, key: token}, 200,
			[]string{`"id":"` + adaKeyID + `"`, `"token":null`}},
		{"another account's key is not found", req{method: "GET", path: "/api/administration/api/" + bobKeyID, key: token}, 404, notFound},
		{"missing key", req{method: "GET", path: "/api/administration/api/999", key: token}, 404, notFound},
		{"id that is not a number", req{method: "GET", path: "/api/administration/api/abc", key: token}, 404, notFound},
		{"id zero", req{method: "GET", path: "/api/administration/api/0", key: token}, 404, notFound},
		{"negative id", req{method: "GET", path: "/api/administration/api/-1", key: token}, 404, notFound},
		{"id past int64", req{method: "GET", path: "/api/administration/api/99999999999999999999", key: token}, 404, notFound},
		{"PUT is not a method of keys", req{method: "PUT", path: "/api/administration/api/" + adaKeyID, key: token}, 405, errBody(405, "Method not allowed.")},
	})
}

func TestKeyDelete(t *testing.T) {
	e := newEnv(t)
	ada, token := e.user("ada@example.com")
	_, bobToken := e.user("bob@example.com")
	_, spare, err := e.st.CreateAPIKey(context.Background(), ada.ID, "spare")
	if err != nil {
		t.Fatal(err)
	}
	bobKeyID := strings.Split(bobToken, "|")[0]
	spareID := strings.Split(spare, "|")[0]

	r := e.do(req{method: "DELETE", path: "/api/administration/api/" + bobKeyID, key: token})
	if r.code != 404 || !strings.Contains(r.body, `"message":"API key not found."`) {
		t.Fatalf("deleting another account's key: %d %s", r.code, r.body)
	}
	if r := e.do(req{method: "GET", path: "/api/me", key: bobToken}); r.code != 200 {
		t.Fatalf("bob's key stopped working after ada's attempt: %d", r.code)
	}

	r = e.do(req{method: "DELETE", path: "/api/administration/api/" + spareID, key: token})
	if r.code != 204 || r.body != "" {
		t.Fatalf("delete: %d %q, want 204 with no body", r.code, r.body)
	}
	if r := e.do(req{method: "GET", path: "/api/me", key: spare}); r.code != 401 {
		t.Errorf("the deleted key gets %d, want 401", r.code)
	}
	if r := e.do(req{method: "DELETE", path: "/api/administration/api/" + spareID, key: token}); r.code != 404 {
		t.Errorf("deleting twice: %d, want 404", r.code)
	}

	ownID := strings.Split(token, "|")[0]
	if r := e.do(req{method: "DELETE", path: "/api/administration/api/" + ownID, key: token}); r.code != 204 {
		t.Fatalf("deleting the key in use: %d, want 204", r.code)
	}
	if r := e.do(req{method: "GET", path: "/api/me", key: token}); r.code != 401 {
		t.Errorf("the key that deleted itself gets %d, want 401", r.code)
	}
}
