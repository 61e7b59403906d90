package server

import (
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strings"
	"sync"
	"testing"
	"time"
	"unicode/utf8"
)

// The secrets of the chat channels' tests: none may ever be in an
// answer, a last error or the log.
const (
	tgToken = "123456:TG-secret-bot-token"
	poToken = "po-secret-app-token"
	mxToken = "syt_mx_secret_access_token"
)

// chatCall is one request a fake chat service got.
type chatCall struct {
	method, path, rawPath, auth, ctype string
	body                               []byte
}

// chatServer fakes Telegram's Bot API, Pushover and a Matrix homeserver
// on 127.0.0.1: it records every request and answers as each service
// does when it takes a message, unless answer is set.
type chatServer struct {
	*httptest.Server
	mu     sync.Mutex
	calls  []chatCall
	answer func(path string) (int, string)
}

func newChatServer(t *testing.T) *chatServer {
	cs := &chatServer{}
	cs.Server = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		body, _ := io.ReadAll(r.Body)
		cs.mu.Lock()
		cs.calls = append(cs.calls, chatCall{method: r.Method, path: r.URL.Path, rawPath: r.URL.EscapedPath(),
			auth: r.Header.Get("Authorization"), ctype: r.Header.Get("Content-Type"), body: body})
		answer := cs.answer
		cs.mu.Unlock()
		code, out := http.StatusOK, ""
		switch {
		case answer != nil:
			code, out = answer(r.URL.Path)
		case strings.HasSuffix(r.URL.Path, "/sendMessage"):
			out = `{"ok":true,"result":{"message_id":1}}`
		case strings.HasSuffix(r.URL.Path, "/messages.json"):
			out = `{"status":1,"request":"5042853c-402d-4a18-abcb-168734a801de"}`
		default:
			out = `{"event_id":"$kith"}`
		}
		w.Header().Set("Content-Type", "application/json")
		w.WriteHeader(code)
		io.WriteString(w, out)
	}))
	t.Cleanup(cs.Close)
	return cs
}

func (cs *chatServer) took() []chatCall {
	cs.mu.Lock()
	defer cs.mu.Unlock()
	out := cs.calls
	cs.calls = nil
	return out
}

func (cs *chatServer) answers(f func(path string) (int, string)) {
	cs.mu.Lock()
	defer cs.mu.Unlock()
	cs.answer = f
}

// chatQueries are the three channels' creation queries, each at cs: the
// Telegram one at a path of its own (a proxy's), the Matrix one with a
// trailing slash.
func chatQueries(cs *chatServer) map[string]string {
	return map[string]string{
		"telegram": "kind=telegram&chat_id=-100200&bot_token=" + url.QueryEscape(tgToken) + "&url=" + url.QueryEscape(cs.URL+"/tg"),
		"pushover": "kind=pushover&user_key=uQiRzpo4DXghDmr9QzzfQu27cmVRsG&app_token=" + poToken + "&url=" + url.QueryEscape(cs.URL),
		"matrix":   "kind=matrix&room_id=" + url.QueryEscape("!room/1:example.org") + "&access_token=" + mxToken + "&url=" + url.QueryEscape(cs.URL+"/mx/"),
	}
}

// wantTelegram checks one sendMessage call: its path under the proxy's,
// JSON of exactly chat_id and text.
func wantTelegram(t *testing.T, c chatCall, text string) {
	t.Helper()
	var b map[string]any
	if err := json.Unmarshal(c.body, &b); err != nil || c.method != "POST" || c.path != "/tg/bot"+tgToken+"/sendMessage" ||
		c.ctype != "application/json" || len(b) != 2 || b["chat_id"] != "-100200" || !strings.Contains(fmt.Sprint(b["text"]), text) {
		t.Errorf("telegram got %s %s %s %s", c.method, c.path, c.ctype, c.body)
	}
}

// wantPushover checks one messages.json call: a form of token, user,
// title and message.
func wantPushover(t *testing.T, c chatCall, title, text string) {
	t.Helper()
	f, err := url.ParseQuery(string(c.body))
	if err != nil || c.method != "POST" || c.path != "/1/messages.json" || c.ctype != "application/x-www-form-urlencoded" || len(f) != 4 ||
		f.Get("token") != poToken || f.Get("user") != "uQiRzpo4DXghDmr9QzzfQu27cmVRsG" || f.Get("title") != title ||
		!strings.Contains(f.Get("message"), text) {
		t.Errorf("pushover got %s %s %s %s", c.method, c.path, c.ctype, c.body)
	}
}

// wantMatrix checks one m.room.message event and returns its
// transaction id: the room id escaped in the path, the token as bearer.
func wantMatrix(t *testing.T, c chatCall, text string) string {
	t.Helper()
	var b map[string]any
	prefix := "/mx/_matrix/client/v3/rooms/%21room%2F1:example.org/send/m.room.message/"
	txn, found := strings.CutPrefix(c.rawPath, prefix)
	if err := json.Unmarshal(c.body, &b); err != nil || c.method != "PUT" || !found || txn == "" || strings.Contains(txn, "/") ||
		c.auth != "Bearer "+mxToken || c.ctype != "application/json" || b["msgtype"] != "m.text" || !strings.Contains(fmt.Sprint(b["body"]), text) {
		t.Errorf("matrix got %s %s %s %s %s", c.method, c.rawPath, c.auth, c.ctype, c.body)
	}
	return txn
}

// byKind sorts calls by the service they went to.
func byKind(calls []chatCall) map[string][]chatCall {
	out := map[string][]chatCall{}
	for _, c := range calls {
		kind := "matrix"
		switch {
		case strings.HasPrefix(c.path, "/tg/"):
			kind = "telegram"
		case c.path == "/1/messages.json":
			kind = "pushover"
		}
		out[kind] = append(out[kind], c)
	}
	return out
}

// noSecrets fails if any of the three secrets is in s.
func noSecrets(t *testing.T, where, s string) {
	t.Helper()
	for _, secret := range []string{tgToken, poToken, mxToken, "TG-secret"} {
		if strings.Contains(s, secret) {
			t.Errorf("%s holds the secret %q: %s", where, secret, s)
		}
	}
}

// TestDigestToTelegramPushoverAndMatrix: the daily pass and the test send
// each make one request of each service, as it documents it; the sends
// are counted, and no answer holds a secret.
func TestDigestToTelegramPushoverAndMatrix(t *testing.T) {
	cs := newChatServer(t)
	e := newEnv(t)
	_, key := e.user("ada@example.com")
	e.birthday(key, "Zoë", 1990, 3, 15, true) // today, at the env's clock
	before, _ := e.scrape()
	for _, kind := range []string{"telegram", "pushover", "matrix"} {
		for _, name := range []string{`kith_reminders_sent_total{kind="` + kind + `"}`, `kith_reminders_failed_total{kind="` + kind + `"}`} {
			if v, ok := before[name]; !ok || v != 0 {
				t.Errorf("%s = %v (present: %v) before any send, want 0", name, v, ok)
			}
		}
	}
	ids := map[string]string{}
	for kind, q := range chatQueries(cs) {
		d := e.channel(key, q)
		noSecrets(t, "the creating answer", fmt.Sprint(d))
		if d["kind"] != kind || d["has_token"] != true || d["secret"] != nil {
			t.Errorf("%s channel %v", kind, d)
		}
		ids[kind] = fmt.Sprint(d["id"])
	}
	e.pass()
	got := byKind(cs.took())
	if len(got["telegram"]) != 1 || len(got["pushover"]) != 1 || len(got["matrix"]) != 1 {
		t.Fatalf("requests %v, want one of each", got)
	}
	wantTelegram(t, got["telegram"][0], "• Birthday of Zoë (36)")
	wantPushover(t, got["pushover"][0], "Kith: your reminders for Sunday 15 March", "• Birthday of Zoë (36)")
	first := wantMatrix(t, got["matrix"][0], "• Birthday of Zoë (36)")

	list := e.do(req{method: "GET", path: "/api/me/channels", key: key})
	noSecrets(t, "the list", list.body)
	for _, ch := range list.json(t)["data"].([]any) {
		ch := ch.(map[string]any)
		if ch["kind"] != "email" && (ch["last_sent_at"] == nil || ch["last_error"] != nil) {
			t.Errorf("after the pass: %v", ch)
		}
	}
	metrics, _ := e.scrape()
	for _, kind := range []string{"telegram", "pushover", "matrix"} {
		if metrics[`kith_reminders_sent_total{kind="`+kind+`"}`] != 1 || metrics[`kith_reminders_failed_total{kind="`+kind+`"}`] != 0 {
			t.Errorf("%s counted %v sent, %v failed", kind, metrics[`kith_reminders_sent_total{kind="`+kind+`"}`],
				metrics[`kith_reminders_failed_total{kind="`+kind+`"}`])
		}
	}
	// The test send: the sample, the same way; Matrix gets a new
	// transaction id, or the homeserver would drop it as a repeat.
	for kind, id := range ids {
		r := e.do(req{method: "POST", path: "/api/me/channels/" + id + "/test", key: key})
		if r.code != 200 || !strings.Contains(r.body, `"delivered":true`) {
			t.Errorf("test of %s: %d %s", kind, r.code, r.body)
		}
		noSecrets(t, "the test's answer", r.body)
	}
	got = byKind(cs.took())
	sample := "This is a test from Kith"
	wantTelegram(t, got["telegram"][0], sample)
	wantPushover(t, got["pushover"][0], "Kith (test): your reminders for Sunday 15 March", sample)
	if second := wantMatrix(t, got["matrix"][0], sample); second == first {
		t.Errorf("matrix got transaction id %q twice", first)
	}
	noSecrets(t, "the log", e.logs.String())
}

// TestChatChannelsRefused: a service that refuses the message, or says
// it did not take it, or cannot be reached, is a 422 of the test send and
// a channel's last error, retried and counted as failed; Telegram's
// token, which is in its URL, is in none of them, nor in the log.
func TestChatChannelsRefused(t *testing.T) {
	cs := newChatServer(t)
	e := newEnv(t)
	_, key := e.user("ada@example.com")
	e.birthday(key, "Grace", 1990, 3, 15, true)
	ids := map[string]string{}
	for kind, q := range chatQueries(cs) {
		ids[kind] = fmt.Sprint(e.channel(key, q)["id"])
	}
	test := func(kind string) resp {
		return e.do(req{method: "POST", path: "/api/me/channels/" + ids[kind] + "/test", key: key})
	}
	for _, tc := range []struct {
		name, kind string
		code       int
		body, want string
	}{
		{"bad bot token", "telegram", 401, `{"ok":false,"error_code":401,"description":"Unauthorized"}`, "telegram answered 401 Unauthorized"},
		{"ok false", "telegram", 200, `{"ok":false}`, `telegram did not take the message: its answer has no \"ok\":true`},
		{"not JSON", "telegram", 200, `<html>`, `telegram did not take the message`},
		{"bad user key", "pushover", 400, `{"user":"invalid","errors":["user identifier is invalid"],"status":0}`, "pushover answered 400 Bad Request"},
		{"status 0", "pushover", 200, `{"status":0}`, `pushover did not take the message: its answer has no \"status\":1`},
		{"not in the room", "matrix", 403, `{"errcode":"M_FORBIDDEN"}`, "matrix answered 403 Forbidden"},
	} {
		cs.answers(func(string) (int, string) { return tc.code, tc.body })
		r := test(tc.kind)
		if r.code != 422 || !strings.Contains(r.body, `"channel":["The channel could not deliver the test: `+tc.want) {
			t.Errorf("%s: %d %s", tc.name, r.code, r.body)
		}
		noSecrets(t, tc.name, r.body)
	}
	cs.answers(func(string) (int, string) { return 401, `{"ok":false}` })
	e.pass()
	metrics, _ := e.scrape()
	for _, kind := range []string{"telegram", "pushover", "matrix"} {
		if metrics[`kith_reminders_failed_total{kind="`+kind+`"}`] != 1 || metrics[`kith_reminders_sent_total{kind="`+kind+`"}`] != 0 {
			t.Errorf("%s: failures not counted: %v", kind, metrics)
		}
	}
	r := e.do(req{method: "GET", path: "/api/me/channels/" + ids["telegram"], key: key})
	if !strings.Contains(r.body, `"last_error":"telegram answered 401 Unauthorized"`) {
		t.Errorf("last error: %s", r.body)
	}

	// Unreachable: the server gone, so Go's error quotes the URL, token
	// and all, for the log.
	cs.Close()
	for kind := range ids {
		r := test(kind)
		if r.code != 422 || !strings.Contains(r.body, "The channel could not deliver the test: "+kind+" could not be reached") {
			t.Errorf("%s unreachable: %d %s", kind, r.code, r.body)
		}
		noSecrets(t, kind+"'s unreachable test", r.body)
	}
	e.clock.Advance(2 * time.Minute) // past the first retry's wait
	e.pass()
	list := e.do(req{method: "GET", path: "/api/me/channels", key: key})
	if n := strings.Count(list.body, `could not be reached"`); n != 3 {
		t.Errorf("%d last errors of unreachable channels: %s", n, list.body)
	}
	noSecrets(t, "the list", list.body)
	logs := e.logs.String()
	if !strings.Contains(logs, "/bot***/sendMessage") {
		t.Errorf("the log has no masked Telegram URL:\n%s", logs)
	}
	noSecrets(t, "the log", logs)
	if n := e.count(`SELECT count(*) FROM channels WHERE kind IN ('telegram', 'pushover', 'matrix') AND failures = 2`); n != 3 {
		t.Errorf("%d channels tried twice, want 3", n)
	}
}

// TestChatChannelValidation: what each kind requires, and what it
// refuses; nothing is stored.
func TestChatChannelValidation(t *testing.T) {
	e := newEnv(t)
	_, key := e.user("ada@example.com")
	post := func(q string) req { return req{method: "POST", path: "/api/me/channels?" + q, key: key} }
	long := strings.Repeat("1", 256)
	e.run(t, []scenario{
		{"telegram without a bot token", post("kind=telegram&chat_id=1"), 422, []string{`"bot_token":["The bot token field is required when kind is telegram."]`}},
		{"telegram's token in token", post("kind=telegram&chat_id=1&token=1:a"), 422, []string{`"bot_token":["The bot token field is required`}},
		{"telegram without a chat", post("kind=telegram&bot_token=1:a"), 422, []string{`"chat_id":["The chat id field is required when kind is telegram."]`}},
		{"a long chat id", post("kind=telegram&bot_token=1:a&chat_id=" + long), 422, []string{`"chat_id":["The chat id field must not be greater than 255 characters."]`}},
		{"telegram at ftp", post("kind=telegram&bot_token=1:a&chat_id=1&url=ftp://tg.example"), 422, []string{`"url":["The url field must be a valid URL."]`}},
		{"telegram, a password in the url", post("kind=telegram&bot_token=1:a&chat_id=1&url=https://u:p@tg.example"), 422,
			[]string{`"url":["The url field must not hold a user name or password: put a token in the bot token field."]`}},
		{"pushover without a user key", post("kind=pushover&app_token=a"), 422, []string{`"user_key":["The user key field is required when kind is pushover."]`}},
		{"pushover without an app token", post("kind=pushover&user_key=u"), 422, []string{`"app_token":["The app token field is required when kind is pushover."]`}},
		{"pushover, not a url", post("kind=pushover&user_key=u&app_token=a&url=pushover.example"), 422, []string{`"url":["The url field must be a valid URL."]`}},
		{"matrix without a homeserver", post("kind=matrix&access_token=a&room_id=!r:x"), 422, []string{`"url":["The url field is required when kind is matrix."]`}},
		{"matrix without a token", post("kind=matrix&url=https://m.example&room_id=!r:x"), 422, []string{`"access_token":["The access token field is required when kind is matrix."]`}},
		{"matrix without a room", post("kind=matrix&url=https://m.example&access_token=a"), 422, []string{`"room_id":["The room id field is required when kind is matrix."]`}},
		{"matrix, an alias", post("kind=matrix&url=https://m.example&access_token=a&room_id=%23kith:x"), 422, []string{`"room_id":["The room id field must start with !`}},
		{"chat id not a string", req{method: "POST", path: "/api/me/channels", key: key, body: `{"kind":"telegram","bot_token":"1:a","chat_id":[1]}`}, 422,
			[]string{`"chat_id":["The chat id field must be a string."]`}},
	})
	if n := e.count(`SELECT count(*) FROM channels`); n != 1 {
		t.Errorf("%d channels after only refusals, want the email one", n)
	}
	// A chat id as a JSON number is its digits; the public server is the
	// default, its url null.
	r := e.do(req{method: "POST", path: "/api/me/channels", key: key, body: `{"kind":"telegram","bot_token":"1:a","chat_id":-1001234}`})
	if r.code != 201 || !strings.Contains(r.body, `"chat_id":"-1001234"`) || !strings.Contains(r.body, `"url":null`) ||
		!strings.Contains(r.body, `"user_key":null,"room_id":null`) {
		t.Errorf("telegram by JSON: %d %s", r.code, r.body)
	}
}

// TestChatChannelSecretsAreWriteOnly: no answer holds a secret; a PUT
// that leaves it out keeps it, and the channel still sends with it; a
// PUT that makes a channel one of these kinds needs the secret, and one
// that makes it another kind does not carry the secret over. Another
// user's channel is not found.
func TestChatChannelSecretsAreWriteOnly(t *testing.T) {
	cs := newChatServer(t)
	e := newEnv(t)
	_, key := e.user("ada@example.com")
	_, bob := e.user("bob@example.com")
	qs := chatQueries(cs)
	for kind, q := range qs {
		id := fmt.Sprint(e.channel(key, q)["id"])
		for _, r := range []resp{
			e.do(req{method: "GET", path: "/api/me/channels/" + id, key: key}),
			e.do(req{method: "GET", path: "/api/me/channels", key: key}),
		} {
			noSecrets(t, "GET", r.body)
			if !strings.Contains(r.body, `"has_token":true`) {
				t.Errorf("%s: %s", kind, r.body)
			}
		}
		// The same kind, the secret left out, the name and chat changed.
		put := strings.NewReplacer("bot_token", "x_bot", "app_token", "x_app", "access_token", "x_access").Replace(q) + "&name=Phone"
		r := e.do(req{method: "PUT", path: "/api/me/channels/" + id + "?" + put, key: key})
		if r.code != 200 || !strings.Contains(r.body, `"has_token":true`) || !strings.Contains(r.body, `"name":"Phone"`) {
			t.Errorf("%s update: %d %s", kind, r.code, r.body)
		}
		noSecrets(t, "PUT", r.body)
		if r := e.do(req{method: "POST", path: "/api/me/channels/" + id + "/test", key: key}); r.code != 200 {
			t.Errorf("%s test after the update: %d %s", kind, r.code, r.body)
		}
		for _, r := range []req{
			{method: "GET", path: "/api/me/channels/" + id, key: bob},
			{method: "PUT", path: "/api/me/channels/" + id + "?" + q, key: bob},
			{method: "POST", path: "/api/me/channels/" + id + "/test", key: bob},
			{method: "DELETE", path: "/api/me/channels/" + id, key: bob},
		} {
			if got := e.do(r); got.code != 404 || !strings.Contains(got.body, "Channel not found.") {
				t.Errorf("bob's %s of %s: %d %s", r.method, kind, got.code, got.body)
			}
		}
	}
	got := byKind(cs.took())
	wantTelegram(t, got["telegram"][0], "This is a test")
	wantPushover(t, got["pushover"][0], "Kith (test): your reminders for Sunday 15 March", "This is a test")
	wantMatrix(t, got["matrix"][0], "This is a test")

	ntfy := fmt.Sprint(e.channel(key, "kind=ntfy&url=https://ntfy.sh/ada")["id"])
	tg := e.do(req{method: "GET", path: "/api/me/channels", key: key}).json(t)["data"].([]any)
	var tgID string
	for _, ch := range tg {
		if ch := ch.(map[string]any); ch["kind"] == "telegram" {
			tgID = fmt.Sprint(ch["id"])
		}
	}
	e.run(t, []scenario{
		{"ntfy to telegram needs the bot token", req{method: "PUT", path: "/api/me/channels/" + ntfy + "?kind=telegram&chat_id=1", key: key}, 422,
			[]string{`"bot_token":["The bot token field is required when kind changes to telegram."]`}},
		{"ntfy to pushover needs the app token", req{method: "PUT", path: "/api/me/channels/" + ntfy + "?kind=pushover&user_key=u", key: key}, 422,
			[]string{`"app_token":["The app token field is required when kind changes to pushover."]`}},
		{"ntfy to matrix needs the access token", req{method: "PUT", path: "/api/me/channels/" + ntfy + "?kind=matrix&room_id=!r:x&url=https://m.example", key: key}, 422,
			[]string{`"access_token":["The access token field is required when kind changes to matrix."]`}},
		{"telegram to ntfy leaves the bot token behind", req{method: "PUT", path: "/api/me/channels/" + tgID + "?kind=ntfy&url=https://ntfy.sh/ada", key: key}, 200,
			[]string{`"has_token":false`, `"chat_id":null`}},
	})
	if n := e.count(`SELECT count(*) FROM channels WHERE token = ?`, tgToken); n != 0 {
		t.Errorf("the bot token stayed with the ntfy channel")
	}
}

// TestPushoverMessageIsCut: Pushover takes 1024 characters: a longer
// digest is cut to 1024, the last of them "…".
func TestPushoverMessageIsCut(t *testing.T) {
	cs := newChatServer(t)
	e := newEnv(t)
	_, key := e.user("ada@example.com")
	for i := range 8 {
		e.birthday(key, fmt.Sprintf("Zoë%d%s", i, strings.Repeat("é", 180)), 1990, 3, 15, true)
	}
	e.channel(key, chatQueries(cs)["pushover"])
	e.pass()
	calls := cs.took()
	if len(calls) != 1 {
		t.Fatalf("%d calls", len(calls))
	}
	f, _ := url.ParseQuery(string(calls[0].body))
	msg := f.Get("message")
	if n := utf8.RuneCountInString(msg); n != 1024 || !strings.HasSuffix(msg, "é…") || !strings.HasPrefix(msg, "Today, Sunday 15 March\n• Birthday of Zoë0") {
		t.Errorf("message of %d characters: %q", n, msg)
	}
}
