package web

import (
	"github.com/labstack/echo/v4"

	"kith/server/input"
)

// mailInView is the mail-in part of the Data page: the user's private
// address, shown whenever mail-in is on, as the API shows it.
type mailInView struct {
	MailIn shown
}

func (a *App) fillMailIn(c echo.Context, v *settingsView) error {
	if a.o.MailInDomain == "" {
		return nil
	}
	sess, _ := input.Session(c)
	secret, err := a.store.MailInSecret(c.Request().Context(), sess.UserID)
	if err != nil {
		return err
	}
	v.MailIn = shown{"mail-in-address", "log-" + secret + "@" + a.o.MailInDomain}
	return nil
}

// handleMailInRotate gives the user a new address; the old one is
// refused from then on. Off, there is nothing to rotate: 404, as for any
// page that is not there.
func (a *App) handleMailInRotate(c echo.Context) error {
	if a.o.MailInDomain == "" {
		return echo.ErrNotFound
	}
	sess, _ := input.Session(c)
	if _, err := a.store.RotateMailInSecret(c.Request().Context(), sess.UserID); err != nil {
		return err
	}
	return a.seeOther(c, "/settings/data#mail-in", "New mail-in address made: the old one no longer works.")
}
