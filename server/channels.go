package server

import (
	"crypto/rand"
	"errors"
	"net/http"

	"github.com/labstack/echo/v4"

	"kith/server/remind"
	"kith/store"
)

// channelKinds are where a digest can go.
var channelKinds = []string{"email", "ntfy", "gotify", "webhook"}

type channelJSON struct {
	ID       int64   `json:"id"`
	Object   string  `json:"object"`
	Kind     string  `json:"kind"`
	Name     *string `json:"name"`
	URL      *string `json:"url"`
	Enabled  bool    `json:"enabled"`
	HasToken bool    `json:"has_token"`
	// Secret is a webhook's signing key, shown once: when Kith made it.
	Secret      *string `json:"secret,omitempty"`
	LastSentAt  *int64  `json:"last_sent_at"`
	LastError   *string `json:"last_error"`
	LastErrorAt *int64  `json:"last_error_at"`
	CreatedAt   int64   `json:"created_at"`
	UpdatedAt   int64   `json:"updated_at"`
}

func channelOut(ch *store.Channel) channelJSON {
	return channelJSON{ID: ch.ID, Object: "channel", Kind: ch.Kind, Name: ch.Name, URL: ch.URL, Enabled: ch.Enabled,
		HasToken: ch.Token != nil && *ch.Token != "", LastSentAt: ch.LastSentAt, LastError: ch.LastError,
		LastErrorAt: ch.LastErrorAt, CreatedAt: ch.CreatedAt, UpdatedAt: ch.UpdatedAt}
}

// channelInput reads a channel, the same on create and on update. The
// token is write-only: on update, leaving it out keeps the one there.
func channelInput(p *params, creating bool) store.ChannelInput {
	in := store.ChannelInput{
		Kind:           p.oneOf("kind", channelKinds, ""),
		Name:           p.text("name", 255),
		Enabled:        true,
		KeepOlderToken: !creating,
	}
	if in.Kind == "" && !p.failed("kind") {
		p.fail("kind", "The kind field is required.")
	}
	if b := p.boolean("enabled"); b != nil {
		in.Enabled = *b
	}
	if in.Kind == "email" {
		// The user's own address: nothing to set.
		return in
	}
	in.URL = p.text("url", 2048)
	in.Token = p.text("token", 512)
	switch {
	case in.URL == nil && !p.failed("url") && in.Kind != "":
		p.fail("url", "The url field is required when kind is "+in.Kind+".")
	case in.URL != nil && !webURL(*in.URL):
		p.fail("url", "The url field must be a valid URL.")
	case in.URL != nil && in.Kind == "ntfy":
		if _, _, err := remind.SplitTopic(*in.URL); err != nil {
			p.fail("url", "The url field must end with the ntfy topic, as in https://ntfy.sh/your-topic.")
		}
	}
	if in.Kind == "gotify" && in.Token == nil && creating && !p.failed("token") {
		p.fail("token", "The token field is required when kind is gotify.")
	}
	if in.Kind == "webhook" && in.Token != nil && len(*in.Token) < 16 {
		p.fail("token", "The token field must be at least 16 characters.")
	}
	return in
}

// channelUpdateInput reads an update of old: channelInput's rules, and
// a channel that becomes a gotify or webhook one needs the token it did
// not need before. A token left out keeps the one there.
func channelUpdateInput(p *params, old store.Channel) store.ChannelInput {
	in := channelInput(p, false)
	if in.Kind != old.Kind && in.Token == nil && (in.Kind == "gotify" || in.Kind == "webhook") && !p.failed("token") {
		p.fail("token", "The token field is required when kind changes to "+in.Kind+".")
	}
	return in
}

func (s *Server) handleChannelList(c echo.Context) error {
	sess, _ := session(c)
	chans, err := s.store.Channels(c.Request().Context(), sess.UserID)
	if err != nil {
		return err
	}
	out := make([]channelJSON, len(chans))
	for i := range chans {
		out[i] = channelOut(&chans[i])
	}
	return c.JSON(http.StatusOK, dataBody[[]channelJSON]{out})
}

func (s *Server) handleChannelShow(c echo.Context) error {
	sess, _ := session(c)
	id, err := pathID(c, "channel", store.ErrChannelNotFound)
	if err != nil {
		return err
	}
	ch, err := s.store.Channel(c.Request().Context(), sess.UserID, id)
	if err != nil {
		return err
	}
	return c.JSON(http.StatusOK, dataBody[channelJSON]{channelOut(&ch)})
}

func (s *Server) handleChannelCreate(c echo.Context) error {
	sess, _ := session(c)
	p, err := readParams(c)
	if err != nil {
		return err
	}
	in := channelInput(p, true)
	if err := p.err(); err != nil {
		return err
	}
	var made *string
	if secret := signWebhook(&in); secret != "" {
		made = &secret
	}
	ch, err := s.store.CreateChannel(c.Request().Context(), sess.UserID, in)
	if err != nil {
		return channelError(err)
	}
	out := channelOut(&ch)
	out.Secret = made
	return c.JSON(http.StatusCreated, dataBody[channelJSON]{out})
}

func (s *Server) handleChannelUpdate(c echo.Context) error {
	ctx := c.Request().Context()
	sess, _ := session(c)
	id, err := pathID(c, "channel", store.ErrChannelNotFound)
	if err != nil {
		return err
	}
	p, err := readParams(c)
	if err != nil {
		return err
	}
	old, err := s.store.Channel(ctx, sess.UserID, id)
	if err != nil {
		return err
	}
	in := channelUpdateInput(p, old)
	if err := p.err(); err != nil {
		return err
	}
	ch, err := s.store.UpdateChannel(ctx, sess.UserID, id, in)
	if err != nil {
		return channelError(err)
	}
	return c.JSON(http.StatusOK, dataBody[channelJSON]{channelOut(&ch)})
}

func (s *Server) handleChannelDelete(c echo.Context) error {
	sess, _ := session(c)
	id, err := pathID(c, "channel", store.ErrChannelNotFound)
	if err != nil {
		return err
	}
	if err := s.store.DeleteChannel(c.Request().Context(), sess.UserID, id); err != nil {
		return err
	}
	return c.NoContent(http.StatusNoContent)
}

// handleChannelTest sends a sample digest to the channel now, whether or
// not it is enabled, and says whether it arrived. It leaves the daily
// record alone: a test is not the day's digest.
func (s *Server) handleChannelTest(c echo.Context) error {
	ctx := c.Request().Context()
	sess, _ := session(c)
	id, err := pathID(c, "channel", store.ErrChannelNotFound)
	if err != nil {
		return err
	}
	ch, err := s.store.Channel(ctx, sess.UserID, id)
	if err != nil {
		return err
	}
	if err := s.testChannel(c, ch); err != nil {
		return err
	}
	return c.JSON(http.StatusOK, dataBody[map[string]any]{map[string]any{"object": "channel_test", "delivered": true, "channel": channelOut(&ch)}})
}

// testChannel sends the user a sample digest on ch; a failure to deliver
// is a validation error of the channel, worded for the user.
func (s *Server) testChannel(c echo.Context, ch store.Channel) error {
	ctx := c.Request().Context()
	sess, _ := session(c)
	u, err := s.store.User(ctx, sess.UserID)
	if err != nil {
		return err
	}
	today, _ := s.userDay(c)
	msg := remind.Sample(today.Format("2006-01-02"), u.FirstName, u.Email, u.ID)
	if err := s.sendDigest(ctx, ch, msg, u.Verified()); err != nil {
		return invalid("channel", "The channel could not deliver the test: "+remind.Clip(err.Error(), 300))
	}
	return nil
}

func channelError(err error) error {
	if errors.Is(err, store.ErrEmailChannelTaken) {
		return invalid("kind", "You already have an email channel.")
	}
	return err
}

// signWebhook gives a webhook sent without a token a signing secret of
// its own, and returns it ("" when none was made): it is shown once.
func signWebhook(in *store.ChannelInput) string {
	if in.Kind != "webhook" || in.Token != nil {
		return ""
	}
	secret := rand.Text() + rand.Text()
	in.Token = &secret
	return secret
}
