package web

import (
	"net/http"
	"net/url"
	"slices"
	"strconv"
	"strings"

	"github.com/labstack/echo/v4"

	"kith/server/input"
	"kith/store"
)

// remindersView is the Reminders page: the digest's hour and reach, and
// the channels it goes to.
type remindersView struct {
	Reminders, Channel Form
	Channels           []channelRow
	// Secret is the signing key Kith just made for a webhook, shown once.
	Secret shown
}

func (a *App) fillReminders(c echo.Context, v *settingsView, st settingsState) error {
	sess, _ := input.Session(c)
	tok := csrf(c)
	rs, err := a.store.ReminderSettings(c.Request().Context(), sess.UserID)
	if err != nil {
		return err
	}
	reminders := url.Values{"days": {strconv.FormatInt(rs.Days, 10)}}
	if rs.SendAt != nil {
		reminders.Set("send_at", *rs.SendAt)
	}
	v.Reminders = Form{ID: "reminders", Action: "/settings/reminders", Submit: "Save reminders", CSRF: tok, Fields: []Field{
		{Name: "send_at", Label: "Send the digest at", Type: "time", Hint: "HH:MM in your time zone; empty: the server's hour, " + a.o.SendAt + "."},
		{Name: "days", Label: "Days ahead", Type: "number", Hint: "How far ahead the digest looks, 0 to 365."},
	}}.Fill(formOr(st.failed, "reminders", reminders))
	if v.Channels, err = a.channelRows(c, a.datesOf(c), st); err != nil {
		return err
	}
	v.Channel = channelForm(tok).Fill(formOr(st.failed, "channel", url.Values{"enabled": {"1"}}))
	v.Secret = shown{"new-secret-value", st.secret}
	return nil
}

// remindersPage draws the Reminders page with st.
func (a *App) remindersPage(c echo.Context, status int, st settingsState) error {
	return a.settingsPage(c, status, "reminders", st)
}

// handleReminders sets when the digest goes out and how far it looks.
func (a *App) handleReminders(c echo.Context) error {
	sess, _ := input.Session(c)
	p := input.FormParams(c)
	rs := input.ReminderSettings(p)
	err := p.Err()
	if err == nil {
		err = a.store.SetReminderSettings(c.Request().Context(), sess.UserID, rs)
	}
	if fe := input.FieldErrors(err); fe != nil {
		return a.remindersPage(c, http.StatusUnprocessableEntity, failedForm(c, "reminders", err))
	}
	if err != nil {
		return err
	}
	return a.seeOther(c, "/settings/reminders", "Reminders saved.")
}

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
	"telegram": "Telegram", "pushover": "Pushover", "matrix": "Matrix",
}

func (a *App) channelRows(c echo.Context, d dates, st settingsState) ([]channelRow, error) {
	sess, _ := input.Session(c)
	chans, err := a.store.Channels(c.Request().Context(), sess.UserID)
	if err != nil {
		return nil, err
	}
	rows := make([]channelRow, len(chans))
	for i, ch := range chans {
		r := channelRow{ID: ch.ID, Kind: ch.Kind, Name: deref(ch.Name), URL: deref(input.ShownURL(ch.URL)), Enabled: ch.Enabled,
			LastError: deref(ch.LastError)}
		if ch.Kind == "email" && r.URL == "" {
			r.URL = sess.Email
		}
		if to := chatAddress(ch); to != "" {
			r.URL = to
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

func channelForm(csrf string) Form {
	kinds := make([]Option, len(input.ChannelKinds))
	for i, k := range input.ChannelKinds {
		kinds[i] = Option{Value: k, Label: channelKindLabels[k]}
	}
	return Form{ID: "channel", Action: "/settings/channels", Submit: "Add channel", CSRF: csrf, Fields: []Field{
		{Name: "kind", Label: "Kind", Type: "select", Options: kinds, Required: true, Fits: true},
		{Name: "name", Label: "Name", Type: "text", Auto: "off", Hint: "Yours to tell channels apart: “Phone”."},
		{Name: "url", Label: "URL", Type: "url", Auto: "off", For: "ntfy gotify webhook",
			Hint: "ntfy: the topic's URL, as https://ntfy.sh/your-topic. Gotify: the server's address. Webhook: where to post. Not for email."},
		{Name: "token", Label: "Token", Type: "password", Auto: "off", For: "ntfy gotify webhook",
			Hint: "ntfy: an access token, if the topic needs one. Gotify: the application's token (required). Webhook: the signing key, at least 16 characters; empty and Kith makes one."},
		{Name: "bot_token", Label: "Bot token", Type: "password", Auto: "off", For: "telegram",
			Hint: "Telegram: the token @BotFather gave your bot."},
		{Name: "chat_id", Label: "Chat ID", Type: "text", Auto: "off", For: "telegram",
			Hint: "Telegram: the chat the bot posts to, as -1001234567890 or @yourchannel; write to the bot first."},
		{Name: "user_key", Label: "User key", Type: "text", Auto: "off", For: "pushover",
			Hint: "Pushover: your user key, on your dashboard at pushover.net."},
		{Name: "app_token", Label: "App token", Type: "password", Auto: "off", For: "pushover",
			Hint: "Pushover: the API token of an application you made for Kith."},
		{Name: "homeserver", Label: "Homeserver", Type: "url", Auto: "off", For: "matrix",
			Hint: "Matrix: your homeserver's address, as https://matrix.example.org."},
		{Name: "access_token", Label: "Access token", Type: "password", Auto: "off", For: "matrix",
			Hint: "Matrix: the access token of the account that posts (Element: Settings, Help & About)."},
		{Name: "room_id", Label: "Room ID", Type: "text", Auto: "off", For: "matrix",
			Hint: "Matrix: the room's internal ID, as !abc123:example.org (room settings, Advanced); invite the account first."},
		{Name: "server", Label: "Server address (optional)", Type: "url", Auto: "off", For: "telegram pushover",
			Hint: "Empty: the public server, api.telegram.org or api.pushover.net. A Bot API server of your own, or a proxy, goes here."},
		{Name: "enabled", Label: "Send the daily digest here", Type: "checkbox"},
	}}
}

// urlFields are the form's names for the API's url where a kind has
// a name of its own for it.
var urlFields = map[string]string{"matrix": "homeserver", "telegram": "server", "pushover": "server"}

// readChannelForm reads the channel form as the API's parameters: the
// kind's server address, under the name the form gives it, is the url.
// Its errors name the form's field.
func readChannelForm(p *input.Params, kind string) {
	if f, ok := urlFields[kind]; ok {
		p.Set("url", p.Value(f))
	}
}

// channelFormErrors are err's messages by field of the form: the url's
// go to the field that holds it for the kind.
func channelFormErrors(err error, kind string) map[string][]string {
	fe := input.FieldErrors(err)
	f, ok := urlFields[kind]
	if fe == nil || !ok || fe["url"] == nil {
		return fe
	}
	label := map[string]string{"homeserver": "homeserver", "server": "server address"}[f]
	for _, msg := range fe["url"] {
		fe[f] = append(fe[f], strings.Replace(msg, "The url field", "The "+label+" field", 1))
	}
	delete(fe, "url")
	return fe
}

// chatAddress is where a Telegram, Pushover or Matrix channel posts, as
// its row shows it; "" for the other kinds.
func chatAddress(ch store.Channel) string {
	var to string
	switch {
	case ch.Kind == "telegram" && ch.ChatID != nil:
		to = "Chat " + *ch.ChatID
	case ch.Kind == "pushover" && ch.UserKey != nil:
		to = "User " + *ch.UserKey
	case ch.Kind == "matrix" && ch.RoomID != nil:
		to = "Room " + *ch.RoomID
	default:
		return ""
	}
	if ch.URL != nil {
		to += " on " + deref(input.ShownURL(ch.URL))
	}
	return to
}

// handleChannelCreate adds a channel; a webhook's signing key that
// Kith makes is shown this once, on the page that answers.
func (a *App) handleChannelCreate(c echo.Context) error {
	sess, _ := input.Session(c)
	p := input.FormParams(c)
	kind := c.Request().PostForm.Get("kind")
	readChannelForm(p, kind)
	in := input.Channel(p, true)
	err := p.Err()
	var made string
	if err == nil {
		made = input.SignWebhook(&in)
		_, err = a.store.CreateChannel(c.Request().Context(), sess.UserID, in)
		err = input.ChannelError(err)
	}
	if fe := channelFormErrors(err, kind); fe != nil {
		return a.remindersPage(c, http.StatusUnprocessableEntity,
			settingsState{failed: failed{form: "channel", values: c.Request().PostForm, errs: fe}})
	}
	if err != nil {
		return err
	}
	if made != "" {
		c.Response().Header().Set(echo.HeaderCacheControl, "no-store")
		return a.remindersPage(c, http.StatusOK, settingsState{secret: made})
	}
	return a.seeOther(c, "/settings/reminders#channels", "Channel added.")
}

// webChannel is the channel the path names, or the 404 of another
// user's or a missing one.
func (a *App) webChannel(c echo.Context) (store.Channel, error) {
	sess, _ := input.Session(c)
	id, err := input.PathID(c, "channel", store.ErrChannelNotFound)
	if err != nil {
		return store.Channel{}, err
	}
	return a.store.Channel(c.Request().Context(), sess.UserID, id)
}

// handleChannelToggle turns a channel's digest on or off, keeping the
// rest of it, its token included.
func (a *App) handleChannelToggle(c echo.Context) error {
	sess, _ := input.Session(c)
	ch, err := a.webChannel(c)
	if err != nil {
		return err
	}
	in := store.ChannelInput{Kind: ch.Kind, Name: ch.Name, URL: ch.URL, Enabled: !ch.Enabled, KeepOlderToken: true,
		ChatID: ch.ChatID, UserKey: ch.UserKey, RoomID: ch.RoomID}
	if _, err := a.store.UpdateChannel(c.Request().Context(), sess.UserID, ch.ID, in); err != nil {
		return err
	}
	if in.Enabled {
		return a.seeOther(c, "/settings/reminders#channels", "Channel turned on.")
	}
	return a.seeOther(c, "/settings/reminders#channels", "Channel turned off.")
}

// handleChannelTest sends the sample digest, as the API's test does;
// a failure is shown beside the channel.
func (a *App) handleChannelTest(c echo.Context) error {
	ch, err := a.webChannel(c)
	if err != nil {
		return err
	}
	err = a.o.TestChannel(c, ch)
	if fe := input.FieldErrors(err); fe != nil {
		return a.remindersPage(c, http.StatusUnprocessableEntity, settingsState{testOf: ch.ID, testErr: fe["channel"][0]})
	}
	if err != nil {
		return err
	}
	return a.seeOther(c, "/settings/reminders#channels", "Test sent: check that it arrived.")
}

func (a *App) handleChannelDelete(c echo.Context) error {
	sess, _ := input.Session(c)
	ch, err := a.webChannel(c)
	if err != nil {
		return err
	}
	if err := a.store.DeleteChannel(c.Request().Context(), sess.UserID, ch.ID); err != nil {
		return err
	}
	return a.seeOther(c, "/settings/reminders#channels", "Channel deleted.")
}

// channelEditForm is the form that edits ch: its name, and but for an
// email channel the fields of its kind, its secret never drawn.
func channelEditForm(csrf string, ch store.Channel) Form {
	f := Form{ID: "channel-edit", Action: "/settings/channels/" + itoa64(ch.ID), Submit: "Save channel", CSRF: csrf}
	for _, fd := range channelForm(csrf).Fields {
		switch {
		case fd.Name == "name":
		case ch.Kind != "email" && fd.For != "" && slices.Contains(strings.Fields(fd.For), ch.Kind):
			if fd.Type == "password" {
				fd.Hint = "Empty keeps the token the channel has. " + fd.Hint
			}
			fd.For = "" // no kind to choose here: every field is this kind's
		default:
			continue // the kind, the digest's switch and other kinds' fields are not edited here
		}
		f.Fields = append(f.Fields, fd)
	}
	return f
}

// channelEditPage draws ch's edit form filled with values and errs; the
// token, a password field, is never sent back.
func (a *App) channelEditPage(c echo.Context, status int, ch store.Channel, values url.Values, errs map[string][]string) error {
	f := channelEditForm(csrf(c), ch).Fill(values, errs)
	title := "Edit channel"
	if ch.Name != nil && *ch.Name != "" {
		title += " · " + *ch.Name
	}
	return a.settingsEdit(c, status, title, "/settings/reminders#channels", f)
}

func (a *App) handleChannelEdit(c echo.Context) error {
	ch, err := a.webChannel(c)
	if err != nil {
		return err
	}
	urlField := "url"
	if f, ok := urlFields[ch.Kind]; ok {
		urlField = f
	}
	return a.channelEditPage(c, http.StatusOK, ch, url.Values{"name": {deref(ch.Name)}, urlField: {deref(input.ShownURL(ch.URL))},
		"chat_id": {deref(ch.ChatID)}, "user_key": {deref(ch.UserKey)}, "room_id": {deref(ch.RoomID)}}, nil)
}

// handleChannelUpdate saves a channel's name, URL and token by the
// API's rules; its kind and its digest's switch stay as they are, and an
// empty token keeps the one it has.
func (a *App) handleChannelUpdate(c echo.Context) error {
	sess, _ := input.Session(c)
	ch, err := a.webChannel(c)
	if err != nil {
		return err
	}
	p := input.FormParams(c)
	p.Set("kind", ch.Kind)
	p.Set("enabled", ch.Enabled)
	readChannelForm(p, ch.Kind)
	in := input.ChannelUpdate(p, ch)
	err = p.Err()
	if err == nil {
		_, err = a.store.UpdateChannel(c.Request().Context(), sess.UserID, ch.ID, in)
		err = input.ChannelError(err)
	}
	if fe := channelFormErrors(err, ch.Kind); fe != nil {
		return a.channelEditPage(c, http.StatusUnprocessableEntity, ch, c.Request().PostForm, fe)
	}
	if err != nil {
		return err
	}
	return a.seeOther(c, "/settings/reminders#channels", "Channel saved.")
}
