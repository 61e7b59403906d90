package store_test

import (
	"reflect"
	"testing"
	"time"

	"kith/store"
)

func TestImportantDates(t *testing.T) {
	s := newStore(t)
	me := newUser(t, s)
	jim := newPerson(t, s, me.AccountID, "Jim")
	pam := newPerson(t, s, me.AccountID, "Pam")
	ctx := t.Context()

	dec, err := s.CreateImportantDate(ctx, me.AccountID, jim.ID, store.ImportantDateInput{Label: "anniversary", Year: ptr(int64(2010)), Month: 12, Day: 1, RemindYearly: true})
	if err != nil {
		t.Fatal(err)
	}
	want := store.ImportantDate{ID: dec.ID, PersonID: jim.ID, Label: "anniversary", Year: ptr(int64(2010)), Month: 12, Day: 1,
		RemindYearly: true, CreatedAt: nowUnix(s), UpdatedAt: nowUnix(s)}
	if dec.ID <= 0 || !reflect.DeepEqual(dec, want) {
		t.Fatalf("created %+v\nwant %+v", dec, want)
	}
	leap, err := s.CreateImportantDate(ctx, me.AccountID, jim.ID, store.ImportantDateInput{Label: "name_day", Month: 2, Day: 29})
	if err != nil || leap.Year != nil || leap.RemindYearly {
		t.Fatalf("created %+v, %v", leap, err)
	}
	feb, err := s.CreateImportantDate(ctx, me.AccountID, jim.ID, store.ImportantDateInput{Label: "met", Year: ptr(int64(1)), Month: 2, Day: 29})
	if err != nil {
		t.Fatal(err)
	}

	t.Run("lists by month, day and id, whatever the year", func(t *testing.T) {
		list, err := s.ImportantDates(ctx, me.AccountID, jim.ID)
		if err != nil || len(list) != 3 || list[0].ID != leap.ID || list[1].ID != feb.ID || list[2].ID != dec.ID {
			t.Errorf("list %+v, %v", list, err)
		}
		if got, err := s.ImportantDate(ctx, me.AccountID, jim.ID, dec.ID); err != nil || !reflect.DeepEqual(got, dec) {
			t.Errorf("read back %+v, %v", got, err)
		}
	})
	t.Run("a person without dates has an empty list", func(t *testing.T) {
		list, err := s.ImportantDates(ctx, me.AccountID, pam.ID)
		if err != nil || list == nil || len(list) != 0 {
			t.Errorf("list %+v, %v", list, err)
		}
	})
	t.Run("update replaces every field", func(t *testing.T) {
		advance(s, time.Hour)
		got, err := s.UpdateImportantDate(ctx, me.AccountID, jim.ID, feb.ID, store.ImportantDateInput{Label: "met", Month: 3, Day: 4})
		want := store.ImportantDate{ID: feb.ID, PersonID: jim.ID, Label: "met", Month: 3, Day: 4, CreatedAt: feb.CreatedAt, UpdatedAt: nowUnix(s)}
		if err != nil || !reflect.DeepEqual(got, want) {
			t.Errorf("updated %+v, %v\nwant %+v", got, err, want)
		}
	})
	t.Run("delete", func(t *testing.T) {
		wantErr(t, s.DeleteImportantDate(ctx, me.AccountID, jim.ID, leap.ID), nil)
		wantErr(t, s.DeleteImportantDate(ctx, me.AccountID, jim.ID, leap.ID), store.ErrImportantDateNotFound)
	})
}

func TestYearlyDates(t *testing.T) {
	s := newStore(t)
	me, them := twoAccounts(t, s)
	ctx := t.Context()
	jim := newPerson(t, s, me.AccountID, "Jim")
	last := "Halpert"
	jim, err := s.UpdatePerson(ctx, me.AccountID, jim.ID, store.PersonInput{FirstName: "Jim", LastName: &last,
		MaritalStatus: "unknown", KidsStatus: "unknown", CanBeDeleted: true})
	if err != nil {
		t.Fatal(err)
	}
	pam := newPerson(t, s, me.AccountID, "Pam")
	theirs := newPerson(t, s, them.AccountID, "Theirs")
	add := func(accountID, personID int64, label string, year *int64, month, day int64, remind bool) store.ImportantDate {
		t.Helper()
		d, err := s.CreateImportantDate(ctx, accountID, personID, store.ImportantDateInput{Label: label, Year: year, Month: month, Day: day, RemindYearly: remind})
		if err != nil {
			t.Fatal(err)
		}
		return d
	}

	if list, err := s.YearlyDates(ctx, me.AccountID, nil); err != nil || list == nil || len(list) != 0 {
		t.Fatalf("no dates yet: %+v, %v", list, err)
	}
	wedding := add(me.AccountID, jim.ID, "anniversary", ptr(int64(2010)), 6, 12, true)
	add(me.AccountID, jim.ID, "not recalled", nil, 1, 1, false)
	nameDay := add(me.AccountID, pam.ID, "name_day", nil, 2, 29, true)
	met := add(me.AccountID, pam.ID, "met", ptr(int64(2001)), 6, 12, true)
	add(them.AccountID, theirs.ID, "theirs", nil, 3, 3, true)

	list, err := s.YearlyDates(ctx, me.AccountID, nil)
	want := []store.YearlyDate{
		{ID: nameDay.ID, PersonID: pam.ID, Name: "Pam", Label: "name_day", Month: 2, Day: 29},
		{ID: wedding.ID, PersonID: jim.ID, Name: "Jim Halpert", Label: "anniversary", Year: ptr(int64(2010)), Month: 6, Day: 12},
		{ID: met.ID, PersonID: pam.ID, Name: "Pam", Label: "met", Year: ptr(int64(2001)), Month: 6, Day: 12},
	}
	if err != nil || !reflect.DeepEqual(list, want) {
		t.Errorf("yearly dates %+v, %v\nwant %+v", list, err, want)
	}

	// Turning the reminder off, or deleting the person, takes a date out.
	if _, err := s.UpdateImportantDate(ctx, me.AccountID, jim.ID, wedding.ID, store.ImportantDateInput{Label: "anniversary", Month: 6, Day: 12}); err != nil {
		t.Fatal(err)
	}
	wantErr(t, s.DeletePerson(ctx, me.AccountID, pam.ID), nil)
	if list, err := s.YearlyDates(ctx, me.AccountID, nil); err != nil || len(list) != 0 {
		t.Errorf("after the changes: %+v, %v", list, err)
	}
	if list, err := s.YearlyDates(ctx, them.AccountID, nil); err != nil || len(list) != 1 || list[0].Label != "theirs" || list[0].Name != "Theirs" {
		t.Errorf("the other account's: %+v, %v", list, err)
	}
}
