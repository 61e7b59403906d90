package web

import (
	"net/http"

	"github.com/labstack/echo/v4"

	"kith/server/input"
	"kith/server/remind"
	"kith/store"
)

// securityView is the Security page: the user's API keys, two-factor
// and web sessions.
type securityView struct {
	Keys []keyRow
	Key  Form
	// Token is a key just made, shown this once; TokenName its label.
	Token     shown
	TokenName string
	TwoFactor twoFactorView
	Sessions  sessionsView
	// PasskeysPart is the Passkeys section.
	PasskeysPart passkeysView
}

func (a *App) fillSecurity(c echo.Context, v *settingsView, st settingsState) error {
	var err error
	if v.Keys, err = a.keyRows(c, a.datesOf(c)); err != nil {
		return err
	}
	v.Key = keyForm(csrf(c)).Fill(formOr(st.failed, "key", nil))
	v.Token, v.TokenName = shown{"new-key-token", st.token}, st.tokenName
	if err := a.fillSessions(c, &v.securityView); err != nil {
		return err
	}
	if err := a.fillPasskeys(c, v, st); err != nil {
		return err
	}
	return a.fillTwoFactor(c, v, st)
}

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
		return a.settingsPage(c, http.StatusUnprocessableEntity, "security", failedForm(c, "key", err))
	}
	k, token, err := a.store.CreateAPIKey(c.Request().Context(), sess.UserID, label)
	if err != nil {
		return err
	}
	c.Response().Header().Set(echo.HeaderCacheControl, "no-store")
	return a.settingsPage(c, http.StatusOK, "security", settingsState{token: token, tokenName: k.Name})
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
	return a.seeOther(c, "/settings/security", "Key “"+remind.Clip(k.Name, 80)+"” revoked.")
}
