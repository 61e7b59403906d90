package server

import (
	"context"
	"fmt"
	"net/http"
	"net/url"
	"strings"
	"sync"
	"testing"

	"kith/store"
)

// channel creates a channel and returns its JSON data.
func (e *env) channel(key, query string) map[string]any {
	e.t.Helper()
	r := e.do(req{method: "POST", path: "/api/me/channels?" + query, key: key})
	if r.code != 201 {
		e.t.Fatalf("create channel %s: %d %s", query, r.code, r.body)
	}
	return r.json(e.t)["data"].(map[string]any)
}

func TestEveryUserStartsWithAnEmailChannel(t *testing.T) {
	e := newEnv(t)
	_, key := e.user("ada@example.com")
	r := e.do(req{method: "GET", path: "/api/me/channels", key: key})
	list := r.json(t)["data"].([]any)
	if r.code != 200 || len(list) != 1 {
		t.Fatalf("%d %s, want one channel", r.code, r.body)
	}
	ch := keysOf(t, list[0], "id", "object", "kind", "name", "url", "enabled", "has_token", "chat_id", "user_key", "room_id",
		"last_sent_at", "last_error", "last_error_at", "created_at", "updated_at")
	if ch["object"] != "channel" || ch["kind"] != "email" || ch["enabled"] != true || ch["url"] != nil || ch["has_token"] != false ||
		ch["chat_id"] != nil || ch["user_key"] != nil || ch["room_id"] != nil {
		t.Errorf("email channel %v", ch)
	}
}

func TestChannelCRUD(t *testing.T) {
	e := newEnv(t)
	_, key := e.user("ada@example.com")
	hook := e.channel(key, "kind=webhook&url=https://hooks.example.com/kith&name=Home+Assistant")
	secret, _ := hook["secret"].(string)
	if len(secret) != 52 || hook["has_token"] != true || hook["name"] != "Home Assistant" {
		t.Fatalf("a webhook made without a token gets a secret, shown once: %v", hook)
	}
	id := fmt.Sprint(hook["id"])
	shown := e.do(req{method: "GET", path: "/api/me/channels/" + id, key: key})
	if shown.code != 200 || strings.Contains(shown.body, secret) || strings.Contains(shown.body, `"secret"`) {
		t.Errorf("the secret is shown again: %s", shown.body)
	}
	ntfy := e.channel(key, "kind=ntfy&url=https://ntfy.sh/ada-reminders&token=tk_abc")
	if ntfy["url"] != "https://ntfy.sh/ada-reminders" || ntfy["has_token"] != true || ntfy["secret"] != nil {
		t.Errorf("ntfy channel %v", ntfy)
	}
	got := e.do(req{method: "GET", path: "/api/me/channels", key: key}).json(t)["data"].([]any)
	if len(got) != 3 || got[0].(map[string]any)["kind"] != "email" || got[2].(map[string]any)["kind"] != "ntfy" {
		t.Errorf("list %v, want email, webhook, ntfy", got)
	}

	// PUT replaces, but a token left out stays: the secret still signs.
	r := e.do(req{method: "PUT", path: "/api/me/channels/" + id + "?kind=webhook&url=https://hooks.example.com/v2&enabled=0", key: key})
	d := r.json(t)["data"].(map[string]any)
	if r.code != 200 || d["url"] != "https://hooks.example.com/v2" || d["enabled"] != false || d["has_token"] != true || d["name"] != nil {
		t.Errorf("update: %d %s", r.code, r.body)
	}
	if n := e.count(`SELECT count(*) FROM channels WHERE id = ? AND token = ?`, hook["id"], secret); n != 1 {
		t.Errorf("the update lost the webhook's secret")
	}
	emailID := fmt.Sprint(got[0].(map[string]any)["id"])
	e.run(t, []scenario{
		{"delete", req{method: "DELETE", path: "/api/me/channels/" + id, key: key}, 204, nil},
		{"deleted is gone", req{method: "GET", path: "/api/me/channels/" + id, key: key}, 404, errBody(404, "Channel not found.")},
		{"delete again", req{method: "DELETE", path: "/api/me/channels/" + id, key: key}, 404, errBody(404, "Channel not found.")},
		{"update the deleted", req{method: "PUT", path: "/api/me/channels/" + id + "?kind=email", key: key}, 404, errBody(404, "Channel not found.")},
		{"not an id", req{method: "GET", path: "/api/me/channels/abc", key: key}, 404, errBody(404, "Channel not found.")},
		{"turn email off", req{method: "PUT", path: "/api/me/channels/" + emailID + "?kind=email&enabled=false", key: key}, 200, []string{`"enabled":false`}},
		{"email to webhook needs a token", req{method: "PUT", path: "/api/me/channels/" + emailID + "?kind=webhook&url=https://h.example/x", key: key}, 422,
			[]string{`"token":["The token field is required when kind changes to webhook."]`}},
	})
}

func TestChannelValidation(t *testing.T) {
	e := newEnv(t)
	_, key := e.user("ada@example.com")
	post := func(q string) req { return req{method: "POST", path: "/api/me/channels?" + q, key: key} }
	long := strings.Repeat("n", 256)
	e.run(t, []scenario{
		{"no kind", post("url=https://ntfy.sh/x"), 422, []string{`"kind":["The kind field is required."]`}},
		{"unknown kind", post("kind=sms&url=https://x.example"), 422, []string{`"kind":["The selected kind is invalid."]`}},
		{"kind not a string", req{method: "POST", path: "/api/me/channels", key: key, body: `{"kind":["ntfy"]}`}, 422, []string{`"kind":["The kind field must be a string."]`}},
		{"no url", post("kind=ntfy"), 422, []string{`"url":["The url field is required when kind is ntfy."]`}},
		{"ftp url", post("kind=webhook&url=ftp://files.example/x"), 422, []string{`"url":["The url field must be a valid URL."]`}},
		{"no host", post("kind=webhook&url=http://"), 422, []string{`"url":["The url field must be a valid URL."]`}},
		{"a port and no host", post("kind=gotify&token=t&url=http://:8080"), 422, []string{`"url":["The url field must be a valid URL."]`}},
		{"not a url", post("kind=gotify&token=t&url=gotify.example"), 422, []string{`"url":["The url field must be a valid URL."]`}},
		{"ntfy without a topic", post("kind=ntfy&url=https://ntfy.sh/"), 422, []string{`ntfy topic`}},
		{"a password in the url", post("kind=webhook&url=https://kith:hunter2@hooks.example.com/x"), 422,
			[]string{`"url":["The url field must not hold a user name or password: put a token in the token field."]`}},
		{"a user name in the url", post("kind=ntfy&url=https://tk_secret@ntfy.example.com/topic"), 422, []string{`"url":["The url field must not hold a user name`}},
		{"gotify without a token", post("kind=gotify&url=https://gotify.example"), 422, []string{`"token":["The token field is required when kind is gotify."]`}},
		{"a short webhook secret", post("kind=webhook&url=https://h.example&token=short"), 422, []string{`"token":["The token field must be at least 16 characters."]`}},
		{"a long name", post("kind=ntfy&url=https://ntfy.sh/x&name=" + long), 422, []string{`"name":["The name field must not be greater than 255 characters."]`}},
		{"enabled not a boolean", post("kind=ntfy&url=https://ntfy.sh/x&enabled=maybe"), 422, []string{`"enabled":`}},
		{"a second email channel", post("kind=email"), 422, []string{`"kind":["You already have an email channel."]`}},
		{"bad JSON", req{method: "POST", path: "/api/me/channels", key: key, body: `{"kind":`}, 400, nil},
		{"no key", req{method: "POST", path: "/api/me/channels?kind=ntfy&url=https://ntfy.sh/x"}, 401, nil},
	})
	if n := e.count(`SELECT count(*) FROM channels`); n != 1 {
		t.Errorf("%d channels after only refusals, want the email one", n)
	}
}

func TestReminderSettings(t *testing.T) {
	e := newEnv(t, func(o *Options) { o.ReminderSendAt = "07:15" })
	_, key := e.user("ada@example.com")
	r := e.do(req{method: "GET", path: "/api/me/reminders", key: key})
	d := keysOf(t, r.json(t)["data"], "object", "send_at", "send_at_is_default", "days", "timezone")
	if d["object"] != "reminder_settings" || d["send_at"] != "07:15" || d["send_at_is_default"] != true || d["days"] != 7.0 || d["timezone"] != "UTC" {
		t.Errorf("defaults: %s", r.body)
	}
	put := func(q string) req { return req{method: "PUT", path: "/api/me/reminders?" + q, key: key} }
	e.run(t, []scenario{
		{"set both", put("send_at=21:30&days=14"), 200, []string{`"send_at":"21:30"`, `"send_at_is_default":false`, `"days":14`}},
		{"kept", req{method: "GET", path: "/api/me/reminders", key: key}, 200, []string{`"send_at":"21:30"`, `"days":14`}},
		{"25:00", put("send_at=25:00"), 422, []string{`"send_at":["The send at field must match the format H:i."]`}},
		{"8:00", put("send_at=8:00"), 422, []string{`"send_at":["The send at field must match the format H:i."]`}},
		{"12:60", put("send_at=12:60"), 422, []string{`"send_at":["The send at field must match the format H:i."]`}},
		{"days -1", put("days=-1"), 422, []string{`"days":["The days field must be between 0 and 365."]`}},
		{"days 366", put("days=366"), 422, []string{`"days":["The days field must be between 0 and 365."]`}},
		{"days abc", put("days=abc"), 422, []string{`"days":["The days field must be an integer."]`}},
		{"refusals kept the settings", req{method: "GET", path: "/api/me/reminders", key: key}, 200, []string{`"send_at":"21:30"`, `"days":14`}},
		{"nothing is the defaults", put(""), 200, []string{`"send_at":"07:15"`, `"send_at_is_default":true`, `"days":7`}},
		{"days 0 is today only", put("days=0"), 200, []string{`"days":0`}},
	})
}

// TestChannelURLCredentialsAreMasked: a URL with a user name and password,
// saved before they were refused, is shown without them, by the API and
// the pages alike.
func TestChannelURLCredentialsAreMasked(t *testing.T) {
	e := newEnv(t)
	ada, key := e.user("ada@example.com")
	old := "https://kith:hunter2@hooks.example.com/x?a=1"
	token := "a-signing-secret-of-old"
	ch, err := e.st.CreateChannel(context.Background(), ada.ID, store.ChannelInput{Kind: "webhook", URL: &old, Token: &token, Enabled: true})
	if err != nil {
		t.Fatal(err)
	}
	id := fmt.Sprint(ch.ID)
	for _, path := range []string{"/api/me/channels", "/api/me/channels/" + id} {
		r := e.do(req{method: "GET", path: path, key: key})
		if !strings.Contains(r.body, `"url":"https://***@hooks.example.com/x?a=1"`) || strings.Contains(r.body, "hunter2") || strings.Contains(r.body, "kith:") {
			t.Errorf("GET %s: %s", path, r.body)
		}
	}
	b := e.signIn(t, "ada@example.com")
	for _, path := range []string{"/settings/reminders", "/settings/channels/" + id + "/edit"} {
		pg := b.get(path)
		pg.has(t, "https://***@hooks.example.com/x")
		pg.lacks(t, "hunter2")
	}
}

// TestChannelCap: a user may have store.MaxChannels channels, email
// included; one more is a 422 by the API and the form, also when many
// are asked for at once.
func TestChannelCap(t *testing.T) {
	e := newEnv(t)
	_, key := e.user("ada@example.com")
	var wg sync.WaitGroup
	for i := range 2 * store.MaxChannels {
		wg.Go(func() {
			e.do(req{method: "POST", path: fmt.Sprintf("/api/me/channels?kind=ntfy&url=https://ntfy.sh/ada-%d", i), key: key})
		})
	}
	wg.Wait()
	if n := e.count(`SELECT count(*) FROM channels`); n != store.MaxChannels {
		t.Fatalf("%d channels after %d asked for at once, want %d", n, 2*store.MaxChannels, store.MaxChannels)
	}
	full := `"kind":["You have 10 channels, the most there can be: delete one to add another."]`
	e.run(t, []scenario{
		{"one more", req{method: "POST", path: "/api/me/channels?kind=webhook&url=https://h.example/x", key: key}, 422, []string{full}},
	})
	b := e.signIn(t, "ada@example.com")
	b.get("/settings")
	pg := b.post("/settings/channels", url.Values{"kind": {"ntfy"}, "url": {"https://ntfy.sh/one-more"}})
	if pg.code != http.StatusUnprocessableEntity {
		t.Fatalf("one more by the form: %d", pg.code)
	}
	pg.has(t, `id="channel-kind-err">You have 10 channels, the most there can be: delete one to add another.`)
	// Another user is not counted with Ada.
	_, bob := e.user("bob@example.com")
	e.channel(bob, "kind=ntfy&url=https://ntfy.sh/bob")
	// One deleted makes room for one.
	list := e.do(req{method: "GET", path: "/api/me/channels", key: key}).json(t)["data"].([]any)
	e.do(req{method: "DELETE", path: fmt.Sprint("/api/me/channels/", list[1].(map[string]any)["id"]), key: key})
	e.channel(key, "kind=ntfy&url=https://ntfy.sh/ada-again")
}
