package remind

import (
	"crypto/hmac"
	"crypto/sha256"
	"encoding/base64"
	"errors"
	"strconv"
	"strings"

	"kith/store"
)

// Action is what a digest's action link does: store.ActionLink without
// the hash, plus when the link stops working.
type Action struct {
	UserID int64
	Do     string // store.ActionMarkDone, ActionLogCall, ActionSnooze
	// Kind is the digest item's kind; Ref its row: the task, the person
	// due for a call, the date, event, reminder or birthday's person.
	Kind string
	Ref  int64
	// Day is the occurrence a snooze moves, YYYY-MM-DD; empty otherwise.
	Day string
	// Expires is the Unix second the link stops working.
	Expires int64
	// Title is the item's line in the digest, which the link's page
	// names: the row may have changed or gone by the time it is opened.
	Title string
}

// titleCut is how many characters of an item's title a token carries.
const titleCut = 120

// The labels of the actions, as the person reads them.
var actionLabels = map[string]string{
	store.ActionMarkDone: "Mark done",
	store.ActionLogCall:  "Log a call",
	store.ActionSnooze:   "Snooze a week",
}

// Label is the action's button text.
func (a Action) Label() string { return actionLabels[a.Do] }

// ErrActionToken is Open's answer for a token that is not one of ours:
// malformed, altered, or signed with another key.
var ErrActionToken = errors.New("remind: not a valid action link")

// tokenVersion starts every payload, so that a later format can be told apart.
const tokenVersion = "1"

// SignAction makes a's token: its fields in plain text, base64url, and an
// HMAC-SHA-256 of them under key. One path segment of URL-safe characters.
func SignAction(key []byte, a Action) string {
	payload := strings.Join([]string{tokenVersion, strconv.FormatInt(a.UserID, 10), a.Do, a.Kind,
		strconv.FormatInt(a.Ref, 10), a.Day, strconv.FormatInt(a.Expires, 10), cut(a.Title, titleCut, oneUnit)}, "|")
	p := base64.RawURLEncoding.EncodeToString([]byte(payload))
	return p + "." + base64.RawURLEncoding.EncodeToString(actionMAC(key, p))
}

func actionMAC(key []byte, p string) []byte {
	m := hmac.New(sha256.New, key)
	m.Write([]byte(p))
	return m.Sum(nil)
}

// OpenAction checks a token's signature under key and reads its action;
// whether it expired or was used is the caller's to ask.
func OpenAction(key []byte, token string) (Action, error) {
	p, sig, ok := strings.Cut(token, ".")
	if !ok {
		return Action{}, ErrActionToken
	}
	mac, err := base64.RawURLEncoding.DecodeString(sig)
	if err != nil || !hmac.Equal(mac, actionMAC(key, p)) {
		return Action{}, ErrActionToken
	}
	raw, err := base64.RawURLEncoding.DecodeString(p)
	if err != nil {
		return Action{}, ErrActionToken
	}
	f := strings.SplitN(string(raw), "|", 8)
	if len(f) != 8 || f[0] != tokenVersion || actionLabels[f[2]] == "" {
		return Action{}, ErrActionToken
	}
	a := Action{Do: f[2], Kind: f[3], Day: f[5], Title: f[7]}
	var e1, e2, e3 error
	a.UserID, e1 = strconv.ParseInt(f[1], 10, 64)
	a.Ref, e2 = strconv.ParseInt(f[4], 10, 64)
	a.Expires, e3 = strconv.ParseInt(f[6], 10, 64)
	if e1 != nil || e2 != nil || e3 != nil {
		return Action{}, ErrActionToken
	}
	return a, nil
}

// TokenHash is what the store keeps of a used token.
func TokenHash(token string) []byte {
	h := sha256.Sum256([]byte(token))
	return h[:]
}
