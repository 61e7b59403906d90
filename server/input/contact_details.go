package input

import (
	"errors"
	"fmt"
	"strings"
	"unicode"

	"kith/store"
)

// ContactDetail reads a contact detail, the same on create and on
// update, which replaces. Only the fields of its kind are read: the
// others are ignored, and stored as null.
func ContactDetail(p *Params) store.ContactDetailInput {
	in := store.ContactDetailInput{
		Kind:     p.OneOf("kind", store.ContactDetailKinds, ""),
		Label:    p.Text("label", 255),
		Position: p.Integer("position"),
	}
	switch in.Kind {
	case "":
		if !p.Failed("kind") {
			p.Fail("kind", "The kind field is required.")
		}
	case "email":
		in.Value = kindText(p, "value", 255, in.Kind)
		if in.Value != nil && !store.ValidEmail(*in.Value) {
			p.Fail("value", "The value field must be a valid email address.")
		}
	case "phone":
		// Free form ("+44 20 7946 0958 ext. 12"), but a number has digits.
		in.Value = kindText(p, "value", 64, in.Kind)
		if in.Value != nil && !strings.ContainsFunc(*in.Value, unicode.IsDigit) {
			p.Fail("value", "The value field format is invalid.")
		}
	case "website":
		in.Value = kindText(p, "value", 255, in.Kind)
		if in.Value != nil && !webURL(*in.Value) {
			p.Fail("value", "The value field must be a valid URL.")
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
func kindText(p *Params, key string, maxLen int, kind string) *string {
	s := p.Text(key, maxLen)
	if s == nil && !p.Failed(key) {
		p.Fail(key, "The "+Attr(key)+" field is required when kind is "+kind+".")
	}
	return s
}

// addressFields are an address's parts; it needs one at least.
var addressFields = []string{"street", "city", "postal_code", "region", "country"}

// addressInput reads an address: every part optional, the street on
// several lines if need be, the country an ISO 3166-1 alpha-2 code in
// either case or a country's name (Country), kept as the code.
func addressInput(p *Params, in *store.ContactDetailInput) {
	in.Street = p.longText("street", 255)
	in.City = p.Text("city", 255)
	in.PostalCode = p.Text("postal_code", 255)
	in.Region = p.Text("region", 255)
	if s := p.Text("country", 255); s != nil {
		if code, ok := Country(*s); ok {
			in.Country = &code
		} else {
			p.Fail("country", "The selected country is invalid.")
		}
	}
	for _, key := range addressFields {
		if p.Failed(key) {
			return
		}
	}
	if in.Street == nil && in.City == nil && in.PostalCode == nil && in.Region == nil && in.Country == nil {
		p.Fail("street", "The street field is required when none of city / postal code / region / country are present.")
	}
}

// webURL is store.WebURL, the rule the vCard import keeps too.
func webURL(s string) bool { return store.WebURL(s) }

// MsgTooManyContactDetails answers a contact detail that would give a
// person more than store.MaxContactDetails.
var MsgTooManyContactDetails = fmt.Sprintf("A person may have at most %d contact details.", store.MaxContactDetails)

// ContactDetailError turns the cap on a person's contact details into the
// 422 a client can act on, named by the detail's kind.
func ContactDetailError(err error) error {
	if errors.Is(err, store.ErrTooManyContactDetails) {
		return Invalid("kind", MsgTooManyContactDetails)
	}
	return err
}
