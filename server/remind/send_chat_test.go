package remind

import (
	"context"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"unicode/utf16"
	"unicode/utf8"

	"kith/store"
)

func TestCut(t *testing.T) {
	for _, tc := range []struct {
		in   string
		n    int
		size func(rune) int
		want string
	}{
		{"abc", 3, oneUnit, "abc"},
		{"abcd", 3, oneUnit, "ab…"},
		{"ééé", 3, oneUnit, "ééé"},
		{"éééé", 3, oneUnit, "éé…"},
		{"a😀b", 4, utf16Units, "a😀b"},
		{"a😀bc", 4, utf16Units, "a😀…"},
		{"ab😀c", 4, utf16Units, "ab…"}, // the emoji would not fit beside "…"
	} {
		if got := cut(tc.in, tc.n, tc.size); got != tc.want {
			t.Errorf("cut(%q, %d) = %q, want %q", tc.in, tc.n, got, tc.want)
		}
	}
}

func TestEndpoint(t *testing.T) {
	s := func(v string) *string { return &v }
	for _, tc := range []struct {
		base *string
		segs []string
		want string
	}{
		{nil, []string{"bot1:a", "sendMessage"}, "https://api.telegram.org/bot1:a/sendMessage"},
		{s("https://proxy.example/tg"), []string{"bot1:a", "sendMessage"}, "https://proxy.example/tg/bot1:a/sendMessage"},
		{s("https://proxy.example/tg/"), []string{"1", "messages.json"}, "https://proxy.example/tg/1/messages.json"},
		{s("http://m.example:8008/a%20b"), []string{"rooms", "!r/x:m.example"}, "http://m.example:8008/a%20b/rooms/%21r%2Fx:m.example"},
	} {
		if got, err := endpoint(tc.base, telegramServer, tc.segs...); err != nil || got != tc.want {
			t.Errorf("endpoint(%v, %q) = %q, %v, want %q", tc.base, tc.segs, got, err, tc.want)
		}
	}
}

// TestTelegramTextIsCut: a digest longer than Telegram takes is cut to
// 4096 characters, the last of them "…".
func TestTelegramTextIsCut(t *testing.T) {
	var text string
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		var b struct{ Text string }
		body, _ := io.ReadAll(r.Body)
		json.Unmarshal(body, &b)
		text = b.Text
		io.WriteString(w, `{"ok":true}`)
	}))
	defer srv.Close()
	items := make([]Item, 300)
	for i := range items {
		items[i] = Item{Title: "Birthday of Zoë 😀 Lovelace (36)"}
	}
	m := Message{Date: "2026-03-15", Days: []Day{{Date: "2026-03-15", Items: items}}}
	tok, chat := "1:a", "7"
	ch := store.Channel{Kind: "telegram", URL: &srv.URL, Token: &tok, ChatID: &chat}
	if err := (Sender{}).Send(context.Background(), ch, m); err != nil {
		t.Fatal(err)
	}
	if n := len(utf16.Encode([]rune(text))); n > 4096 || n < 4090 || !strings.HasSuffix(text, "…") || !utf8.ValidString(text) ||
		!strings.HasPrefix(text, "Today, Sunday 15 March\n• Birthday of Zoë 😀") {
		t.Errorf("text of %d UTF-16 units: …%q", n, text[len(text)-40:])
	}
}
