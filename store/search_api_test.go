package store_test

import (
	"slices"
	"testing"

	"kith/store"
	"kith/store/storetest"
)

func TestSearchPersons(t *testing.T) {
	s, where := newStoreAt(t)
	if storetest.Postgres() {
		// The trigram index was made (pg_trgm is in Debian's postgresql).
		if n := storetest.Count(t, where, `SELECT count(*) FROM pg_indexes WHERE indexname = 'persons_search_trgm' AND schemaname = current_schema()`); n != 1 {
			t.Errorf("%d trigram indexes", n)
		}
	}
	me, them := twoAccounts(t, s)
	ctx := t.Context()
	person := func(acct int64, in store.PersonInput) store.Person {
		in.MaritalStatus, in.KidsStatus, in.CanBeDeleted = "unknown", "unknown", true
		p, err := s.CreatePerson(ctx, acct, in)
		if err != nil {
			t.Fatal(err)
		}
		return p
	}
	michael := person(me.AccountID, store.PersonInput{FirstName: "Michael", LastName: ptr("Scott"), Nickname: ptr("Mike")})
	jose := person(me.AccountID, store.PersonInput{FirstName: "José", LastName: ptr("Núñez")})
	holly := person(me.AccountID, store.PersonInput{FirstName: "Holly", LastName: ptr("Flax_100%")})
	person(them.AccountID, store.PersonInput{FirstName: "Michael", LastName: ptr("Theirs")})
	if _, err := s.CreateContactDetail(ctx, me.AccountID, holly.ID, store.ContactDetailInput{Kind: "email", Value: ptr("holly@Example.com")}); err != nil {
		t.Fatal(err)
	}
	if _, err := s.CreateContactDetail(ctx, me.AccountID, jose.ID, store.ContactDetailInput{Kind: "phone", Value: ptr("5550100")}); err != nil {
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
		{"mich", []int64{michael.ID}},
		{"SCOTT", []int64{michael.ID}},
		{"chael sc", []int64{michael.ID}}, // across first and last name
		{"mike", []int64{michael.ID}},
		{"example.COM", []int64{holly.ID}},
		{"holly@", []int64{holly.ID}},
		{"5550100", []int64{}}, // phones are not searched
		{"núñez", []int64{jose.ID}},
		{"NÚÑEZ", []int64{jose.ID}},
		{"jo", []int64{jose.ID}}, // short: no trigram
		{"l", []int64{michael.ID, holly.ID}},
		{"_1", []int64{holly.ID}}, // wildcards are characters
		{"%", []int64{holly.ID}},
		{`x" OR "a`, []int64{}}, // FTS syntax is text
		{"nobody", []int64{}},
	}
	if !storetest.Postgres() {
		cases = append(cases, struct {
			q    string
			want []int64
		}{"nunez", []int64{jose.ID}}) // accents folded on SQLite
	}
	for _, c := range cases {
		if got := found(c.q); !slices.Equal(got, c.want) {
			t.Errorf("search %q: %v, want %v", c.q, got, c.want)
		}
	}

	// The search follows every write.
	if _, err := s.UpdatePerson(ctx, me.AccountID, michael.ID, store.PersonInput{FirstName: "Dwight", MaritalStatus: "unknown", KidsStatus: "unknown", CanBeDeleted: true, IsListed: true}); err != nil {
		t.Fatal(err)
	}
	if got := found("mich"); len(got) != 0 {
		t.Errorf("the old name is still found: %v", got)
	}
	if got := found("dwig"); !slices.Equal(got, []int64{michael.ID}) {
		t.Errorf("the new name: %v", got)
	}
	details, _ := s.ContactDetails(ctx, me.AccountID, holly.ID, "")
	if err := s.DeleteContactDetail(ctx, me.AccountID, holly.ID, details[0].ID); err != nil {
		t.Fatal(err)
	}
	if got := found("example"); len(got) != 0 {
		t.Errorf("a deleted email is still found: %v", got)
	}
	if err := s.DeletePerson(ctx, me.AccountID, jose.ID); err != nil {
		t.Fatal(err)
	}
	if got := found("núñez"); len(got) != 0 {
		t.Errorf("a deleted person is still found: %v", got)
	}
	// Pages.
	ps, total, err := s.SearchPersons(ctx, me.AccountID, "h", 1, 1)
	if err != nil || total != 2 || len(ps) != 1 || ps[0].ID != holly.ID {
		t.Errorf("page 2 of 1: %v %d %v", ps, total, err)
	}
	ps, total, err = s.SearchPersons(ctx, me.AccountID, "h", 1, 5)
	if err != nil || total != 2 || len(ps) != 0 {
		t.Errorf("page 6 of 1, past the last: %v %d %v", ps, total, err)
	}
}

// searchIDs is the ids SearchPersons finds for q in the account, all on
// one page, checked against the total it gives.
func searchIDs(t *testing.T, s *store.Store, accountID int64, q string) []int64 {
	t.Helper()
	ps, total, err := s.SearchPersons(t.Context(), accountID, q, 100, 0)
	if err != nil {
		t.Fatalf("search %q: %v", q, err)
	}
	ids := []int64{}
	for _, p := range ps {
		ids = append(ids, p.ID)
	}
	if total != int64(len(ids)) {
		t.Errorf("search %q: total %d, %d found", q, total, len(ids))
	}
	return ids
}
