package store

import (
	"context"
	"errors"
	"testing"
)

// TestReadOnlyDatabase makes the writer read-only, as a database file
// whose disk was remounted read-only: writes fail as Unavailable, Ping
// reports it while reads still work, and both recover with the fault.
func TestReadOnlyDatabase(t *testing.T) {
	ctx := context.Background()
	s, _ := openTest(t)
	u, err := s.CreateUser(ctx, NewUser{FirstName: "A", LastName: "L", Email: "ada@example.com", Password: "password"})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := s.w.Exec(`PRAGMA query_only = ON`); err != nil {
		t.Fatal(err)
	}
	_, err = s.CreatePerson(ctx, u.AccountID, PersonInput{FirstName: "Jim", MaritalStatus: "unknown", KidsStatus: "unknown"})
	if err == nil || !Unavailable(err) {
		t.Fatalf("a write to a read-only database: %v, want an Unavailable error", err)
	}
	if err := s.Ping(ctx); err == nil {
		t.Error("Ping says all is well while no write can succeed")
	}
	if _, _, err := s.Persons(ctx, u.AccountID, 10, 0); err != nil {
		t.Errorf("reads stopped too: %v", err)
	}

	if _, err := s.w.Exec(`PRAGMA query_only = OFF`); err != nil {
		t.Fatal(err)
	}
	if err := s.Ping(ctx); err != nil {
		t.Errorf("Ping after the fault cleared: %v", err)
	}
	if _, err := s.CreatePerson(ctx, u.AccountID, PersonInput{FirstName: "Jim", MaritalStatus: "unknown", KidsStatus: "unknown"}); err != nil {
		t.Errorf("a write after the fault cleared: %v", err)
	}
	if Unavailable(errors.New("not a database error")) || Unavailable(ErrPersonNotFound) {
		t.Error("ordinary errors count as unavailable")
	}
}
