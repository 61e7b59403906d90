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

// TestImportCardsSearchText: a card imported new to the account is found
// by the same searches as the card put alone, whose search text the
// triggers build: names in their order, then the emails in theirs.
func TestImportCardsSearchText(t *testing.T) {
	s := newStore(t)
	ctx := context.Background()
	imported, alone := newUser(t, s), newUser(t, s)
	cards := []store.CardInput{
		{UID: "full", FirstName: "Ada", MiddleName: ptr("Mid"), LastName: ptr("LAST"), Nickname: ptr("Nick"),
			Details: []store.ContactDetailInput{{Kind: "email", Value: ptr("One@Example.com")},
				{Kind: "phone", Value: ptr("+1 555 0100")}, {Kind: "email", Value: ptr("two@example.com")}}},
		{UID: "bare", FirstName: "Bare", LastName: ptr("")},
		{UID: "accents", FirstName: "Élodie", LastName: ptr("Ärger")},
		{UID: "mailonly", FirstName: "", Details: []store.ContactDetailInput{{Kind: "email", Value: ptr("only@example.com")}}},
	}
	if _, _, err := s.ImportCards(ctx, imported.AccountID, func(put func([]store.CardInput) error, _ func([]store.CardLinks) error) error {
		return put(cards)
	}); err != nil {
		t.Fatal(err)
	}
	for _, c := range cards {
		if _, _, err := s.PutCard(ctx, alone.AccountID, c, nil); err != nil {
			t.Fatal(err)
		}
	}
	for _, q := range []string{"ada mid last nick one@example.com two@example.com", "Ada Mid LAST Nick One",
		"élodie ärger", "Élodie Ärger",
		"nick one@", "com two", "bare ", "bare", " only@example.com", "only@example.com", "555"} {
		_, want, err := s.SearchPersons(ctx, alone.AccountID, q, 10, 0)
		if err != nil {
			t.Fatal(err)
		}
		if _, got, err := s.SearchPersons(ctx, imported.AccountID, q, 10, 0); err != nil || got != want {
			t.Errorf("search %q: %d imported, %d put alone (%v)", q, got, want, err)
		}
	}
	if _, n, _ := s.SearchPersons(ctx, imported.AccountID, "ada mid last nick one@example.com two@example.com", 10, 0); n != 1 {
		t.Errorf("search of the names and emails in their order: %d", n)
	}
}
