package store_test

import (
	"context"
	"errors"
	"fmt"
	"testing"

	"kith/store"
)

// TestImportCardsFailsWhole: a vCard import that fails after a page is
// in leaves the account as it was, and its batches leave nothing behind
// them: the next write of a person counts as a change and is found.
func TestImportCardsFailsWhole(t *testing.T) {
	s := newStore(t)
	ctx := context.Background()
	me := newUser(t, s)
	seq, err := s.CardSeq(ctx, me.AccountID)
	if err != nil {
		t.Fatal(err)
	}
	page := make([]store.CardInput, 300)
	for i := range page {
		page[i] = store.CardInput{UID: fmt.Sprintf("u%d", i), FirstName: fmt.Sprintf("Page%d", i),
			Details: []store.ContactDetailInput{{Kind: "email", Value: ptr(fmt.Sprintf("p%d@example.com", i))}}}
	}
	broken := errors.New("the file ends in the middle of a card")
	_, _, err = s.ImportCards(ctx, me.AccountID, func(put func([]store.CardInput) error, _ func([]store.CardLinks) error) error {
		if err := put(page); err != nil {
			return err
		}
		return broken
	})
	if !errors.Is(err, broken) {
		t.Fatalf("import: %v", err)
	}
	if _, n, err := s.SearchPersons(ctx, me.AccountID, "", 10, 0); err != nil || n != 0 {
		t.Errorf("%d persons after a failed import, %v", n, err)
	}
	if after, err := s.CardSeq(ctx, me.AccountID); err != nil || after != seq {
		t.Errorf("card counter %d after a failed import, was %d (%v)", after, seq, err)
	}
	// The same cards again, whole this time, and a card put alone after.
	created, updated, err := s.ImportCards(ctx, me.AccountID, func(put func([]store.CardInput) error, _ func([]store.CardLinks) error) error {
		return put(page)
	})
	if err != nil || created != len(page) || updated != 0 {
		t.Fatalf("import: %d created, %d updated, %v", created, updated, err)
	}
	imported, err := s.CardSeq(ctx, me.AccountID)
	if err != nil || imported <= seq {
		t.Fatalf("card counter %d after the import, was %d (%v)", imported, seq, err)
	}
	if _, n, err := s.SearchPersons(ctx, me.AccountID, "p299@example", 10, 0); err != nil || n != 1 {
		t.Errorf("search of an imported email: %d, %v", n, err)
	}
	if _, _, err := s.PutCard(ctx, me.AccountID, store.CardInput{UID: "alone", FirstName: "Alone",
		Details: []store.ContactDetailInput{{Kind: "email", Value: ptr("alone@example.com")}}}, nil); err != nil {
		t.Fatal(err)
	}
	if after, err := s.CardSeq(ctx, me.AccountID); err != nil || after <= imported {
		t.Errorf("card counter %d after a card put alone, was %d (%v)", after, imported, err)
	}
	if _, n, err := s.SearchPersons(ctx, me.AccountID, "alone@example", 10, 0); err != nil || n != 1 {
		t.Errorf("search of a card put alone: %d, %v", n, err)
	}
}
