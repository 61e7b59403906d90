package server

import (
	"crypto/rand"
	"net/http"

	"github.com/labstack/echo/v4"

	"kith/server/web"
	"kith/store"
)

// channelRow is a notification channel as the settings page lists it.
type channelRow struct {
	ID                   int64
	Kind, Name, URL      string
	Enabled              bool
	LastSent             string
	LastError, ErroredAt string
	// TestError is why the test just asked for failed.
	TestError string
}

// channelKindLabels are the kinds as the form offers them.
var channelKindLabels = map[string]string{
	"email": "Email (your address)", "ntfy": "ntfy", "gotify": "Gotify", "webhook": "Webhook",
}

func (s *Server) channelRows(c echo.Context, d dates, st settingsState) ([]channelRow, error) {
	sess, _ := session(c)
	chans, err := s.store.Channels(c.Request().Context(), sess.UserID)
	if err != nil {
		return nil, err
	}
	rows := make([]channelRow, len(chans))
	for i, ch := range chans {
		r := channelRow{ID: ch.ID, Kind: ch.Kind, Name: deref(ch.Name), URL: deref(ch.URL), Enabled: ch.Enabled,
			LastError: deref(ch.LastError)}
		if ch.Kind == "email" && r.URL == "" {
			r.URL = sess.Email
		}
		if ch.LastSentAt != nil {
			r.LastSent = d.moment(*ch.LastSentAt)
		}
		if ch.LastErrorAt != nil {
			r.ErroredAt = d.moment(*ch.LastErrorAt)
		}
		if ch.ID == st.testOf {
			r.TestError = st.testErr
		}
		rows[i] = r
	}
	return rows, nil
}

func channelForm(csrf string) web.Form {
	kinds := make([]web.Option, len(channelKinds))
	for i, k := range channelKinds {
		kinds[i] = web.Option{Value: k, Label: channelKindLabels[k]}
	}
	return web.Form{ID: "channel", Action: "/settings/channels", Submit: "Add channel", CSRF: csrf, Fields: []web.Field{
		{Name: "kind", Label: "Kind", Type: "select", Options: kinds, Required: true},
		{Name: "name", Label: "Name", Type: "text", Auto: "off", Hint: "Yours to tell channels apart: “Phone”."},
		{Name: "url", Label: "URL", Type: "url", Auto: "off",
			Hint: "ntfy: the topic's URL, as https://ntfy.sh/your-topic. Gotify: the server's address. Webhook: where to post. Not for email."},
		{Name: "token", Label: "Token", Type: "password", Auto: "off",
			Hint: "ntfy: an access token, if the topic needs one. Gotify: the application's token (required). Webhook: the signing key, at least 16 characters; empty and Kith makes one."},
		{Name: "enabled", Label: "Send the daily digest here", Type: "checkbox"},
	}}
}

// handleWebChannelCreate adds a channel; a webhook's signing key that
// Kith makes is shown this once, on the page that answers.
func (s *Server) handleWebChannelCreate(c echo.Context) error {
	sess, _ := session(c)
	p := formParams(c)
	in := channelInput(p, true)
	err := p.err()
	var made string
	if err == nil {
		if in.Kind == "webhook" && in.Token == nil {
			made = rand.Text() + rand.Text()
			in.Token = &made
		}
		_, err = s.store.CreateChannel(c.Request().Context(), sess.UserID, in)
		err = channelError(err)
	}
	if fieldErrors(err) != nil {
		return s.settingsPage(c, http.StatusUnprocessableEntity, failedForm(c, "channel", err))
	}
	if err != nil {
		return err
	}
	if made != "" {
		c.Response().Header().Set(echo.HeaderCacheControl, "no-store")
		return s.settingsPage(c, http.StatusOK, settingsState{secret: made})
	}
	return s.seeOther(c, "/settings", "Channel added.")
}

// webChannel is the channel the path names, or the 404 of another
// user's or a missing one.
func (s *Server) webChannel(c echo.Context) (store.Channel, error) {
	sess, _ := session(c)
	id, err := pathID(c, "channel", store.ErrChannelNotFound)
	if err != nil {
		return store.Channel{}, err
	}
	return s.store.Channel(c.Request().Context(), sess.UserID, id)
}

// handleWebChannelToggle turns a channel's digest on or off, keeping the
// rest of it, its token included.
func (s *Server) handleWebChannelToggle(c echo.Context) error {
	sess, _ := session(c)
	ch, err := s.webChannel(c)
	if err != nil {
		return err
	}
	in := store.ChannelInput{Kind: ch.Kind, Name: ch.Name, URL: ch.URL, Enabled: !ch.Enabled, KeepOlderToken: true}
	if _, err := s.store.UpdateChannel(c.Request().Context(), sess.UserID, ch.ID, in); err != nil {
		return err
	}
	if in.Enabled {
		return s.seeOther(c, "/settings", "Channel turned on.")
	}
	return s.seeOther(c, "/settings", "Channel turned off.")
}

// handleWebChannelTest sends the sample digest, as the API's test does;
// a failure is shown beside the channel.
func (s *Server) handleWebChannelTest(c echo.Context) error {
	ch, err := s.webChannel(c)
	if err != nil {
		return err
	}
	err = s.testChannel(c, ch)
	if fe := fieldErrors(err); fe != nil {
		return s.settingsPage(c, http.StatusUnprocessableEntity, settingsState{testOf: ch.ID, testErr: fe["channel"][0]})
	}
	if err != nil {
		return err
	}
	return s.seeOther(c, "/settings", "Test sent: check that it arrived.")
}

func (s *Server) handleWebChannelDelete(c echo.Context) error {
	sess, _ := session(c)
	ch, err := s.webChannel(c)
	if err != nil {
		return err
	}
	if err := s.store.DeleteChannel(c.Request().Context(), sess.UserID, ch.ID); err != nil {
		return err
	}
	return s.seeOther(c, "/settings", "Channel deleted.")
}
