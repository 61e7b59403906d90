package store_test

import (
	"fmt"
	"reflect"
	"strings"
	"testing"
	"time"

	"kith/store"
)

func TestLogs(t *testing.T) {
	s := newStore(t)
	me, them := twoAccounts(t, s)
	ctx := store.WithActor(t.Context(), me.ID)

	// Without an actor (the command line, setup) nothing is logged.
	newPerson(t, s, me.AccountID, "Quiet")
	if logs, total, err := s.Logs(t.Context(), me.ID, 10, 0); err != nil || total != 0 || len(logs) != 0 {
		t.Fatalf("logs without an actor: %v %d %v", logs, total, err)
	}
	// Nor without one taken off again.
	if _, err := s.CreatePerson(store.WithoutActor(ctx), me.AccountID, personIn("Off")); err != nil {
		t.Fatal(err)
	}

	for i := range 12 {
		if _, err := s.CreatePerson(ctx, me.AccountID, personIn(fmt.Sprint("P", i))); err != nil {
			t.Fatal(err)
		}
	}
	// A failed write logs nothing: its transaction is rolled back.
	if err := s.DeletePerson(ctx, me.AccountID, 999999); err == nil {
		t.Fatal("deleted a missing person")
	}
	logs, total, err := s.Logs(t.Context(), me.ID, 10, 0)
	if err != nil || total != 12 || len(logs) != 10 {
		t.Fatalf("page 1: %d entries of %d, %v", len(logs), total, err)
	}
	first := logs[0]
	want := store.Log{ID: first.ID, UserID: me.ID, Name: me.FirstName + " " + me.LastName, Action: "person_creation",
		Description: "Created the person called P11", CreatedAt: nowUnix(s), UpdatedAt: nowUnix(s)}
	if first != want {
		t.Errorf("newest %+v, want %+v", first, want)
	}
	for i := 1; i < len(logs); i++ {
		if logs[i].ID >= logs[i-1].ID {
			t.Errorf("not newest first: %d after %d", logs[i].ID, logs[i-1].ID)
		}
	}
	logs, _, err = s.Logs(t.Context(), me.ID, 10, 10)
	if err != nil || len(logs) != 2 || logs[1].Description != "Created the person called P0" {
		t.Errorf("page 2: %+v %v", logs, err)
	}

	got, err := s.Log(t.Context(), me.ID, first.ID)
	if err != nil || got != first {
		t.Errorf("Log = %+v, %v; want %+v", got, err, first)
	}
	// Another user's entry, or a missing one, is not found.
	_, err = s.Log(t.Context(), them.ID, first.ID)
	wantErr(t, err, store.ErrLogNotFound)
	_, err = s.Log(t.Context(), me.ID, 999999)
	wantErr(t, err, store.ErrLogNotFound)
	if logs, total, err := s.Logs(t.Context(), them.ID, 10, 0); err != nil || total != 0 || len(logs) != 0 {
		t.Errorf("another user sees %d entries: %v", total, err)
	}

	// The name is the user's name now.
	if _, _, err := s.UpdateProfile(ctx, me.ID, store.Profile{FirstName: "New", LastName: "Name", Email: me.Email}); err != nil {
		t.Fatal(err)
	}
	if got, err := s.Log(t.Context(), me.ID, first.ID); err != nil || got.Name != "New Name" {
		t.Errorf("name after a rename: %q, %v", got.Name, err)
	}
}

// TestLogsNewestFirst: newest is the latest created_at, then the highest
// id; a clock set back gives a later id an earlier time.
func TestLogsNewestFirst(t *testing.T) {
	s := newStore(t)
	me := newUser(t, s)
	ctx := store.WithActor(t.Context(), me.ID)
	for _, step := range []struct {
		name string
		at   time.Duration
	}{{"late", time.Hour}, {"early", 0}, {"early too", 0}} {
		setClock(s, t0.Add(step.at))
		if _, err := s.CreatePerson(ctx, me.AccountID, personIn(step.name)); err != nil {
			t.Fatal(err)
		}
	}
	logs, _, err := s.Logs(t.Context(), me.ID, 10, 0)
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, l := range logs {
		got = append(got, strings.TrimPrefix(l.Description, "Created the person called "))
	}
	if want := []string{"late", "early too", "early"}; !reflect.DeepEqual(got, want) {
		t.Errorf("order %q, want %q", got, want)
	}
}
