package web

import (
	"errors"
	"net/http"
	"time"

	"github.com/labstack/echo/v4"

	"kith/server/input"
	"kith/server/remind"
	"kith/store"
)

// A digest's action links ("Mark done", "Log a call", "Snooze a week")
// need no session: the signed token names the user, the action and the
// item. Mail scanners and link previews open links, so a GET only shows a
// button; the POST it sends acts, once.

// actionView is the action page: what the link does, to what, and the
// button while it can still do it.
type actionView struct {
	Heading, Text string
	Label         string // the button's text; empty once nothing is left to do
}

// The pages of a link that cannot act.
var (
	actionInvalid = actionView{Heading: "Link not valid",
		Text: "This link is not one Kith made, or it was cut short: open it again from the message."}
	actionExpired = actionView{Heading: "Link expired",
		Text: "This link has expired: action links work for 7 days after their digest."}
	actionUsed = actionView{Heading: "Link used",
		Text: "This link was used already: it works once."}
)

// actionFor opens the path's token, answering the page of a link that
// cannot act (false) when it is not Kith's, expired or used.
func (a *App) actionFor(c echo.Context) (remind.Action, string, bool, error) {
	c.Response().Header().Set(echo.HeaderCacheControl, "no-store")
	ctx := c.Request().Context()
	key, err := a.store.ActionSecret(ctx)
	if err != nil {
		return remind.Action{}, "", false, err
	}
	token := c.Param("link")
	act, err := remind.OpenAction(key, token)
	if err != nil {
		return act, token, false, a.actionPage(c, http.StatusForbidden, actionInvalid)
	}
	if a.store.Now().Unix() >= act.Expires {
		return act, token, false, a.actionPage(c, http.StatusGone, actionExpired)
	}
	used, err := a.store.ActionLinkUsed(ctx, remind.TokenHash(token))
	if err != nil {
		return act, token, false, err
	}
	if used {
		return act, token, false, a.actionPage(c, http.StatusGone, actionUsed)
	}
	return act, token, true, nil
}

func (a *App) actionPage(c echo.Context, status int, v actionView) error {
	return a.render(c, status, "action", Page{Title: v.Heading, Data: v})
}

// handleActionPage shows what the link does and the one button that does
// it; it changes nothing.
func (a *App) handleActionPage(c echo.Context) error {
	act, _, ok, err := a.actionFor(c)
	if !ok || err != nil {
		return err
	}
	return a.actionPage(c, http.StatusOK, actionView{Heading: act.Label(), Text: act.Title, Label: act.Label()})
}

// handleAction does the link's action as its user and spends the link.
func (a *App) handleAction(c echo.Context) error {
	act, token, ok, err := a.actionFor(c)
	if !ok || err != nil {
		return err
	}
	ctx := c.Request().Context()
	link := store.ActionLink{Hash: remind.TokenHash(token), UserID: act.UserID, Do: act.Do,
		Kind: act.Kind, RefID: act.Ref, Day: act.Day}
	switch act.Do {
	case store.ActionMarkDone:
		link.TaskID = act.Ref
	case store.ActionLogCall:
		link.PersonID = act.Ref
		u, err := a.store.User(ctx, act.UserID)
		if errors.Is(err, store.ErrUserNotFound) {
			return a.actionPage(c, http.StatusForbidden, actionInvalid)
		}
		if err != nil {
			return err
		}
		link.Day = a.store.Now().In(input.UserZone(u.Timezone)).Format(time.DateOnly)
	}
	err = a.store.UseActionLink(ctx, link)
	switch {
	case errors.Is(err, store.ErrActionLinkUsed):
		return a.actionPage(c, http.StatusGone, actionUsed)
	case errors.Is(err, store.ErrUserNotFound):
		return a.actionPage(c, http.StatusForbidden, actionInvalid)
	case errors.Is(err, store.ErrTaskNotFound), errors.Is(err, store.ErrPersonNotFound):
		return a.actionPage(c, http.StatusNotFound, actionView{Heading: "Nothing to do",
			Text: "This is no longer in Kith: it was deleted since the message was sent."})
	case err != nil:
		return err
	}
	return a.actionPage(c, http.StatusOK, actionView{Heading: actionDone[act.Do], Text: act.Title})
}

// actionDone is what a page says once the action is done.
var actionDone = map[string]string{
	store.ActionMarkDone: "Marked done",
	store.ActionLogCall:  "Call logged",
	store.ActionSnooze:   "Snoozed for a week",
}
