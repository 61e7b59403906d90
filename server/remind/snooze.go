package remind

import (
	"sort"
	"time"
)

// snoozeDays is how far "Snooze a week" moves an occurrence.
const snoozeDays = 7

type snoozeKey struct {
	kind string
	ref  int64
	day  string
}

// snooze moves the user's snoozed occurrences in out, the list Upcoming
// made from today for days: each leaves its day D and shows on D+7, as
// it was on D (the same title, the same age), when D+7 is in the list's
// span. Only dated items are snoozed; tasks and calls never are.
func snooze(out []Day, src Source, today time.Time, days int, loc *time.Location) []Day {
	set := make(map[snoozeKey]bool, len(src.Snoozes))
	for _, z := range src.Snoozes {
		set[snoozeKey{z.Kind, z.RefID, z.OccursOn}] = true
	}
	byDay := map[string][]Item{}
	for _, d := range out {
		for _, it := range d.Items {
			if !set[snoozeKey{it.Kind, it.Ref, d.Date}] {
				byDay[d.Date] = append(byDay[d.Date], it)
			}
		}
	}
	// The dated items of the week before each day of the span: those
	// snoozed land in it.
	dated := Source{Yearly: src.Yearly, Reminders: src.Reminders}
	for _, d := range upcoming(dated, today.AddDate(0, 0, -snoozeDays), days, loc) {
		on, _ := time.Parse(time.DateOnly, d.Date)
		to := on.AddDate(0, 0, snoozeDays).Format(time.DateOnly)
		for _, it := range d.Items {
			if set[snoozeKey{it.Kind, it.Ref, d.Date}] {
				byDay[to] = append(byDay[to], it)
			}
		}
	}
	moved := make([]Day, 0, len(byDay))
	for date, items := range byDay {
		moved = append(moved, Day{Date: date, Items: items})
	}
	sort.Slice(moved, func(i, j int) bool { return moved[i].Date < moved[j].Date })
	return moved
}
