package store

import (
	"context"
	"testing"
)

// TestKeptStatementsAreBoundedByTheCode: appearance updates with every
// different subset of fields are one statement, so the kept statements do
// not grow with what clients send (they once grew by one per subset, until
// the cache was full and later statements ran unprepared).
func TestKeptStatementsAreBoundedByTheCode(t *testing.T) {
	ctx := context.Background()
	s, _ := openTest(t)
	u, err := s.CreateUser(ctx, NewUser{FirstName: "A", LastName: "L", Email: "ada@example.com", Password: "password"})
	if err != nil {
		t.Fatal(err)
	}
	p, err := s.CreatePerson(ctx, u.AccountID, PersonInput{FirstName: "Jim", MaritalStatus: "unknown", KidsStatus: "unknown"})
	if err != nil {
		t.Fatal(err)
	}
	kept := func() int {
		s.w.mu.Lock()
		defer s.w.mu.Unlock()
		return len(s.w.stmts)
	}
	tall := "tall"
	update := func(fields ...string) {
		t.Helper()
		changes := map[string]*string{}
		for _, f := range fields {
			changes[f] = &tall
		}
		got, err := s.UpdateAppearance(ctx, u.AccountID, p.ID, changes)
		if err != nil {
			t.Fatal(err)
		}
		for i, f := range AppearanceFields {
			if _, sent := changes[f]; sent && (got.Appearance[i] == nil || *got.Appearance[i] != tall) {
				t.Fatalf("%s not set", f)
			}
		}
	}
	update("height")
	before := kept()
	for i := range AppearanceFields {
		update(AppearanceFields[:i+1]...)
		update(AppearanceFields[i:]...)
	}
	if after := kept(); after != before {
		t.Errorf("%d statements kept after %d different appearance updates, %d before", after, 2*len(AppearanceFields), before)
	}
}
