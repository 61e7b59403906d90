package web

import (
	"strconv"
	"strings"
	"time"

	"kith/server/remind"
	"kith/store"
)

// birthdaySoon is how many days ahead the header tells of a birthday.
const birthdaySoon = 30

// nextBirthday says when the person's next birthday is, if it is within
// birthdaySoon days: "turns 40 on 17 Mar, in 2 days" when the year of
// birth is known, "birthday on 17 Mar, in 2 days" when it is not; "" for
// none. The birthday is the exact age's, else an important date labelled
// "birthday" (as the vCard import keeps one without a year).
func nextBirthday(age store.Age, dates []store.ImportantDate, d dates) string {
	var year *int64
	var month, day int64
	switch {
	case deref(age.Type) == "exact" && age.Month != nil && age.Day != nil:
		year, month, day = age.Year, *age.Month, *age.Day
	default:
		found := false
		for _, dt := range dates {
			if strings.EqualFold(strings.TrimSpace(dt.Label), "birthday") {
				year, month, day, found = dt.Year, dt.Month, dt.Day, true
				break
			}
		}
		if !found {
			return ""
		}
	}
	for i := 0; i <= birthdaySoon; i++ {
		on := d.today.AddDate(0, 0, i)
		if !remind.OccursOn(int(month), int(day), on) {
			continue
		}
		when := d.short(on) + ", " + d.relative(on)
		if year == nil {
			return "birthday on " + when
		}
		return "turns " + strconv.Itoa(on.Year()-int(*year)) + " on " + when
	}
	return ""
}

// short writes a date without its year or weekday: "17 Mar", or "Mar 17".
func (d dates) short(t time.Time) string {
	if d.monthFirst {
		return t.Format("Jan 2")
	}
	return t.Format("2 Jan")
}
