package store_test

import (
	"slices"
	"testing"

	"kith/store"
)

// TestSearchFollowsEveryWriteOfEmails: the search text is built once per
// write of a person's details (migration 0024), by each way of writing
// them: a detail changed to or from an email, a card's details put or
// replaced, an import, a copy.
func TestSearchFollowsEveryWriteOfEmails(t *testing.T) {
	s := newStore(t)
	me := newUser(t, s)
	ctx := t.Context()
	found := func(s *store.Store, acct int64, q string) []int64 {
		t.Helper()
		ps, _, err := s.SearchPersons(ctx, acct, q, 100, 0)
		if err != nil {
			t.Fatalf("search %q: %v", q, err)
		}
		ids := []int64{}
		for _, p := range ps {
			ids = append(ids, p.ID)
		}
		return ids
	}
	want := func(s *store.Store, acct int64, q string, ids ...int64) {
		t.Helper()
		if ids == nil {
			ids = []int64{}
		}
		if got := found(s, acct, q); !slices.Equal(got, ids) {
			t.Errorf("search %q: %v, want %v", q, got, ids)
		}
	}

	// A detail that becomes an email, then stops being one.
	p := newPerson(t, s, me.AccountID, "Pam")
	d, err := s.CreateContactDetail(ctx, me.AccountID, p.ID, store.ContactDetailInput{Kind: "phone", Value: ptr("pam-phone")})
	if err != nil {
		t.Fatal(err)
	}
	want(s, me.AccountID, "pam-phone")
	if _, err := s.UpdateContactDetail(ctx, me.AccountID, p.ID, d.ID, store.ContactDetailInput{Kind: "email", Value: ptr("pam@paper.example")}); err != nil {
		t.Fatal(err)
	}
	want(s, me.AccountID, "pam@paper", p.ID)
	if _, err := s.UpdateContactDetail(ctx, me.AccountID, p.ID, d.ID, store.ContactDetailInput{Kind: "phone", Value: ptr("5550100")}); err != nil {
		t.Fatal(err)
	}
	want(s, me.AccountID, "pam@paper")

	// A card's emails, then others in their place, in the card's order.
	card := store.CardInput{UID: "carded", FirstName: "Carded", Details: emailsIn(3)}
	c, _, err := s.PutCard(ctx, me.AccountID, card, nil)
	if err != nil {
		t.Fatal(err)
	}
	want(s, me.AccountID, "e2@example", c.ID)
	card.Details = []store.ContactDetailInput{{Kind: "email", Value: ptr("new@card.example")}}
	if _, _, err := s.PutCard(ctx, me.AccountID, card, nil); err != nil {
		t.Fatal(err)
	}
	want(s, me.AccountID, "e2@example")
	want(s, me.AccountID, "new@card", c.ID)
	if _, err := s.PutCards(ctx, me.AccountID, []store.CardInput{{UID: "batch", FirstName: "Batched", Details: emailsIn(2)}}); err != nil {
		t.Fatal(err)
	}
	if got := found(s, me.AccountID, "e1@example"); len(got) != 1 {
		t.Errorf("a card of an import: %v", got)
	}

	// An import.
	other := newUser(t, s)
	rec := store.PersonRecord{Person: store.Person{FirstName: "Imported", MaritalStatus: "unknown", KidsStatus: "unknown"},
		ContactDetails: []store.ContactDetail{{Kind: "email", Value: ptr("imported@example.org"), Position: 1}}}
	_, err = s.ImportAccount(ctx, other.AccountID, other.ID, store.AccountImport{Persons: func(add func(*store.PersonRecord) error) error {
		return add(&rec)
	}})
	if err != nil {
		t.Fatal(err)
	}
	if got := found(s, other.AccountID, "imported@"); len(got) != 1 {
		t.Errorf("an imported email: %v", got)
	}

	// A copy into another database.
	to := newStore(t)
	if _, err := store.Copy(ctx, s, to); err != nil {
		t.Fatal(err)
	}
	want(to, me.AccountID, "new@card", c.ID)
	want(to, me.AccountID, "e2@example")
}
