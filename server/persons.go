package server

import (
	"context"
	"errors"
	"net/http"
	"net/url"
	"time"

	"github.com/labstack/echo/v4"

	"kith/server/input"
	"kith/store"
)

type personJSON struct {
	ID                 int64              `json:"id"`
	Object             string             `json:"object"`
	Name               string             `json:"name"`
	FirstName          string             `json:"first_name"`
	LastName           *string            `json:"last_name"`
	MiddleName         *string            `json:"middle_name"`
	Nickname           *string            `json:"nickname"`
	MaidenName         *string            `json:"maiden_name"`
	Prefix             *string            `json:"prefix"`
	Suffix             *string            `json:"suffix"`
	Age                map[string]any     `json:"age"`
	HowWeMet           *string            `json:"how_we_met"`
	Gender             *personGenderJSON  `json:"gender"`
	MaritalStatus      string             `json:"marital_status"`
	KidsStatus         string             `json:"kids_status"`
	CanBeDeleted       bool               `json:"can_be_deleted"`
	IsListed           bool               `json:"is_listed"`
	PhysicalAppearance map[string]*string `json:"physical_appearance"`
	Tags               []string           `json:"tags"`
	HasPhoto           bool               `json:"has_photo"`
	CreatedAt          int64              `json:"created_at"`
	UpdatedAt          int64              `json:"updated_at"`
}

// personGenderJSON has the fields of store.GenderRef in its order, so that
// a person's gender converts to it without a copy.
type personGenderJSON struct {
	ID   int64  `json:"id"`
	Name string `json:"name"`
}

// personOut shapes a person; today is the requesting user's date, which
// ages are counted to.
func personOut(p store.Person, today time.Time, loc *time.Location) personJSON {
	look := make(map[string]*string, len(store.AppearanceFields))
	for i, f := range store.AppearanceFields {
		look[f] = p.Appearance[i]
	}
	tags := p.Tags
	if tags == nil {
		tags = []string{}
	}
	return personJSON{
		ID: p.ID, Object: "person", Name: store.FullName(p.FirstName, p.LastName),
		FirstName: p.FirstName, LastName: p.LastName, MiddleName: p.MiddleName, Nickname: p.Nickname,
		MaidenName: p.MaidenName, Prefix: p.Prefix, Suffix: p.Suffix,
		Age:      ageOut(p.Age, today, loc),
		HowWeMet: p.HowWeMet, Gender: (*personGenderJSON)(p.Gender),
		MaritalStatus: p.MaritalStatus, KidsStatus: p.KidsStatus, CanBeDeleted: p.CanBeDeleted, IsListed: p.IsListed,
		PhysicalAppearance: look, Tags: tags, HasPhoto: p.HasPhoto, CreatedAt: p.CreatedAt, UpdatedAt: p.UpdatedAt,
	}
}

func (s *Server) personResponse(c echo.Context, status int, p store.Person) error {
	today, loc := s.userDay(c)
	return c.JSON(status, dataBody[personJSON]{personOut(p, today, loc)})
}

// handlePersonList lists the account's persons; with ?q= those whose
// names, nickname or email address hold it (Kith's own: PeopleOS has no
// search), with ?tag= those who have that tag, with both those who match
// both.
func (s *Server) handlePersonList(c echo.Context) error {
	p, err := input.ReadParams(c)
	if err != nil {
		return err
	}
	page, perPage := readPage(p)
	q := p.Text("q", store.MaxSearchLength)
	tag := input.TagFilter(p)
	if err := p.Err(); err != nil {
		return err
	}
	persons, total, err := s.findPersons(c.Request().Context(), input.Account(c), q, tag, perPage, input.PageOffset(page, perPage))
	if err != nil {
		return err
	}
	today, loc := s.userDay(c)
	out := make([]personJSON, len(persons))
	for i, per := range persons {
		out[i] = personOut(per, today, loc)
	}
	query := url.Values{}
	if q != nil {
		query.Set("q", *q)
	}
	if tag != nil {
		query.Set("tag", *tag)
	}
	return c.JSON(http.StatusOK, pageOfQuery(s.base(c)+"/api/persons", query, out, page, perPage, total, p.Sent("per_page")))
}

// findPersons is a page of the account's persons: those q finds, those
// who have the tag, those who are both, or all when both are nil.
func (s *Server) findPersons(ctx context.Context, acct int64, q, tag *string, limit, offset int64) ([]store.Person, int64, error) {
	switch {
	case tag != nil:
		return s.store.TaggedPersons(ctx, acct, *tag, q, limit, offset)
	case q != nil:
		return s.store.SearchPersons(ctx, acct, *q, limit, offset)
	}
	return s.store.Persons(ctx, acct, limit, offset)
}

func (s *Server) handlePersonShow(c echo.Context) error {
	id, err := input.PathID(c, "person", store.ErrPersonNotFound)
	if err != nil {
		return err
	}
	per, err := s.store.Person(c.Request().Context(), input.Account(c), id)
	if err != nil {
		return err
	}
	return s.personResponse(c, http.StatusOK, per)
}

func (s *Server) handlePersonCreate(c echo.Context) error {
	p, err := input.ReadParams(c)
	if err != nil {
		return err
	}
	in := input.Person(p)
	if err := p.Err(); err != nil {
		return err
	}
	per, err := s.store.CreatePerson(c.Request().Context(), input.Account(c), in)
	if err != nil {
		return input.PersonError(err)
	}
	return s.personResponse(c, http.StatusCreated, per)
}

// handlePersonUpdate replaces the person: omitted fields take their
// defaults, as on creation.
func (s *Server) handlePersonUpdate(c echo.Context) error {
	ctx, acct := c.Request().Context(), input.Account(c)
	id, err := input.PathID(c, "person", store.ErrPersonNotFound)
	if err != nil {
		return err
	}
	p, err := input.ReadParams(c)
	if err != nil {
		return err
	}
	in := input.Person(p)
	if err := input.Validated(p, s.personExists(ctx, acct, id)); err != nil {
		return err
	}
	per, err := s.store.UpdatePerson(ctx, acct, id, in)
	if err != nil {
		return input.PersonError(err)
	}
	return s.personResponse(c, http.StatusOK, per)
}

func (s *Server) handlePersonDelete(c echo.Context) error {
	id, err := input.PathID(c, "person", store.ErrPersonNotFound)
	if err != nil {
		return err
	}
	err = s.store.DeletePerson(c.Request().Context(), input.Account(c), id)
	if errors.Is(err, store.ErrPersonProtected) {
		return input.ErrPersonProtected
	}
	if err != nil {
		return err
	}
	return c.NoContent(http.StatusNoContent)
}

// handleAppearanceUpdate sets the appearance fields sent; a field sent
// empty is cleared, one not sent stays as it was.
func (s *Server) handleAppearanceUpdate(c echo.Context) error {
	ctx, acct := c.Request().Context(), input.Account(c)
	id, err := input.PathID(c, "person", store.ErrPersonNotFound)
	if err != nil {
		return err
	}
	p, err := input.ReadParams(c)
	if err != nil {
		return err
	}
	changes := input.Appearance(p)
	if err := input.Validated(p, s.personExists(ctx, acct, id)); err != nil {
		return err
	}
	per, err := s.store.UpdateAppearance(ctx, acct, id, changes)
	if err != nil {
		return err
	}
	return s.personResponse(c, http.StatusOK, per)
}
