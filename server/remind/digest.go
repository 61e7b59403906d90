// Package remind works out what a user is to be reminded of, day by day,
// and delivers a day's digest by email, to ntfy, Gotify, webhooks,
// Telegram, Pushover and Matrix. It keeps no state: its Scheduler decides
// when, a pass a minute, and the store remembers what was sent.
package remind

import (
	"fmt"
	"strings"
	"time"

	"kith/server/input"
	"kith/store"
)

// The kinds of Item.
const (
	KindBirthday      = "birthday"
	KindLifeEvent     = "life_event"
	KindImportantDate = "important_date"
	KindTask          = "task"
	KindStayInTouch   = "stay_in_touch"
	KindReminder      = "reminder"
)

// Item is one thing to be reminded of on a day.
type Item struct {
	Kind     string `json:"kind"`
	PersonID int64  `json:"person_id"`
	Person   string `json:"person"`
	// Title is the line a person reads: "Birthday of Ada Lovelace (37)".
	Title string `json:"title"`
	// Label is a life event's description or an important date's label.
	Label string `json:"label,omitempty"`
	// Years is the age a birthday brings, or the years since a dated
	// event, when its year is known.
	Years  *int  `json:"years,omitempty"`
	TaskID int64 `json:"task_id,omitempty"`
	// DueOn is when a task was due, or a person became due for a call,
	// for what is overdue.
	DueOn      string `json:"due_on,omitempty"`
	ReminderID int64  `json:"reminder_id,omitempty"`
	// Once marks a one_time reminder, which goes out once: see SentOnce.
	Once bool `json:"-"`
	// Ref is the row of a dated item (a birthday's person, the life
	// event, the important date, the reminder): what a snooze names.
	Ref int64 `json:"-"`
	// Actions are the item's action links, in a digest only.
	Actions []ItemAction `json:"-"`
}

// Day is one day's items.
type Day struct {
	Date  string `json:"date"` // YYYY-MM-DD
	Items []Item `json:"items"`
}

// Contact is a person with a stay-in-touch cadence.
type Contact struct {
	PersonID  int64
	Person    string
	EveryDays int
	// Due is the first day they are due for a call: EveryDays after the
	// last interaction, or after the cadence was set.
	Due time.Time
}

// Source is what an account's reminders are made of.
type Source struct {
	Yearly   []store.Yearly
	Tasks    []store.DueTask
	Contacts []Contact
	// Reminders are the ones users set, but for one_time ones sent.
	Reminders []store.Reminder
	// Snoozes are the user's occurrences moved a week on.
	Snoozes []store.Snooze
}

// Upcoming lists, for today and each of the days after it, what falls on
// that day, leaving out the days with nothing. Today also holds what is
// overdue: tasks due before it and people due for a call since. Dates are
// in loc, whose midnight starts each day; today is a date at midnight UTC.
func Upcoming(src Source, today time.Time, days int, loc *time.Location) []Day {
	out := upcoming(src, today, days, loc)
	if len(src.Snoozes) > 0 {
		out = snooze(out, src, today, days, loc)
	}
	return out
}

func upcoming(src Source, today time.Time, days int, loc *time.Location) []Day {
	out := []Day{}
	set := remindersByDay(src.Reminders, today, today.AddDate(0, 0, days))
	for i := 0; i <= days; i++ {
		day := today.AddDate(0, 0, i)
		var items []Item
		for _, y := range src.Yearly {
			if it, ok := yearlyOn(y, day, loc); ok {
				items = append(items, it)
			}
		}
		items = append(items, set[day]...)
		for _, t := range src.Tasks {
			due := DayOf(t.DueAt, loc)
			if due.Equal(day) || (i == 0 && due.Before(day)) {
				items = append(items, taskItem(t, due, day))
			}
		}
		for _, c := range src.Contacts {
			if c.Due.Equal(day) || (i == 0 && c.Due.Before(day)) {
				items = append(items, contactItem(c, c.Due, day))
			}
		}
		if len(items) > 0 {
			out = append(out, Day{Date: day.Format(time.DateOnly), Items: items})
		}
	}
	return out
}

// Digest is today's message: dates of today and the days after it, and
// tasks and calls due today or overdue. Tasks and calls of later days wait
// for their own day's digest.
func Digest(src Source, today time.Time, days int, loc *time.Location) []Day {
	later := Source{Yearly: src.Yearly, Reminders: src.Reminders, Snoozes: src.Snoozes}
	out := Upcoming(later, today, days, loc)
	now := Upcoming(Source{Tasks: src.Tasks, Contacts: src.Contacts}, today, 0, loc)
	if len(now) == 0 {
		return out
	}
	if len(out) > 0 && out[0].Date == now[0].Date {
		out[0].Items = append(out[0].Items, now[0].Items...)
		return out
	}
	return append(now, out...)
}

// OccursOn reports whether a yearly date of month and day falls on day.
// 29 February falls on 28 February in common years: a birthday is not
// skipped three years in four.
func OccursOn(month, dayOfMonth int, day time.Time) bool {
	if month == 2 && dayOfMonth == 29 && !leap(day.Year()) {
		return day.Month() == 2 && day.Day() == 28
	}
	return int(day.Month()) == month && day.Day() == dayOfMonth
}

// Spans are the months' days from today through days later, for
// store.ReminderData to read only the birthdays within them; February
// runs to the 29th when the 28th is in and the year is common. Nil when
// days is long enough that reading every date is simpler.
func Spans(today time.Time, days int) []store.DaySpan {
	if days > 62 {
		return nil
	}
	var out []store.DaySpan
	for i := 0; i <= days; i++ {
		d := today.AddDate(0, 0, i)
		m, day := int(d.Month()), d.Day()
		if day == 28 && m == 2 && !leap(d.Year()) {
			day = 29
		}
		if n := len(out); n > 0 && out[n-1].Month == m {
			out[n-1].To = day
			continue
		}
		out = append(out, store.DaySpan{Month: m, From: d.Day(), To: day})
	}
	return out
}

// eventSpans are Spans for the life events, whose month and day the store
// knows in UTC: a day in any zone is at most a day from UTC's, and a
// month and day a day away in the event's year can be two away in this
// one (1 March after 28 February of a common year is 29 February's
// neighbour in a leap year), so two days more on each side hold every
// event that falls in the span; Upcoming keeps only those that do.
func eventSpans(from time.Time, days int) []store.DaySpan {
	return Spans(from.AddDate(0, 0, -2), days+4)
}

// IsBirthday reports whether an important date's label makes it a
// birthday, worded as one everywhere.
func IsBirthday(label string) bool { return strings.EqualFold(strings.TrimSpace(label), "birthday") }

func leap(y int) bool { return y%4 == 0 && (y%100 != 0 || y%400 == 0) }

func yearlyOn(y store.Yearly, day time.Time, loc *time.Location) (Item, bool) {
	month, dom, year := y.Month, y.Day, y.Year
	if y.At != nil {
		d := DayOf(*y.At, loc)
		month, dom = int(d.Month()), d.Day()
		yy := int64(d.Year())
		year = &yy
	}
	if !OccursOn(month, dom, day) {
		return Item{}, false
	}
	it := Item{Kind: y.Kind, PersonID: y.PersonID, Person: y.PersonName, Label: y.Label, Ref: y.ID}
	if year != nil && int64(day.Year()) > *year {
		n := day.Year() - int(*year)
		it.Years = &n
	}
	switch {
	// An important date labelled birthday reads as one, and keeps its kind.
	case y.Kind == store.YearlyBirthday, y.Kind == store.YearlyImportantDate && IsBirthday(y.Label):
		it.Title = "Birthday of " + y.PersonName
		if it.Years != nil {
			it.Title += fmt.Sprintf(" (%d)", *it.Years)
		}
	case y.Kind == store.YearlyLifeEvent:
		it.Kind, it.Title = KindLifeEvent, y.Label+" — "+y.PersonName
		if it.Years != nil {
			it.Title += fmt.Sprintf(" (%s ago)", plural(*it.Years, "year"))
		}
	default:
		it.Kind, it.Title = KindImportantDate, y.Label+" — "+y.PersonName
		if it.Years != nil {
			it.Title += fmt.Sprintf(" (%s)", plural(*it.Years, "year"))
		}
	}
	return it, true
}

// remindersByDay places each occurrence of the reminders from from
// through to on its day: each reminder's days are worked out once, not
// looked for on every day of the span.
func remindersByDay(rs []store.Reminder, from, to time.Time) map[time.Time][]Item {
	out := map[time.Time][]Item{}
	for i := range rs {
		r := &rs[i]
		for _, d := range r.Between(from, to) {
			out[d] = append(out[d], Item{Kind: KindReminder, PersonID: r.PersonID, Person: r.PersonName,
				Title: r.Label + " — " + r.PersonName, Label: r.Label, ReminderID: r.ID, Ref: r.ID, Once: r.Frequency == store.FrequencyOnce})
		}
	}
	return out
}

// SentOnce lists the one_time reminders in the part of days that is date's
// own: once a digest holding them is delivered, they are not sent again.
func SentOnce(days []Day, date string) []int64 {
	var out []int64
	if len(days) == 0 || days[0].Date != date {
		return nil
	}
	for _, it := range days[0].Items {
		if it.Once {
			out = append(out, it.ReminderID)
		}
	}
	return out
}

func taskItem(t store.DueTask, due, day time.Time) Item {
	it := Item{Kind: KindTask, PersonID: t.PersonID, Person: t.PersonName, TaskID: t.ID, Label: t.Name,
		Title: "Task: " + t.Name + " — " + t.PersonName}
	if due.Before(day) {
		it.DueOn = due.Format(time.DateOnly)
		layout := "2 January"
		if due.Year() != day.Year() {
			layout = "2 January 2006"
		}
		it.Title = "Overdue since " + due.Format(layout) + ": " + t.Name + " — " + t.PersonName
	}
	return it
}

func contactItem(c Contact, due, day time.Time) Item {
	every := "every day"
	if c.EveryDays != 1 {
		every = fmt.Sprintf("every %d days", c.EveryDays)
	}
	it := Item{Kind: KindStayInTouch, PersonID: c.PersonID, Person: c.Person,
		Title: "Get in touch with " + c.Person + " (" + every + ")"}
	if due.Before(day) {
		it.DueOn = due.Format(time.DateOnly)
	}
	return it
}

func plural(n int, unit string) string {
	if n == 1 {
		return "1 " + unit
	}
	return fmt.Sprintf("%d %ss", n, unit)
}

// DayOf is the date a task is due or a life event happened, as midnight
// UTC. A client that sends a date alone ("2026-11-25") has it stored as
// that date's midnight UTC, which west of Greenwich is the evening
// before: such a time is read as the date it was given. Any other time
// is a moment, whose date is the one in loc.
func DayOf(unix int64, loc *time.Location) time.Time {
	t := time.Unix(unix, 0)
	if unix%86400 == 0 {
		return t.UTC()
	}
	return input.DateOf(t.In(loc))
}

// Today is now's date in loc, as midnight UTC, the form Upcoming takes.
func Today(now time.Time, loc *time.Location) time.Time { return input.DateOf(now.In(loc)) }
