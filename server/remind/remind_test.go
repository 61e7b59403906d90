package remind

import (
	"fmt"
	"net/netip"
	"testing"
	"time"

	"kith/store"
)

func day(s string) time.Time {
	t, err := time.Parse(time.DateOnly, s)
	if err != nil {
		panic(err)
	}
	return t
}

func TestSpans(t *testing.T) {
	cases := []struct {
		today string
		days  int
		want  string
	}{
		{"2026-03-10", 7, "[{3 10 17}]"},
		{"2026-03-28", 7, "[{3 28 31} {4 1 4}]"},
		// A common year's 28 February takes 29 February's birthdays along.
		{"2027-02-25", 5, "[{2 25 29} {3 1 2}]"},
		{"2028-02-25", 5, "[{2 25 29} {3 1 1}]"},
		{"2026-12-30", 3, "[{12 30 31} {1 1 2}]"},
		{"2026-06-01", 0, "[{6 1 1}]"},
	}
	for _, c := range cases {
		if got := fmt.Sprint(Spans(day(c.today), c.days)); got != c.want {
			t.Errorf("Spans(%s, %d) = %s, want %s", c.today, c.days, got, c.want)
		}
	}
	if Spans(day("2026-01-01"), 63) != nil {
		t.Error("a long span names its days")
	}
}

func TestOccursOn(t *testing.T) {
	cases := []struct {
		month, day int
		on         string
		want       bool
	}{
		{2, 29, "2027-02-28", true},
		{2, 29, "2028-02-28", false},
		{2, 29, "2028-02-29", true},
		{2, 28, "2027-02-28", true},
		{2, 29, "2027-03-01", false},
		{12, 31, "2026-12-31", true},
	}
	for _, c := range cases {
		if got := OccursOn(c.month, c.day, day(c.on)); got != c.want {
			t.Errorf("OccursOn(%d, %d, %s) = %v", c.month, c.day, c.on, got)
		}
	}
}

func TestDigestKeepsLaterTasksForTheirDay(t *testing.T) {
	loc := time.UTC
	src := Source{
		Yearly: []store.Yearly{{PersonID: 1, PersonName: "Ada", Kind: store.YearlyBirthday, Month: 3, Day: 12}},
		Tasks: []store.DueTask{
			{ID: 1, PersonID: 1, PersonName: "Ada", Name: "Today", DueAt: day("2026-03-10").Add(15 * time.Hour).Unix()},
			{ID: 2, PersonID: 1, PersonName: "Ada", Name: "Friday", DueAt: day("2026-03-13").Unix()},
		},
		Contacts: []Contact{{PersonID: 2, Person: "Bob", EveryDays: 30, Due: day("2026-03-03")}},
	}
	got := fmt.Sprint(Digest(src, day("2026-03-10"), 7, loc))
	want := "[{2026-03-10 [{task 1 Ada Task: Today — Ada Today <nil> 1  0 false 0 []} {stay_in_touch 2 Bob Get in touch with Bob (every 30 days)  <nil> 0 2026-03-03 0 false 0 []}]} " +
		"{2026-03-12 [{birthday 1 Ada Birthday of Ada  <nil> 0  0 false 0 []}]}]"
	if got != want {
		t.Errorf("digest\n got %s\nwant %s", got, want)
	}
	up := Upcoming(src, day("2026-03-10"), 7, loc)
	if len(up) != 3 || up[2].Date != "2026-03-13" || up[2].Items[0].Label != "Friday" {
		t.Errorf("upcoming %v", up)
	}
}

func TestClip(t *testing.T) {
	if got := Clip("Zoë Zoë", 3); got != "Zo…" {
		t.Errorf("Clip cut a character: %q", got)
	}
	if got := Clip("short", 10); got != "short" {
		t.Errorf("Clip(short) = %q", got)
	}
}

func TestPublicAddr(t *testing.T) {
	for addr, public := range map[string]bool{
		"93.184.215.14": true, "2606:4700::1111": true, "64:ff9b::5db8:d70e": true,
		"127.0.0.1": false, "::1": false, "10.1.2.3": false, "172.16.0.1": false, "192.168.1.10": false,
		"169.254.169.254": false, "fe80::1": false, "fd00::1": false, "0.0.0.0": false, "::": false,
		"100.100.1.1": false, "::ffff:127.0.0.1": false, "::ffff:10.0.0.1": false, "64:ff9b::7f00:1": false,
		"224.0.0.1": false, "255.255.255.255": false, "0.1.2.3": false,
	} {
		if got := PublicAddr(netip.MustParseAddr(addr)); got != public {
			t.Errorf("PublicAddr(%s) = %v, want %v", addr, got, public)
		}
	}
}

func TestRemindersInTheDigest(t *testing.T) {
	sent := int64(1)
	src := Source{
		Yearly: []store.Yearly{
			{PersonID: 1, PersonName: "Ada", Kind: store.YearlyImportantDate, Label: "BirthDay", Year: ptr(int64(1990)), Month: 3, Day: 11},
			{PersonID: 2, PersonName: "Bob", Kind: store.YearlyImportantDate, Label: "birthday", Month: 3, Day: 12},
		},
		Reminders: []store.Reminder{
			{ID: 7, PersonID: 1, PersonName: "Ada", Label: "Call", StartsOn: "2026-01-31", Frequency: "monthly", Every: 1},
			{ID: 8, PersonID: 2, PersonName: "Bob", Label: "Visit", StartsOn: "2026-03-10", Frequency: "one_time", Every: 1},
			{ID: 9, PersonID: 2, PersonName: "Bob", Label: "Gone", StartsOn: "2026-03-10", Frequency: "one_time", Every: 1, SentAt: &sent},
			{ID: 10, PersonID: 2, PersonName: "Bob", Label: "Past", StartsOn: "2026-03-09", Frequency: "one_time", Every: 1},
		},
	}
	days := Digest(src, day("2026-03-10"), 21, time.UTC)
	var got []string
	for _, d := range days {
		for _, it := range d.Items {
			got = append(got, d.Date+" "+it.Kind+" "+it.Title+fmt.Sprintf(" %d %v", it.ReminderID, it.Once))
		}
	}
	want := []string{
		"2026-03-10 reminder Visit — Bob 8 true",
		"2026-03-11 important_date Birthday of Ada (36) 0 false",
		"2026-03-12 important_date Birthday of Bob 0 false",
		"2026-03-31 reminder Call — Ada 7 false",
	}
	if fmt.Sprint(got) != fmt.Sprint(want) {
		t.Errorf("digest\n got %q\nwant %q", got, want)
	}
	if ids := SentOnce(days, "2026-03-10"); fmt.Sprint(ids) != "[8]" {
		t.Errorf("sent once %v", ids)
	}
	if ids := SentOnce(days, "2026-03-09"); ids != nil {
		t.Errorf("another day's digest sends %v", ids)
	}
}

func ptr[T any](v T) *T { return &v }
