package server

import (
	"context"
	"errors"
	"math"
	"net/http"
	"net/url"
	"strconv"
	"time"

	"github.com/labstack/echo/v4"

	"kith/store"
)

var (
	errPersonProtected = &apiError{http.StatusForbidden, "This person cannot be deleted."}
	maritalStatuses    = []string{"unknown", "single", "couple"}
	kidsStatuses       = []string{"unknown", "no_kids", "maybe_kids", "has_kids"}
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
	CanBeDeleted       bool               `json:"can_be_deleted"`
	IsListed           bool               `json:"is_listed"`
	PhysicalAppearance map[string]*string `json:"physical_appearance"`
	CreatedAt          int64              `json:"created_at"`
	UpdatedAt          int64              `json:"updated_at"`
}

// personOut shapes a person; today is the requesting user's date, which
// ages are counted to.
func personOut(p store.Person, today time.Time, loc *time.Location) personJSON {
	look := make(map[string]*string, len(store.AppearanceFields))
	for i, f := range store.AppearanceFields {
		look[f] = p.Appearance[i]
	}
	return personJSON{
		ID: p.ID, Object: "person", Name: store.FullName(p.FirstName, p.LastName),
		FirstName: p.FirstName, LastName: p.LastName, MiddleName: p.MiddleName, Nickname: p.Nickname,
		MaidenName: p.MaidenName, Prefix: p.Prefix, Suffix: p.Suffix,
		Age:      ageOut(p.Age, today, loc),
		HowWeMet: p.HowWeMet, CanBeDeleted: p.CanBeDeleted, IsListed: p.IsListed,
		PhysicalAppearance: look, CreatedAt: p.CreatedAt, UpdatedAt: p.UpdatedAt,
	}
}

func (s *Server) personResponse(c echo.Context, status int, p store.Person) error {
	today, loc := s.userDay(c)
	return c.JSON(status, dataBody[personJSON]{personOut(p, today, loc)})
}

// account is the caller's account id, which scopes every query.
func account(c echo.Context) int64 {
	sess, _ := session(c)
	return sess.AccountID
}

// validated returns the parameters' validation error, unless the row the
// URL names is missing: a 404 comes before a 422, as route binding does in
// the reference system, so bad input never tells whose rows exist.
func validated(p *params, exists func() error) error {
	err := p.err()
	if err == nil {
		return nil
	}
	if missing := exists(); missing != nil {
		return missing
	}
	return err
}

// personExists is validated's check on routes that name a person.
func (s *Server) personExists(ctx context.Context, acct, id int64) func() error {
	return func() error {
		_, err := s.store.Person(ctx, acct, id)
		return err
	}
}

func personInput(p *params) store.PersonInput {
	in := store.PersonInput{
		FirstName:     p.requiredText("first_name", 255),
		LastName:      p.text("last_name", 255),
		MiddleName:    p.text("middle_name", 255),
		Nickname:      p.text("nickname", 255),
		MaidenName:    p.text("maiden_name", 255),
		Prefix:        p.text("prefix", 255),
		Suffix:        p.text("suffix", 255),
		HowWeMet:      p.text("how_we_met", 255),
		MaritalStatus: p.oneOf("marital_status", maritalStatuses, "unknown"),
		KidsStatus:    p.oneOf("kids_status", kidsStatuses, "unknown"),
		CanBeDeleted:  true,
		IsListed:      true,
	}
	if b := p.boolean("can_be_deleted"); b != nil {
		in.CanBeDeleted = *b
	}
	if b := p.boolean("is_listed"); b != nil {
		in.IsListed = *b
	}
	return in
}

func (s *Server) handlePersonList(c echo.Context) error {
	p, err := readParams(c)
	if err != nil {
		return err
	}
	page, perPage := int64(1), int64(15)
	if n := p.integer("page"); n != nil && *n < 1 {
		p.fail("page", "The page field must be at least 1.")
	} else if n != nil {
		page = *n
	}
	if n := p.between("per_page", 1, 100); n != nil {
		perPage = *n
	}
	if err := p.err(); err != nil {
		return err
	}
	persons, total, err := s.store.Persons(c.Request().Context(), account(c), perPage, pageOffset(page, perPage))
	if err != nil {
		return err
	}
	today, loc := s.userDay(c)
	out := make([]personJSON, len(persons))
	for i, per := range persons {
		out[i] = personOut(per, today, loc)
	}
	return c.JSON(http.StatusOK, pageOf(s.base(c)+"/api/persons", out, page, perPage, total, p.sent("per_page")))
}

func (s *Server) handlePersonShow(c echo.Context) error {
	id, err := pathID(c, "person", store.ErrPersonNotFound)
	if err != nil {
		return err
	}
	per, err := s.store.Person(c.Request().Context(), account(c), id)
	if err != nil {
		return err
	}
	return s.personResponse(c, http.StatusOK, per)
}

func (s *Server) handlePersonCreate(c echo.Context) error {
	p, err := readParams(c)
	if err != nil {
		return err
	}
	in := personInput(p)
	if err := p.err(); err != nil {
		return err
	}
	per, err := s.store.CreatePerson(c.Request().Context(), account(c), in)
	if err != nil {
		return err
	}
	return s.personResponse(c, http.StatusCreated, per)
}

// handlePersonUpdate replaces the person: omitted fields take their
// defaults, as on creation.
func (s *Server) handlePersonUpdate(c echo.Context) error {
	ctx, acct := c.Request().Context(), account(c)
	id, err := pathID(c, "person", store.ErrPersonNotFound)
	if err != nil {
		return err
	}
	p, err := readParams(c)
	if err != nil {
		return err
	}
	in := personInput(p)
	if err := validated(p, s.personExists(ctx, acct, id)); err != nil {
		return err
	}
	per, err := s.store.UpdatePerson(ctx, acct, id, in)
	if err != nil {
		return err
	}
	return s.personResponse(c, http.StatusOK, per)
}

func (s *Server) handlePersonDelete(c echo.Context) error {
	id, err := pathID(c, "person", store.ErrPersonNotFound)
	if err != nil {
		return err
	}
	err = s.store.DeletePerson(c.Request().Context(), account(c), id)
	if errors.Is(err, store.ErrPersonProtected) {
		return errPersonProtected
	}
	if err != nil {
		return err
	}
	return c.NoContent(http.StatusNoContent)
}

// handleAppearanceUpdate sets the appearance fields sent; a field sent
// empty is cleared, one not sent stays as it was.
func (s *Server) handleAppearanceUpdate(c echo.Context) error {
	ctx, acct := c.Request().Context(), account(c)
	id, err := pathID(c, "person", store.ErrPersonNotFound)
	if err != nil {
		return err
	}
	p, err := readParams(c)
	if err != nil {
		return err
	}
	changes := make(map[string]*string)
	for _, f := range store.AppearanceFields {
		if p.sent(f) {
			changes[f] = p.text(f, 255)
		}
	}
	if err := validated(p, s.personExists(ctx, acct, id)); err != nil {
		return err
	}
	per, err := s.store.UpdateAppearance(ctx, acct, id, changes)
	if err != nil {
		return err
	}
	return s.personResponse(c, http.StatusOK, per)
}

type pageLinks struct {
	First string  `json:"first"`
	Last  string  `json:"last"`
	Prev  *string `json:"prev"`
	Next  *string `json:"next"`
}

// pageMeta counts in int64: page is the client's number, and int is 32
// bits on the ARM builds.
type pageMeta struct {
	CurrentPage int64  `json:"current_page"`
	From        *int64 `json:"from"`
	LastPage    int64  `json:"last_page"`
	Path        string `json:"path"`
	PerPage     int64  `json:"per_page"`
	To          *int64 `json:"to"`
	Total       int64  `json:"total"`
}

type pageBody[T any] struct {
	Data  []T       `json:"data"`
	Links pageLinks `json:"links"`
	Meta  pageMeta  `json:"meta"`
}

// pageOf wraps one page of items the way Laravel's paginator does. The
// links keep per_page when the client chose it, so following them keeps
// the page size.
func pageOf[T any](path string, items []T, page, perPage, total int64, keepPerPage bool) pageBody[T] {
	last := max(1, (total+perPage-1)/perPage)
	link := func(n int64) string {
		q := url.Values{"page": {strconv.FormatInt(n, 10)}}
		if keepPerPage {
			q.Set("per_page", strconv.FormatInt(perPage, 10))
		}
		return path + "?" + q.Encode()
	}
	b := pageBody[T]{
		Data:  items,
		Links: pageLinks{First: link(1), Last: link(last)},
		Meta:  pageMeta{CurrentPage: page, LastPage: last, Path: path, PerPage: perPage, Total: total},
	}
	if page > 1 {
		prev := link(min(page-1, last))
		b.Links.Prev = &prev
	}
	if page < last {
		next := link(page + 1)
		b.Links.Next = &next
	}
	if len(items) > 0 {
		from := pageOffset(page, perPage) + 1 // items exist, so the offset did not saturate
		to := from + int64(len(items)) - 1
		b.Meta.From, b.Meta.To = &from, &to
	}
	return b
}

// pageOffset is how many rows come before the page. A page so far out that
// the product overflows gets the largest offset, which is an empty page:
// wrapping round would serve the first rows under a page number they are not.
func pageOffset(page, perPage int64) int64 {
	if page-1 > math.MaxInt64/perPage {
		return math.MaxInt64
	}
	return (page - 1) * perPage
}
