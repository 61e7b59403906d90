package store

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"testing"
)

// queries counts the statements both pools run during fn.
func queries(s *Store, fn func()) int64 {
	before := s.r.queries.Load() + s.w.queries.Load()
	fn()
	return s.r.queries.Load() + s.w.queries.Load() - before
}

// TestListsAreOneQuery: a person's task list is one statement whether the
// person has 5 tasks or 500, a page of persons is three (the page, its
// total and its persons' tags) whatever its size, and authenticating a key
// is one lookup.
func TestListsAreOneQuery(t *testing.T) {
	ctx := context.Background()
	s, _ := openTest(t)
	u, err := s.CreateUser(ctx, NewUser{FirstName: "A", LastName: "L", Email: "ada@example.com", Password: "password"})
	if err != nil {
		t.Fatal(err)
	}
	_, token, _ := s.CreateAPIKey(ctx, u.ID, "k")
	for _, n := range []int{5, 500} {
		p, err := s.CreatePerson(ctx, u.AccountID, PersonInput{FirstName: fmt.Sprint("P", n), MaritalStatus: "unknown", KidsStatus: "unknown"})
		if err != nil {
			t.Fatal(err)
		}
		cat := int64(1)
		for i := 0; i < n; i++ {
			if _, err := s.CreateTask(ctx, u.AccountID, p.ID, TaskInput{Name: "t", CategoryID: &cat}); err != nil {
				t.Fatal(err)
			}
		}
		var tasks []Task
		if q := queries(s, func() { tasks, err = s.Tasks(ctx, u.AccountID, p.ID) }); q != 1 || err != nil || len(tasks) != n {
			t.Errorf("listing %d tasks took %d queries (%d tasks, %v)", n, q, len(tasks), err)
		}
	}
	var tagged []CardInput
	for i := range 98 {
		tagged = append(tagged, CardInput{UID: fmt.Sprint("t", i), FirstName: "T", Tags: []string{"b", fmt.Sprint("a", i)}})
	}
	if _, err := s.PutCards(ctx, u.AccountID, tagged); err != nil {
		t.Fatal(err)
	}
	for _, limit := range []int64{1, 100} {
		var page []Person
		if q := queries(s, func() { page, _, err = s.Persons(ctx, u.AccountID, limit, 0) }); q != 3 || err != nil {
			t.Errorf("a page of %d persons took %d queries (%v)", limit, q, err)
		}
		for _, p := range page {
			if p.FirstName == "T" && (len(p.Tags) != 2 || p.Tags[1] != "b") || p.FirstName != "T" && len(p.Tags) != 0 {
				t.Errorf("%s's tags %q", p.FirstName, p.Tags)
			}
		}
	}
	if q := queries(s, func() { _, err = s.Authenticate(ctx, token) }); q != 1 || err != nil {
		t.Errorf("authenticating took %d queries (%v)", q, err)
	}
}

// TestCalendarFeedIsSixQueries: a feed is read in six statements (the
// feed, birthdays, life events, tasks, important dates, reminders) whether the
// account has 2 persons or 200; a secret of the wrong form costs none,
// and an unchanged feed writes nothing.
func TestCalendarFeedIsSixQueries(t *testing.T) {
	ctx := context.Background()
	s, _ := openTest(t)
	u, err := s.CreateUser(ctx, NewUser{FirstName: "A", LastName: "L", Email: "ada@example.com", Password: "password"})
	if err != nil {
		t.Fatal(err)
	}
	_, secret, err := s.CreateCalendarFeed(ctx, u.ID)
	if err != nil {
		t.Fatal(err)
	}
	exact, yes := "exact", true
	for _, n := range []int{2, 200} {
		for i := 0; i < n/2; i++ {
			p, err := s.CreatePerson(ctx, u.AccountID, PersonInput{FirstName: fmt.Sprint("P", i), MaritalStatus: "unknown", KidsStatus: "unknown"})
			if err != nil {
				t.Fatal(err)
			}
			y, m, d := int64(1980), int64(1+i%12), int64(1+i%28)
			if _, err := s.SetAge(ctx, u.AccountID, p.ID, Age{Type: &exact, Year: &y, Month: &m, Day: &d, YearlyReminder: &yes}); err != nil {
				t.Fatal(err)
			}
			due := int64(1_800_000_000 + i)
			if _, err := s.CreateTask(ctx, u.AccountID, p.ID, TaskInput{Name: "t", DueAt: &due}); err != nil {
				t.Fatal(err)
			}
			if _, err := s.CreateLifeEvent(ctx, u.AccountID, p.ID, LifeEventInput{Description: "e", HappenedAt: due, ShouldBeReminded: true}); err != nil {
				t.Fatal(err)
			}
			if _, err := s.CreateImportantDate(ctx, u.AccountID, p.ID, ImportantDateInput{Label: "met", Month: 2, Day: 29, RemindYearly: true}); err != nil {
				t.Fatal(err)
			}
			if _, err := s.CreateReminder(ctx, u.AccountID, p.ID, ReminderInput{Label: "r", StartsOn: "2028-01-31", Frequency: FrequencyMonthly, Every: 1}); err != nil {
				t.Fatal(err)
			}
		}
		var d CalendarData
		if q := queries(s, func() { d, err = s.CalendarFeedData(ctx, secret) }); q != 6 || err != nil {
			t.Errorf("a feed took %d queries (%v)", q, err)
		}
		if len(d.Birthdays) < n/2 || len(d.Tasks) < n/2 || len(d.LifeEvents) < n/2 || len(d.Dates) < n/2 || len(d.Reminders) < n/2 {
			t.Errorf("%d birthdays, %d tasks, %d life events, %d dates, %d reminders; want %d of each at least",
				len(d.Birthdays), len(d.Tasks), len(d.LifeEvents), len(d.Dates), len(d.Reminders), n/2)
		}
	}
	for _, bad := range []string{"", "x", secret[1:], secret + "A", strings.ToLower(secret)} {
		if q := queries(s, func() { _, err = s.CalendarFeedData(ctx, bad) }); q != 0 || !errors.Is(err, ErrCalendarFeedNotFound) {
			t.Errorf("the secret %q took %d queries (%v)", bad, q, err)
		}
	}
	if q := queries(s, func() { _, err = s.CalendarFeedData(ctx, strings.Repeat("A", 52)) }); q != 1 || !errors.Is(err, ErrCalendarFeedNotFound) {
		t.Errorf("an unknown secret took %d queries (%v)", q, err)
	}
}

// TestCardQueries: a sync-collection with no change is one query, and a
// page of cards is eight (persons, contact details, dates, notes, jobs,
// relationships, tags, photos) whether it holds 2 persons or 200.
func TestCardQueries(t *testing.T) {
	ctx := context.Background()
	s, _ := openTest(t)
	u, err := s.CreateUser(ctx, NewUser{FirstName: "A", LastName: "L", Email: "ada@example.com", Password: "password"})
	if err != nil {
		t.Fatal(err)
	}
	for _, n := range []int{2, 200} {
		var ins []CardInput
		var links []CardLinks
		for i := range n {
			ins = append(ins, CardInput{UID: fmt.Sprint(n, "-", i), FirstName: "P", Note: ptrTo("note"),
				Details: []ContactDetailInput{{Kind: "email", Value: ptrTo("p@example.com")}},
				Dates:   []ImportantDateInput{{Label: "met", Month: 1, Day: 2}}, Tags: []string{"chess"}})
			links = append(links, CardLinks{UID: fmt.Sprint(n, "-", i), Related: []CardRelated{{UID: fmt.Sprint(n, "-", (i+1)%n), Names: []string{"friend"}}}})
		}
		if _, err := s.PutCards(ctx, u.AccountID, ins); err != nil {
			t.Fatal(err)
		}
		if err := s.LinkCards(ctx, u.AccountID, links); err != nil {
			t.Fatal(err)
		}
		seq, err := s.CardSeq(ctx, u.AccountID)
		if err != nil {
			t.Fatal(err)
		}
		if q := queries(s, func() { _, _, _, err = s.CardChanges(ctx, u.AccountID, seq) }); q != 1 || err != nil {
			t.Errorf("no change took %d queries (%v)", q, err)
		}
		var cards []Card
		if q := queries(s, func() { cards, err = s.Cards(ctx, u.AccountID, 0, 200) }); q != 8 || err != nil || len(cards) == 0 {
			t.Errorf("a page of %d cards took %d queries (%v)", len(cards), q, err)
		}
		// A ring of friends, the pair of two cards being one relationship.
		if last := cards[len(cards)-1]; len(last.Related) != min(n-1, 2) || last.Related[0].Name != "friend" {
			t.Errorf("the last card's relationships: %+v", last.Related)
		}
		for _, c := range cards {
			if len(c.Tags) != 1 || c.Tags[0] != "chess" {
				t.Errorf("card %s's tags %q", c.UID, c.Tags)
			}
		}
	}
}

func ptrTo[T any](v T) *T { return &v }
