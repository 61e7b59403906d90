package remind

import (
	"context"
	"crypto/rand"
	"encoding/json"
	"errors"
	"net/http"
	"net/url"
	"strings"

	"kith/store"
)

// Telegram, Pushover and Matrix get the digest as one message of plain
// text, the subject aside (Pushover has a title for it); they carry no
// action links.

// The public servers of Telegram's Bot API and of Pushover, for the
// channels that name no server of their own.
const (
	telegramServer = "https://api.telegram.org"
	pushoverServer = "https://api.pushover.net"
)

// The longest message each service takes: Telegram's 4096 characters
// (counted as UTF-16 units, as Telegram counts), Pushover's 1024.
const (
	telegramMax = 4096
	pushoverMax = 1024
)

func (s Sender) telegram(ctx context.Context, ch store.Channel, m Message) error {
	if ch.Token == nil || ch.ChatID == nil {
		return errors.New("telegram channel has no bot token or chat id")
	}
	target, err := endpoint(ch.URL, telegramServer, "bot"+*ch.Token, "sendMessage")
	if err != nil {
		// err quotes the URL, token and all: the log gets no more than this.
		return &SendError{Msg: "telegram has an address Kith cannot use"}
	}
	body, _ := json.Marshal(map[string]string{"chat_id": *ch.ChatID, "text": cut(m.Text(), telegramMax, utf16Units)})
	answer, err := s.request(ctx, "telegram", http.MethodPost, target, http.Header{"Content-Type": {"application/json"}}, body, *ch.Token)
	if err != nil {
		return err
	}
	var verdict struct {
		OK bool `json:"ok"`
	}
	if json.Unmarshal(answer, &verdict) != nil || !verdict.OK {
		return &SendError{Msg: `telegram did not take the message: its answer has no "ok":true`}
	}
	return nil
}

func (s Sender) pushover(ctx context.Context, ch store.Channel, m Message) error {
	if ch.Token == nil || ch.UserKey == nil {
		return errors.New("pushover channel has no app token or user key")
	}
	target, err := endpoint(ch.URL, pushoverServer, "1", "messages.json")
	if err != nil {
		return &SendError{Msg: "pushover has an address Kith cannot use", Cause: err}
	}
	form := url.Values{"token": {*ch.Token}, "user": {*ch.UserKey}, "title": {m.Subject()},
		"message": {cut(m.Text(), pushoverMax, oneUnit)}}
	h := http.Header{"Content-Type": {"application/x-www-form-urlencoded"}}
	answer, err := s.request(ctx, "pushover", http.MethodPost, target, h, []byte(form.Encode()), "")
	if err != nil {
		return err
	}
	var verdict struct {
		Status int `json:"status"`
	}
	if json.Unmarshal(answer, &verdict) != nil || verdict.Status != 1 {
		return &SendError{Msg: `pushover did not take the message: its answer has no "status":1`}
	}
	return nil
}

// matrix sends an m.room.message event to the room, as the user the
// access token is of. Each event has a transaction id of its own: the
// homeserver takes a repeated one as the same event, sent once.
func (s Sender) matrix(ctx context.Context, ch store.Channel, m Message) error {
	if ch.Token == nil || ch.RoomID == nil {
		return errors.New("matrix channel has no access token or room id")
	}
	target, err := endpoint(ch.URL, "", "_matrix", "client", "v3", "rooms", *ch.RoomID, "send", "m.room.message", "kith-"+rand.Text())
	if err != nil {
		return &SendError{Msg: "matrix has an address Kith cannot use", Cause: err}
	}
	body, _ := json.Marshal(map[string]string{"msgtype": "m.text", "body": m.Text()})
	h := http.Header{"Content-Type": {"application/json"}, "Authorization": {"Bearer " + *ch.Token}}
	_, err = s.request(ctx, "matrix", http.MethodPut, target, h, body, "")
	return err
}

// endpoint is the server's URL (base, or def when base is nil) with the
// segments added to its path, each path-escaped: a path the server's URL
// has (a proxy's prefix) is kept, a trailing slash is not doubled.
func endpoint(base *string, def string, segments ...string) (string, error) {
	raw := def
	if base != nil {
		raw = *base
	}
	u, err := url.Parse(raw)
	if err != nil {
		return "", err
	}
	path := strings.TrimSuffix(u.EscapedPath(), "/")
	for _, seg := range segments {
		path += "/" + url.PathEscape(seg)
	}
	if u.Path, err = url.PathUnescape(path); err != nil {
		return "", err
	}
	u.RawPath = path
	return u.String(), nil
}

func oneUnit(rune) int { return 1 }

// utf16Units is how many UTF-16 units r takes: two beyond the BMP.
func utf16Units(r rune) int {
	if r > 0xFFFF {
		return 2
	}
	return 1
}

// cut shortens s to at most n characters, as size counts them, the last
// of them "…" when it had to be cut.
func cut(s string, n int, size func(rune) int) string {
	total := 0
	for _, r := range s {
		total += size(r)
	}
	if total <= n {
		return s
	}
	used := size('…')
	for i, r := range s {
		if used+size(r) > n {
			return s[:i] + "…"
		}
		used += size(r)
	}
	return s
}
