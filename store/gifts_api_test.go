package store_test

import (
	"reflect"
	"testing"
	"time"

	"kith/store"
)

func TestGifts(t *testing.T) {
	s := newStore(t)
	me := newUser(t, s)
	jim := newPerson(t, s, me.AccountID, "Jim")
	pam := newPerson(t, s, me.AccountID, "Pam")
	ctx := t.Context()

	day := t0.Add(-24 * time.Hour).Unix()
	full := store.GiftInput{Name: "Teapot", Occasion: ptr("Birthday"), URL: ptr("https://example.com/teapot"), Status: "given", GiftedAt: &day}
	first, err := s.CreateGift(ctx, me.AccountID, jim.ID, full)
	if err != nil {
		t.Fatal(err)
	}
	want := store.Gift{ID: first.ID, PersonID: jim.ID, Name: "Teapot", Occasion: ptr("Birthday"), URL: ptr("https://example.com/teapot"),
		Status: "given", GiftedAt: &day, CreatedAt: nowUnix(s), UpdatedAt: nowUnix(s)}
	if first.ID <= 0 || !reflect.DeepEqual(first, want) {
		t.Errorf("created %+v, want %+v", first, want)
	}
	second, err := s.CreateGift(ctx, me.AccountID, jim.ID, store.GiftInput{Name: "Book", Status: "idea"})
	if err != nil {
		t.Fatal(err)
	}
	advance(s, time.Minute)
	third, err := s.CreateGift(ctx, me.AccountID, jim.ID, store.GiftInput{Name: "Mug", Status: "received"})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := s.CreateGift(ctx, me.AccountID, pam.ID, store.GiftInput{Name: "Pam's", Status: "offered"}); err != nil {
		t.Fatal(err)
	}

	t.Run("lists the person's gifts newest first", func(t *testing.T) {
		gifts, err := s.Gifts(ctx, me.AccountID, jim.ID)
		if err != nil || len(gifts) != 3 || gifts[0].ID != third.ID || gifts[1].ID != second.ID || gifts[2].ID != first.ID {
			t.Errorf("%+v, %v", gifts, err)
		}
		if err == nil && len(gifts) == 3 && (gifts[1].Occasion != nil || gifts[1].URL != nil || gifts[1].GiftedAt != nil) {
			t.Errorf("a gift without occasion, url or date: %+v", gifts[1])
		}
	})
	t.Run("a person without gifts has an empty list", func(t *testing.T) {
		gifts, err := s.Gifts(ctx, me.AccountID, newPerson(t, s, me.AccountID, "Empty").ID)
		if err != nil || gifts == nil || len(gifts) != 0 {
			t.Errorf("%+v, %v", gifts, err)
		}
	})
	t.Run("update replaces every field and keeps created_at", func(t *testing.T) {
		advance(s, time.Hour)
		g, err := s.UpdateGift(ctx, me.AccountID, jim.ID, first.ID, store.GiftInput{Name: "Kettle", Status: "idea"})
		want := store.Gift{ID: first.ID, PersonID: jim.ID, Name: "Kettle", Status: "idea", CreatedAt: first.CreatedAt, UpdatedAt: nowUnix(s)}
		if err != nil || !reflect.DeepEqual(g, want) {
			t.Errorf("updated %+v (%v), want %+v", g, err, want)
		}
		if got, err := s.Gift(ctx, me.AccountID, jim.ID, first.ID); err != nil || !reflect.DeepEqual(got, g) {
			t.Errorf("read back %+v (%v)", got, err)
		}
	})
	t.Run("delete removes one gift", func(t *testing.T) {
		wantErr(t, s.DeleteGift(ctx, me.AccountID, jim.ID, second.ID), nil)
		wantErr(t, s.DeleteGift(ctx, me.AccountID, jim.ID, second.ID), store.ErrGiftNotFound)
		if gifts, _ := s.Gifts(ctx, me.AccountID, jim.ID); len(gifts) != 2 {
			t.Errorf("%d gifts left, want 2", len(gifts))
		}
	})
	t.Run("deleting the person deletes its gifts", func(t *testing.T) {
		wantErr(t, s.DeletePerson(ctx, me.AccountID, jim.ID), nil)
		_, err := s.Gift(ctx, me.AccountID, jim.ID, first.ID)
		wantErr(t, err, store.ErrPersonNotFound)
		if gifts, _ := s.Gifts(ctx, me.AccountID, pam.ID); len(gifts) != 1 {
			t.Errorf("Pam has %d gifts, want 1", len(gifts))
		}
	})
}
