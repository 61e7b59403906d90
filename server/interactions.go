package server

import (
	"net/http"
	"strconv"
	"time"

	"github.com/labstack/echo/v4"

	"kith/store"
)

// maxInteractionNote is the longest note an interaction takes.
const maxInteractionNote = 2000

type interactionJSON struct {
	ID         int64   `json:"id"`
	Object     string  `json:"object"`
	HappenedOn string  `json:"happened_on"`
	Kind       string  `json:"kind"`
	Note       *string `json:"note"`
	CreatedAt  int64   `json:"created_at"`
	UpdatedAt  int64   `json:"updated_at"`
}

func interactionOut(in *store.Interaction) interactionJSON {
	return interactionJSON{ID: in.ID, Object: "interaction", HappenedOn: in.HappenedOn, Kind: in.Kind, Note: in.Note,
		CreatedAt: in.CreatedAt, UpdatedAt: in.UpdatedAt}
}

// interactionInput reads the fields of an interaction, the same on create
// and on update, which replaces. happened_on may be as late as tomorrow in
// the user's time zone (today somewhere else), not later: an interaction
// yet to come would put off the day the person is due.
func interactionInput(p *params, today time.Time) store.InteractionInput {
	in := store.InteractionInput{
		Kind: p.oneOf("kind", store.InteractionKinds, ""),
		Note: p.longText("note", maxInteractionNote),
	}
	if in.Kind == "" && !p.failed("kind") {
		p.fail("kind", "The kind field is required.")
	}
	on := p.date("happened_on")
	switch {
	case on == nil && !p.failed("happened_on"):
		p.fail("happened_on", "The happened on field is required.")
	case on == nil:
	case on.Year() < 1:
		p.fail("happened_on", "The happened on field must be a date after or equal to 0001-01-01.")
	case on.After(today.AddDate(0, 0, 1)):
		p.fail("happened_on", "The happened on field must be a date before or equal to tomorrow.")
	default:
		in.HappenedOn = on.Format(time.DateOnly)
	}
	return in
}

func (s *Server) handleInteractionList(c echo.Context) error {
	personID, err := pathID(c, "person", store.ErrPersonNotFound)
	if err != nil {
		return err
	}
	p, err := readParams(c)
	if err != nil {
		return err
	}
	page, perPage := readPage(p)
	ctx, acct := c.Request().Context(), account(c)
	if err := validated(p, s.personExists(ctx, acct, personID)); err != nil {
		return err
	}
	list, total, err := s.store.Interactions(ctx, acct, personID, perPage, pageOffset(page, perPage))
	if err != nil {
		return err
	}
	out := make([]interactionJSON, len(list))
	for i := range list {
		out[i] = interactionOut(&list[i])
	}
	path := s.base(c) + "/api/persons/" + strconv.FormatInt(personID, 10) + "/interactions"
	return c.JSON(http.StatusOK, pageOf(path, out, page, perPage, total, p.sent("per_page")))
}

// interactions serves the interactions of a person (see child).
var interactions = child[store.Interaction, store.InteractionInput]{
	param: "interaction", notFound: store.ErrInteractionNotFound,
	input: func(s *Server, c echo.Context, p *params) store.InteractionInput {
		today, _ := s.userDay(c)
		return interactionInput(p, today)
	},
	out:    func(v *store.Interaction) any { return interactionOut(v) },
	get:    (*store.Store).Interaction,
	create: (*store.Store).CreateInteraction,
	update: (*store.Store).UpdateInteraction,
	remove: (*store.Store).DeleteInteraction,
}

func (s *Server) handleInteractionShow(c echo.Context) error   { return interactions.show(s, c) }
func (s *Server) handleInteractionCreate(c echo.Context) error { return interactions.doCreate(s, c) }
func (s *Server) handleInteractionUpdate(c echo.Context) error { return interactions.replace(s, c) }
func (s *Server) handleInteractionDelete(c echo.Context) error { return interactions.delete(s, c) }
