package store_test

import (
	"slices"
	"strings"
	"testing"

	"kith/store"
	"kith/store/storetest"
)

// TestSearchPersonsLong is search by queries of five characters or more,
// which PostgreSQL finds by the account's own 5-grams (migration 0043),
// beside the shorter ones the trigram index finds: the same answers on
// both engines, as the user's own account holds them, right after each
// write.
func TestSearchPersonsLong(t *testing.T) {
	s, where := newStoreAt(t)
	if storetest.Postgres() {
		if n := storetest.Count(t, where, `SELECT count(*) FROM pg_indexes WHERE indexname = 'persons_search_grams' AND schemaname = current_schema()`); n != 1 {
			t.Errorf("%d indexes of grams", n)
		}
	}
	me, them := twoAccounts(t, s)
	ctx := t.Context()
	person := func(acct int64, first, last string) store.Person {
		in := personIn(first)
		in.LastName = ptr(last)
		p, err := s.CreatePerson(ctx, acct, in)
		if err != nil {
			t.Fatal(err)
		}
		return p
	}
	bart := person(me.AccountID, "Bartholomew", "Featherstonehaugh")
	odd := person(me.AccountID, "Wilhelmina", `Back\slash_50%off`)
	theirs := person(them.AccountID, "Bartholomew", "Wilhelmina")
	if _, err := s.CreateContactDetail(ctx, them.AccountID, theirs.ID, store.ContactDetailInput{Kind: "email", Value: ptr("only.theirs@example.org")}); err != nil {
		t.Fatal(err)
	}
	if _, err := s.CreateContactDetail(ctx, me.AccountID, bart.ID, store.ContactDetailInput{Kind: "email", Value: ptr("Bart.F@Example.org")}); err != nil {
		t.Fatal(err)
	}
	found := func(q string) []int64 {
		t.Helper()
		return searchIDs(t, s, me.AccountID, q)
	}
	cases := []struct {
		q    string
		want []int64
	}{
		{"bartholomew", []int64{bart.ID}}, // theirs has the name too
		{"THOLOMEW FEATH", []int64{bart.ID}},
		{"ew fe", []int64{bart.ID}}, // five, across first and last name
		{"bart.f@example.org", []int64{bart.ID}},
		{"haugh bart.f", []int64{bart.ID}}, // across the name and the email
		{"thol", []int64{bart.ID}},         // four: trigrams
		{"wilhelmina", []int64{odd.ID}},    // theirs has it as a last name
		{"only.theirs", []int64{}},
		{`back\slash`, []int64{odd.ID}},
		{`backxslash`, []int64{}}, // \ is a character
		{`h_50%`, []int64{odd.ID}},
		{`hx50%`, []int64{}}, // _ is a character
		{`_50%off`, []int64{odd.ID}},
		{`50%ofx`, []int64{}},
		{`0%off`, []int64{odd.ID}},
		{`50xoff`, []int64{}}, // % is a character
		{"featherstonehaughs", []int64{}},
		{"featherstonehaugh" + strings.Repeat("x", store.MaxSearchLength-17), []int64{}},
	}
	for _, c := range cases {
		if got := found(c.q); !slices.Equal(got, c.want) {
			t.Errorf("search %q: %v, want %v", c.q, got, c.want)
		}
	}
	// Their search finds theirs alone.
	if ps, total, err := s.SearchPersons(ctx, them.AccountID, "bartholomew", 100, 0); err != nil || total != 1 || len(ps) != 1 || ps[0].ID != theirs.ID {
		t.Errorf("their search: %v %d %v", ps, total, err)
	}

	// A tag's page and the people list search the same way.
	if _, err := s.SetPersonTags(ctx, me.AccountID, bart.ID, []string{"Family"}); err != nil {
		t.Fatal(err)
	}
	if _, err := s.SetPersonTags(ctx, me.AccountID, odd.ID, []string{"Family"}); err != nil {
		t.Fatal(err)
	}
	ps, total, err := s.TaggedPersons(ctx, me.AccountID, "family", ptr("Featherstone"), 100, 0)
	if err != nil || total != 1 || len(ps) != 1 || ps[0].ID != bart.ID {
		t.Errorf("tagged and searched: %v %d %v", ps, total, err)
	}
	listed, total, err := s.ListPersons(ctx, me.AccountID, store.PersonListQuery{Search: ptr("HELMINA"), Tag: ptr("family")}, 100, 0)
	if err != nil || total != 1 || len(listed) != 1 || listed[0].ID != odd.ID {
		t.Errorf("listed, tagged and searched: %v %d %v", listed, total, err)
	}
	listed, total, err = s.ListPersons(ctx, me.AccountID, store.PersonListQuery{Search: ptr("helmina")}, 100, 0)
	if err != nil || total != 1 || len(listed) != 1 || listed[0].ID != odd.ID {
		t.Errorf("listed and searched: %v %d %v", listed, total, err)
	}

	// Renamed, found by the new name only; deleted, not found.
	in := personIn("Maximilian")
	in.LastName = ptr("Featherstonehaugh")
	if _, err := s.UpdatePerson(ctx, me.AccountID, bart.ID, in); err != nil {
		t.Fatal(err)
	}
	if got := found("bartholomew"); len(got) != 0 {
		t.Errorf("the old name is still found: %v", got)
	}
	if got := found("imilian feath"); !slices.Equal(got, []int64{bart.ID}) {
		t.Errorf("the new name: %v", got)
	}
	if err := s.DeletePerson(ctx, me.AccountID, odd.ID); err != nil {
		t.Fatal(err)
	}
	if got := found("wilhelmina"); len(got) != 0 {
		t.Errorf("a deleted person is still found: %v", got)
	}
	// A page past the last still counts the matches.
	ps, total, err = s.SearchPersons(ctx, me.AccountID, "featherstonehaugh", 1, 5)
	if err != nil || total != 1 || len(ps) != 0 {
		t.Errorf("past the last page: %v %d %v", ps, total, err)
	}
}
