package store_test

import (
	"reflect"
	"strings"
	"testing"
	"time"

	"kith/store"
)

func TestValidFeedSecret(t *testing.T) {
	good := strings.Repeat("AZ27", 13)
	for s, want := range map[string]bool{
		good: true, good[1:]: false, good + "A": false, strings.ToLower(good): false,
		"1" + good[1:]: false, "8" + good[1:]: false, "=" + good[1:]: false, "": false,
	} {
		if got := store.ValidFeedSecret(s); got != want {
			t.Errorf("ValidFeedSecret(%q) = %v", s, got)
		}
	}
}

func TestCalendarFeedLifecycle(t *testing.T) {
	s := newStore(t)
	me, other := twoAccounts(t, s)
	ctx := t.Context()

	_, err := s.CalendarFeed(ctx, me.ID)
	wantErr(t, err, store.ErrCalendarFeedNotFound)
	wantErr(t, s.DeleteCalendarFeed(ctx, me.ID), store.ErrCalendarFeedNotFound)

	f, secret, err := s.CreateCalendarFeed(ctx, me.ID)
	wantErr(t, err, nil)
	if want := (store.CalendarFeed{UserID: me.ID, CreatedAt: nowUnix(s)}); f != want || !store.ValidFeedSecret(secret) {
		t.Fatalf("created %+v with secret %q", f, secret)
	}
	if got, err := s.CalendarFeed(ctx, me.ID); err != nil || got != f {
		t.Errorf("read back %+v, %v", got, err)
	}
	_, err = s.CalendarFeed(ctx, other.ID)
	wantErr(t, err, store.ErrCalendarFeedNotFound)
	d, err := s.CalendarFeedData(ctx, secret)
	wantErr(t, err, nil)
	if d.ETag != "" || d.ChangedAt != 0 || d.Timezone != "UTC" || len(d.Birthdays)+len(d.LifeEvents)+len(d.Tasks) != 0 {
		t.Errorf("a new feed's data: %+v", d)
	}

	advance(s, time.Hour)
	f2, secret2, err := s.CreateCalendarFeed(ctx, me.ID)
	wantErr(t, err, nil)
	if secret2 == secret || f2.CreatedAt != nowUnix(s) {
		t.Errorf("rotated to %+v, %q", f2, secret2)
	}
	_, err = s.CalendarFeedData(ctx, secret)
	wantErr(t, err, store.ErrCalendarFeedNotFound)
	_, err = s.RecordCalendarRender(ctx, d.FeedID, `"x"`)
	wantErr(t, err, store.ErrCalendarFeedNotFound) // the old feed's row went with its secret
	if _, err := s.CalendarFeedData(ctx, secret2); err != nil {
		t.Errorf("the new secret: %v", err)
	}

	wantErr(t, s.DeleteCalendarFeed(ctx, me.ID), nil)
	_, err = s.CalendarFeedData(ctx, secret2)
	wantErr(t, err, store.ErrCalendarFeedNotFound)
	wantErr(t, s.DeleteCalendarFeed(ctx, me.ID), store.ErrCalendarFeedNotFound)

	_, _, err = s.CreateCalendarFeed(ctx, other.ID+100)
	wantErr(t, err, store.ErrUserNotFound)
	_, err = s.CalendarFeedData(ctx, strings.ToLower(secret2))
	wantErr(t, err, store.ErrCalendarFeedNotFound)
}

func TestCalendarFeedData(t *testing.T) {
	s := newStore(t)
	me, other := twoAccounts(t, s)
	ctx := t.Context()
	_, secret, err := s.CreateCalendarFeed(ctx, me.ID)
	wantErr(t, err, nil)

	jim, err := s.CreatePerson(ctx, me.AccountID, store.PersonInput{FirstName: "Jim", LastName: ptr("Halpert"),
		MaritalStatus: "unknown", KidsStatus: "unknown"})
	wantErr(t, err, nil)
	advance(s, time.Minute)
	jim, err = s.SetAge(ctx, me.AccountID, jim.ID, store.Age{Type: ptr("exact"), Year: ptr[int64](1978), Month: ptr[int64](10),
		Day: ptr[int64](1), YearlyReminder: ptr(false)})
	wantErr(t, err, nil)
	yearOnly := newPerson(t, s, me.AccountID, "Year")
	_, err = s.SetAge(ctx, me.AccountID, yearOnly.ID, store.Age{Type: ptr("exact"), Year: ptr[int64](1980), YearlyReminder: ptr(true)})
	wantErr(t, err, nil)
	pam := newPerson(t, s, me.AccountID, "Pam")
	ev, err := s.CreateLifeEvent(ctx, me.AccountID, pam.ID, store.LifeEventInput{Description: "Wedding", Comment: ptr("Barn"),
		HappenedAt: 1_254_556_800, ShouldBeReminded: true})
	wantErr(t, err, nil)
	_, err = s.CreateLifeEvent(ctx, me.AccountID, pam.ID, store.LifeEventInput{Description: "Not reminded", HappenedAt: 1})
	wantErr(t, err, nil)
	due := int64(1_800_000_000)
	open, err := s.CreateTask(ctx, me.AccountID, jim.ID, store.TaskInput{Name: "Call", DueAt: &due})
	wantErr(t, err, nil)
	newTask(t, s, me.AccountID, jim.ID, "No due date")
	done, err := s.CreateTask(ctx, me.AccountID, pam.ID, store.TaskInput{Name: "Done", DueAt: &due})
	wantErr(t, err, nil)
	_, err = s.ToggleTask(ctx, me.AccountID, done.ID)
	wantErr(t, err, nil)
	// Another account's rows are not this feed's.
	bob := newPerson(t, s, other.AccountID, "Bob")
	_, err = s.CreateTask(ctx, other.AccountID, bob.ID, store.TaskInput{Name: "Bob's", DueAt: &due})
	wantErr(t, err, nil)

	d, err := s.CalendarFeedData(ctx, secret)
	wantErr(t, err, nil)
	wantBirthdays := []store.Birthday{{PersonID: jim.ID, PersonName: "Jim Halpert", Year: 1978, Month: 10, Day: 1, UpdatedAt: jim.UpdatedAt}}
	if !reflect.DeepEqual(d.Birthdays, wantBirthdays) {
		t.Errorf("birthdays %+v, want %+v", d.Birthdays, wantBirthdays)
	}
	wantEvents := []store.CalendarLifeEvent{{ID: ev.ID, PersonName: "Pam", Description: "Wedding", Comment: ptr("Barn"),
		HappenedAt: 1_254_556_800, UpdatedAt: ev.UpdatedAt}}
	if !reflect.DeepEqual(d.LifeEvents, wantEvents) {
		t.Errorf("life events %+v, want %+v", d.LifeEvents, wantEvents)
	}
	wantTasks := []store.CalendarTask{{ID: open.ID, PersonID: jim.ID, PersonName: "Jim Halpert", Name: "Call", DueAt: due,
		UpdatedAt: open.UpdatedAt}}
	if !reflect.DeepEqual(d.Tasks, wantTasks) {
		t.Errorf("tasks %+v, want %+v", d.Tasks, wantTasks)
	}

	t.Run("a render is recorded once, and each change moves the time on", func(t *testing.T) {
		advance(s, time.Hour)
		changed, err := s.RecordCalendarRender(ctx, d.FeedID, `"a"`)
		if err != nil || changed != nowUnix(s) {
			t.Fatalf("first render at %d (%v), want now %d", changed, err, nowUnix(s))
		}
		if again, err := s.RecordCalendarRender(ctx, d.FeedID, `"a"`); err != nil || again != changed {
			t.Errorf("the same body again: %d, %v", again, err)
		}
		if b, err := s.RecordCalendarRender(ctx, d.FeedID, `"b"`); err != nil || b != changed+1 {
			t.Errorf("another body in the same second: %d, %v; want %d", b, err, changed+1)
		}
		if c, err := s.RecordCalendarRender(ctx, d.FeedID, `"c"`); err != nil || c != changed+2 {
			t.Errorf("a third: %d, %v; want %d", c, err, changed+2)
		}
		advance(s, time.Minute)
		if a, err := s.RecordCalendarRender(ctx, d.FeedID, `"a"`); err != nil || a != nowUnix(s) {
			t.Errorf("later: %d, %v; want now", a, err)
		}
		d2, err := s.CalendarFeedData(ctx, secret)
		if err != nil || d2.ETag != `"a"` || d2.ChangedAt != nowUnix(s) {
			t.Errorf("read back %q at %d, %v", d2.ETag, d2.ChangedAt, err)
		}
	})
	t.Run("the user's time zone comes along", func(t *testing.T) {
		_, err := s.SetTimezone(ctx, me.ID, "Europe/Paris")
		wantErr(t, err, nil)
		d, err := s.CalendarFeedData(ctx, secret)
		if err != nil || d.Timezone != "Europe/Paris" {
			t.Errorf("timezone %q, %v", d.Timezone, err)
		}
	})
}
