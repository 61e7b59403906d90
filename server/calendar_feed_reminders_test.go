package server

import (
	"strings"
	"testing"
	"time"

	goical "github.com/emersion/go-ical"

	"kith/server/ical"
	"kith/store"
)

// expand lists an event's days from from through to as go-ical and the
// rrule-go library under it read its RRULE: a reading independent of
// store.Occurrences.
func expand(t *testing.T, ev goical.Event, from, to string) string {
	t.Helper()
	rs, err := ev.RecurrenceSet(time.UTC)
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	if rs == nil { // no RRULE: the one day
		start, err := ev.DateTimeStart(time.UTC)
		if err != nil {
			t.Fatal(err)
		}
		if s := start.Format(time.DateOnly); s >= from && s <= to {
			got = append(got, s)
		}
		return strings.Join(got, " ")
	}
	for _, d := range rs.Between(day(from), day(to), true) {
		got = append(got, d.Format(time.DateOnly))
	}
	return strings.Join(got, " ")
}

func day(s string) time.Time {
	d, err := time.Parse(time.DateOnly, s)
	if err != nil {
		panic(err)
	}
	return d
}

func TestCalendarFeedReminders(t *testing.T) {
	e := newEnv(t)
	ada, key := e.user("ada@example.com")
	jim := e.person(key, "first_name=Jim&last_name=Halpert")
	monthEnd := e.reminder(key, jim, "label=Rent&starts_on=2028-01-31&frequency=monthly")
	leapDay := e.reminder(key, jim, "label=Leap&starts_on=2028-02-29&frequency=yearly")
	day29 := e.reminder(key, jim, "label=Day+29&starts_on=2027-12-29&frequency=monthly&every=1")
	day30 := e.reminder(key, jim, "label=Day+30&starts_on=2028-01-30&frequency=monthly")
	weekly := e.reminder(key, jim, "label=Walk%2C+talk&starts_on=2028-02-22&frequency=weekly&every=2&until=2028-03-21")
	once := e.reminder(key, jim, "label=Once&starts_on=2026-03-15&frequency=one_time")
	birthday := e.importantDate(key, jim, "label=BIRTHDAY&date=1990-06-01&remind_yearly=1")
	// The one_time one went out: the feed keeps it.
	if err := e.st.RemindersSent(t.Context(), ada.AccountID, []int64{int64(e.count(`SELECT id FROM reminders WHERE label = 'Once'`))}, 1); err != nil {
		t.Fatal(err)
	}
	if n := e.count(`SELECT count(*) FROM reminders WHERE sent_at = 1`); n != 1 {
		t.Fatalf("%d sent", n)
	}

	events := parseFeed(t, e.ics(e.feed(key), nil))
	host := "@example.com"
	stamp := func(id string) int64 { return int64(e.count(`SELECT updated_at FROM reminders WHERE id = ?`, id)) }
	checkEvent(t, events, "reminder-"+monthEnd+host, wantEvent{summary: "Rent (Jim Halpert)", start: "20280131",
		rrule: "FREQ=MONTHLY;INTERVAL=1;BYMONTHDAY=-1", stamp: stamp(monthEnd)})
	checkEvent(t, events, "reminder-"+leapDay+host, wantEvent{summary: "Leap (Jim Halpert)", start: "20280229",
		rrule: "FREQ=YEARLY;INTERVAL=1;BYMONTH=2;BYMONTHDAY=-1", stamp: stamp(leapDay)})
	checkEvent(t, events, "reminder-"+day29+host, wantEvent{summary: "Day 29 (Jim Halpert)", start: "20271229",
		rrule: "FREQ=MONTHLY;INTERVAL=1;BYMONTHDAY=28,29;BYSETPOS=-1", stamp: stamp(day29)})
	checkEvent(t, events, "reminder-"+day30+host, wantEvent{summary: "Day 30 (Jim Halpert)", start: "20280130",
		rrule: "FREQ=MONTHLY;INTERVAL=1;BYMONTHDAY=28,29,30;BYSETPOS=-1", stamp: stamp(day30)})
	checkEvent(t, events, "reminder-"+weekly+host, wantEvent{summary: "Walk, talk (Jim Halpert)", start: "20280222",
		rrule: "FREQ=WEEKLY;INTERVAL=2;UNTIL=20280321", stamp: stamp(weekly)})
	checkEvent(t, events, "reminder-"+once+host, wantEvent{summary: "Once (Jim Halpert)", start: "20260315", stamp: stamp(once)})
	if s, _ := events["date-"+birthday+host].Props.Text("SUMMARY"); s != "Birthday of Jim Halpert" {
		t.Errorf("an important date labelled birthday: SUMMARY %q", s)
	}

	for _, c := range []struct {
		id, from, to, want string
	}{
		{monthEnd, "2028-01-01", "2029-03-31", "2028-01-31 2028-02-29 2028-03-31 2028-04-30 2028-05-31 2028-06-30 2028-07-31 " +
			"2028-08-31 2028-09-30 2028-10-31 2028-11-30 2028-12-31 2029-01-31 2029-02-28 2029-03-31"},
		{leapDay, "2028-01-01", "2033-12-31", "2028-02-29 2029-02-28 2030-02-28 2031-02-28 2032-02-29 2033-02-28"},
		{day29, "2027-12-01", "2029-03-31", "2027-12-29 2028-01-29 2028-02-29 2028-03-29 2028-04-29 2028-05-29 2028-06-29 " +
			"2028-07-29 2028-08-29 2028-09-29 2028-10-29 2028-11-29 2028-12-29 2029-01-29 2029-02-28 2029-03-29"},
		{day30, "2028-01-01", "2029-03-31", "2028-01-30 2028-02-29 2028-03-30 2028-04-30 2028-05-30 2028-06-30 2028-07-30 " +
			"2028-08-30 2028-09-30 2028-10-30 2028-11-30 2028-12-30 2029-01-30 2029-02-28 2029-03-30"},
		{weekly, "2028-01-01", "2028-12-31", "2028-02-22 2028-03-07 2028-03-21"},
		{once, "2026-01-01", "2026-12-31", "2026-03-15"},
	} {
		if got := expand(t, events["reminder-"+c.id+host], c.from, c.to); got != c.want {
			t.Errorf("reminder %s expands to\n%s\nwant\n%s", c.id, got, c.want)
		}
	}
}

// TestReminderRulesAgreeWithOccurrences checks, for a first day on every
// day of a leap year and the common one after, every frequency and a few
// intervals, that the feed's RRULE as rrule-go expands it gives the days
// store.Occurrences gives the digests.
func TestReminderRulesAgreeWithOccurrences(t *testing.T) {
	from, to := day("2027-01-01"), day("2034-12-31")
	for start := day("2027-12-01"); start.Before(day("2029-03-01")); start = start.AddDate(0, 0, 1) {
		for _, freq := range []string{"daily", "weekly", "monthly", "yearly"} {
			for _, every := range []int64{1, 3} {
				until := start.AddDate(3, 1, 0).Format(time.DateOnly)
				r := store.Reminder{ID: 1, PersonName: "P", Label: "L", StartsOn: start.Format(time.DateOnly), Frequency: freq, Every: every, Until: &until}
				body := calendarOf(r)
				parsed, err := goical.NewDecoder(strings.NewReader(body)).Decode()
				if err != nil {
					t.Fatalf("%s: %v", body, err)
				}
				got := expand(t, parsed.Events()[0], from.Format(time.DateOnly), to.Format(time.DateOnly))
				var want []string
				for _, d := range r.Between(from, to) {
					want = append(want, d.Format(time.DateOnly))
				}
				if got != strings.Join(want, " ") {
					t.Fatalf("%s every %d from %s: the RRULE gives\n%s\nOccurrences\n%s", freq, every, r.StartsOn, got, strings.Join(want, " "))
				}
			}
		}
	}
}

// calendarOf is the feed's iCalendar text of one reminder.
func calendarOf(r store.Reminder) string {
	var b strings.Builder
	cw := ical.NewWriter(&b)
	cw.Begin(&ical.Calendar{ProdID: "-//Kith//Test//EN"})
	feedRows(cw, time.UTC, "test").Reminder(&r)
	cw.End()
	return b.String()
}
