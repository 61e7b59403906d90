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

// TestBulkImportsKeepCounts: an import's batches hold back the per-row
// triggers that count the account's persons and take a card made again
// out of the deleted ones (migration 0042). Their ends do it for the
// batch: after each import (vCard, JSON, CSV) the list's total is the
// persons the account has, each has a UID, a deleted card imported again
// is no longer deleted, and a person made alone afterwards counts.
func TestBulkImportsKeepCounts(t *testing.T) {
	s := newStore(t)
	u := newUser(t, s)
	ctx := store.WithActor(t.Context(), u.ID)
	check := func(when string, want int) {
		t.Helper()
		_, total, err := s.SearchPersons(ctx, u.AccountID, "", 1, 0)
		refs, rerr := s.CardRefs(ctx, u.AccountID, 0, 10000)
		if err != nil || rerr != nil {
			t.Fatal(err, rerr)
		}
		if total != int64(want) || len(refs) != want {
			t.Errorf("%s: the list counts %d, the account has %d persons, want %d", when, total, len(refs), want)
		}
		for _, r := range refs {
			if r.UID == "" {
				t.Errorf("%s: person %d has no UID", when, r.ID)
			}
		}
	}
	// Persons without a UID, from a JSON export, which only an empty
	// account takes.
	recs := []store.PersonRecord{
		{Person: store.Person{FirstName: "Json", MaritalStatus: "unknown", KidsStatus: "unknown"}},
		{Person: store.Person{FirstName: "Json two", MaritalStatus: "unknown", KidsStatus: "unknown"},
			ContactDetails: []store.ContactDetail{{Kind: "email", Value: ptr("json@example.org"), Position: 1}}},
	}
	if _, err := s.ImportAccount(ctx, u.AccountID, u.ID, store.AccountImport{Persons: func(add func(*store.PersonRecord) error) error {
		for i := range recs {
			if err := add(&recs[i]); err != nil {
				return err
			}
		}
		return nil
	}}); err != nil {
		t.Fatal(err)
	}
	check("after the JSON import", 2)

	gone, _, err := s.PutCard(ctx, u.AccountID, store.CardInput{UID: "gone", FirstName: "Gone"}, nil)
	if err != nil {
		t.Fatal(err)
	}
	if _, _, err := s.PutCard(ctx, u.AccountID, store.CardInput{UID: "kept", FirstName: "Kept"}, nil); err != nil {
		t.Fatal(err)
	}
	since, err := s.CardSeq(ctx, u.AccountID)
	if err != nil {
		t.Fatal(err)
	}
	if err := s.DeletePerson(ctx, u.AccountID, gone.ID); err != nil {
		t.Fatal(err)
	}
	if _, _, deleted, err := s.CardChanges(ctx, u.AccountID, since); err != nil || len(deleted) != 1 {
		t.Fatalf("deleted cards after a delete: %v, %v", deleted, err)
	}
	check("after a delete", 3)

	// New cards (one of them the deleted card, one named as a resource,
	// which is written alone) and the card the account has.
	cards := []store.CardInput{{UID: "gone", FirstName: "Gone again"}, {UID: "kept", FirstName: "Kept again"},
		{UID: "named", Name: "named-card.vcf", FirstName: "Named"}}
	for i := range 250 {
		cards = append(cards, store.CardInput{UID: fmt.Sprint("v", i), FirstName: fmt.Sprint("V", i),
			Details: []store.ContactDetailInput{{Kind: "email", Value: ptr(fmt.Sprintf("v%d@example.com", i))}}})
	}
	created, updated, err := s.ImportCards(ctx, u.AccountID, func(put func([]store.CardInput) error, _ func([]store.CardLinks) error) error {
		return put(cards)
	})
	if err != nil || created != 252 || updated != 1 {
		t.Fatalf("vCard import: %d created, %d updated, %v", created, updated, err)
	}
	check("after the vCard import", 255)
	_, changed, deleted, err := s.CardChanges(ctx, u.AccountID, since)
	if err != nil || len(deleted) != 0 || len(changed) != 253 {
		t.Errorf("since before the delete: %d changed, deleted %v, %v", len(changed), deleted, err)
	}

	// CSV rows: two new persons and one the vCard import made.
	rows := []store.PersonRecord{
		{Person: store.Person{FirstName: "Csv", IsListed: true}, ContactDetails: []store.ContactDetail{email("csv@example.com")}},
		{Person: store.Person{FirstName: "Csv two", IsListed: true}, ContactDetails: []store.ContactDetail{email("csv2@example.com")}},
		{Person: store.Person{FirstName: "V0", IsListed: true}, ContactDetails: []store.ContactDetail{email("V0@example.com")}},
	}
	res, err := s.ImportPeople(ctx, u.AccountID, store.PeopleImport{Source: store.SourceCSV, Persons: csvRows(rows)})
	if err != nil || res.Created != 2 {
		t.Fatalf("CSV import: %+v, %v", res, err)
	}
	check("after the CSV import", 257)

	newPerson(t, s, u.AccountID, "Alone")
	check("after a person made alone", 258)
}
