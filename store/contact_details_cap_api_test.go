package store_test

import (
	"errors"
	"fmt"
	"testing"

	"kith/store"
)

// emailsIn are n email details, as a card or an import gives them.
func emailsIn(n int) []store.ContactDetailInput {
	out := make([]store.ContactDetailInput, n)
	for i := range out {
		v := fmt.Sprintf("e%d@example.com", i)
		out[i] = store.ContactDetailInput{Kind: "email", Value: &v}
	}
	return out
}

// TestContactDetailsCapInTheStore: every write that adds contact details
// meets store.MaxContactDetails in the store itself, whichever caller
// forgot to look, and writes nothing of what it refuses.
func TestContactDetailsCapInTheStore(t *testing.T) {
	s := newStore(t)
	me := newUser(t, s)
	ctx := t.Context()
	full, _, err := s.PutCard(ctx, me.AccountID, store.CardInput{UID: "full", FirstName: "Full", Details: emailsIn(store.MaxContactDetails)}, nil)
	if err != nil {
		t.Fatalf("a card of %d details: %v", store.MaxContactDetails, err)
	}
	phone := "555"
	if _, err := s.CreateContactDetail(ctx, me.AccountID, full.ID, store.ContactDetailInput{Kind: "phone", Value: &phone}); !errors.Is(err, store.ErrTooManyContactDetails) {
		t.Errorf("one more detail: %v", err)
	}
	over := emailsIn(store.MaxContactDetails + 1)
	if _, _, err := s.PutCard(ctx, me.AccountID, store.CardInput{UID: "over", FirstName: "Over", Details: over}, nil); !errors.Is(err, store.ErrTooManyContactDetails) {
		t.Errorf("PutCard of one more: %v", err)
	}
	if _, err := s.PutCards(ctx, me.AccountID, []store.CardInput{{UID: "over", FirstName: "Over", Details: over}}); !errors.Is(err, store.ErrTooManyContactDetails) {
		t.Errorf("PutCards of one more: %v", err)
	}
	details, err := s.ContactDetails(ctx, me.AccountID, full.ID, "")
	if err != nil || len(details) != store.MaxContactDetails {
		t.Errorf("%d details after the refusals (%v), want %d", len(details), err, store.MaxContactDetails)
	}

	other := newUser(t, s)
	rec := store.PersonRecord{Person: store.Person{FirstName: "Many", MaritalStatus: "unknown", KidsStatus: "unknown"}}
	for i, d := range over {
		rec.ContactDetails = append(rec.ContactDetails, store.ContactDetail{Kind: d.Kind, Value: d.Value, Position: int64(i + 1)})
	}
	_, err = s.ImportAccount(ctx, other.AccountID, other.ID, store.AccountImport{Persons: func(add func(*store.PersonRecord) error) error {
		return add(&rec)
	}})
	if !errors.Is(err, store.ErrTooManyContactDetails) {
		t.Errorf("an import of one more: %v", err)
	}
}
