package remind

import (
	"bytes"
	"context"
	"crypto/hmac"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"strings"
	"time"
	"unicode/utf8"

	"kith/server/input"
	"kith/store"
)

// SignatureHeader carries a webhook body's HMAC-SHA256, keyed with the
// channel's secret: "sha256=" and the hex digest.
const SignatureHeader = "X-Kith-Signature"

// Sender posts digests to ntfy, Gotify and webhooks: each is one POST, so
// Kith makes them itself rather than link a notification library.
type Sender struct {
	// Client makes the requests; nil is one with a 15-second timeout.
	Client *http.Client
}

var defaultClient = &http.Client{Timeout: 15 * time.Second}

// Send delivers m to one channel of an HTTP kind.
func (s Sender) Send(ctx context.Context, ch store.Channel, m Message) error {
	if ch.URL == nil {
		return fmt.Errorf("%s channel has no url", ch.Kind)
	}
	switch ch.Kind {
	case "ntfy":
		return s.ntfy(ctx, ch, m)
	case "gotify":
		return s.gotify(ctx, ch, m)
	case "webhook":
		return s.webhook(ctx, ch, m)
	}
	return fmt.Errorf("no sender for %q channels", ch.Kind)
}

// ntfy publishes as JSON to the server's root, which takes the topic in
// the body: a title in a header could not hold a name like "Zoë".
func (s Sender) ntfy(ctx context.Context, ch store.Channel, m Message) error {
	base, topic, err := input.SplitTopic(*ch.URL)
	if err != nil {
		return err
	}
	body, _ := json.Marshal(map[string]any{"topic": topic, "title": m.Subject(), "message": m.Text(),
		"tags": []string{"calendar"}})
	h := http.Header{"Content-Type": {"application/json"}}
	if ch.Token != nil && *ch.Token != "" {
		h.Set("Authorization", "Bearer "+*ch.Token)
	}
	return s.post(ctx, "ntfy", base, h, body)
}

func (s Sender) gotify(ctx context.Context, ch store.Channel, m Message) error {
	if ch.Token == nil || *ch.Token == "" {
		return errors.New("gotify channel has no application token")
	}
	body, _ := json.Marshal(map[string]any{"title": m.Subject(), "message": m.Text(), "priority": 5})
	h := http.Header{"Content-Type": {"application/json"}, "X-Gotify-Key": {*ch.Token}}
	return s.post(ctx, "gotify", strings.TrimSuffix(*ch.URL, "/")+"/message", h, body)
}

// WebhookBody is what a webhook receives, as JSON.
type WebhookBody struct {
	Object  string `json:"object"` // "digest"
	Test    bool   `json:"test"`
	Date    string `json:"date"`
	UserID  int64  `json:"user_id"`
	Subject string `json:"subject"`
	Text    string `json:"text"`
	Days    []Day  `json:"days"`
}

func (s Sender) webhook(ctx context.Context, ch store.Channel, m Message) error {
	if ch.Token == nil || *ch.Token == "" {
		return errors.New("webhook channel has no secret")
	}
	body, err := json.Marshal(WebhookBody{Object: "digest", Test: m.Test, Date: m.Date, UserID: m.UserID,
		Subject: m.Subject(), Text: m.Text(), Days: m.Days})
	if err != nil {
		return err
	}
	h := http.Header{"Content-Type": {"application/json"}, SignatureHeader: {Sign(*ch.Token, body)}}
	return s.post(ctx, "webhook", *ch.URL, h, body)
}

// Sign is the signature header's value for body under secret.
func Sign(secret string, body []byte) string {
	mac := hmac.New(sha256.New, []byte(secret))
	mac.Write(body)
	return "sha256=" + hex.EncodeToString(mac.Sum(nil))
}

func (s Sender) post(ctx context.Context, kind, target string, h http.Header, body []byte) error {
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, target, bytes.NewReader(body))
	if err != nil {
		return fmt.Errorf("%s: %w", kind, err)
	}
	req.Header = h
	req.Header.Set("User-Agent", "Kith")
	client := s.Client
	if client == nil {
		client = defaultClient
	}
	resp, err := client.Do(req)
	if err != nil {
		return fmt.Errorf("%s: %w", kind, err)
	}
	defer resp.Body.Close()
	if resp.StatusCode/100 == 2 {
		io.Copy(io.Discard, io.LimitReader(resp.Body, 64<<10))
		return nil
	}
	snippet, _ := io.ReadAll(io.LimitReader(resp.Body, 200))
	return fmt.Errorf("%s answered %s: %s", kind, resp.Status, Clip(strings.TrimSpace(string(snippet)), 200))
}

// Clip shortens s to at most n bytes on a character boundary.
func Clip(s string, n int) string {
	if len(s) <= n {
		return s
	}
	for n > 0 && !utf8.RuneStart(s[n]) {
		n--
	}
	return s[:n] + "…"
}
