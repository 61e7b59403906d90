package store_test

import (
	"errors"
	"reflect"
	"testing"

	"kith/store"
)

func TestCreatePersonWith(t *testing.T) {
	s := newStore(t)
	me := newUser(t, s)
	exact := "exact"
	age := store.Age{Type: &exact, Year: ptr(int64(1986)), Month: ptr(int64(5)), Day: ptr(int64(3)), YearlyReminder: ptr(true)}
	details := []store.ContactDetailInput{
		{Kind: "email", Value: ptr("ada@example.com")},
		{Kind: "phone", Value: ptr("+1 555 010 2030")},
	}

	t.Run("the person, their age and details are made together", func(t *testing.T) {
		p, err := s.CreatePersonWith(t.Context(), me.AccountID, personIn("Ada"), &age, details)
		if err != nil {
			t.Fatal(err)
		}
		if *p.Age.Type != "exact" || *p.Age.Year != 1986 || *p.Age.Month != 5 || *p.Age.Day != 3 {
			t.Errorf("age %+v, want exact 1986-05-03", p.Age)
		}
		got, err := s.ContactDetails(t.Context(), me.AccountID, p.ID, "")
		if err != nil {
			t.Fatal(err)
		}
		var kinds []string
		for _, d := range got {
			kinds = append(kinds, d.Kind+" "+*d.Value)
		}
		if want := []string{"email ada@example.com", "phone +1 555 010 2030"}; !reflect.DeepEqual(kinds, want) {
			t.Errorf("details %q, want %q", kinds, want)
		}
		found, _, err := s.SearchPersons(t.Context(), me.AccountID, "ada@example", 10, 0)
		if err != nil || len(found) != 1 {
			t.Errorf("search by the new email found %d (%v), want 1", len(found), err)
		}
	})

	t.Run("a failing detail makes nothing", func(t *testing.T) {
		other := newUser(t, s)
		many := make([]store.ContactDetailInput, store.MaxContactDetails+1)
		for i := range many {
			many[i] = store.ContactDetailInput{Kind: "phone", Value: ptr("555")}
		}
		_, err := s.CreatePersonWith(t.Context(), other.AccountID, personIn("Bea"), &age, many)
		if !errors.Is(err, store.ErrTooManyContactDetails) {
			t.Fatalf("error %v, want ErrTooManyContactDetails", err)
		}
		if has, err := s.HasPersons(t.Context(), other.AccountID); err != nil || has {
			t.Errorf("HasPersons = %v (%v) after a failed create, want false", has, err)
		}
		// The count the list reads is the transaction's too: rolled back
		// with it (on PostgreSQL, written only at a commit).
		if _, total, err := s.Persons(t.Context(), other.AccountID, 10, 0); err != nil || total != 0 {
			t.Errorf("the list's total is %d (%v) after a failed create, want 0", total, err)
		}
		if _, err := s.CreatePerson(t.Context(), other.AccountID, personIn("Cal")); err != nil {
			t.Fatal(err)
		}
		if _, total, err := s.Persons(t.Context(), other.AccountID, 10, 0); err != nil || total != 1 {
			t.Errorf("the list's total is %d (%v) after a create, want 1", total, err)
		}
	})
}

func TestListPersons(t *testing.T) {
	s := newStore(t)
	me, them := twoAccounts(t, s)
	add := func(first, last string) store.Person {
		in := personIn(first)
		if last != "" {
			in.LastName = ptr(last)
		}
		p, err := s.CreatePerson(t.Context(), me.AccountID, in)
		if err != nil {
			t.Fatal(err)
		}
		return p
	}
	ada, bob, cy, dee := add("Ada", "Young"), add("Bob", "Adams"), add("Cy", ""), add("Dee", "Mills")
	newPerson(t, s, them.AccountID, "Eve")
	for _, c := range []struct {
		p   store.Person
		day string
	}{{ada, "2026-03-01"}, {ada, "2026-03-10"}, {dee, "2026-03-12"}, {bob, "2025-12-31"}} {
		if _, err := s.CreateInteraction(t.Context(), me.AccountID, c.p.ID, store.InteractionInput{HappenedOn: c.day, Kind: "call"}); err != nil {
			t.Fatal(err)
		}
	}
	if _, err := s.CreateWorkEntry(t.Context(), me.AccountID, bob.ID, store.WorkEntryInput{JobTitle: "Clerk", CompanyName: ptr("Old Co")}); err != nil {
		t.Fatal(err)
	}
	if _, err := s.CreateWorkEntry(t.Context(), me.AccountID, bob.ID, store.WorkEntryInput{JobTitle: "Boss", CompanyName: ptr("Acme"), Active: true}); err != nil {
		t.Fatal(err)
	}
	if _, err := s.SetPersonTags(t.Context(), me.AccountID, ada.ID, []string{"friends"}); err != nil {
		t.Fatal(err)
	}
	if _, err := s.SetPersonTags(t.Context(), me.AccountID, cy.ID, []string{"Friends"}); err != nil {
		t.Fatal(err)
	}

	names := func(q store.PersonListQuery, limit, offset int64) ([]string, int64) {
		t.Helper()
		got, total, err := s.ListPersons(t.Context(), me.AccountID, q, limit, offset)
		if err != nil {
			t.Fatal(err)
		}
		out := []string{}
		for _, p := range got {
			out = append(out, p.FirstName)
		}
		return out, total
	}
	cases := []struct {
		name  string
		q     store.PersonListQuery
		want  []string
		total int64
	}{
		{"by name by default", store.PersonListQuery{}, []string{"Ada", "Bob", "Cy", "Dee"}, 4},
		{"by last name, the nameless last", store.PersonListQuery{Order: store.OrderByLastName}, []string{"Bob", "Dee", "Ada", "Cy"}, 4},
		{"by last contact, the never contacted last", store.PersonListQuery{Order: store.OrderByLastContacted}, []string{"Dee", "Ada", "Bob", "Cy"}, 4},
		{"tagged, in the order asked", store.PersonListQuery{Tag: ptr("FRIENDS"), Order: store.OrderByLastName}, []string{"Ada", "Cy"}, 2},
		{"searched and tagged", store.PersonListQuery{Tag: ptr("friends"), Search: ptr("Cy")}, []string{"Cy"}, 1},
		{"an unknown order is by name", store.PersonListQuery{Order: "id; DROP TABLE persons"}, []string{"Ada", "Bob", "Cy", "Dee"}, 4},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			got, total := names(tc.q, 10, 0)
			if !reflect.DeepEqual(got, tc.want) || total != tc.total {
				t.Errorf("got %q of %d, want %q of %d", got, total, tc.want, tc.total)
			}
		})
	}
	t.Run("pages follow the order", func(t *testing.T) {
		got, total := names(store.PersonListQuery{Order: store.OrderByLastContacted}, 2, 2)
		if want := []string{"Bob", "Cy"}; !reflect.DeepEqual(got, want) || total != 4 {
			t.Errorf("second page %q of %d, want %q of 4", got, total, want)
		}
	})
	t.Run("each row holds its active company and last contact", func(t *testing.T) {
		got, _, err := s.ListPersons(t.Context(), me.AccountID, store.PersonListQuery{}, 10, 0)
		if err != nil {
			t.Fatal(err)
		}
		lines := map[string][2]string{}
		for _, p := range got {
			lines[p.FirstName] = [2]string{orEmpty(p.Company), orEmpty(p.LastContact)}
		}
		want := map[string][2]string{"Ada": {"", "2026-03-10"}, "Bob": {"Acme", "2025-12-31"}, "Cy": {"", ""}, "Dee": {"", "2026-03-12"}}
		if !reflect.DeepEqual(lines, want) {
			t.Errorf("lines %v, want %v", lines, want)
		}
		if !reflect.DeepEqual(got[0].Tags, []string{"friends"}) {
			t.Errorf("Ada's tags %q, want [friends]", got[0].Tags)
		}
	})
}

func orEmpty(s *string) string {
	if s == nil {
		return ""
	}
	return *s
}
