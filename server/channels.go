package server

import (
	"net/http"

	"github.com/labstack/echo/v4"

	"kith/server/input"
	"kith/server/remind"
	"kith/store"
)

type channelJSON struct {
	ID       int64   `json:"id"`
	Object   string  `json:"object"`
	Kind     string  `json:"kind"`
	Name     *string `json:"name"`
	URL      *string `json:"url"`
	Enabled  bool    `json:"enabled"`
	HasToken bool    `json:"has_token"`
	// ChatID, UserKey and RoomID are Telegram's, Pushover's and Matrix's,
	// null for the other kinds.
	ChatID  *string `json:"chat_id"`
	UserKey *string `json:"user_key"`
	RoomID  *string `json:"room_id"`
	// Secret is a webhook's signing key, shown once: when Kith made it.
	Secret      *string `json:"secret,omitempty"`
	LastSentAt  *int64  `json:"last_sent_at"`
	LastError   *string `json:"last_error"`
	LastErrorAt *int64  `json:"last_error_at"`
	CreatedAt   int64   `json:"created_at"`
	UpdatedAt   int64   `json:"updated_at"`
}

func channelOut(ch *store.Channel) channelJSON {
	return channelJSON{ID: ch.ID, Object: "channel", Kind: ch.Kind, Name: ch.Name, URL: input.ShownURL(ch.URL), Enabled: ch.Enabled,
		HasToken: ch.Token != nil && *ch.Token != "", ChatID: ch.ChatID, UserKey: ch.UserKey, RoomID: ch.RoomID, LastSentAt: ch.LastSentAt, LastError: ch.LastError,
		LastErrorAt: ch.LastErrorAt, CreatedAt: ch.CreatedAt, UpdatedAt: ch.UpdatedAt}
}

func (s *Server) handleChannelList(c echo.Context) error {
	sess, _ := input.Session(c)
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
	sess, _ := input.Session(c)
	id, err := input.PathID(c, "channel", store.ErrChannelNotFound)
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
	sess, _ := input.Session(c)
	p, err := input.ReadParams(c)
	if err != nil {
		return err
	}
	in := input.Channel(p, true)
	if err := p.Err(); err != nil {
		return err
	}
	var made *string
	if secret := input.SignWebhook(&in); secret != "" {
		made = &secret
	}
	ch, err := s.store.CreateChannel(c.Request().Context(), sess.UserID, in)
	if err != nil {
		return input.ChannelError(err)
	}
	out := channelOut(&ch)
	out.Secret = made
	return c.JSON(http.StatusCreated, dataBody[channelJSON]{out})
}

func (s *Server) handleChannelUpdate(c echo.Context) error {
	ctx := c.Request().Context()
	sess, _ := input.Session(c)
	id, err := input.PathID(c, "channel", store.ErrChannelNotFound)
	if err != nil {
		return err
	}
	p, err := input.ReadParams(c)
	if err != nil {
		return err
	}
	old, err := s.store.Channel(ctx, sess.UserID, id)
	if err != nil {
		return err
	}
	in := input.ChannelUpdate(p, old)
	if err := p.Err(); err != nil {
		return err
	}
	ch, err := s.store.UpdateChannel(ctx, sess.UserID, id, in)
	if err != nil {
		return input.ChannelError(err)
	}
	return c.JSON(http.StatusOK, dataBody[channelJSON]{channelOut(&ch)})
}

func (s *Server) handleChannelDelete(c echo.Context) error {
	sess, _ := input.Session(c)
	id, err := input.PathID(c, "channel", store.ErrChannelNotFound)
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
	sess, _ := input.Session(c)
	id, err := input.PathID(c, "channel", store.ErrChannelNotFound)
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
	sess, _ := input.Session(c)
	u, err := s.store.User(ctx, sess.UserID)
	if err != nil {
		return err
	}
	today, _ := s.userDay(c)
	msg := remind.Sample(today.Format("2006-01-02"), u.FirstName, u.Email, u.ID)
	if err := s.reminders.SendDigest(ctx, ch, msg, u.Verified()); err != nil {
		return input.Invalid("channel", "The channel could not deliver the test: "+remind.Clip(err.Error(), 300))
	}
	return nil
}
