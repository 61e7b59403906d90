package web

import (
	"time"

	"github.com/labstack/echo/v4"

	"kith/server/input"
	"kith/store"
)

// handleLogCall records a call with the person today, in the user's time
// zone: staying in touch in one press, from the dashboard's "Due for a
// call" or the person's header. An interaction restarts the person's
// stay-in-touch clock, so they leave the list. The form's back field says
// where the press came from: "dashboard" goes back there, anything else
// to the person's page; it is a word, never a URL, so no form can send
// the browser elsewhere.
func (a *App) handleLogCall(c echo.Context) error {
	per, err := a.webPerson(c)
	if err != nil {
		return err
	}
	today, _ := a.userDay(c)
	if _, err := a.store.CreateInteraction(c.Request().Context(), input.Account(c), per.ID,
		store.InteractionInput{HappenedOn: today.Format(time.DateOnly), Kind: "call"}); err != nil {
		return err
	}
	flash := "Call with " + store.FullName(per.FirstName, per.LastName) + " logged for today."
	if c.FormValue("back") == "dashboard" {
		return a.seeOther(c, "/", flash)
	}
	return a.seeOther(c, "/people/"+itoa64(per.ID), flash)
}
