package store_test

import (
	"errors"
	"slices"
	"testing"

	"kith/store"
	"kith/store/storetest"
)

// changes is CardChanges by UID, failing the test on an error.
func changes(t *testing.T, s *store.Store, acct, since int64) (int64, []string, []string) {
	t.Helper()
	seq, changed, deleted, err := s.CardChanges(t.Context(), acct, since)
	if err != nil {
		t.Fatal(err)
	}
	uids := func(refs []store.CardRef) []string {
		if refs == nil {
			return nil
		}
		out := []string{}
		for _, r := range refs {
			if r.Seq <= since {
				t.Errorf("card %s of seq %d listed as changed since %d", r.UID, r.Seq, since)
			}
			out = append(out, r.UID)
		}
		return out
	}
	return seq, uids(changed), uids(deleted)
}

// TestCardSeq shows that every write that changes a card, by any method,
// moves the account's counter and marks the card, and that a deletion
// leaves its UID behind: what a phone's sync-collection needs.
func TestCardSeq(t *testing.T) {
	s := newStore(t)
	me, them := twoAccounts(t, s)
	ctx := t.Context()
	jim := newPerson(t, s, me.AccountID, "Jim")
	pam := newPerson(t, s, me.AccountID, "Pam")
	newPerson(t, s, them.AccountID, "Theirs")
	jimCard, err := s.Card(ctx, me.AccountID, jim.ID)
	if err != nil || len(jimCard.UID) != 36 {
		t.Fatalf("Jim's card %+v, %v: want a UUID", jimCard, err)
	}
	pamCard, _ := s.Card(ctx, me.AccountID, pam.ID)
	if pamCard.UID == jimCard.UID {
		t.Fatal("two persons share a UID")
	}
	start, changed, _ := changes(t, s, me.AccountID, 0)
	if !slices.Equal(changed, []string{jimCard.UID, pamCard.UID}) {
		t.Fatalf("changed since 0: %v", changed)
	}

	steps := []struct {
		name  string
		write func() error
	}{
		{"a contact detail", func() error {
			_, err := s.CreateContactDetail(ctx, me.AccountID, jim.ID, store.ContactDetailInput{Kind: "email", Value: ptr("jim@example.com")})
			return err
		}},
		{"an important date", func() error {
			_, err := s.CreateImportantDate(ctx, me.AccountID, jim.ID, store.ImportantDateInput{Label: "met", Month: 1, Day: 2})
			return err
		}},
		{"a note", func() error { _, err := s.CreateNote(ctx, me.AccountID, jim.ID, "hello"); return err }},
		{"the age", func() error {
			_, err := s.SetAge(ctx, me.AccountID, jim.ID, store.Age{Type: ptr("exact"), Year: ptr(int64(1978))})
			return err
		}},
		{"the person", func() error {
			_, err := s.UpdatePerson(ctx, me.AccountID, jim.ID, store.PersonInput{FirstName: "James", MaritalStatus: "unknown", KidsStatus: "unknown", CanBeDeleted: true, IsListed: true})
			return err
		}},
	}
	last := start
	for _, step := range steps {
		if err := step.write(); err != nil {
			t.Fatalf("%s: %v", step.name, err)
		}
		seq, changed, deleted := changes(t, s, me.AccountID, last)
		if seq <= last || !slices.Equal(changed, []string{jimCard.UID}) || len(deleted) != 0 {
			t.Errorf("after %s: seq %d (was %d), changed %v, deleted %v", step.name, seq, last, changed, deleted)
		}
		last = seq
	}

	// Nothing changed: the same counter, nothing listed.
	if seq, changed, deleted := changes(t, s, me.AccountID, last); seq != last || changed != nil || deleted != nil {
		t.Errorf("no change: %d %v %v", seq, changed, deleted)
	}
	// Another account's writes are not this one's changes.
	if _, err := s.CreatePerson(ctx, them.AccountID, store.PersonInput{FirstName: "X", MaritalStatus: "unknown", KidsStatus: "unknown"}); err != nil {
		t.Fatal(err)
	}
	if seq, _, _ := changes(t, s, me.AccountID, last); seq != last {
		t.Errorf("another account's person moved the counter to %d", seq)
	}

	if err := s.DeletePerson(ctx, me.AccountID, pam.ID); err != nil {
		t.Fatal(err)
	}
	seq, changed, deleted := changes(t, s, me.AccountID, last)
	if seq <= last || len(changed) != 0 || !slices.Equal(deleted, []string{pamCard.UID}) {
		t.Errorf("after a deletion: %d %v %v", seq, changed, deleted)
	}
	// A card of the same UID put again is no longer deleted.
	if _, created, err := s.PutCard(ctx, me.AccountID, store.CardInput{UID: pamCard.UID, FirstName: "Pam"}, nil); err != nil || !created {
		t.Fatalf("put Pam again: %v %v", created, err)
	}
	if _, changed, deleted := changes(t, s, me.AccountID, last); !slices.Equal(changed, []string{pamCard.UID}) || len(deleted) != 0 {
		t.Errorf("after putting Pam back: %v %v", changed, deleted)
	}
}

func TestPutCard(t *testing.T) {
	s := newStore(t)
	me, them := twoAccounts(t, s)
	ctx := t.Context()
	in := store.CardInput{
		UID: "uid-1", FirstName: "Jim", LastName: ptr("Halpert"), Gender: ptr("MAN"),
		Birthday: &store.CardBirthday{Year: 1978, Month: ptr(int64(10)), Day: ptr(int64(1))},
		Details: []store.ContactDetailInput{
			{Kind: "phone", Label: ptr("mobile"), Value: ptr("1")},
			{Kind: "email", Value: ptr("jim@example.com")},
			{Kind: "phone", Value: ptr("2")},
		},
		Dates: []store.ImportantDateInput{{Label: "anniversary", Month: 10, Day: 10}, {Label: "met", Month: 1, Day: 1}},
		Note:  ptr("Pranks."), Work: &store.WorkEntryInput{JobTitle: "Sales", CompanyName: ptr("Dunder Mifflin"), Active: true},
		Extra: "BEGIN:VCARD\r\nVERSION:4.0\r\nCATEGORIES:x\r\nEND:VCARD\r\n",
	}
	c, created, err := s.PutCard(ctx, me.AccountID, in, nil)
	if err != nil || !created {
		t.Fatalf("create: %v %v", created, err)
	}
	if c.UID != "uid-1" || c.Gender == nil || c.Gender.Name != "Man" || *c.Age.Type != "exact" || !*c.Age.YearlyReminder ||
		len(c.Details) != 3 || len(c.Dates) != 2 || len(c.Notes) != 1 || c.Work == nil || c.Extra != in.Extra {
		t.Fatalf("created %+v", c)
	}
	if !c.Dates[1].RemindYearly || c.Dates[0].RemindYearly {
		t.Errorf("an anniversary is reminded, a meeting not: %+v", c.Dates)
	}

	t.Run("the same card again changes nothing", func(t *testing.T) {
		seq, _, _ := changes(t, s, me.AccountID, 0)
		again, created, err := s.PutCard(ctx, me.AccountID, in, nil)
		if err != nil || created || again.ID != c.ID || again.Details[0].ID != c.Details[0].ID || again.Notes[0].ID != c.Notes[0].ID {
			t.Fatalf("again %+v %v %v", again, created, err)
		}
		if _, changed, _ := changes(t, s, me.AccountID, seq); len(changed) != 1 {
			t.Errorf("changed %v: the person's row is written, once", changed)
		}
	})
	t.Run("a card without birthday, gender, note or job", func(t *testing.T) {
		// A date kept keeps its remind_yearly, which the card cannot say.
		if _, err := s.UpdateImportantDate(ctx, me.AccountID, c.ID, c.Dates[0].ID, store.ImportantDateInput{Label: "met", Month: 1, Day: 1, RemindYearly: true}); err != nil {
			t.Fatal(err)
		}
		bare := store.CardInput{UID: "uid-1", FirstName: "Jimmy", Dates: []store.ImportantDateInput{{Label: "met", Month: 1, Day: 1}}}
		got, _, err := s.PutCard(ctx, me.AccountID, bare, nil)
		if err != nil {
			t.Fatal(err)
		}
		if got.FirstName != "Jimmy" || got.LastName != nil || got.Age.Type != nil || got.Gender == nil || len(got.Details) != 0 ||
			len(got.Dates) != 1 || !got.Dates[0].RemindYearly || len(got.Notes) != 1 || got.Work == nil || got.Extra != "" {
			t.Errorf("after a bare card: %+v", got)
		}
	})
	t.Run("check sees the card and stops the write", func(t *testing.T) {
		stop := errors.New("stale")
		var seen *store.Card
		_, _, err := s.PutCard(ctx, me.AccountID, store.CardInput{UID: "uid-1", FirstName: "Nope"}, func(old *store.Card) error { seen = old; return stop })
		if !errors.Is(err, stop) || seen == nil || seen.FirstName != "Jimmy" {
			t.Fatalf("err %v, seen %+v", err, seen)
		}
		if got, _ := s.CardByUID(ctx, me.AccountID, "uid-1"); got.FirstName != "Jimmy" {
			t.Errorf("written all the same: %q", got.FirstName)
		}
	})
	t.Run("another account's UID is another card", func(t *testing.T) {
		if _, err := s.CardByUID(ctx, them.AccountID, "uid-1"); !errors.Is(err, store.ErrCardNotFound) {
			t.Errorf("their card: %v", err)
		}
		if err := s.DeleteCard(ctx, them.AccountID, "uid-1", nil); !errors.Is(err, store.ErrCardNotFound) {
			t.Errorf("delete their card: %v", err)
		}
	})
	t.Run("delete", func(t *testing.T) {
		if err := s.DeleteCard(ctx, me.AccountID, "uid-1", nil); err != nil {
			t.Fatal(err)
		}
		if _, err := s.Person(ctx, me.AccountID, c.ID); !errors.Is(err, store.ErrPersonNotFound) {
			t.Errorf("the person is still there: %v", err)
		}
	})
	t.Run("PutCards counts what it created", func(t *testing.T) {
		n, err := s.PutCards(ctx, me.AccountID, []store.CardInput{{UID: "a", FirstName: "A"}, {UID: "b", FirstName: "B"}, {UID: "a", FirstName: "A2"}})
		if err != nil || n != 2 {
			t.Fatalf("created %d, %v", n, err)
		}
		cards, err := s.Cards(ctx, me.AccountID, 0, 10)
		if err != nil || len(cards) != 2 || cards[0].FirstName != "A2" {
			t.Errorf("cards %+v, %v", cards, err)
		}
	})
}

// TestCardsChangedSinceZeroIsEveryCard: a person whose card counter is
// still 0 (made before migration 0020 and never changed since) is among
// every card, which CardDAV's listings and a first sync read through
// CardsChanged(0); a later counter leaves it out, as it has not changed.
func TestCardsChangedSinceZeroIsEveryCard(t *testing.T) {
	s, where := newStoreAt(t)
	me, them := twoAccounts(t, s)
	ctx := t.Context()
	old := newPerson(t, s, me.AccountID, "Old")
	newPerson(t, s, me.AccountID, "New")
	newPerson(t, s, them.AccountID, "Theirs")
	storetest.Exec(t, where, `UPDATE persons SET card_seq = 0 WHERE id = ?`, old.ID)
	names := func(cards []store.Card) []string {
		var out []string
		for _, c := range cards {
			out = append(out, c.FirstName)
		}
		return out
	}
	all, err := s.CardsChanged(ctx, me.AccountID, 0, 0, 100)
	if err != nil || !slices.Equal(names(all), []string{"Old", "New"}) {
		t.Errorf("every card: %v, %v", names(all), err)
	}
	later, err := s.CardsChanged(ctx, me.AccountID, 1, 0, 100)
	if err != nil || slices.Contains(names(later), "Old") {
		t.Errorf("changed since 1: %v, %v", names(later), err)
	}
	if page, err := s.Cards(ctx, me.AccountID, old.ID, 100); err != nil || !slices.Equal(names(page), []string{"New"}) {
		t.Errorf("the page after Old: %v, %v", names(page), err)
	}
}
