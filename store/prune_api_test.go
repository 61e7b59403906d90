package store_test

import (
	"testing"

	"kith/store"
)

func TestPrune(t *testing.T) {
	s := newStore(t)
	me, them := twoAccounts(t, s)
	ctx := store.WithActor(t.Context(), me.ID)

	protected := personIn("Protected")
	protected.CanBeDeleted = false
	kept, err := s.CreatePerson(ctx, me.AccountID, protected)
	if err != nil {
		t.Fatal(err)
	}
	jim := newPerson(t, s, me.AccountID, "Jim")
	newTask(t, s, me.AccountID, jim.ID, "Call")
	if _, err := s.CreateNote(ctx, me.AccountID, jim.ID, "note"); err != nil {
		t.Fatal(err)
	}
	if _, err := s.CreateLifeEvent(ctx, me.AccountID, kept.ID, store.LifeEventInput{Description: "Wedding", ShouldBeReminded: true}); err != nil {
		t.Fatal(err)
	}
	journal, err := s.CreateJournal(ctx, me.AccountID, "Mine")
	if err != nil {
		t.Fatal(err)
	}
	theirs := newPerson(t, s, them.AccountID, "Theirs")
	theirTask := newTask(t, s, them.AccountID, theirs.ID, "Theirs")

	if err := s.Prune(ctx, me.AccountID); err != nil {
		t.Fatal(err)
	}
	persons, total, err := s.Persons(t.Context(), me.AccountID, 100, 0)
	if err != nil || total != 0 || len(persons) != 0 {
		t.Errorf("after a prune the account has %d persons: %+v %v", total, persons, err)
	}
	for _, p := range []store.Person{kept, jim} {
		_, _, err := s.Notes(t.Context(), me.AccountID, p.ID, 15, 0)
		wantErr(t, err, store.ErrPersonNotFound)
	}
	// What is the account's, not a person's, stays.
	if _, err := s.Journal(t.Context(), me.AccountID, journal.ID); err != nil {
		t.Errorf("the journal went: %v", err)
	}
	if g, err := s.Genders(t.Context(), me.AccountID); err != nil || len(g) != 3 {
		t.Errorf("genders after a prune: %+v %v", g, err)
	}
	if c, err := s.TaskCategories(t.Context(), me.AccountID); err != nil || len(c) != 6 {
		t.Errorf("categories after a prune: %d %v", len(c), err)
	}
	if _, err := s.Login(t.Context(), me.Email, testPassword); err != nil {
		t.Errorf("the user cannot log in after a prune: %v", err)
	}
	// Another account is untouched.
	if got, err := s.Task(t.Context(), them.AccountID, theirs.ID, theirTask.ID); err != nil || got != theirTask {
		t.Errorf("another account's task: %+v %v", got, err)
	}
	logs, logged, err := s.Logs(t.Context(), me.ID, 1, 0)
	if err != nil || len(logs) != 1 || logs[0].Action != "account_pruning" ||
		logs[0].Description != "Deleted all persons and related data from your account" {
		t.Errorf("newest log %+v %v", logs, err)
	}

	// An empty account prunes too, and logs it again.
	if err := s.Prune(ctx, me.AccountID); err != nil {
		t.Fatal(err)
	}
	if _, total, _ := s.Logs(t.Context(), me.ID, 1, 0); total != logged+1 {
		t.Errorf("after a second prune %d entries, want %d", total, logged+1)
	}
}
