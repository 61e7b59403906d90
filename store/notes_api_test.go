package store_test

import (
	"reflect"
	"testing"
	"time"

	"kith/store"
)

func TestNotes(t *testing.T) {
	s := newStore(t)
	me := newUser(t, s)
	jim := newPerson(t, s, me.AccountID, "Jim")
	pam := newPerson(t, s, me.AccountID, "Pam")
	ctx := t.Context()

	first, err := s.CreateNote(ctx, me.AccountID, jim.ID, "first\nline")
	if err != nil {
		t.Fatal(err)
	}
	want := store.Note{ID: first.ID, PersonID: jim.ID, Content: "first\nline", CreatedAt: nowUnix(s), UpdatedAt: nowUnix(s)}
	if first.ID <= 0 || first != want {
		t.Errorf("created %+v, want %+v", first, want)
	}
	var ids []int64
	ids = append(ids, first.ID)
	for _, c := range []string{"second", "third"} {
		n, err := s.CreateNote(ctx, me.AccountID, jim.ID, c)
		if err != nil {
			t.Fatal(err)
		}
		ids = append(ids, n.ID)
	}
	if _, err := s.CreateNote(ctx, me.AccountID, pam.ID, "pam's"); err != nil {
		t.Fatal(err)
	}

	t.Run("lists a page of the person's notes by id", func(t *testing.T) {
		page, total, err := s.Notes(ctx, me.AccountID, jim.ID, 2, 1)
		if err != nil || total != 3 || len(page) != 2 || page[0].ID != ids[1] || page[1].ID != ids[2] {
			t.Errorf("page %+v, total %d, %v", page, total, err)
		}
		page, total, err = s.Notes(ctx, me.AccountID, jim.ID, 2, 10)
		if err != nil || total != 3 || page == nil || len(page) != 0 {
			t.Errorf("past the end: %+v, total %d, %v", page, total, err)
		}
	})
	t.Run("a person without notes has an empty list", func(t *testing.T) {
		empty := newPerson(t, s, me.AccountID, "Empty")
		page, total, err := s.Notes(ctx, me.AccountID, empty.ID, 15, 0)
		if err != nil || total != 0 || page == nil || len(page) != 0 {
			t.Errorf("%+v, %d, %v", page, total, err)
		}
	})
	t.Run("update replaces the content and keeps created_at", func(t *testing.T) {
		advance(s, time.Hour)
		n, err := s.UpdateNote(ctx, me.AccountID, jim.ID, first.ID, "changed")
		want := store.Note{ID: first.ID, PersonID: jim.ID, Content: "changed", CreatedAt: first.CreatedAt, UpdatedAt: nowUnix(s)}
		if err != nil || n != want {
			t.Errorf("updated %+v (%v), want %+v", n, err, want)
		}
		if got, err := s.Note(ctx, me.AccountID, jim.ID, first.ID); err != nil || !reflect.DeepEqual(got, n) {
			t.Errorf("read back %+v (%v)", got, err)
		}
	})
	t.Run("delete removes one note", func(t *testing.T) {
		wantErr(t, s.DeleteNote(ctx, me.AccountID, jim.ID, ids[2]), nil)
		wantErr(t, s.DeleteNote(ctx, me.AccountID, jim.ID, ids[2]), store.ErrNoteNotFound)
		if _, total, _ := s.Notes(ctx, me.AccountID, jim.ID, 15, 0); total != 2 {
			t.Errorf("%d notes left, want 2", total)
		}
	})
	t.Run("deleting the person deletes its notes", func(t *testing.T) {
		wantErr(t, s.DeletePerson(ctx, me.AccountID, jim.ID), nil)
		again := newPerson(t, s, me.AccountID, "Again")
		if _, total, err := s.Notes(ctx, me.AccountID, again.ID, 15, 0); err != nil || total != 0 {
			t.Errorf("a new person sees %d notes (%v)", total, err)
		}
		_, err := s.Note(ctx, me.AccountID, jim.ID, first.ID)
		wantErr(t, err, store.ErrPersonNotFound)
		if _, total, _ := s.Notes(ctx, me.AccountID, pam.ID, 15, 0); total != 1 {
			t.Errorf("Pam has %d notes, want 1", total)
		}
	})
}
