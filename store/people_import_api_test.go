package store_test

import (
	"fmt"
	"testing"

	"kith/store"
)

// csvRows are incoming persons as a CSV reader makes them.
func csvRows(rows []store.PersonRecord) func(add func(*store.IncomingPerson) error) error {
	return func(add func(*store.IncomingPerson) error) error {
		for i := range rows {
			if err := add(&store.IncomingPerson{PersonRecord: rows[i], Place: i + 2}); err != nil {
				return err
			}
		}
		return nil
	}
}

func email(v string) store.ContactDetail { return store.ContactDetail{Kind: "email", Value: &v} }

// A CSV file's rows match the account's persons (by email ignoring case,
// or by name without an email) and the persons made by earlier rows, also
// across the import's batches; a dry run answers the same and writes
// nothing; a second import changes nothing.
func TestImportPeopleCSV(t *testing.T) {
	s := newStore(t)
	u := newUser(t, s)
	ctx := store.WithActor(t.Context(), u.ID)
	jo, err := s.CreatePerson(ctx, u.AccountID, store.PersonInput{FirstName: "Jo", LastName: ptr("Doe"),
		MaritalStatus: "unknown", KidsStatus: "unknown", CanBeDeleted: true, IsListed: true})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := s.CreateContactDetail(ctx, u.AccountID, jo.ID, store.ContactDetailInput{Kind: "email", Value: ptr("jo@example.com")}); err != nil {
		t.Fatal(err)
	}
	ann := newPerson(t, s, u.AccountID, "Ann")
	other := newUser(t, s) // another account, with a person of the same email
	theirs := newPerson(t, s, other.AccountID, "Jo")
	s.CreateContactDetail(ctx, other.AccountID, theirs.ID, store.ContactDetailInput{Kind: "email", Value: ptr("p3@example.com")})

	var rows []store.PersonRecord
	for i := range 1200 {
		rows = append(rows, store.PersonRecord{Person: store.Person{FirstName: fmt.Sprint("P", i), IsListed: true},
			ContactDetails: []store.ContactDetail{email(fmt.Sprintf("p%d@example.com", i))}})
	}
	phone := "+1 555 0100"
	rows = append(rows,
		store.PersonRecord{Person: store.Person{FirstName: "Jo", LastName: ptr("Other")},
			ContactDetails: []store.ContactDetail{email("JO@Example.com")}, Notes: []store.Note{{Content: "From the file"}}},
		store.PersonRecord{Person: store.Person{FirstName: "P3 again"},
			ContactDetails: []store.ContactDetail{email("p3@example.com"), {Kind: "phone", Value: &phone}}},
		store.PersonRecord{Person: store.Person{FirstName: " ann "}})
	in := store.PeopleImport{Source: store.SourceCSV, Persons: csvRows(rows)}
	want := store.PeopleImportResult{Created: 1200, Updated: 1, Unchanged: 1,
		Counts: store.ImportCounts{Persons: 1201, ContactDetails: 1201, Notes: 1}}

	_, logsBefore, _ := s.Logs(ctx, u.ID, 10, 0)
	in.DryRun = true
	dry, err := s.ImportPeople(ctx, u.AccountID, in)
	if err != nil {
		t.Fatal(err)
	}
	if dry != want {
		t.Errorf("dry run: %+v, want %+v", dry, want)
	}
	if _, n, _ := s.Persons(ctx, u.AccountID, 1, 0); n != 2 {
		t.Errorf("the dry run left %d persons, want 2", n)
	}
	if _, n, _ := s.Logs(ctx, u.ID, 10, 0); n != logsBefore {
		t.Errorf("the dry run wrote %d log entries", n-logsBefore)
	}

	in.DryRun = false
	got, err := s.ImportPeople(ctx, u.AccountID, in)
	if err != nil {
		t.Fatal(err)
	}
	if got != want {
		t.Errorf("import: %+v, want %+v", got, want)
	}
	if _, n, _ := s.Persons(ctx, u.AccountID, 1, 0); n != 1202 {
		t.Errorf("%d persons, want 1202", n)
	}
	logs, n, _ := s.Logs(ctx, u.ID, 10, 0)
	if n != logsBefore+1 || logs[0].Action != "csv_import" || logs[0].Description != "Imported 1200 persons and updated 1 from a CSV file" {
		t.Errorf("logs %+v", logs)
	}
	// Jo keeps her last name, and gains the note; her email is there.
	if p, _ := s.Person(ctx, u.AccountID, jo.ID); *p.LastName != "Doe" {
		t.Errorf("Jo's last name became %q", *p.LastName)
	}
	if ds, _ := s.ContactDetails(ctx, u.AccountID, jo.ID, ""); len(ds) != 1 {
		t.Errorf("Jo has %d details, want 1", len(ds))
	}
	if p, _ := s.Person(ctx, u.AccountID, ann.ID); p.LastName != nil {
		t.Errorf("Ann changed: %+v", p)
	}
	if ds, _ := s.ContactDetails(ctx, other.AccountID, theirs.ID, ""); len(ds) != 1 {
		t.Errorf("the other account's person has %d details, want 1", len(ds))
	}

	again, err := s.ImportPeople(ctx, u.AccountID, in)
	if err != nil {
		t.Fatal(err)
	}
	if want := (store.PeopleImportResult{Unchanged: 1202}); again != want {
		t.Errorf("again: %+v, want %+v", again, want)
	}
}

// Relationships name persons by the file's keys; a type is the account's
// of that name ignoring case, or a new one made once; a pair is one
// relationship whichever way round it comes.
func TestImportPeopleRelationships(t *testing.T) {
	s := newStore(t)
	u := newUser(t, s)
	ctx := store.WithActor(t.Context(), u.ID)
	rows := []store.IncomingPerson{
		{PersonRecord: store.PersonRecord{Person: store.Person{FirstName: "A"}, UID: ptr("a")}, Key: "a", GenderName: "WOMAN"},
		{PersonRecord: store.PersonRecord{Person: store.Person{FirstName: "B"}, UID: ptr("b")}, Key: "b", GenderName: "Agender"},
		{PersonRecord: store.PersonRecord{Person: store.Person{FirstName: "C"}, UID: ptr("c")}, Key: "c", GenderName: "agender"},
	}
	in := store.PeopleImport{Source: store.SourceMonica,
		Persons: func(add func(*store.IncomingPerson) error) error {
			for i := range rows {
				p := rows[i]
				if err := add(&p); err != nil {
					return err
				}
			}
			return nil
		},
		Relationships: []store.IncomingRelationship{
			{FromKey: "a", ToKey: "b", Type: store.RelationshipTypeInput{Name: "Parent", NameReverse: "child", Group: "family"}},
			{FromKey: "b", ToKey: "a", Type: store.RelationshipTypeInput{Name: "parent", NameReverse: "child", Group: "family"}},
			{FromKey: "a", ToKey: "c", Type: store.RelationshipTypeInput{Name: "godfather", NameReverse: "godson", Group: "family"}},
			{FromKey: "b", ToKey: "c", Type: store.RelationshipTypeInput{Name: "Godfather", NameReverse: "godson", Group: "family"}},
			{FromKey: "a", ToKey: "nobody", Type: store.RelationshipTypeInput{Name: "friend"}},
			{FromKey: "a", ToKey: "a", Type: store.RelationshipTypeInput{Name: "friend"}},
		},
	}
	res, err := s.ImportPeople(ctx, u.AccountID, in)
	if err != nil {
		t.Fatal(err)
	}
	if res.Created != 3 || res.Counts.Relationships != 3 || res.Counts.RelationshipTypes != 1 || res.Counts.Genders != 1 {
		t.Errorf("%+v", res)
	}
	types, _ := s.RelationshipTypes(ctx, u.AccountID)
	var made []string
	for _, ty := range types {
		if ty.Name == "godfather" {
			made = append(made, ty.Name+"/"+ty.NameReverse+"/"+ty.Group)
		}
	}
	if len(made) != 1 || made[0] != "godfather/godson/family" {
		t.Errorf("types made: %v", made)
	}
	again, err := s.ImportPeople(ctx, u.AccountID, in)
	if err != nil {
		t.Fatal(err)
	}
	if again.Created != 0 || again.Updated != 0 || again.Unchanged != 3 || again.Counts != (store.ImportCounts{}) {
		t.Errorf("again: %+v", again)
	}
}
