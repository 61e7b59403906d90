package store_test

import (
	"bytes"
	"slices"
	"testing"
	"time"

	"kith/store"
)

func TestPhotos(t *testing.T) {
	s := newStore(t)
	me, them := twoAccounts(t, s)
	ctx := store.WithActor(t.Context(), me.ID)
	jim := newPerson(t, s, me.AccountID, "Jim")
	pam := newPerson(t, s, me.AccountID, "Pam")
	theirs := newPerson(t, s, them.AccountID, "Theirs")
	first, second := []byte("\xff\xd8 Jim's first"), []byte("\xff\xd8 Jim's second")

	if jim.HasPhoto {
		t.Fatal("a new person has a photo")
	}
	wantErr(t, func() error { _, err := s.Photo(ctx, me.AccountID, jim.ID); return err }(), store.ErrPhotoNotFound)

	got, err := s.SetPhoto(ctx, me.AccountID, jim.ID, first)
	if err != nil || !got.HasPhoto || got.ID != jim.ID || got.FirstName != "Jim" {
		t.Fatalf("SetPhoto: %+v, %v", got, err)
	}
	set := nowUnix(s)
	photo, err := s.Photo(ctx, me.AccountID, jim.ID)
	want := store.Photo{PersonID: jim.ID, JPEG: first, SHA256: store.PhotoSum(first), CreatedAt: set, UpdatedAt: set}
	if err != nil || !bytes.Equal(photo.JPEG, want.JPEG) || photo.SHA256 != want.SHA256 || photo.CreatedAt != set || photo.UpdatedAt != set {
		t.Fatalf("Photo: %+v, %v\nwant %+v", photo, err, want)
	}
	if len(photo.SHA256) != 64 || photo.SHA256 == store.PhotoSum(second) {
		t.Errorf("digest %q", photo.SHA256)
	}

	t.Run("has_photo wherever a person is read", func(t *testing.T) {
		if p, err := s.Person(ctx, me.AccountID, jim.ID); err != nil || !p.HasPhoto {
			t.Errorf("Person: %v %v", p.HasPhoto, err)
		}
		list, _, err := s.Persons(ctx, me.AccountID, 10, 0)
		if err != nil || len(list) != 2 || !list[0].HasPhoto || list[1].HasPhoto {
			t.Errorf("Persons: %+v %v", list, err)
		}
		if p, err := s.UpdateAppearance(ctx, me.AccountID, jim.ID, map[string]*string{"height": ptr("tall")}); err != nil || !p.HasPhoto {
			t.Errorf("an update's answer: %v %v", p.HasPhoto, err)
		}
		if c, err := s.Card(ctx, me.AccountID, jim.ID); err != nil || !c.HasPhoto || c.Photo == nil || !bytes.Equal(c.Photo.JPEG, first) {
			t.Errorf("Card: %+v %v", c.Photo, err)
		}
		if c, err := s.Card(ctx, me.AccountID, pam.ID); err != nil || c.HasPhoto || c.Photo != nil {
			t.Errorf("Pam's card: %+v %v", c.Photo, err)
		}
	})

	t.Run("a second photo replaces the first", func(t *testing.T) {
		advance(s, time.Hour)
		if _, err := s.SetPhoto(ctx, me.AccountID, jim.ID, second); err != nil {
			t.Fatal(err)
		}
		photo, err := s.Photo(ctx, me.AccountID, jim.ID)
		if err != nil || !bytes.Equal(photo.JPEG, second) || photo.SHA256 != store.PhotoSum(second) ||
			photo.CreatedAt != set || photo.UpdatedAt != nowUnix(s) {
			t.Errorf("%+v %v", photo, err)
		}
	})

	t.Run("another account's person, or none, is not found and keeps its photo", func(t *testing.T) {
		if _, err := s.SetPhoto(t.Context(), them.AccountID, theirs.ID, first); err != nil {
			t.Fatal(err)
		}
		for _, c := range []struct{ account, person int64 }{{me.AccountID, theirs.ID}, {them.AccountID, jim.ID}, {me.AccountID, 999999}} {
			_, err := s.SetPhoto(ctx, c.account, c.person, first)
			wantErr(t, err, store.ErrPersonNotFound)
			_, err = s.Photo(ctx, c.account, c.person)
			wantErr(t, err, store.ErrPersonNotFound)
			wantErr(t, s.DeletePhoto(ctx, c.account, c.person), store.ErrPersonNotFound)
		}
		if p, err := s.Photo(ctx, me.AccountID, jim.ID); err != nil || !bytes.Equal(p.JPEG, second) {
			t.Errorf("Jim's: %v", err)
		}
		if p, err := s.Photo(ctx, them.AccountID, theirs.ID); err != nil || !bytes.Equal(p.JPEG, first) {
			t.Errorf("theirs: %v", err)
		}
	})

	t.Run("delete", func(t *testing.T) {
		wantErr(t, s.DeletePhoto(ctx, me.AccountID, jim.ID), nil)
		wantErr(t, s.DeletePhoto(ctx, me.AccountID, jim.ID), store.ErrPhotoNotFound)
		_, err := s.Photo(ctx, me.AccountID, jim.ID)
		wantErr(t, err, store.ErrPhotoNotFound)
		if p, _ := s.Person(ctx, me.AccountID, jim.ID); p.HasPhoto {
			t.Error("has_photo after the delete")
		}
	})

	t.Run("logged with the person's name", func(t *testing.T) {
		logs, _, err := s.Logs(ctx, me.ID, 10, 0)
		if err != nil {
			t.Fatal(err)
		}
		var got []string
		for _, l := range logs {
			if l.Action == "photo_update" || l.Action == "photo_deletion" {
				got = append(got, l.Action+": "+l.Description)
			}
		}
		want := []string{"photo_deletion: Deleted the photo of Jim", "photo_update: Updated the photo of Jim", "photo_update: Updated the photo of Jim"}
		if !slices.Equal(got, want) {
			t.Errorf("logs %q\nwant %q", got, want)
		}
	})
}

// TestPhotoChangesTheCard: setting, replacing and deleting a photo each
// move the account's card counter and list the person's card as changed,
// as a phone's sync-collection needs.
func TestPhotoChangesTheCard(t *testing.T) {
	s := newStore(t)
	me := newUser(t, s)
	ctx := t.Context()
	jim := newPerson(t, s, me.AccountID, "Jim")
	newPerson(t, s, me.AccountID, "Pam")
	card, _ := s.Card(ctx, me.AccountID, jim.ID)
	last, _, _ := changes(t, s, me.AccountID, 0)
	for _, step := range []struct {
		name  string
		write func() error
	}{
		{"a photo", func() error { _, err := s.SetPhoto(ctx, me.AccountID, jim.ID, []byte("one")); return err }},
		{"another", func() error { _, err := s.SetPhoto(ctx, me.AccountID, jim.ID, []byte("two")); return err }},
		{"no photo", func() error { return s.DeletePhoto(ctx, me.AccountID, jim.ID) }},
	} {
		if err := step.write(); err != nil {
			t.Fatalf("%s: %v", step.name, err)
		}
		seq, changed, deleted := changes(t, s, me.AccountID, last)
		if seq <= last || !slices.Equal(changed, []string{card.UID}) || len(deleted) != 0 {
			t.Errorf("after %s: seq %d (was %d), changed %v, deleted %v", step.name, seq, last, changed, deleted)
		}
		last = seq
	}
}

func TestPutCardPhoto(t *testing.T) {
	s := newStore(t)
	me := newUser(t, s)
	ctx := t.Context()
	kith := []byte("the JPEG Kith made")
	in := store.CardInput{UID: "uid-photo", FirstName: "Holly", Photo: kith, PhotoSource: store.PhotoSum([]byte("what the card held"))}
	c, _, err := s.PutCard(ctx, me.AccountID, in, nil)
	if err != nil || c.Photo == nil || !bytes.Equal(c.Photo.JPEG, kith) || !c.HasPhoto {
		t.Fatalf("a new card's photo: %+v %v", c.Photo, err)
	}
	made := c.Photo.UpdatedAt

	t.Run("a card without a photo leaves it", func(t *testing.T) {
		advance(s, time.Minute)
		c, _, err := s.PutCard(ctx, me.AccountID, store.CardInput{UID: in.UID, FirstName: "Holly"}, nil)
		if err != nil || c.Photo == nil || !bytes.Equal(c.Photo.JPEG, kith) || c.Photo.UpdatedAt != made {
			t.Errorf("%+v %v", c.Photo, err)
		}
	})
	t.Run("a card carrying Kith's own photo back leaves it", func(t *testing.T) {
		advance(s, time.Minute)
		back := in
		back.Photo, back.PhotoSource = []byte("the same, made again"), store.PhotoSum(kith)
		c, _, err := s.PutCard(ctx, me.AccountID, back, nil)
		if err != nil || c.Photo == nil || !bytes.Equal(c.Photo.JPEG, kith) || c.Photo.UpdatedAt != made {
			t.Errorf("%+v %v", c.Photo, err)
		}
	})
	t.Run("a card with another photo replaces it, in a batch too", func(t *testing.T) {
		advance(s, time.Minute)
		other := in
		other.Photo, other.PhotoSource = []byte("another"), store.PhotoSum([]byte("another sent"))
		if _, err := s.PutCards(ctx, me.AccountID, []store.CardInput{other}); err != nil {
			t.Fatal(err)
		}
		c, _ := s.CardByUID(ctx, me.AccountID, in.UID)
		if c.Photo == nil || string(c.Photo.JPEG) != "another" || c.Photo.UpdatedAt != nowUnix(s) {
			t.Errorf("%+v", c.Photo)
		}
	})
}
