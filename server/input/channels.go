package input

import (
	"crypto/rand"
	"errors"
	"fmt"
	"net/url"
	"strings"

	"kith/store"
)

// ChannelKinds are where a digest can go.
var ChannelKinds = []string{"email", "ntfy", "gotify", "webhook", "telegram", "pushover", "matrix"}

// channelSecrets name the field of the kinds whose secret has a name of
// its own; the others' is "token".
var channelSecrets = map[string]string{"telegram": "bot_token", "pushover": "app_token", "matrix": "access_token"}

// SecretField is the field that carries a channel of kind's secret.
func SecretField(kind string) string {
	if f, ok := channelSecrets[kind]; ok {
		return f
	}
	return "token"
}

// needsSecret: a channel of these kinds cannot send without its secret.
// A webhook needs one too, but Kith makes it when none is given.
func needsSecret(kind string) bool {
	return kind == "gotify" || channelSecrets[kind] != ""
}

// Channel reads a channel, the same on create and on update. The
// secret is write-only: on update, leaving it out keeps the one there.
func Channel(p *Params, creating bool) store.ChannelInput {
	in := store.ChannelInput{
		Kind:           p.OneOf("kind", ChannelKinds, ""),
		Name:           p.Text("name", 255),
		Enabled:        true,
		KeepOlderToken: !creating,
	}
	if in.Kind == "" && !p.Failed("kind") {
		p.Fail("kind", "The kind field is required.")
	}
	if b := p.Boolean("enabled"); b != nil {
		in.Enabled = *b
	}
	if in.Kind == "email" {
		// The user's own address: nothing to set.
		return in
	}
	secret := SecretField(in.Kind)
	in.URL = p.Text("url", 2048)
	in.Token = p.Text(secret, 512)
	// Telegram and Pushover have public servers to go to by default.
	urlOptional := in.Kind == "telegram" || in.Kind == "pushover"
	switch {
	case in.URL == nil && !p.Failed("url") && in.Kind != "" && !urlOptional:
		p.Fail("url", "The url field is required when kind is "+in.Kind+".")
	case in.URL != nil && !webURL(*in.URL):
		p.Fail("url", "The url field must be a valid URL.")
	case in.URL != nil && hasUserinfo(*in.URL):
		// It would be shown back in every answer, and sent as Basic
		// authentication: the token field is where a secret goes.
		p.Fail("url", "The url field must not hold a user name or password: put a token in the "+Attr(secret)+" field.")
	case in.URL != nil && in.Kind == "ntfy":
		if _, _, err := SplitTopic(*in.URL); err != nil {
			p.Fail("url", "The url field must end with the ntfy topic, as in https://ntfy.sh/your-topic.")
		}
	}
	if needsSecret(in.Kind) && in.Token == nil && creating && !p.Failed(secret) {
		p.Fail(secret, "The "+Attr(secret)+" field is required when kind is "+in.Kind+".")
	}
	if in.Kind == "webhook" && in.Token != nil && len(*in.Token) < 16 {
		p.Fail("token", "The token field must be at least 16 characters.")
	}
	switch in.Kind {
	case "telegram":
		in.ChatID = requiredFor(p, "chat_id", in.Kind)
	case "pushover":
		in.UserKey = requiredFor(p, "user_key", in.Kind)
	case "matrix":
		in.RoomID = requiredFor(p, "room_id", in.Kind)
		if in.RoomID != nil && !strings.HasPrefix(*in.RoomID, "!") {
			// An alias (#room:server) would need a lookup first; the
			// room's id is in its settings, under Advanced.
			p.Fail("room_id", "The room id field must start with ! (the room's id, not its #alias).")
			in.RoomID = nil
		}
	}
	return in
}

// requiredFor is text of at most 255 characters that a channel of kind
// must have.
func requiredFor(p *Params, key, kind string) *string {
	s := p.Text(key, 255)
	if s == nil && !p.Failed(key) {
		p.Fail(key, "The "+Attr(key)+" field is required when kind is "+kind+".")
	}
	return s
}

// ChannelUpdate reads an update of old: Channel's rules, and a channel
// that changes kind keeps no secret of the old kind: a Telegram bot's
// token must not become an ntfy server's bearer token. A kind that needs
// a secret then needs it given. A secret left out otherwise keeps the
// one there.
func ChannelUpdate(p *Params, old store.Channel) store.ChannelInput {
	in := Channel(p, false)
	if in.Kind == old.Kind {
		return in
	}
	in.KeepOlderToken = false
	secret := SecretField(in.Kind)
	if in.Token == nil && (needsSecret(in.Kind) || in.Kind == "webhook") && !p.Failed(secret) {
		p.Fail(secret, "The "+Attr(secret)+" field is required when kind changes to "+in.Kind+".")
	}
	return in
}

func hasUserinfo(raw string) bool {
	u, err := url.Parse(raw)
	return err == nil && u.User != nil
}

// ShownURL is a channel's URL as answers show it: a user name and
// password in it, from before they were refused, become "***".
func ShownURL(raw *string) *string {
	if raw == nil {
		return nil
	}
	u, err := url.Parse(*raw)
	if err != nil || u.User == nil {
		return raw
	}
	u.User = nil
	scheme, rest, _ := strings.Cut(u.String(), "//")
	shown := scheme + "//***@" + rest
	return &shown
}

// SignWebhook gives a webhook sent without a token a signing secret of
// its own, and returns it ("" when none was made): it is shown once.
func SignWebhook(in *store.ChannelInput) string {
	if in.Kind != "webhook" || in.Token != nil {
		return ""
	}
	secret := rand.Text() + rand.Text()
	in.Token = &secret
	return secret
}

// ChannelError turns a second email channel, or one channel too many,
// into the 422 a client can act on.
func ChannelError(err error) error {
	switch {
	case errors.Is(err, store.ErrEmailChannelTaken):
		return Invalid("kind", "You already have an email channel.")
	case errors.Is(err, store.ErrTooManyChannels):
		return Invalid("kind", fmt.Sprintf("You have %d channels, the most there can be: delete one to add another.", store.MaxChannels))
	}
	return err
}

// SplitTopic reads an ntfy topic URL, https://ntfy.sh/mytopic, as the
// server and the topic.
func SplitTopic(raw string) (base, topic string, err error) {
	u, err := url.Parse(raw)
	if err != nil {
		return "", "", err
	}
	path := strings.TrimSuffix(u.Path, "/")
	i := strings.LastIndex(path, "/")
	if i < 0 || path[i+1:] == "" {
		return "", "", errors.New("an ntfy url ends with its topic: https://ntfy.sh/your-topic")
	}
	topic = path[i+1:]
	u.Path, u.RawPath, u.RawQuery, u.Fragment = path[:i]+"/", "", "", ""
	return u.String(), topic, nil
}
