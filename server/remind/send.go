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
	"net/url"
	"strings"
	"sync"
	"unicode/utf8"

	"kith/server/input"
	"kith/store"
)

// SignatureHeader carries a webhook body's HMAC-SHA256, keyed with the
// channel's secret: "sha256=" and the hex digest.
const SignatureHeader = "X-Kith-Signature"

// Sender posts digests to ntfy, Gotify, webhooks, Telegram, Pushover and
// Matrix: each is one request, so Kith makes them itself rather than link
// a notification library.
type Sender struct {
	// Client makes the requests; nil is NewClient(false). Whichever it
	// is, redirects are not followed.
	Client *http.Client
}

// defaultClient is made at the first send: cloning net/http's transport
// is work a start need not do.
var defaultClient = sync.OnceValue(func() *http.Client { return NewClient(false) })

// Send delivers m to one channel of an HTTP kind.
func (s Sender) Send(ctx context.Context, ch store.Channel, m Message) error {
	switch ch.Kind {
	case "telegram":
		return s.telegram(ctx, ch, m)
	case "pushover":
		return s.pushover(ctx, ch, m)
	}
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
	case "matrix":
		return s.matrix(ctx, ch, m)
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
	pub := map[string]any{"topic": topic, "title": m.Subject(), "message": m.Text(), "tags": []string{"calendar"}}
	if acts := ntfyActions(m.Days); len(acts) > 0 {
		pub["actions"] = acts
	}
	body, _ := json.Marshal(pub)
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

// ntfyActions are the digest's first three action links as ntfy's http
// buttons, which POST the link from the notification itself: ntfy shows
// no more than three.
func ntfyActions(days []Day) []map[string]any {
	var out []map[string]any
	for _, a := range firstActions(days, 3) {
		out = append(out, map[string]any{"action": "http", "label": a.Label, "url": a.URL, "method": a.Method, "clear": true})
	}
	return out
}

// WebhookBody is what a webhook receives, as JSON.
type WebhookBody struct {
	Object  string       `json:"object"` // "digest"
	Test    bool         `json:"test"`
	Date    string       `json:"date"`
	UserID  int64        `json:"user_id"`
	Subject string       `json:"subject"`
	Text    string       `json:"text"`
	Days    []WebhookDay `json:"days"`
}

// WebhookDay is a day of a webhook's digest: its items carry their
// action links, [] when they have none.
type WebhookDay struct {
	Date  string        `json:"date"`
	Items []WebhookItem `json:"items"`
}

// WebhookItem is an item with its action links.
type WebhookItem struct {
	Item
	Actions []ItemAction `json:"actions"`
}

func webhookDays(days []Day) []WebhookDay {
	out := make([]WebhookDay, len(days))
	for i, d := range days {
		out[i] = WebhookDay{Date: d.Date, Items: make([]WebhookItem, len(d.Items))}
		for j, it := range d.Items {
			acts := it.Actions
			if acts == nil {
				acts = []ItemAction{}
			}
			out[i].Items[j] = WebhookItem{Item: it, Actions: acts}
		}
	}
	return out
}

func (s Sender) webhook(ctx context.Context, ch store.Channel, m Message) error {
	if ch.Token == nil || *ch.Token == "" {
		return errors.New("webhook channel has no secret")
	}
	body, err := json.Marshal(WebhookBody{Object: "digest", Test: m.Test, Date: m.Date, UserID: m.UserID,
		Subject: m.Subject(), Text: m.Text(), Days: webhookDays(m.Days)})
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

// post makes one request and says how it went in words fit for the
// user: the status an answer had, never its body, and one message for
// every way of not getting an answer. A channel's URL can point anywhere
// Kith can reach, its own network included, so what comes back must not
// show a host's pages or tell its open ports from its closed ones. The
// cause stays in the SendError, for the log.
func (s Sender) post(ctx context.Context, kind, target string, h http.Header, body []byte) error {
	_, err := s.request(ctx, kind, http.MethodPost, target, h, body, "")
	return err
}

// request is post for any method, and returns the start of the answer's
// body for a caller that checks it. secret, when not "", is in target's
// path (Telegram's bot token): Go's errors quote the URL, so it is masked
// in the cause the log gets.
func (s Sender) request(ctx context.Context, kind, method, target string, h http.Header, body []byte, secret string) ([]byte, error) {
	req, err := http.NewRequestWithContext(ctx, method, target, bytes.NewReader(body))
	if err != nil {
		return nil, &SendError{Msg: kind + " has an address Kith cannot use", Cause: masked(err, secret)}
	}
	req.Header = h
	req.Header.Set("User-Agent", "Kith")
	client := s.Client
	if client == nil {
		client = defaultClient()
	}
	// Whatever client is given, a redirect is answered, not followed:
	// followed, it would take the signature or the token to a host the
	// user did not name (and a 303 would turn the POST into a GET).
	c := *client
	c.CheckRedirect = refuseRedirects
	resp, err := c.Do(req)
	if errors.Is(err, ErrPrivateAddress) {
		return nil, &SendError{Msg: kind + "'s address is private or local, and this Kith server sends only to public addresses", Cause: masked(err, secret)}
	}
	if err != nil {
		return nil, &SendError{Msg: kind + " could not be reached", Cause: masked(err, secret)}
	}
	defer resp.Body.Close()
	// Read a little of the body, so that the connection can be used again
	// and a caller can read the service's verdict.
	answer, _ := io.ReadAll(io.LimitReader(resp.Body, 64<<10))
	if resp.StatusCode/100 == 2 {
		return answer, nil
	}
	// The code and Go's words for it: the reason phrase is the host's text.
	msg := strings.TrimSpace(fmt.Sprintf("%s answered %d %s", kind, resp.StatusCode, http.StatusText(resp.StatusCode)))
	if resp.StatusCode/100 == 3 {
		msg += ": Kith does not follow redirects, so give the address it leads to"
	}
	return nil, &SendError{Msg: msg}
}

// masked is err with secret, as written or path-escaped, replaced by ***.
func masked(err error, secret string) error {
	if secret == "" {
		return err
	}
	text := strings.ReplaceAll(err.Error(), secret, "***")
	text = strings.ReplaceAll(text, url.PathEscape(secret), "***")
	return errors.New(text)
}

// SendError is why a channel did not take a digest: Msg for the user (the
// test's answer, the channel's last error), Cause for the log.
type SendError struct {
	Msg   string
	Cause error
}

func (e *SendError) Error() string { return e.Msg }
func (e *SendError) Unwrap() error { return e.Cause }

// LogCause is the cause behind err for the operator's log: more than the
// user is shown. It is nil when there is nothing more.
func LogCause(err error) error {
	var se *SendError
	if errors.As(err, &se) {
		return se.Cause
	}
	return nil
}

func refuseRedirects(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }

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
