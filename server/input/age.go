package input

import (
	"regexp"
	"strconv"
	"sync"
	"time"

	"kith/store"
)

var ageBracket = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^(\d{1,3})-(\d{1,3})$`) })

// Age reads one kind of age; today is the user's date, now the
// Unix time an estimate is made at.
func Age(p *Params, today time.Time, now int64) store.Age {
	kind := p.OneOf("age_type", []string{"exact", "estimated", "bracket"}, "")
	if kind == "" && !p.Failed("age_type") {
		p.Fail("age_type", "The age type field is required.")
	}
	age := store.Age{Type: &kind}
	switch kind {
	case "exact":
		age.Year, age.Month, age.Day = ExactAge(p, today)
	case "estimated":
		age.Estimated = p.Between("estimated_age", 0, 150)
		RequiredWhen(p, "estimated_age", age.Estimated, kind)
		age.EstimatedAt = &now
	case "bracket":
		age.Bracket = Bracket(p)
		RequiredWhen(p, "age_bracket", age.Bracket, kind)
	}
	age.YearlyReminder = p.Boolean("add_yearly_reminder")
	if age.YearlyReminder == nil && !p.Failed("add_yearly_reminder") {
		p.Fail("add_yearly_reminder", "The add yearly reminder field is required.")
	}
	return age
}

// RequiredWhen records that key, required for this age type, is missing.
func RequiredWhen[T any](p *Params, key string, v *T, kind string) {
	if v == nil && !p.Failed(key) {
		p.Fail(key, "The "+Attr(key)+" field is required when age type is "+kind+".")
	}
}

// ExactAge reads a birth date: a year from 1900 to this year, and an
// optional month and day that must make a real date.
func ExactAge(p *Params, today time.Time) (year, month, day *int64) {
	year = p.Between("age_year", 1900, int64(today.Year()))
	RequiredWhen(p, "age_year", year, "exact")
	month = p.Between("age_month", 1, 12)
	day = p.Between("age_day", 1, 31)
	if day != nil && year != nil {
		m := time.January
		if month != nil {
			m = time.Month(*month)
		}
		if !RealDay(int(*year), m, int(*day)) {
			p.Fail("age_day", "The age day field must be a valid day of the month.")
			day = nil
		}
	}
	return year, month, day
}

func RealDay(year int, month time.Month, day int) bool {
	return time.Date(year, month, day, 0, 0, 0, 0, time.UTC).Day() == day
}

// Bracket reads "N-M" with 0 <= N <= M <= 150.
func Bracket(p *Params) *string {
	s := p.Text("age_bracket", 7)
	if s == nil {
		return nil
	}
	m := ageBracket().FindStringSubmatch(*s)
	if m != nil {
		lo, _ := strconv.Atoi(m[1])
		hi, _ := strconv.Atoi(m[2])
		if lo <= hi && hi <= 150 {
			norm := strconv.Itoa(lo) + "-" + strconv.Itoa(hi)
			return &norm
		}
	}
	p.Fail("age_bracket", "The age bracket field format is invalid.")
	return nil
}
