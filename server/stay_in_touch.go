package server

import (
	"net/http"
	"time"

	"github.com/labstack/echo/v4"

	"kith/server/input"
	"kith/store"
)

type stayInTouchJSON struct {
	Object            string  `json:"object"`
	EveryDays         *int64  `json:"every_days"`
	LastInteractionOn *string `json:"last_interaction_on"`
	DueOn             *string `json:"due_on"`
	Due               bool    `json:"due"`
}

// stayInTouchResponse shows the person's cadence as of today, the
// requesting user's date.
func stayInTouchResponse(c echo.Context, ct store.Contact, today time.Time) error {
	out := stayInTouchJSON{Object: "stay_in_touch", LastInteractionOn: ct.LastOn}
	if due, ok := ct.DueOn(); ok {
		out.EveryDays, out.DueOn = &ct.EveryDays, &due
		out.Due = ct.Due(today.Format(time.DateOnly))
	}
	return c.JSON(http.StatusOK, dataBody[stayInTouchJSON]{out})
}

func (s *Server) handleStayInTouchShow(c echo.Context) error {
	personID, err := input.PathID(c, "person", store.ErrPersonNotFound)
	if err != nil {
		return err
	}
	ct, err := s.store.StayInTouch(c.Request().Context(), input.Account(c), personID)
	if err != nil {
		return err
	}
	today, _ := s.userDay(c)
	return stayInTouchResponse(c, ct, today)
}

// handleStayInTouchUpdate sets or, with every_days null or empty, clears
// the person's cadence. every_days must be sent: a PUT that lost its body
// on the way must not clear a cadence.
func (s *Server) handleStayInTouchUpdate(c echo.Context) error {
	ctx, acct := c.Request().Context(), input.Account(c)
	personID, err := input.PathID(c, "person", store.ErrPersonNotFound)
	if err != nil {
		return err
	}
	p, err := input.ReadParams(c)
	if err != nil {
		return err
	}
	every := p.Between("every_days", 1, 3650)
	if !p.Sent("every_days") {
		p.Fail("every_days", "The every days field must be present.")
	}
	if err := input.Validated(p, s.personExists(ctx, acct, personID)); err != nil {
		return err
	}
	today, _ := s.userDay(c)
	ct, err := s.store.SetStayInTouch(ctx, acct, personID, every, today.Format(time.DateOnly))
	if err != nil {
		return err
	}
	return stayInTouchResponse(c, ct, today)
}
