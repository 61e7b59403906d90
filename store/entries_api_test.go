package store_test

import (
	"maps"
	"slices"
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

func TestEntries(t *testing.T) {
	s := newStore(t)
	me, them := twoAccounts(t, s)
	ctx := t.Context()
	diary, err := s.CreateJournal(ctx, me.AccountID, "Diary")
	if err != nil {
		t.Fatal(err)
	}
	empty, err := s.CreateJournal(ctx, me.AccountID, "Empty")
	if err != nil {
		t.Fatal(err)
	}
	theirs, err := s.CreateJournal(ctx, them.AccountID, "Theirs")
	if err != nil {
		t.Fatal(err)
	}
	// Made out of order: the list is by date, not by when they were made.
	for _, d := range [][3]int{{2025, 3, 7}, {2024, 12, 31}, {2025, 11, 2}, {2025, 3, 10}, {999, 1, 1}} {
		if _, _, err := s.JournalEntry(ctx, me.AccountID, diary.ID, d[0], d[1], d[2]); err != nil {
			t.Fatal(err)
		}
	}
	if _, _, err := s.JournalEntry(ctx, them.AccountID, theirs.ID, 2030, 1, 1); err != nil {
		t.Fatal(err)
	}
	dates := func(es []store.Entry) [][3]int {
		out := [][3]int{}
		for _, en := range es {
			if en.JournalID != diary.ID {
				t.Errorf("entry of journal %d", en.JournalID)
			}
			out = append(out, [3]int{en.Year, en.Month, en.Day})
		}
		return out
	}
	t.Run("newest date first, with the total", func(t *testing.T) {
		es, total, err := s.Entries(ctx, me.AccountID, diary.ID, 100, 0)
		want := [][3]int{{2025, 11, 2}, {2025, 3, 10}, {2025, 3, 7}, {2024, 12, 31}, {999, 1, 1}}
		if err != nil || total != 5 || !slices.Equal(dates(es), want) {
			t.Errorf("%v, %d, %v", dates(es), total, err)
		}
	})
	t.Run("a page", func(t *testing.T) {
		es, total, err := s.Entries(ctx, me.AccountID, diary.ID, 2, 2)
		want := [][3]int{{2025, 3, 7}, {2024, 12, 31}}
		if err != nil || total != 5 || !slices.Equal(dates(es), want) {
			t.Errorf("%v, %d, %v", dates(es), total, err)
		}
		es, total, err = s.Entries(ctx, me.AccountID, diary.ID, 2, 10)
		if err != nil || total != 5 || es == nil || len(es) != 0 {
			t.Errorf("past the end: %v, %d, %v", es, total, err)
		}
	})
	t.Run("a journal without entries", func(t *testing.T) {
		es, total, err := s.Entries(ctx, me.AccountID, empty.ID, 100, 0)
		if err != nil || total != 0 || es == nil || len(es) != 0 {
			t.Errorf("%v, %d, %v", es, total, err)
		}
	})
	t.Run("another account's journal, or none", func(t *testing.T) {
		_, _, err := s.Entries(ctx, me.AccountID, theirs.ID, 100, 0)
		wantErr(t, err, store.ErrJournalNotFound)
		_, _, err = s.Entries(ctx, me.AccountID, 999999, 100, 0)
		wantErr(t, err, store.ErrJournalNotFound)
	})
	t.Run("counts by journal, with the newest date", func(t *testing.T) {
		counts, err := s.EntryCounts(ctx, me.AccountID)
		if err != nil {
			t.Fatal(err)
		}
		want := map[int64]store.EntryCount{diary.ID: {Entries: 5, Year: 2025, Month: 11, Day: 2}}
		if !maps.Equal(counts, want) {
			t.Errorf("%+v, want %+v", counts, want)
		}
		counts, err = s.EntryCounts(ctx, them.AccountID)
		if err != nil || !maps.Equal(counts, map[int64]store.EntryCount{theirs.ID: {Entries: 1, Year: 2030, Month: 1, Day: 1}}) {
			t.Errorf("theirs: %+v, %v", counts, err)
		}
	})
}
