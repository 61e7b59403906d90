package store

import (
	"context"
	"fmt"
	"testing"
)

// queries counts the statements both pools run during fn.
func queries(s *Store, fn func()) int64 {
	before := s.r.queries.Load() + s.w.queries.Load()
	fn()
	return s.r.queries.Load() + s.w.queries.Load() - before
}

// TestListsAreOneQuery: a person's task list is one statement whether the
// person has 5 tasks or 500, a page of persons is two (the page and its
// total) whatever its size, and authenticating a key is one lookup.
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
	for _, limit := range []int64{1, 100} {
		if q := queries(s, func() { _, _, err = s.Persons(ctx, u.AccountID, limit, 0) }); q != 2 || err != nil {
			t.Errorf("a page of %d persons took %d queries (%v)", limit, q, err)
		}
	}
	if q := queries(s, func() { _, err = s.Authenticate(ctx, token) }); q != 1 || err != nil {
		t.Errorf("authenticating took %d queries (%v)", q, err)
	}
}
