package store_test

import (
	"fmt"
	"reflect"
	"sync"
	"testing"
	"time"

	"kith/store"
)

// activeEntries returns the ids of the person's active entries.
func activeEntries(t *testing.T, s *store.Store, accountID, personID int64) []int64 {
	t.Helper()
	list, _, err := s.WorkHistory(t.Context(), accountID, personID, 100, 0)
	if err != nil {
		t.Fatal(err)
	}
	ids := []int64{}
	for _, w := range list {
		if w.Active {
			ids = append(ids, w.ID)
		}
	}
	return ids
}

func TestWorkHistory(t *testing.T) {
	s := newStore(t)
	me, them := twoAccounts(t, s)
	jim := newPerson(t, s, me.AccountID, "Jim")
	pam := newPerson(t, s, me.AccountID, "Pam")
	theirs := newPerson(t, s, them.AccountID, "Theirs")
	ctx := t.Context()

	first, err := s.CreateWorkEntry(ctx, me.AccountID, jim.ID, store.WorkEntryInput{JobTitle: "Salesman",
		CompanyName: ptr("Dunder Mifflin"), EstimatedSalary: ptr("$75,000"), Duration: ptr("9 years"), Active: true})
	if err != nil {
		t.Fatal(err)
	}
	want := store.WorkEntry{ID: first.ID, PersonID: jim.ID, JobTitle: "Salesman", CompanyName: ptr("Dunder Mifflin"),
		EstimatedSalary: ptr("$75,000"), Duration: ptr("9 years"), Active: true, CreatedAt: nowUnix(s), UpdatedAt: nowUnix(s)}
	if first.ID <= 0 || !reflect.DeepEqual(first, want) {
		t.Fatalf("created %+v\nwant %+v", first, want)
	}
	if got, err := s.WorkEntry(ctx, me.AccountID, jim.ID, first.ID); err != nil || !reflect.DeepEqual(got, first) {
		t.Errorf("read back %+v, %v", got, err)
	}
	pams, err := s.CreateWorkEntry(ctx, me.AccountID, pam.ID, store.WorkEntryInput{JobTitle: "Receptionist", Active: true})
	if err != nil {
		t.Fatal(err)
	}

	t.Run("an inactive entry leaves the active one", func(t *testing.T) {
		w, err := s.CreateWorkEntry(ctx, me.AccountID, jim.ID, store.WorkEntryInput{JobTitle: "Paper boy"})
		if err != nil || w.Active || w.CompanyName != nil {
			t.Fatalf("created %+v, %v", w, err)
		}
		if got := activeEntries(t, s, me.AccountID, jim.ID); !reflect.DeepEqual(got, []int64{first.ID}) {
			t.Errorf("active %v, want [%d]", got, first.ID)
		}
	})
	var third store.WorkEntry
	t.Run("a new active entry makes the other inactive, and only the person's", func(t *testing.T) {
		advance(s, time.Hour)
		third, err = s.CreateWorkEntry(ctx, me.AccountID, jim.ID, store.WorkEntryInput{JobTitle: "Co-founder", Active: true})
		if err != nil {
			t.Fatal(err)
		}
		if got := activeEntries(t, s, me.AccountID, jim.ID); !reflect.DeepEqual(got, []int64{third.ID}) {
			t.Errorf("active %v, want [%d]", got, third.ID)
		}
		old, err := s.WorkEntry(ctx, me.AccountID, jim.ID, first.ID)
		if err != nil || old.Active || old.UpdatedAt != nowUnix(s) || old.JobTitle != "Salesman" {
			t.Errorf("the old entry: %+v, %v", old, err)
		}
		if got := activeEntries(t, s, me.AccountID, pam.ID); !reflect.DeepEqual(got, []int64{pams.ID}) {
			t.Errorf("Pam's active %v, want [%d]", got, pams.ID)
		}
	})
	t.Run("updating an entry to active makes the other inactive", func(t *testing.T) {
		advance(s, time.Hour)
		got, err := s.UpdateWorkEntry(ctx, me.AccountID, jim.ID, first.ID, store.WorkEntryInput{JobTitle: "Regional manager", Active: true})
		want := store.WorkEntry{ID: first.ID, PersonID: jim.ID, JobTitle: "Regional manager", Active: true,
			CreatedAt: first.CreatedAt, UpdatedAt: nowUnix(s)}
		if err != nil || !reflect.DeepEqual(got, want) {
			t.Errorf("updated %+v, %v\nwant %+v", got, err, want)
		}
		if ids := activeEntries(t, s, me.AccountID, jim.ID); !reflect.DeepEqual(ids, []int64{first.ID}) {
			t.Errorf("active %v, want [%d]", ids, first.ID)
		}
		// Saving the active one again keeps it active.
		if got, err := s.UpdateWorkEntry(ctx, me.AccountID, jim.ID, first.ID, store.WorkEntryInput{JobTitle: "Regional manager", Active: true}); err != nil || !got.Active {
			t.Errorf("saved again: %+v, %v", got, err)
		}
	})
	t.Run("pages by id", func(t *testing.T) {
		page, total, err := s.WorkHistory(ctx, me.AccountID, jim.ID, 2, 0)
		if err != nil || total != 3 || len(page) != 2 || page[0].ID != first.ID || page[1].ID >= third.ID {
			t.Errorf("first page %+v, %d, %v", page, total, err)
		}
		page, total, err = s.WorkHistory(ctx, me.AccountID, jim.ID, 2, 2)
		if err != nil || total != 3 || len(page) != 1 || page[0].ID != third.ID {
			t.Errorf("second page %+v, %d, %v", page, total, err)
		}
		page, total, err = s.WorkHistory(ctx, me.AccountID, jim.ID, 2, 10)
		if err != nil || total != 3 || page == nil || len(page) != 0 {
			t.Errorf("past the end %+v, %d, %v", page, total, err)
		}
		page, total, err = s.WorkHistory(ctx, them.AccountID, theirs.ID, 15, 0)
		if err != nil || total != 0 || page == nil || len(page) != 0 {
			t.Errorf("none %+v, %d, %v", page, total, err)
		}
	})
	t.Run("delete", func(t *testing.T) {
		wantErr(t, s.DeleteWorkEntry(ctx, me.AccountID, jim.ID, third.ID), nil)
		_, err := s.WorkEntry(ctx, me.AccountID, jim.ID, third.ID)
		wantErr(t, err, store.ErrWorkEntryNotFound)
		wantErr(t, s.DeleteWorkEntry(ctx, me.AccountID, jim.ID, third.ID), store.ErrWorkEntryNotFound)
	})
	t.Run("deleting the person deletes its entries", func(t *testing.T) {
		wantErr(t, s.DeletePerson(ctx, me.AccountID, jim.ID), nil)
		_, err := s.WorkEntry(ctx, me.AccountID, jim.ID, first.ID)
		wantErr(t, err, store.ErrPersonNotFound)
		if list, total, err := s.WorkHistory(ctx, me.AccountID, pam.ID, 15, 0); err != nil || total != 1 || len(list) != 1 {
			t.Errorf("Pam's entries: %+v, %v", list, err)
		}
	})
}

// TestActiveWorkEntriesAtOnce: saves of active entries of one person at
// once, as two servers (or PostgreSQL's concurrent transactions) may make
// them, all succeed and leave one entry active.
func TestActiveWorkEntriesAtOnce(t *testing.T) {
	s := newStore(t)
	u := newUser(t, s)
	p := newPerson(t, s, u.AccountID, "Jim")
	var wg sync.WaitGroup
	for i := range 12 {
		wg.Go(func() {
			_, err := s.CreateWorkEntry(t.Context(), u.AccountID, p.ID, store.WorkEntryInput{JobTitle: fmt.Sprint("Job ", i), Active: true})
			if err != nil {
				t.Errorf("entry %d: %v", i, err)
			}
		})
	}
	wg.Wait()
	entries, total, err := s.WorkHistory(t.Context(), u.AccountID, p.ID, 100, 0)
	if err != nil || total != 12 {
		t.Fatalf("%d entries, %v", total, err)
	}
	active := 0
	for _, e := range entries {
		if e.Active {
			active++
		}
	}
	if active != 1 {
		t.Errorf("%d entries active, want 1", active)
	}
}
