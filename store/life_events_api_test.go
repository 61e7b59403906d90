package store_test

import (
	"reflect"
	"testing"
	"time"

	"kith/store"
)

func TestLifeEvents(t *testing.T) {
	s := newStore(t)
	me, them := twoAccounts(t, s)
	jim := newPerson(t, s, me.AccountID, "Jim")
	pam := newPerson(t, s, me.AccountID, "Pam")
	theirs := newPerson(t, s, them.AccountID, "Theirs")
	ctx := t.Context()

	wedding := store.LifeEventInput{Description: "Wedding", Comment: ptr("at the barn"), Icon: ptr("ring"),
		BgColor: ptr("bg-pink-100"), TextColor: ptr("text-pink-600"), HappenedAt: t0.Add(-24 * time.Hour).Unix(), ShouldBeReminded: true}
	first, err := s.CreateLifeEvent(ctx, me.AccountID, jim.ID, wedding)
	if err != nil {
		t.Fatal(err)
	}
	want := store.LifeEvent{ID: first.ID, PersonID: jim.ID, Description: "Wedding", Comment: ptr("at the barn"), Icon: ptr("ring"),
		BgColor: ptr("bg-pink-100"), TextColor: ptr("text-pink-600"), HappenedAt: wedding.HappenedAt, ShouldBeReminded: true,
		CreatedAt: nowUnix(s), UpdatedAt: nowUnix(s)}
	if first.ID <= 0 || !reflect.DeepEqual(first, want) {
		t.Fatalf("created %+v\nwant %+v", first, want)
	}
	if got, err := s.LifeEvent(ctx, me.AccountID, jim.ID, first.ID); err != nil || !reflect.DeepEqual(got, first) {
		t.Errorf("read back %+v, %v", got, err)
	}
	second, err := s.CreateLifeEvent(ctx, me.AccountID, jim.ID, store.LifeEventInput{Description: "Same second", HappenedAt: 0})
	if err != nil || second.Comment != nil || second.Icon != nil || second.ShouldBeReminded {
		t.Fatalf("created %+v, %v", second, err)
	}
	advance(s, time.Minute)
	third, err := s.CreateLifeEvent(ctx, me.AccountID, jim.ID, store.LifeEventInput{Description: "Later", HappenedAt: -62135596800})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := s.CreateLifeEvent(ctx, me.AccountID, pam.ID, store.LifeEventInput{Description: "Pam's"}); err != nil {
		t.Fatal(err)
	}

	t.Run("lists the person's events newest first, id breaking ties", func(t *testing.T) {
		list, err := s.LifeEvents(ctx, me.AccountID, jim.ID)
		if err != nil || len(list) != 3 || list[0].ID != third.ID || list[1].ID != second.ID || list[2].ID != first.ID {
			t.Errorf("list %+v, %v", list, err)
		}
	})
	t.Run("a person without events has an empty list", func(t *testing.T) {
		list, err := s.LifeEvents(ctx, them.AccountID, theirs.ID)
		if err != nil || list == nil || len(list) != 0 {
			t.Errorf("list %+v, %v", list, err)
		}
	})
	t.Run("update replaces every field", func(t *testing.T) {
		advance(s, time.Hour)
		got, err := s.UpdateLifeEvent(ctx, me.AccountID, jim.ID, first.ID, store.LifeEventInput{Description: "Renewed vows", HappenedAt: 42})
		want := store.LifeEvent{ID: first.ID, PersonID: jim.ID, Description: "Renewed vows", HappenedAt: 42,
			CreatedAt: first.CreatedAt, UpdatedAt: nowUnix(s)}
		if err != nil || !reflect.DeepEqual(got, want) {
			t.Errorf("updated %+v, %v\nwant %+v", got, err, want)
		}
	})
	t.Run("the update is read back", func(t *testing.T) {
		if got, err := s.LifeEvent(ctx, me.AccountID, jim.ID, first.ID); err != nil || got.Description != "Renewed vows" {
			t.Errorf("%+v, %v", got, err)
		}
	})
	t.Run("delete", func(t *testing.T) {
		wantErr(t, s.DeleteLifeEvent(ctx, me.AccountID, jim.ID, second.ID), nil)
		_, err := s.LifeEvent(ctx, me.AccountID, jim.ID, second.ID)
		wantErr(t, err, store.ErrLifeEventNotFound)
		wantErr(t, s.DeleteLifeEvent(ctx, me.AccountID, jim.ID, second.ID), store.ErrLifeEventNotFound)
	})
	t.Run("deleting the person deletes its events", func(t *testing.T) {
		wantErr(t, s.DeletePerson(ctx, me.AccountID, jim.ID), nil)
		_, err := s.LifeEvent(ctx, me.AccountID, jim.ID, first.ID)
		wantErr(t, err, store.ErrPersonNotFound)
		again := newPerson(t, s, me.AccountID, "Again")
		if list, err := s.LifeEvents(ctx, me.AccountID, again.ID); err != nil || len(list) != 0 {
			t.Errorf("a new person has %+v, %v", list, err)
		}
		if list, err := s.LifeEvents(ctx, me.AccountID, pam.ID); err != nil || len(list) != 1 {
			t.Errorf("Pam's events: %+v, %v", list, err)
		}
	})
}
