package store_test

import (
	"strings"
	"testing"
	"time"

	"kith/store"
)

func day(s string) time.Time {
	d, err := time.Parse(time.DateOnly, s)
	if err != nil {
		panic(err)
	}
	return d
}

func days(ds []time.Time) string {
	out := make([]string, len(ds))
	for i, d := range ds {
		out[i] = d.Format(time.DateOnly)
	}
	return strings.Join(out, " ")
}

func TestOccurrences(t *testing.T) {
	for _, c := range []struct {
		name, freq string
		every      int
		start      string
		from, to   string
		until      string
		want       string
	}{
		{"once, on its day", "one_time", 1, "2026-03-04", "2026-03-01", "2026-03-31", "", "2026-03-04"},
		{"once, before the span", "one_time", 1, "2026-03-04", "2026-03-05", "2026-03-31", "", ""},
		{"once ignores every", "one_time", 3, "2026-03-04", "2026-03-04", "2026-03-04", "", "2026-03-04"},
		{"daily", "daily", 1, "2026-03-30", "2026-03-29", "2026-04-02", "", "2026-03-30 2026-03-31 2026-04-01 2026-04-02"},
		{"every 3 days, from long after the start", "daily", 3, "2020-01-01", "2026-01-01", "2026-01-08", "", "2026-01-02 2026-01-05 2026-01-08"},
		{"weekly", "weekly", 1, "2026-02-26", "2026-02-27", "2026-03-20", "", "2026-03-05 2026-03-12 2026-03-19"},
		{"every 2 weeks until, the last on until", "weekly", 2, "2026-12-01", "2026-12-01", "2027-12-31", "2027-01-12",
			"2026-12-01 2026-12-15 2026-12-29 2027-01-12"},
		{"monthly on the 31st: each month's last day, never drifting", "monthly", 1, "2028-01-31", "2028-01-01", "2028-08-31", "",
			"2028-01-31 2028-02-29 2028-03-31 2028-04-30 2028-05-31 2028-06-30 2028-07-31 2028-08-31"},
		{"monthly on the 31st in a common year", "monthly", 1, "2027-01-31", "2027-02-01", "2027-03-31", "", "2027-02-28 2027-03-31"},
		{"monthly on the 30th", "monthly", 1, "2027-01-30", "2027-02-01", "2027-03-31", "", "2027-02-28 2027-03-30"},
		{"monthly on the 15th", "monthly", 1, "2026-11-15", "2026-11-16", "2027-01-15", "", "2026-12-15 2027-01-15"},
		{"every 3 months, from years later", "monthly", 3, "2020-01-31", "2026-01-01", "2026-12-31", "",
			"2026-01-31 2026-04-30 2026-07-31 2026-10-31"},
		{"monthly until in the middle", "monthly", 1, "2026-01-10", "2026-01-01", "2026-12-31", "2026-03-09", "2026-01-10 2026-02-10"},
		{"yearly on 29 February", "yearly", 1, "2028-02-29", "2028-01-01", "2033-12-31", "",
			"2028-02-29 2029-02-28 2030-02-28 2031-02-28 2032-02-29 2033-02-28"},
		{"every 2 years", "yearly", 2, "2020-06-01", "2025-01-01", "2030-12-31", "", "2026-06-01 2028-06-01 2030-06-01"},
		{"nothing before the start", "daily", 1, "2026-05-01", "2026-04-01", "2026-04-30", "", ""},
		{"until before the span", "daily", 1, "2026-01-01", "2026-02-01", "2026-02-28", "2026-01-31", ""},
	} {
		t.Run(c.name, func(t *testing.T) {
			r := store.Reminder{Frequency: c.freq, Every: int64(c.every), StartsOn: c.start}
			if c.until != "" {
				r.Until = &c.until
			}
			if got := days(r.Between(day(c.from), day(c.to))); got != c.want {
				t.Errorf("got  %s\nwant %s", got, c.want)
			}
		})
	}
}

func TestReminderNextOn(t *testing.T) {
	until := "2026-06-30"
	sent := int64(1)
	for _, c := range []struct {
		name string
		r    store.Reminder
		want any
	}{
		{"today is one", store.Reminder{Frequency: "weekly", Every: 1, StartsOn: "2026-05-01"}, "2026-05-01"},
		{"the next after today", store.Reminder{Frequency: "monthly", Every: 1, StartsOn: "2026-01-31"}, "2026-05-31"},
		{"past until", store.Reminder{Frequency: "daily", Every: 1, StartsOn: "2026-01-01", Until: ptr("2026-04-30")}, nil},
		{"within until", store.Reminder{Frequency: "daily", Every: 1, StartsOn: "2026-01-01", Until: &until}, "2026-05-01"},
		{"once, past", store.Reminder{Frequency: "one_time", Every: 1, StartsOn: "2026-04-30"}, nil},
		{"once, ahead", store.Reminder{Frequency: "one_time", Every: 1, StartsOn: "2026-05-02"}, "2026-05-02"},
		{"once, sent", store.Reminder{Frequency: "one_time", Every: 1, StartsOn: "2026-05-01", SentAt: &sent}, nil},
	} {
		if got := deref(c.r.NextOn(day("2026-05-01"))); got != c.want {
			t.Errorf("%s: next_on %v, want %v", c.name, got, c.want)
		}
	}
}

func TestReminders(t *testing.T) {
	s := newStore(t)
	me := newUser(t, s)
	jim := newPerson(t, s, me.AccountID, "Jim")
	pam := newPerson(t, s, me.AccountID, "Pam")
	ctx := t.Context()
	one, err := s.CreateReminder(ctx, me.AccountID, jim.ID, store.ReminderInput{Label: "Call", StartsOn: "2026-05-01", Frequency: "one_time", Every: 1})
	if err != nil {
		t.Fatal(err)
	}
	weekly, err := s.CreateReminder(ctx, me.AccountID, pam.ID, store.ReminderInput{Label: "Walk", StartsOn: "2026-05-02", Frequency: "weekly", Every: 2, Until: ptr("2026-07-01")})
	if err != nil || weekly.Every != 2 || deref(weekly.Until) != "2026-07-01" || weekly.SentAt != nil {
		t.Fatalf("created %+v, %v", weekly, err)
	}

	t.Run("the account's, with names, but for the sent ones", func(t *testing.T) {
		if err := s.RemindersSent(ctx, me.AccountID, []int64{one.ID, weekly.ID}, 42); err != nil {
			t.Fatal(err)
		}
		if got, _ := s.Reminder(ctx, me.AccountID, jim.ID, one.ID); deref(got.SentAt) != int64(42) {
			t.Errorf("sent_at %v", deref(got.SentAt))
		}
		if got, _ := s.Reminder(ctx, me.AccountID, pam.ID, weekly.ID); got.SentAt != nil {
			t.Errorf("a weekly reminder was marked sent: %v", deref(got.SentAt))
		}
		unsent, err := s.AccountReminders(ctx, me.AccountID, nil)
		if err != nil || len(unsent) != 1 || unsent[0].ID != weekly.ID || unsent[0].PersonName != "Pam" {
			t.Fatalf("unsent %+v, %v", unsent, err)
		}
		// The first delivery's time stays.
		if err := s.RemindersSent(ctx, me.AccountID, []int64{one.ID}, 43); err != nil {
			t.Fatal(err)
		}
		if got, _ := s.Reminder(ctx, me.AccountID, jim.ID, one.ID); deref(got.SentAt) != int64(42) {
			t.Errorf("sent_at %v", deref(got.SentAt))
		}
	})
	t.Run("a new day sends a one_time reminder again; a new label does not", func(t *testing.T) {
		got, err := s.UpdateReminder(ctx, me.AccountID, jim.ID, one.ID, store.ReminderInput{Label: "Ring", StartsOn: "2026-05-01", Frequency: "one_time", Every: 1})
		if err != nil || deref(got.SentAt) != int64(42) {
			t.Errorf("same day: %+v, %v", got, err)
		}
		got, err = s.UpdateReminder(ctx, me.AccountID, jim.ID, one.ID, store.ReminderInput{Label: "Ring", StartsOn: "2026-05-08", Frequency: "one_time", Every: 1})
		if err != nil || got.SentAt != nil {
			t.Errorf("new day: %+v, %v", got, err)
		}
	})
	t.Run("a person's deletion and a prune delete their reminders", func(t *testing.T) {
		if err := s.DeletePerson(ctx, me.AccountID, jim.ID); err != nil {
			t.Fatal(err)
		}
		if all, err := s.AccountReminders(ctx, me.AccountID, nil); err != nil || len(all) != 1 || all[0].ID != weekly.ID {
			t.Fatalf("after deleting Jim: %+v, %v", all, err)
		}
		if err := s.Prune(ctx, me.AccountID); err != nil {
			t.Fatal(err)
		}
		if all, err := s.AccountReminders(ctx, me.AccountID, nil); err != nil || len(all) != 0 {
			t.Fatalf("after the prune: %+v, %v", all, err)
		}
	})
}
