package store_test

import (
	"slices"
	"testing"
	"time"

	"kith/store"
	"kith/store/storetest"
)

// TestUpcomingDaysMigration: the life events and reminders written before
// migration 39 are found by their month and day after it, and an update
// of the day moves them: the upcoming list reads no other rows.
func TestUpcomingDaysMigration(t *testing.T) {
	ctx := t.Context()
	where := storetest.Fresh(t)
	s, err := store.Open(ctx, where)
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	if _, err := s.MigrateTo(ctx, 37); err != nil {
		t.Fatal(err)
	}
	at := time.Date(2019, 1, 20, 5, 0, 0, 0, time.UTC).Unix() // the 19th west of UTC
	for _, q := range []struct {
		sql  string
		args []any
	}{
		{`INSERT INTO accounts (created_at) VALUES (1)`, nil},
		{`INSERT INTO persons (account_id, first_name, created_at, updated_at) SELECT max(id), 'Ann', 1, 1 FROM accounts`, nil},
		{`INSERT INTO life_events (account_id, person_id, description, happened_at, should_be_reminded, created_at, updated_at)
			SELECT account_id, id, 'Moved', ?, TRUE, 1, 1 FROM persons`, []any{at}},
		{`INSERT INTO reminders (account_id, person_id, label, starts_on, frequency, created_at, updated_at)
			SELECT account_id, id, 'Call', '2020-01-10', 'yearly', 1, 1 FROM persons`, nil},
	} {
		storetest.Exec(t, where, q.sql, q.args...)
	}
	applied, err := s.Migrate(ctx)
	if err != nil || !slices.Contains(applied, "0039_upcoming_days") {
		t.Fatalf("applied %v, %v", applied, err)
	}
	acct := int64(storetest.Count(t, where, `SELECT max(id) FROM accounts`))
	person := int64(storetest.Count(t, where, `SELECT max(id) FROM persons`))
	events := func(spans ...store.DaySpan) []string {
		t.Helper()
		d, err := s.ReminderData(ctx, acct, 0, nil, spans)
		if err != nil {
			t.Fatal(err)
		}
		var out []string
		for _, y := range d.Yearly {
			if y.Kind == store.YearlyLifeEvent {
				out = append(out, y.Label)
			}
		}
		return out
	}
	reminders := func(spans ...store.DaySpan) []string {
		t.Helper()
		rs, err := s.AccountReminders(ctx, acct, spans)
		if err != nil {
			t.Fatal(err)
		}
		var out []string
		for _, r := range rs {
			out = append(out, r.Label)
		}
		return out
	}
	jan20, jan19 := store.DaySpan{Month: 1, From: 20, To: 21}, store.DaySpan{Month: 1, From: 1, To: 19}
	if got := events(jan20); !slices.Equal(got, []string{"Moved"}) {
		t.Errorf("the old life event by its day in UTC: %q", got)
	}
	if got := events(jan19); len(got) != 0 {
		t.Errorf("the old life event outside its day in UTC: %q", got)
	}
	if got := reminders(store.DaySpan{Month: 1, From: 5, To: 12}); !slices.Equal(got, []string{"Call"}) {
		t.Errorf("the old reminder by its day: %q", got)
	}
	if got := reminders(store.DaySpan{Month: 1, From: 11, To: 31}); len(got) != 0 {
		t.Errorf("the old reminder outside its day: %q", got)
	}

	evs, err := s.LifeEvents(ctx, acct, person)
	if err != nil || len(evs) != 1 {
		t.Fatalf("%+v %v", evs, err)
	}
	june := time.Date(2019, 6, 15, 23, 0, 0, 0, time.UTC).Unix()
	if _, err := s.UpdateLifeEvent(ctx, acct, person, evs[0].ID, store.LifeEventInput{Description: "Moved", HappenedAt: june, ShouldBeReminded: true}); err != nil {
		t.Fatal(err)
	}
	if got := events(jan20); len(got) != 0 {
		t.Errorf("the moved life event on its old day: %q", got)
	}
	if got := events(store.DaySpan{Month: 6, From: 15, To: 15}); !slices.Equal(got, []string{"Moved"}) {
		t.Errorf("the moved life event on its new day: %q", got)
	}
	rs, _ := s.AccountReminders(ctx, acct, nil)
	if _, err := s.UpdateReminder(ctx, acct, person, rs[0].ID, store.ReminderInput{Label: "Call", StartsOn: "2020-06-15", Frequency: "one_time", Every: 1}); err != nil {
		t.Fatal(err)
	}
	if got := reminders(store.DaySpan{Month: 1, From: 5, To: 12}); len(got) != 0 {
		t.Errorf("the moved reminder on its old day: %q", got)
	}
	if got := reminders(store.DaySpan{Month: 6, From: 1, To: 30}); !slices.Equal(got, []string{"Call"}) {
		t.Errorf("the moved reminder on its new day: %q", got)
	}
}
