package server

import (
	"net/http"
	"strconv"
	"strings"
	"testing"
	"time"

	"kith/server/remind"
	"kith/store"
)

// The upcoming list reads only the dates of its days, by month and day
// (a life event's by its day in UTC, a day either side of the user's):
// these tests hold it to the days a full read gave, where the month and
// day of the window and of the date differ.

func sameLines(t *testing.T, what string, got, want []string) {
	t.Helper()
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("%s:\n%s\nwant\n%s", what, strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
}

// TestUpcomingAcrossNewYear: thirty days from 20 December, west and east
// of UTC, hold each kind of date once on its day of the new year too, and
// a life event at the window's edge on the day it was in the user's zone.
func TestUpcomingAcrossNewYear(t *testing.T) {
	for _, c := range []struct {
		zone  string
		noon  time.Time // noon of 20 December 2026 in zone
		edges []string  // the life events at the edges, in zone
	}{
		{"America/Los_Angeles", time.Date(2026, 12, 20, 20, 0, 0, 0, time.UTC), []string{
			"2027-01-19 life_event Event C — Ann (8 years ago)", // 19 January, 21:00
			"2027-01-19 life_event Event D — Ann (8 years ago)", // 19 January, 12:00
		}},
		{"Asia/Tokyo", time.Date(2026, 12, 20, 3, 0, 0, 0, time.UTC), []string{
			"2026-12-20 life_event Event A — Ann (8 years ago)", // 20 December, 05:00
			"2026-12-20 life_event Event B — Ann (8 years ago)", // 20 December, 14:00
		}},
	} {
		t.Run(c.zone, func(t *testing.T) {
			e := newEnv(t)
			_, key := e.user("ada@example.com")
			e.timezone(key, c.zone)
			e.at(c.noon)
			ann := e.birthday(key, "Ann", 1990, 1, 5, true)
			e.birthday(key, "Late", 1990, 1, 20, true)
			e.birthday(key, "Early", 1990, 12, 19, true)
			for _, ev := range []string{"A&happened_at=2018-12-19T20:00:00Z", "B&happened_at=2018-12-20T05:00:00Z",
				"C&happened_at=2019-01-20T05:00:00Z", "D&happened_at=2019-01-19T20:00:00Z"} {
				e.lifeEvent(key, ann, "should_be_reminded=1&description=Event+"+ev)
			}
			e.importantDate(key, ann, "label=Wedding&date=2010-12-31&remind_yearly=1")
			e.importantDate(key, ann, "label=Too+late&date=--01-20&remind_yearly=1")
			e.reminder(key, ann, "label=Call+mum&starts_on=2020-01-10&frequency=yearly")
			e.reminder(key, ann, "label=Spring&starts_on=2020-03-01&frequency=yearly")
			e.reminder(key, ann, "label=Dentist&starts_on=2027-01-15&frequency=one_time")
			e.reminder(key, ann, "label=Gone+by&starts_on=2026-12-01&frequency=one_time")
			e.reminder(key, ann, "label=Rent&starts_on=2026-06-25&frequency=monthly")
			e.task(key, ann, "name=Late&task_category_id=1&due_at=2026-12-01")
			e.task(key, ann, "name=Renew&task_category_id=1&due_at=2027-01-02")
			e.task(key, ann, "name=Later&task_category_id=1&due_at=2027-02-01")
			done := e.task(key, ann, "name=Done&task_category_id=1&due_at=2026-12-22")
			e.do(req{method: "PUT", path: "/api/tasks/" + done + "/toggle", key: key})

			var want []string
			if c.zone == "Asia/Tokyo" {
				want = append(want, c.edges...)
			}
			want = append(want,
				"2026-12-20 task Overdue since 1 December: Late — Ann",
				"2026-12-25 reminder Rent — Ann",
				"2026-12-31 important_date Wedding — Ann (16 years)",
				"2027-01-02 task Task: Renew — Ann",
				"2027-01-05 birthday Birthday of Ann (37)",
				"2027-01-10 reminder Call mum — Ann",
				"2027-01-15 reminder Dentist — Ann")
			if c.zone != "Asia/Tokyo" {
				want = append(want, c.edges...)
			}
			sameLines(t, "upcoming", e.upcomingTitles(t, key, "days=30"), want)

			home := e.signIn(t, "ada@example.com").get("/")
			home.has(t, "Wedding — Ann (16 years)")
			home.lacks(t, "Birthday of Ann") // past the dashboard's two weeks
			if c.zone == "Asia/Tokyo" {
				home.has(t, "Event A — Ann", "Event B — Ann")
			} else {
				home.lacks(t, "Event A — Ann", "Event B — Ann")
			}
		})
	}
}

// TestUpcoming29February: a birthday, an important date, a yearly
// reminder and a life event of 29 February fall on the 28th in a common
// year and on the 29th in a leap year; and a life event whose day in the
// user's zone is 28 February or 1 March, and in UTC the day after or
// before it, is on its day in a leap year, two days from UTC's.
func TestUpcoming29February(t *testing.T) {
	e := newEnv(t)
	_, key := e.user("ada@example.com")
	e.timezone(key, "Europe/London")
	e.at(time.Date(2027, 2, 20, 12, 0, 0, 0, time.UTC))
	leap := e.birthday(key, "Leap", 2000, 2, 29, true)
	e.lifeEvent(key, leap, "description=Leapt&happened_at=2024-02-29T12:00:00Z&should_be_reminded=1")
	e.importantDate(key, leap, "label=Leap+day&date=--02-29&remind_yearly=1")
	e.reminder(key, leap, "label=Leap+call&starts_on=2024-02-29&frequency=yearly")
	sameLines(t, "a common year", e.upcomingTitles(t, key, "days=13"), []string{
		"2027-02-28 birthday Birthday of Leap (27)",
		"2027-02-28 life_event Leapt — Leap (3 years ago)",
		"2027-02-28 important_date Leap day — Leap",
		"2027-02-28 reminder Leap call — Leap",
	})
	e.at(time.Date(2028, 2, 27, 12, 0, 0, 0, time.UTC))
	sameLines(t, "a leap year", e.upcomingTitles(t, key, "days=3"), []string{
		"2028-02-29 birthday Birthday of Leap (28)",
		"2028-02-29 life_event Leapt — Leap (4 years ago)",
		"2028-02-29 important_date Leap day — Leap",
		"2028-02-29 reminder Leap call — Leap",
	})

	kim := e.person(key, "first_name=Kim")
	// 28 February 2027, 19:00 in Los Angeles; 1 March 2027, 12:00 in Tokyo.
	e.lifeEvent(key, kim, "description=West&happened_at=2027-03-01T03:00:00Z&should_be_reminded=1")
	// 28 February 2027, 12:00 in Los Angeles; 1 March 2027, 05:00 in Tokyo.
	e.lifeEvent(key, kim, "description=East&happened_at=2027-02-28T20:00:00Z&should_be_reminded=1")
	e.timezone(key, "America/Los_Angeles")
	e.at(time.Date(2028, 2, 20, 20, 0, 0, 0, time.UTC)) // 20 February 2028, 12:00 in Los Angeles
	sameLines(t, "to 28 February of a leap year, west", e.upcomingTitles(t, key, "days=8"), []string{
		"2028-02-28 life_event West — Kim (1 year ago)",
		"2028-02-28 life_event East — Kim (1 year ago)",
	})
	e.timezone(key, "Asia/Tokyo")
	e.at(time.Date(2028, 3, 1, 3, 0, 0, 0, time.UTC)) // 1 March 2028, 12:00 in Tokyo
	sameLines(t, "from 1 March of a leap year, east", e.upcomingTitles(t, key, "days=4"), []string{
		"2028-03-01 life_event West — Kim (1 year ago)",
		"2028-03-01 life_event East — Kim (1 year ago)",
	})
}

// TestUpcomingSnoozedAcrossAMonth: dates of each kind snoozed on 30 March
// show on 6 April, when the list starts on 2 April: a user with snoozes
// has the week before today read too. Monthly reminders fall on their
// day, or on a shorter month's last.
func TestUpcomingSnoozedAcrossAMonth(t *testing.T) {
	e := newEnv(t)
	ada, key := e.user("ada@example.com")
	_, mate := e.userIn(ada.AccountID, "grace@example.com")
	e.at(time.Date(2026, 3, 29, 12, 0, 0, 0, time.UTC))
	zoe := e.person(key, "first_name=Zoë")
	event := e.lifeEvent(key, zoe, "description=Moved&happened_at=2019-03-30T10:00:00Z&should_be_reminded=1")
	date := e.importantDate(key, zoe, "label=Met&date=--03-30&remind_yearly=1")
	yearly := e.reminder(key, zoe, "label=Call&starts_on=2020-03-30&frequency=yearly")
	once := e.reminder(key, zoe, "label=Once&starts_on=2026-03-30&frequency=one_time")
	monthly := e.reminder(key, zoe, "label=Rent&starts_on=2026-01-30&frequency=monthly")
	e.reminder(key, zoe, "label=Month+end&starts_on=2026-01-31&frequency=monthly")
	e.reminder(key, zoe, "label=First&starts_on=2026-01-01&frequency=monthly")
	for _, s := range []struct{ kind, ref, title string }{
		{"life_event", event, "Moved — Zoë (7 years ago)"}, {"important_date", date, "Met — Zoë"},
		{"reminder", yearly, "Call — Zoë"}, {"reminder", once, "Once — Zoë"}, {"reminder", monthly, "Rent — Zoë"},
	} {
		ref, _ := strconv.ParseInt(s.ref, 10, 64)
		link := e.actionLink(t, remind.Action{UserID: ada.ID, Do: store.ActionSnooze, Kind: s.kind, Ref: ref, Day: "2026-03-30", Title: s.title})
		if pg := e.bare(http.MethodPost, link); pg.code != 200 {
			t.Fatalf("snooze %s: %d %s", s.kind, pg.code, pg.body)
		}
	}
	e.at(time.Date(2026, 4, 2, 12, 0, 0, 0, time.UTC))
	sameLines(t, "after the snoozes", e.upcomingTitles(t, key, "days=30"), []string{
		"2026-04-06 life_event Moved — Zoë (7 years ago)",
		"2026-04-06 important_date Met — Zoë",
		"2026-04-06 reminder Call — Zoë",
		"2026-04-06 reminder Once — Zoë",
		"2026-04-06 reminder Rent — Zoë",
		"2026-04-30 reminder Rent — Zoë",
		"2026-04-30 reminder Month end — Zoë",
		"2026-05-01 reminder First — Zoë",
	})
	// Grace has no snoozes: her list starts on the 5th, and April's last
	// day holds the reminder of the 31st.
	e.at(time.Date(2026, 4, 5, 12, 0, 0, 0, time.UTC))
	sameLines(t, "from 5 April, without snoozes", e.upcomingTitles(t, mate, "days=29"), []string{
		"2026-04-30 reminder Rent — Zoë",
		"2026-04-30 reminder Month end — Zoë",
		"2026-05-01 reminder First — Zoë",
	})
}
