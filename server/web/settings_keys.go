package web

import (
	"errors"
	"net/http"

	"github.com/labstack/echo/v4"

	"kith/server/input"
	"kith/server/remind"
	"kith/store"
)

// keyRow is an API key as the settings page lists it.
type keyRow struct {
	ID                      int64
	Name, Created, LastUsed string
}

func (a *App) keyRows(c echo.Context, d dates) ([]keyRow, error) {
	sess, _ := input.Session(c)
	keys, err := a.store.APIKeys(c.Request().Context(), sess.UserID)
	if err != nil {
		return nil, err
	}
	rows := make([]keyRow, len(keys))
	for i, k := range keys {
		rows[i] = keyRow{ID: k.ID, Name: k.Name, Created: d.moment(k.CreatedAt)}
		if k.LastUsedAt != nil {
			rows[i].LastUsed = d.moment(*k.LastUsedAt)
		}
	}
	return rows, nil
}

func keyForm(csrf string) Form {
	return Form{ID: "key", Action: "/settings/keys", Submit: "Create key", CSRF: csrf, Fields: []Field{
		{Name: "label", Label: "Label", Type: "text", Required: true, Auto: "off",
			Hint: "What the key is for: “iPhone”, “backup script”."},
	}}
}

// handleKeyCreate makes a key and shows its token, this once: the
// page is the answer, not a redirect, so that no URL or cookie holds it.
func (a *App) handleKeyCreate(c echo.Context) error {
	sess, _ := input.Session(c)
	p := input.FormParams(c)
	label := p.RequiredText("label", 255)
	if err := p.Err(); err != nil {
		return a.settingsPage(c, http.StatusUnprocessableEntity, failedForm(c, "key", err))
	}
	k, token, err := a.store.CreateAPIKey(c.Request().Context(), sess.UserID, label)
	if err != nil {
		return err
	}
	c.Response().Header().Set(echo.HeaderCacheControl, "no-store")
	return a.settingsPage(c, http.StatusOK, settingsState{token: token, tokenName: k.Name})
}

func (a *App) handleKeyDelete(c echo.Context) error {
	sess, _ := input.Session(c)
	id, err := input.PathID(c, "key", store.ErrAPIKeyNotFound)
	if err != nil {
		return err
	}
	k, err := a.store.APIKey(c.Request().Context(), sess.UserID, id)
	if err != nil {
		return err
	}
	if err := a.store.DeleteAPIKey(c.Request().Context(), sess.UserID, id); err != nil {
		return err
	}
	return a.seeOther(c, "/settings", "Key “"+remind.Clip(k.Name, 80)+"” revoked.")
}

// handleFeedCreate makes the calendar feed, or a new address for it
// that voids the old one, and shows the address this once.
func (a *App) handleFeedCreate(c echo.Context) error {
	sess, _ := input.Session(c)
	_, secret, err := a.store.CreateCalendarFeed(c.Request().Context(), sess.UserID)
	if err != nil {
		return err
	}
	c.Response().Header().Set(echo.HeaderCacheControl, "no-store")
	return a.settingsPage(c, http.StatusOK, settingsState{feedURL: a.base(c) + "/ical/" + secret + ".ics"})
}

func (a *App) handleFeedDelete(c echo.Context) error {
	sess, _ := input.Session(c)
	err := a.store.DeleteCalendarFeed(c.Request().Context(), sess.UserID)
	if errors.Is(err, store.ErrCalendarFeedNotFound) {
		return a.seeOther(c, "/settings", "There was no calendar feed to revoke.")
	}
	if err != nil {
		return err
	}
	return a.seeOther(c, "/settings", "Calendar feed revoked: its address no longer works.")
}
