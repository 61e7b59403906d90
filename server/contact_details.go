package server

import (
	"net/http"
	"strings"
	"unicode"

	"github.com/labstack/echo/v4"

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

// contactDetailInput reads a contact detail, the same on create and on
// update, which replaces. Only the fields of its kind are read: the
// others are ignored, and stored as null.
func contactDetailInput(p *params) store.ContactDetailInput {
	in := store.ContactDetailInput{
		Kind:     p.oneOf("kind", store.ContactDetailKinds, ""),
		Label:    p.text("label", 255),
		Position: p.integer("position"),
	}
	switch in.Kind {
	case "":
		if !p.failed("kind") {
			p.fail("kind", "The kind field is required.")
		}
	case "email":
		in.Value = kindText(p, "value", 255, in.Kind)
		if in.Value != nil && !store.ValidEmail(*in.Value) {
			p.fail("value", "The value field must be a valid email address.")
		}
	case "phone":
		// Free form ("+44 20 7946 0958 ext. 12"), but a number has digits.
		in.Value = kindText(p, "value", 64, in.Kind)
		if in.Value != nil && !strings.ContainsFunc(*in.Value, unicode.IsDigit) {
			p.fail("value", "The value field format is invalid.")
		}
	case "website":
		in.Value = kindText(p, "value", 255, in.Kind)
		if in.Value != nil && !webURL(*in.Value) {
			p.fail("value", "The value field must be a valid URL.")
		}
	case "social":
		in.Network = kindText(p, "network", 64, in.Kind)
		in.Value = kindText(p, "value", 255, in.Kind) // a handle or a URL
	case "address":
		addressInput(p, &in)
	}
	return in
}

// kindText is one-line text that a detail of this kind needs.
func kindText(p *params, key string, maxLen int, kind string) *string {
	s := p.text(key, maxLen)
	if s == nil && !p.failed(key) {
		p.fail(key, "The "+attr(key)+" field is required when kind is "+kind+".")
	}
	return s
}

// addressFields are an address's parts; it needs one at least.
var addressFields = []string{"street", "city", "postal_code", "region", "country"}

// addressInput reads an address: every part optional, the street on
// several lines if need be, the country an ISO 3166-1 alpha-2 code in
// either case, kept in upper case.
func addressInput(p *params, in *store.ContactDetailInput) {
	in.Street = p.longText("street", 255)
	in.City = p.text("city", 255)
	in.PostalCode = p.text("postal_code", 255)
	in.Region = p.text("region", 255)
	if s := p.text("country", 255); s != nil {
		if code, ok := store.CountryCode(*s); ok {
			in.Country = &code
		} else {
			p.fail("country", "The selected country is invalid.")
		}
	}
	for _, key := range addressFields {
		if p.failed(key) {
			return
		}
	}
	if in.Street == nil && in.City == nil && in.PostalCode == nil && in.Region == nil && in.Country == nil {
		p.fail("street", "The street field is required when none of city / postal code / region / country are present.")
	}
}

// webURL is store.WebURL, the rule the vCard import keeps too.
func webURL(s string) bool { return store.WebURL(s) }

// handleContactDetailList lists the person's details, of one kind when
// ?kind= names one.
func (s *Server) handleContactDetailList(c echo.Context) error {
	ctx, acct := c.Request().Context(), account(c)
	personID, err := pathID(c, "person", store.ErrPersonNotFound)
	if err != nil {
		return err
	}
	p, err := readParams(c)
	if err != nil {
		return err
	}
	kind := p.oneOf("kind", store.ContactDetailKinds, "")
	if err := validated(p, s.personExists(ctx, acct, personID)); err != nil {
		return err
	}
	details, err := s.store.ContactDetails(ctx, acct, personID, kind)
	if err != nil {
		return err
	}
	out := make([]contactDetailJSON, len(details))
	for i := range details {
		out[i] = contactDetailOut(&details[i])
	}
	return c.JSON(http.StatusOK, dataBody[[]contactDetailJSON]{out})
}

// contactDetails serves the details of a person (see child).
var contactDetails = child[store.ContactDetail, store.ContactDetailInput]{
	param: "detail", notFound: store.ErrContactDetailNotFound,
	input:  func(s *Server, c echo.Context, p *params) store.ContactDetailInput { return contactDetailInput(p) },
	out:    func(v *store.ContactDetail) any { return contactDetailOut(v) },
	get:    (*store.Store).ContactDetail,
	create: (*store.Store).CreateContactDetail,
	update: (*store.Store).UpdateContactDetail,
	remove: (*store.Store).DeleteContactDetail,
}

func (s *Server) handleContactDetailShow(c echo.Context) error { return contactDetails.show(s, c) }
func (s *Server) handleContactDetailCreate(c echo.Context) error {
	return contactDetails.doCreate(s, c)
}

// handleContactDetailUpdate replaces the detail, its kind too: a field not
// sent is cleared, and a position not sent keeps the detail where it was
// (last among its new kind when the kind changes).
func (s *Server) handleContactDetailUpdate(c echo.Context) error { return contactDetails.replace(s, c) }
func (s *Server) handleContactDetailDelete(c echo.Context) error { return contactDetails.delete(s, c) }
