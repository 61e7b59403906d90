package store_test

import (
	"reflect"
	"regexp"
	"testing"

	"kith/store"
)

func TestMailInSecret(t *testing.T) {
	s := newStore(t)
	me, them := twoAccounts(t, s)
	ctx := t.Context()
	mine, err := s.MailInSecret(ctx, me.ID)
	if err != nil || !regexp.MustCompile(`^[a-z0-9]{20,}$`).MatchString(mine) {
		t.Fatalf("secret %q, %v", mine, err)
	}
	if again, err := s.MailInSecret(ctx, me.ID); err != nil || again != mine {
		t.Errorf("second read %q, %v: want the same %q", again, err, mine)
	}
	theirs, _ := s.MailInSecret(ctx, them.ID)
	if theirs == mine {
		t.Error("two users share a secret")
	}
	u, err := s.MailInUserBySecret(ctx, mine)
	if err != nil || u != (store.MailInUser{UserID: me.ID, AccountID: me.AccountID, Timezone: "UTC"}) {
		t.Errorf("by secret: %+v, %v", u, err)
	}
	if u, err := s.MailInUserBySecret(ctx, upper(mine)); err != nil || u.UserID != me.ID {
		t.Errorf("upper case: %+v, %v", u, err)
	}
	rotated, err := s.RotateMailInSecret(ctx, me.ID)
	if err != nil || rotated == mine || len(rotated) < 20 {
		t.Fatalf("rotated %q, %v", rotated, err)
	}
	_, err = s.MailInUserBySecret(ctx, mine)
	wantErr(t, err, store.ErrUnknownMailIn)
	if now, _ := s.MailInSecret(ctx, me.ID); now != rotated {
		t.Errorf("after rotation GET says %q, want %q", now, rotated)
	}
	_, err = s.MailInUserBySecret(ctx, "")
	wantErr(t, err, store.ErrUnknownMailIn)
	_, err = s.MailInSecret(ctx, 1<<40)
	wantErr(t, err, store.ErrUserNotFound)
	_, err = s.RotateMailInSecret(ctx, 1<<40)
	wantErr(t, err, store.ErrUserNotFound)
}

func upper(s string) string {
	b := []byte(s)
	for i, c := range b {
		if 'a' <= c && c <= 'z' {
			b[i] = c - 'a' + 'A'
		}
	}
	return string(b)
}

func TestLogEmailInteractions(t *testing.T) {
	s := newStore(t)
	me, them := twoAccounts(t, s)
	ctx := store.WithActor(t.Context(), me.ID)
	email := func(accountID, personID int64, v string) {
		t.Helper()
		if _, err := s.CreateContactDetail(ctx, accountID, personID, store.ContactDetailInput{Kind: "email", Value: &v}); err != nil {
			t.Fatal(err)
		}
	}
	anna, ben, carl := newPerson(t, s, me.AccountID, "Anna"), newPerson(t, s, me.AccountID, "Ben"), newPerson(t, s, me.AccountID, "Carl")
	email(me.AccountID, anna.ID, "Anna@Example.com")
	email(me.AccountID, anna.ID, "anna.work@example.org")
	email(me.AccountID, ben.ID, "ben@example.com")
	other := newPerson(t, s, them.AccountID, "Anna elsewhere")
	email(them.AccountID, other.ID, "anna@example.com")
	phone := "ben@example.com" // a phone that reads as the address is no email
	if _, err := s.CreateContactDetail(ctx, me.AccountID, carl.ID, store.ContactDetailInput{Kind: "website", Value: &phone}); err != nil {
		t.Fatal(err)
	}

	got, err := s.LogEmailInteractions(ctx, me.AccountID,
		[]string{" ANNA@example.COM ", "anna.work@example.org", "ben@example.com", "nobody@example.com", ""}, "2026-03-01", ptr("Lunch?"))
	if err != nil || !reflect.DeepEqual(got, []int64{anna.ID, ben.ID}) {
		t.Fatalf("persons %v, %v; want Anna and Ben", got, err)
	}
	for _, p := range []store.Person{anna, ben} {
		list, total, err := s.Interactions(ctx, me.AccountID, p.ID, 10, 0)
		if err != nil || total != 1 || list[0].Kind != "email" || list[0].HappenedOn != "2026-03-01" || *list[0].Note != "Lunch?" {
			t.Errorf("%s: %+v, %d, %v", p.FirstName, list, total, err)
		}
	}
	for _, p := range []struct {
		account, person int64
	}{{me.AccountID, carl.ID}, {them.AccountID, other.ID}} {
		if _, total, err := s.Interactions(ctx, p.account, p.person, 10, 0); err != nil || total != 0 {
			t.Errorf("person %d was touched: %d, %v", p.person, total, err)
		}
	}
	logs, _, err := s.Logs(ctx, me.ID, 10, 0)
	if err != nil || len(logs) < 2 || logs[0].Action != "interaction_creation" || logs[0].UserID != me.ID {
		t.Errorf("logs %+v, %v", logs, err)
	}

	got, err = s.LogEmailInteractions(ctx, me.AccountID, []string{"nobody@example.com"}, "2026-03-02", nil)
	if err != nil || len(got) != 0 {
		t.Errorf("nobody: %v, %v", got, err)
	}
	got, err = s.LogEmailInteractions(ctx, me.AccountID, nil, "2026-03-02", nil)
	if err != nil || got == nil || len(got) != 0 {
		t.Errorf("no addresses: %v, %v", got, err)
	}
}
