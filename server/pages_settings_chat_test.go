package server

import (
	"net/http"
	"net/url"
	"regexp"
	"strings"
	"testing"
)

// TestWebChatChannels: the Reminders page adds Telegram, Pushover and
// Matrix channels by their labelled fields, refuses by the API's rules
// beside the field that was wrong, never draws a secret back, edits them
// keeping the secret left empty, and sends each a test.
func TestWebChatChannels(t *testing.T) {
	cs := newChatServer(t)
	e := newEnv(t)
	e.user("ada@example.com")
	b := e.signIn(t, "ada@example.com")
	pg := b.get("/settings/reminders")
	for _, label := range []string{"Bot token", "Chat ID", "User key", "App token", "Homeserver", "Access token", "Room ID", "Server address (optional)"} {
		pg.has(t, ">"+label+"<")
	}
	for _, name := range []string{"bot_token", "app_token", "access_token"} {
		pg.has(t, `<input type="password" id="channel-`+name+`" name="`+name+`" value=""`)
	}
	pg.has(t, `<option value="telegram">Telegram</option>`, `data-for="telegram pushover"`, `data-for="matrix"`)

	for _, tc := range []struct {
		name string
		form url.Values
		want string
	}{
		{"matrix without a homeserver", url.Values{"kind": {"matrix"}, "access_token": {mxToken}, "room_id": {"!r:x"}},
			`id="channel-homeserver-err">The homeserver field is required when kind is matrix.`},
		{"telegram at a bad server", url.Values{"kind": {"telegram"}, "bot_token": {tgToken}, "chat_id": {"1"}, "server": {"ftp://x"}},
			`id="channel-server-err">The server address field must be a valid URL.`},
		{"pushover without a user key", url.Values{"kind": {"pushover"}, "app_token": {poToken}},
			`id="channel-user_key-err">The user key field is required when kind is pushover.`},
		{"matrix with an alias", url.Values{"kind": {"matrix"}, "homeserver": {cs.URL}, "access_token": {mxToken}, "room_id": {"#kith:x"}},
			`id="channel-room_id-err">The room id field must start with !`},
	} {
		pg := b.post("/settings/channels", tc.form)
		if pg.code != http.StatusUnprocessableEntity {
			t.Fatalf("%s: %d", tc.name, pg.code)
		}
		pg.has(t, tc.want)
		noSecrets(t, tc.name, pg.body)
	}

	adds := []url.Values{
		{"kind": {"telegram"}, "name": {"Chat"}, "bot_token": {tgToken}, "chat_id": {"-100200"}, "server": {cs.URL + "/tg"},
			"url": {"https://ignored.example"}, "token": {"ignored-token"}, "enabled": {"0", "1"}},
		{"kind": {"pushover"}, "user_key": {"uQiRzpo4DXghDmr9QzzfQu27cmVRsG"}, "app_token": {poToken}, "server": {cs.URL}, "enabled": {"0", "1"}},
		{"kind": {"matrix"}, "homeserver": {cs.URL + "/mx"}, "access_token": {mxToken}, "room_id": {"!room/1:example.org"}, "enabled": {"0", "1"}},
	}
	for _, form := range adds {
		pg := b.post("/settings/channels", form)
		if pg.code != http.StatusSeeOther {
			t.Fatalf("add %s: %d %s", form.Get("kind"), pg.code, pg.body)
		}
	}
	pg = b.get("/settings/reminders")
	pg.has(t, "Chat -100200 on "+cs.URL+"/tg", "User uQiRzpo4DXghDmr9QzzfQu27cmVRsG on "+cs.URL, "Room !room/1:example.org on "+cs.URL+"/mx")
	noSecrets(t, "the page", pg.body)
	if n := e.count(`SELECT count(*) FROM channels WHERE kind = 'telegram' AND token = ? AND url = ? AND chat_id = '-100200'`, tgToken, cs.URL+"/tg"); n != 1 {
		t.Errorf("the telegram channel was not stored as given")
	}
	ids := regexp.MustCompile(`/settings/channels/(\d+)/test`).FindAllStringSubmatch(pg.body, -1)
	if len(ids) != 4 {
		t.Fatalf("want four channels: %v", ids)
	}
	for _, m := range ids[1:] {
		pg := b.post("/settings/channels/"+m[1]+"/test", nil)
		if pg.code != http.StatusSeeOther {
			t.Fatalf("test %s: %d %s", m[1], pg.code, pg.body)
		}
		b.follow(pg).has(t, "Test sent")
	}
	got := byKind(cs.took())
	wantTelegram(t, got["telegram"][0], "This is a test")
	wantPushover(t, got["pushover"][0], "Kith (test): your reminders for Sunday 15 March", "This is a test")
	wantMatrix(t, got["matrix"][0], "This is a test")

	// A failing test says why beside the channel, without the token.
	cs.answers(func(string) (int, string) { return 401, `{"ok":false}` })
	pg = b.post("/settings/channels/"+ids[1][1]+"/test", nil)
	pg.has(t, "The channel could not deliver the test: telegram answered 401 Unauthorized")
	noSecrets(t, "the failed test", pg.body)
	cs.answers(nil)
	cs.took()

	// Edited: the kind's fields, the secret empty and kept.
	tg := ids[1][1]
	pg = b.get("/settings/channels/" + tg + "/edit")
	pg.has(t, `value="-100200"`, `value="`+cs.URL+`/tg"`, ">Bot token<", "Empty keeps the token", ">Server address (optional)<")
	pg.lacks(t, ">Room ID<", ">Token<", `data-for=`)
	noSecrets(t, "the edit page", pg.body)
	pg = b.post("/settings/channels/"+tg, url.Values{"name": {"Chat"}, "chat_id": {"@news"}, "server": {cs.URL + "/tg"}, "bot_token": {""}})
	if pg.code != http.StatusSeeOther {
		t.Fatalf("save: %d %s", pg.code, pg.body)
	}
	if n := e.count(`SELECT count(*) FROM channels WHERE id = ? AND token = ? AND chat_id = '@news'`, tg, tgToken); n != 1 {
		t.Errorf("the empty bot token did not keep the old one")
	}
	b.get("/settings")
	pg = b.post("/settings/channels/"+ids[3][1], url.Values{"homeserver": {"matrix.example"}, "room_id": {"!r:x"}, "access_token": {"new-" + mxToken}})
	if pg.code != http.StatusUnprocessableEntity {
		t.Fatalf("bad homeserver: %d", pg.code)
	}
	pg.has(t, `id="channel-edit-homeserver-err">The homeserver field must be a valid URL.`)
	if strings.Contains(pg.body, "new-"+mxToken) {
		t.Errorf("the access token was drawn back")
	}
	b.get("/settings")
	b.post("/settings/channels/"+tg+"/test", nil)
	if got := byKind(cs.took()); len(got["telegram"]) != 1 || !strings.Contains(string(got["telegram"][0].body), `"chat_id":"@news"`) {
		t.Errorf("after the edit, telegram got %v", got)
	}
}
