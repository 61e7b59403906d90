package store_test

import (
	"errors"
	"fmt"
	"sync"
	"testing"

	"kith/store"
)

// importOf is an import of the persons given, each a valid row.
func importOf(persons ...store.PersonRecord) store.AccountImport {
	return store.AccountImport{
		TaskCategories: []store.TaskCategory{{ID: 1, Name: "Call", Color: "bg-x"}, {ID: 9, Name: "Tea", Color: "bg-y"}},
		Genders:        []store.Gender{{ID: 1, Name: "Man", Position: 1}},
		Persons: func(add func(*store.PersonRecord) error) error {
			for i := range persons {
				if err := add(&persons[i]); err != nil {
					return err
				}
			}
			return nil
		},
	}
}

func importedPerson(first string) store.PersonRecord {
	return store.PersonRecord{
		Person: store.Person{FirstName: first, MaritalStatus: "unknown", KidsStatus: "unknown", CanBeDeleted: true, IsListed: true,
			Gender: &store.GenderRef{ID: 1}, CreatedAt: 1, UpdatedAt: 2},
		Notes: []store.Note{{Content: "a note", CreatedAt: 3, UpdatedAt: 4}},
		Tasks: []store.Task{{Name: "a task", Category: &store.CategoryRef{ID: 9}, CreatedAt: 5, UpdatedAt: 6}},
	}
}

// TestImportAccountFailsWhole: a row that the database refuses, after
// others were written, leaves the account as it was.
func TestImportAccountFailsWhole(t *testing.T) {
	s := newStore(t)
	u := newUser(t, s)
	bad := importedPerson("Bad")
	bad.MaritalStatus = "complicated" // the CHECK refuses it
	_, err := s.ImportAccount(t.Context(), u.AccountID, u.ID, importOf(importedPerson("Good"), importedPerson("Fine"), bad))
	if err == nil {
		t.Fatal("an import with a refused row succeeded")
	}
	persons, _, _ := s.Persons(t.Context(), u.AccountID, 10, 0)
	cats, _ := s.TaskCategories(t.Context(), u.AccountID)
	if len(persons) != 0 || len(cats) != 6 {
		t.Errorf("after a failed import: %d persons, %d categories", len(persons), len(cats))
	}
	for _, c := range cats {
		if c.Name == "Call" && c.Color != "bg-blue-100" {
			t.Errorf("the merge of Call was kept: %+v", c)
		}
	}

	n, err := s.ImportAccount(t.Context(), u.AccountID, u.ID, importOf(importedPerson("Good")))
	if err != nil || n.Persons != 1 || n.Notes != 1 || n.Tasks != 1 || n.Merged != 2 || n.TaskCategories != 1 {
		t.Fatalf("%+v %v", n, err)
	}
	_, err = s.ImportAccount(t.Context(), u.AccountID, u.ID, importOf(importedPerson("Again")))
	wantErr(t, err, store.ErrAccountHasPersons)
}

// TestImportAccountOnceAtATime: of two imports into one empty account at
// once, one restores it and the other is refused, on PostgreSQL too,
// where both run side by side.
func TestImportAccountOnceAtATime(t *testing.T) {
	s := newStore(t)
	u := newUser(t, s)
	var wg sync.WaitGroup
	errs := make([]error, 2)
	for i := range errs {
		wg.Add(1)
		go func() {
			defer wg.Done()
			persons := make([]store.PersonRecord, 50)
			for k := range persons {
				persons[k] = importedPerson(fmt.Sprint("P", i, "-", k))
			}
			_, errs[i] = s.ImportAccount(t.Context(), u.AccountID, u.ID, importOf(persons...))
		}()
	}
	wg.Wait()
	refused := 0
	for _, err := range errs {
		switch {
		case errors.Is(err, store.ErrAccountHasPersons):
			refused++
		case err != nil:
			t.Errorf("import: %v", err)
		}
	}
	_, total, _ := s.Persons(t.Context(), u.AccountID, 1, 0)
	if refused != 1 || total != 50 {
		t.Errorf("%d refused, %d persons; want 1 and 50", refused, total)
	}
}

// TestReadAccountKeepsItsSnapshot: what a reader reads is the account as
// it was when the reading began, whatever is written meanwhile.
func TestReadAccountKeepsItsSnapshot(t *testing.T) {
	s := newStore(t)
	u := newUser(t, s)
	first := newPerson(t, s, u.AccountID, "First")
	err := s.ReadAccount(t.Context(), u.AccountID, func(r *store.AccountReader) error {
		batch, err := r.Persons(t.Context(), 0, 10)
		if err != nil || len(batch) != 1 {
			return fmt.Errorf("%d persons, %v", len(batch), err)
		}
		newPerson(t, s, u.AccountID, "Second")
		if _, err := s.CreateNote(t.Context(), u.AccountID, first.ID, "written meanwhile"); err != nil {
			return err
		}
		batch, err = r.Persons(t.Context(), 0, 10)
		if err != nil || len(batch) != 1 || len(batch[0].Notes) != 0 {
			return fmt.Errorf("the snapshot moved: %d persons, %+v, %v", len(batch), batch, err)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
}

// TestImportAccountMergesOnce: two journals of the document named as one
// of the account's: the first takes its place, the second is added.
func TestImportAccountMergesOnce(t *testing.T) {
	s := newStore(t)
	u := newUser(t, s)
	in := importOf(importedPerson("Ann"))
	in.Journals = []store.JournalRecord{
		{Journal: store.Journal{Name: "My first journal", CreatedAt: 1, UpdatedAt: 1}, Entries: []store.Entry{{Year: 2025, Month: 1, Day: 1}}},
		{Journal: store.Journal{Name: "My first journal", CreatedAt: 2, UpdatedAt: 2}, Entries: []store.Entry{{Year: 2025, Month: 1, Day: 1}}},
	}
	n, err := s.ImportAccount(t.Context(), u.AccountID, u.ID, in)
	if err != nil {
		t.Fatal(err)
	}
	js, _ := s.Journals(t.Context(), u.AccountID)
	if len(js) != 2 || n.Journals != 1 || n.JournalEntries != 2 {
		t.Errorf("%d journals, %+v; want the default and one more, an entry each", len(js), n)
	}
}

// TestImportAccountRelationshipsOutOfReach: a relationship whose type or
// other person the import lacks (which the document's reader refuses
// first) fails the import whole, rather than dropping the relationship.
func TestImportAccountRelationshipsOutOfReach(t *testing.T) {
	s := newStore(t)
	u := newUser(t, s)
	friend := store.RelationshipTypeInput{Name: "friend", NameReverse: "friend", Group: "friend"}
	for name, rel := range map[string]store.RelationshipRecord{
		"a person the import lacks": {Type: friend, OtherUID: "nobody"},
		"a type the account lacks":  {Type: store.RelationshipTypeInput{Name: "foe", NameReverse: "foe", Group: "other"}, OtherUID: "b"},
	} {
		a, b := importedPerson("A"), importedPerson("B")
		a.UID, b.UID = ptr("a"), ptr("b")
		a.Relationships = []store.RelationshipRecord{rel}
		if _, err := s.ImportAccount(t.Context(), u.AccountID, u.ID, importOf(a, b)); err == nil {
			t.Errorf("%s: imported", name)
		}
	}
	persons, _, _ := s.Persons(t.Context(), u.AccountID, 10, 0)
	types, _ := s.RelationshipTypes(t.Context(), u.AccountID)
	if len(persons) != 0 || len(types) != 12 {
		t.Errorf("after failed imports: %d persons, %d types", len(persons), len(types))
	}

	a, b := importedPerson("A"), importedPerson("B")
	a.UID, b.UID = ptr("a"), ptr("b")
	a.Relationships = []store.RelationshipRecord{{Type: friend, OtherUID: "b"}}
	n, err := s.ImportAccount(t.Context(), u.AccountID, u.ID, importOf(a, b))
	if err != nil || n.Relationships != 1 || n.RelationshipTypes != 0 {
		t.Fatalf("%+v %v", n, err)
	}
}
