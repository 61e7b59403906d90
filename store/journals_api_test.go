package store_test

import (
	"reflect"
	"testing"
	"time"

	"kith/store"
)

func TestJournalSlug(t *testing.T) {
	for _, c := range []struct {
		id   int64
		name string
		want string
	}{
		{7, "My Travel Journal", "7-my-travel-journal"},
		{3, "Café", "3-cafe"},
		{3, "  --Hello,   World!! 2026 --", "3-hello-world-2026"},
		{4, "Ærøskøbing Straße", "4-aeroskobing-strasse"},
		{5, "日記", "5"},
		{6, "", "6"},
		{8, "ÉTÉ à Łódź", "8-ete-a-lodz"},
	} {
		if got := store.JournalSlug(c.id, c.name); got != c.want {
			t.Errorf("JournalSlug(%d, %q) = %q, want %q", c.id, c.name, got, c.want)
		}
	}
}

func TestJournals(t *testing.T) {
	s := newStore(t)
	me, them := twoAccounts(t, s)
	ctx := t.Context()
	first, err := s.CreateJournal(ctx, me.AccountID, "My Travel Journal")
	if err != nil {
		t.Fatal(err)
	}
	second, err := s.CreateJournal(ctx, me.AccountID, "Same second")
	if err != nil {
		t.Fatal(err)
	}
	advance(s, time.Minute)
	third, err := s.CreateJournal(ctx, me.AccountID, "Later")
	if err != nil {
		t.Fatal(err)
	}
	theirs, err := s.CreateJournal(ctx, them.AccountID, "Theirs")
	if err != nil {
		t.Fatal(err)
	}

	t.Run("a new account starts with My first journal", func(t *testing.T) {
		u, err := s.CreateUser(ctx, store.NewUser{FirstName: "N", LastName: "L", Email: "new@example.com", Password: testPassword})
		if err != nil {
			t.Fatal(err)
		}
		js, err := s.Journals(ctx, u.AccountID)
		if err != nil || len(js) != 1 {
			t.Fatalf("%+v, %v", js, err)
		}
		if j := js[0]; j.Name != "My first journal" || j.Slug != store.JournalSlug(j.ID, "My first journal") ||
			j.CreatedAt != nowUnix(s) || j.UpdatedAt != j.CreatedAt {
			t.Errorf("%+v", j)
		}
		joiner, err := s.CreateUser(ctx, store.NewUser{FirstName: "J", LastName: "L", Email: "joiner@example.com", Password: testPassword, AccountID: u.AccountID})
		if err != nil {
			t.Fatal(err)
		}
		if js, _ := s.Journals(ctx, joiner.AccountID); len(js) != 1 {
			t.Errorf("a user joining an account made another journal: %+v", js)
		}
	})
	t.Run("created with a slug of its id and times of now", func(t *testing.T) {
		if first.Slug != store.JournalSlug(first.ID, "My Travel Journal") || first.AccountID != me.AccountID ||
			first.CreatedAt != first.UpdatedAt || third.CreatedAt != nowUnix(s) {
			t.Errorf("%+v, %+v", first, third)
		}
	})
	t.Run("listed newest first, id breaking ties, in the account only", func(t *testing.T) {
		js, err := s.Journals(ctx, me.AccountID)
		if err != nil {
			t.Fatal(err)
		}
		if len(js) != 4 || js[3].Name != "My first journal" {
			t.Fatalf("journals %+v, want three and the account's first", js)
		}
		if !reflect.DeepEqual(js[:3], []store.Journal{third, second, first}) {
			t.Errorf("journals %+v", js)
		}
		if js, err := s.Journals(ctx, 999); err != nil || js == nil || len(js) != 0 {
			t.Errorf("no journals: %v, %v", js, err)
		}
	})
	t.Run("get is scoped by account", func(t *testing.T) {
		if j, err := s.Journal(ctx, me.AccountID, first.ID); err != nil || j != first {
			t.Errorf("%+v, %v", j, err)
		}
		_, err := s.Journal(ctx, me.AccountID, theirs.ID)
		wantErr(t, err, store.ErrJournalNotFound)
	})
	t.Run("a rename remakes the slug", func(t *testing.T) {
		advance(s, time.Hour)
		j, err := s.UpdateJournal(ctx, me.AccountID, first.ID, "Été")
		if err != nil {
			t.Fatal(err)
		}
		if j.Name != "Été" || j.Slug != store.JournalSlug(first.ID, "ete") || j.UpdatedAt != nowUnix(s) || j.CreatedAt != first.CreatedAt {
			t.Errorf("%+v", j)
		}
		_, err = s.UpdateJournal(ctx, me.AccountID, theirs.ID, "x")
		wantErr(t, err, store.ErrJournalNotFound)
		if j, _ := s.Journal(ctx, them.AccountID, theirs.ID); j != theirs {
			t.Errorf("their journal changed: %+v", j)
		}
	})
	t.Run("delete is scoped by account", func(t *testing.T) {
		wantErr(t, s.DeleteJournal(ctx, me.AccountID, theirs.ID), store.ErrJournalNotFound)
		if err := s.DeleteJournal(ctx, me.AccountID, second.ID); err != nil {
			t.Fatal(err)
		}
		_, err := s.Journal(ctx, me.AccountID, second.ID)
		wantErr(t, err, store.ErrJournalNotFound)
		wantErr(t, s.DeleteJournal(ctx, me.AccountID, second.ID), store.ErrJournalNotFound)
	})
	t.Run("an account that does not exist gets none", func(t *testing.T) {
		_, err := s.CreateJournal(ctx, 999, "x")
		wantErr(t, err, store.ErrAccountNotFound)
	})
}
