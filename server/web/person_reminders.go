package web

import (
	"net/url"
	"strconv"
	"time"

	"kith/server/input"
	"kith/store"
)

// frequencyOptions are the frequency select's choices, in words.
var frequencyOptions = []Option{
	{Value: store.FrequencyOnce, Label: "Once"},
	{Value: store.FrequencyDaily, Label: "Daily"},
	{Value: store.FrequencyWeekly, Label: "Weekly"},
	{Value: store.FrequencyMonthly, Label: "Monthly"},
	{Value: store.FrequencyYearly, Label: "Yearly"},
}

// repeating are the frequencies that read every and until: the fields
// kith.js hides while Once is chosen.
const repeating = "daily weekly monthly yearly"

// reminderChild is the person page's Reminders: those the user set, with
// a form to set one.
var reminderChild = childOf(input.Reminders, "reminders", "Reminders", "reminder",
	fixed(
		Field{Name: "label", Label: "Remind me to", Type: "text", Required: true, Hint: "Call about the flat, send the photos, …"},
		Field{Name: "starts_on", Label: "First date", Type: "date", Required: true},
		Field{Name: "frequency", Label: "Repeat", Type: "select", Options: frequencyOptions, Fits: true},
		Field{Name: "every", Label: "Every", Type: "number", For: repeating,
			Hint: "Every how many days, weeks, months or years: 1 when empty. The 31st falls on a shorter month's last day."},
		Field{Name: "until", Label: "Until", Type: "date", For: repeating, Hint: "The last date it may fall on; empty: no end."},
	),
	(*store.Store).Reminders,
	func(r *store.Reminder, d dates) childItem {
		return childItem{ID: r.ID, Title: r.Label, Detail: reminderDetail(r, d)}
	},
	func(r *store.Reminder, _ dates) url.Values {
		v := url.Values{"label": {r.Label}, "starts_on": {r.StartsOn}, "frequency": {r.Frequency}}
		if r.Frequency != store.FrequencyOnce {
			v.Set("every", strconv.FormatInt(r.Every, 10))
		}
		if r.Until != nil {
			v.Set("until", *r.Until)
		}
		return v
	})

// reminderDetail says when a reminder falls: "every 2 weeks from 1 Dec
// 2026 until 1 Mar 2027 · next 15 Dec 2026", "once, on 3 May 2026 · sent".
func reminderDetail(r *store.Reminder, d dates) string {
	on := func(s string) string {
		t, err := time.Parse(time.DateOnly, s)
		if err != nil {
			return s
		}
		return d.day(t)
	}
	if r.Frequency == store.FrequencyOnce {
		out := "once, on " + on(r.StartsOn)
		if r.SentAt != nil {
			out += " · sent"
		}
		return out
	}
	unit := map[string]string{store.FrequencyDaily: "day", store.FrequencyWeekly: "week",
		store.FrequencyMonthly: "month", store.FrequencyYearly: "year"}[r.Frequency]
	out := "every " + unit
	if r.Every > 1 {
		out = "every " + strconv.FormatInt(r.Every, 10) + " " + unit + "s"
	}
	out += " from " + on(r.StartsOn)
	if r.Until != nil {
		out += " until " + on(*r.Until)
	}
	if next := r.NextOn(d.today); next != nil {
		out += " · next " + on(*next)
	} else {
		out += " · over"
	}
	return out
}
