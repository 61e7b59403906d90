package store_test

import (
	"sync"
	"testing"
	"time"

	"kith/store"
)

func TestValidDate(t *testing.T) {
	for _, c := range []struct {
		y, m, d int
		want    bool
	}{
		{2025, 3, 7, true}, {2024, 2, 29, true}, {1, 1, 1, true}, {9999, 12, 31, true}, {2000, 2, 29, true},
		{2025, 2, 30, false}, {2023, 2, 29, false}, {1900, 2, 29, false}, {2025, 4, 31, false}, {2025, 13, 1, false},
		{2025, 0, 1, false}, {2025, 1, 0, false}, {2025, 1, 32, false}, {0, 1, 1, false}, {10000, 1, 1, false}, {-1, 1, 1, false},
	} {
		if got := store.ValidDate(c.y, c.m, c.d); got != c.want {
			t.Errorf("ValidDate(%d, %d, %d) = %t", c.y, c.m, c.d, got)
		}
	}
}

func TestJournalEntry(t *testing.T) {
	s := newStore(t)
	me, them := twoAccounts(t, s)
	ctx := t.Context()
	diary, err := s.CreateJournal(ctx, me.AccountID, "Diary")
	if err != nil {
		t.Fatal(err)
	}
	other, err := s.CreateJournal(ctx, me.AccountID, "Other")
	if err != nil {
		t.Fatal(err)
	}
	theirs, err := s.CreateJournal(ctx, them.AccountID, "Theirs")
	if err != nil {
		t.Fatal(err)
	}

	first, created, err := s.JournalEntry(ctx, me.AccountID, diary.ID, 2025, 3, 7)
	if err != nil || !created {
		t.Fatalf("%+v, %t, %v", first, created, err)
	}
	if first.JournalID != diary.ID || first.Year != 2025 || first.Month != 3 || first.Day != 7 ||
		first.CreatedAt != nowUnix(s) || first.UpdatedAt != first.CreatedAt {
		t.Errorf("%+v", first)
	}
	t.Run("asked again, the same entry, not made again", func(t *testing.T) {
		advance(s, time.Hour)
		again, created, err := s.JournalEntry(ctx, me.AccountID, diary.ID, 2025, 3, 7)
		if err != nil || created || again != first {
			t.Errorf("%+v, %t, %v; want %+v", again, created, err, first)
		}
	})
	t.Run("another journal, another entry", func(t *testing.T) {
		en, created, err := s.JournalEntry(ctx, me.AccountID, other.ID, 2025, 3, 7)
		if err != nil || !created || en.ID == first.ID || en.JournalID != other.ID {
			t.Errorf("%+v, %t, %v", en, created, err)
		}
	})
	t.Run("a date that does not exist", func(t *testing.T) {
		_, _, err := s.JournalEntry(ctx, me.AccountID, diary.ID, 2025, 2, 30)
		wantErr(t, err, store.ErrEntryNotFound)
	})
	t.Run("another account's journal, whatever the date", func(t *testing.T) {
		_, _, err := s.JournalEntry(ctx, me.AccountID, theirs.ID, 2025, 3, 7)
		wantErr(t, err, store.ErrJournalNotFound)
		_, _, err = s.JournalEntry(ctx, me.AccountID, theirs.ID, 2025, 2, 30)
		wantErr(t, err, store.ErrJournalNotFound)
		_, _, err = s.JournalEntry(ctx, me.AccountID, 999, 2025, 3, 7)
		wantErr(t, err, store.ErrJournalNotFound)
	})
	t.Run("racing first asks make one entry", func(t *testing.T) {
		var wg sync.WaitGroup
		var mu sync.Mutex
		ids := map[int64]int{}
		made := 0
		for range 12 {
			wg.Add(1)
			go func() {
				defer wg.Done()
				en, created, err := s.JournalEntry(ctx, me.AccountID, diary.ID, 2026, 1, 1)
				mu.Lock()
				defer mu.Unlock()
				if err != nil {
					t.Error(err)
				}
				ids[en.ID]++
				if created {
					made++
				}
			}()
		}
		wg.Wait()
		if len(ids) != 1 || made != 1 {
			t.Errorf("ids %v, %d made", ids, made)
		}
	})
	t.Run("entries go with their journal", func(t *testing.T) {
		if err := s.DeleteJournal(ctx, me.AccountID, diary.ID); err != nil {
			t.Fatal(err)
		}
		_, _, err := s.JournalEntry(ctx, me.AccountID, diary.ID, 2025, 3, 7)
		wantErr(t, err, store.ErrJournalNotFound)
		en, _, err := s.JournalEntry(ctx, me.AccountID, other.ID, 2025, 3, 7)
		if err != nil || en.JournalID != other.ID {
			t.Errorf("the other journal's entry: %+v, %v", en, err)
		}
	})
}
