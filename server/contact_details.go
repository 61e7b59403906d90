package server

import (
	"github.com/labstack/echo/v4"

	"kith/server/input"
	"kith/store"
)

// contactDetailJSON has every kind's fields; those of other kinds are null.
type contactDetailJSON struct {
	ID         int64   `json:"id"`
	Object     string  `json:"object"`
	Kind       string  `json:"kind"`
	Label      *string `json:"label"`
	Position   int64   `json:"position"`
	Value      *string `json:"value"`
	Network    *string `json:"network"`
	Street     *string `json:"street"`
	City       *string `json:"city"`
	PostalCode *string `json:"postal_code"`
	Region     *string `json:"region"`
	Country    *string `json:"country"`
	CreatedAt  int64   `json:"created_at"`
	UpdatedAt  int64   `json:"updated_at"`
}

func contactDetailOut(d *store.ContactDetail) contactDetailJSON {
	return contactDetailJSON{
		ID: d.ID, Object: "contact_detail", Kind: d.Kind, Label: d.Label, Position: d.Position,
		Value: d.Value, Network: d.Network, Street: d.Street, City: d.City, PostalCode: d.PostalCode,
		Region: d.Region, Country: d.Country, CreatedAt: d.CreatedAt, UpdatedAt: d.UpdatedAt,
	}
}

// handleContactDetailList lists the person's details, of one kind when
// ?kind= names one.
func (s *Server) handleContactDetailList(c echo.Context) error {
	return contactDetails.listAll(c, func(c echo.Context, acct, person int64) ([]store.ContactDetail, error) {
		p, err := input.ReadParams(c)
		if err != nil {
			return nil, err
		}
		ctx := c.Request().Context()
		kind := p.OneOf("kind", store.ContactDetailKinds, "")
		if err := input.Validated(p, s.personExists(ctx, acct, person)); err != nil {
			return nil, err
		}
		return s.store.ContactDetails(ctx, acct, person, kind)
	})
}

// contactDetails serves the details of a person (see child).
var contactDetails = child[store.ContactDetail, store.ContactDetailInput]{input.ContactDetails, func(v *store.ContactDetail) any { return contactDetailOut(v) }}

func (s *Server) handleContactDetailShow(c echo.Context) error { return contactDetails.show(s, c) }
func (s *Server) handleContactDetailCreate(c echo.Context) error {
	return contactDetails.doCreate(s, c)
}

// handleContactDetailUpdate replaces the detail, its kind too: a field not
// sent is cleared, and a position not sent keeps the detail where it was
// (last among its new kind when the kind changes).
func (s *Server) handleContactDetailUpdate(c echo.Context) error { return contactDetails.replace(s, c) }
func (s *Server) handleContactDetailDelete(c echo.Context) error { return contactDetails.delete(s, c) }
