package store_test

import (
	"errors"
	"fmt"
	"math"
	"reflect"
	"sync"
	"testing"
	"time"

	"kith/store"
)

func genderNames(t *testing.T, s *store.Store, accountID int64) []string {
	t.Helper()
	gs, err := s.Genders(t.Context(), accountID)
	if err != nil {
		t.Fatal(err)
	}
	names := []string{}
	for _, g := range gs {
		names = append(names, g.Name)
	}
	return names
}

func TestGenders(t *testing.T) {
	s := newStore(t)
	me, them := twoAccounts(t, s)

	t.Run("a new account has Man, Woman, Other, never updated", func(t *testing.T) {
		gs, err := s.Genders(t.Context(), me.AccountID)
		if err != nil {
			t.Fatal(err)
		}
		var got []string
		for i, g := range gs {
			got = append(got, g.Name)
			if g.Position != int64(i+1) || g.UpdatedAt != nil || g.CreatedAt != t0.Unix() || g.AccountID != me.AccountID {
				t.Errorf("default %+v", g)
			}
		}
		if want := []string{"Man", "Woman", "Other"}; !reflect.DeepEqual(got, want) {
			t.Errorf("genders %q, want %q", got, want)
		}
	})
	t.Run("a user joining an account adds no genders to it", func(t *testing.T) {
		if _, err := s.CreateUser(t.Context(), store.NewUser{FirstName: "B", LastName: "L", Email: "joiner@example.com", Password: testPassword, AccountID: me.AccountID}); err != nil {
			t.Fatal(err)
		}
		if got := genderNames(t, s, me.AccountID); !reflect.DeepEqual(got, []string{"Man", "Woman", "Other"}) {
			t.Errorf("genders %q", got)
		}
	})
	advance(s, time.Hour)
	added, err := s.CreateGender(t.Context(), me.AccountID, "Nonbinary")
	if err != nil {
		t.Fatal(err)
	}
	t.Run("a created gender comes last, after the highest position", func(t *testing.T) {
		if added.Position != 4 || added.CreatedAt != nowUnix(s) || added.UpdatedAt == nil || *added.UpdatedAt != nowUnix(s) {
			t.Errorf("created %+v", added)
		}
		got, err := s.Gender(t.Context(), me.AccountID, added.ID)
		if err != nil || !reflect.DeepEqual(got, added) {
			t.Errorf("read %+v, %v; created %+v", got, err, added)
		}
	})
	t.Run("update renames and moves; ties are ordered by id", func(t *testing.T) {
		advance(s, time.Minute)
		g, err := s.UpdateGender(t.Context(), me.AccountID, added.ID, "Non-binary", 1)
		if err != nil || g.Name != "Non-binary" || g.Position != 1 || g.UpdatedAt == nil || *g.UpdatedAt != nowUnix(s) {
			t.Fatalf("%+v, %v", g, err)
		}
		if got, want := genderNames(t, s, me.AccountID), []string{"Man", "Non-binary", "Woman", "Other"}; !reflect.DeepEqual(got, want) {
			t.Errorf("genders %q, want %q", got, want)
		}
	})
	t.Run("another account's genders are not found", func(t *testing.T) {
		_, err := s.Gender(t.Context(), them.AccountID, added.ID)
		wantErr(t, err, store.ErrGenderNotFound)
		_, err = s.UpdateGender(t.Context(), them.AccountID, added.ID, "X", 1)
		wantErr(t, err, store.ErrGenderNotFound)
		wantErr(t, s.DeleteGender(t.Context(), them.AccountID, added.ID), store.ErrGenderNotFound)
		if got := genderNames(t, s, them.AccountID); len(got) != 3 {
			t.Errorf("their genders %q", got)
		}
	})
	t.Run("a missing account cannot get a gender", func(t *testing.T) {
		_, err := s.CreateGender(t.Context(), 999, "X")
		wantErr(t, err, store.ErrAccountNotFound)
	})
	t.Run("every gender can go; then the list is empty and a new one is first", func(t *testing.T) {
		gs, _ := s.Genders(t.Context(), me.AccountID)
		for _, g := range gs {
			if err := s.DeleteGender(t.Context(), me.AccountID, g.ID); err != nil {
				t.Fatal(err)
			}
		}
		wantErr(t, s.DeleteGender(t.Context(), me.AccountID, added.ID), store.ErrGenderNotFound)
		gs, err := s.Genders(t.Context(), me.AccountID)
		if err != nil || gs == nil || len(gs) != 0 {
			t.Fatalf("%v (nil: %t), %v", gs, gs == nil, err)
		}
		g, err := s.CreateGender(t.Context(), me.AccountID, "Any")
		if err != nil || g.Position != 1 {
			t.Errorf("%+v, %v", g, err)
		}
	})
}

func TestPersonGender(t *testing.T) {
	s := newStore(t)
	me, them := twoAccounts(t, s)
	mine, _ := s.Genders(t.Context(), me.AccountID)
	theirs, _ := s.Genders(t.Context(), them.AccountID)
	woman := mine[1]

	in := personIn("Pam")
	in.GenderID = &woman.ID
	p, err := s.CreatePerson(t.Context(), me.AccountID, in)
	if err != nil {
		t.Fatal(err)
	}
	t.Run("a person shows its gender's id and name", func(t *testing.T) {
		want := &store.GenderRef{ID: woman.ID, Name: "Woman"}
		if !reflect.DeepEqual(p.Gender, want) {
			t.Errorf("created with %+v, want %+v", p.Gender, want)
		}
		got, err := s.Person(t.Context(), me.AccountID, p.ID)
		if err != nil || !reflect.DeepEqual(got.Gender, want) {
			t.Errorf("read %+v, %v", got.Gender, err)
		}
		list, _, err := s.Persons(t.Context(), me.AccountID, 10, 0)
		if err != nil || len(list) != 1 || !reflect.DeepEqual(list[0].Gender, want) {
			t.Errorf("listed %+v, %v", list, err)
		}
	})
	t.Run("a gender of another account or none is unknown", func(t *testing.T) {
		for _, id := range []int64{theirs[0].ID, 999} {
			in := personIn("X")
			in.GenderID = &id
			_, err := s.CreatePerson(t.Context(), me.AccountID, in)
			wantErr(t, err, store.ErrUnknownGender)
			up := personIn("Pam")
			up.GenderID = &id
			_, err = s.UpdatePerson(t.Context(), me.AccountID, p.ID, up)
			wantErr(t, err, store.ErrUnknownGender)
		}
	})
	t.Run("a missing person is reported before an unknown gender", func(t *testing.T) {
		up := personIn("X")
		up.GenderID = ptr(int64(999))
		_, err := s.UpdatePerson(t.Context(), them.AccountID, p.ID, up)
		wantErr(t, err, store.ErrPersonNotFound)
	})
	t.Run("renaming the gender renames it on the person", func(t *testing.T) {
		if _, err := s.UpdateGender(t.Context(), me.AccountID, woman.ID, "Female", 2); err != nil {
			t.Fatal(err)
		}
		got, _ := s.Person(t.Context(), me.AccountID, p.ID)
		if got.Gender == nil || got.Gender.Name != "Female" {
			t.Errorf("gender %+v", got.Gender)
		}
	})
	t.Run("update replaces the gender; none clears it", func(t *testing.T) {
		up := personIn("Pam")
		up.GenderID = &mine[0].ID
		got, err := s.UpdatePerson(t.Context(), me.AccountID, p.ID, up)
		if err != nil || got.Gender == nil || got.Gender.ID != mine[0].ID || got.Gender.Name != "Man" {
			t.Errorf("%+v, %v", got.Gender, err)
		}
		got, err = s.UpdatePerson(t.Context(), me.AccountID, p.ID, personIn("Pam"))
		if err != nil || got.Gender != nil {
			t.Errorf("%+v, %v", got.Gender, err)
		}
	})
	t.Run("deleting the gender leaves the person without one", func(t *testing.T) {
		up := personIn("Pam")
		up.GenderID = &woman.ID
		if _, err := s.UpdatePerson(t.Context(), me.AccountID, p.ID, up); err != nil {
			t.Fatal(err)
		}
		if err := s.DeleteGender(t.Context(), me.AccountID, woman.ID); err != nil {
			t.Fatal(err)
		}
		got, err := s.Person(t.Context(), me.AccountID, p.ID)
		if err != nil || got.Gender != nil {
			t.Errorf("%+v, %v", got.Gender, err)
		}
	})
}

// TestGenderAfterTheLargestPosition: a rename may set any position, the
// largest integer too; a gender created then takes that position again
// rather than overflowing.
func TestGenderAfterTheLargestPosition(t *testing.T) {
	s := newStore(t)
	me := newUser(t, s)
	gs, err := s.Genders(t.Context(), me.AccountID)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := s.UpdateGender(t.Context(), me.AccountID, gs[0].ID, "Last", math.MaxInt64); err != nil {
		t.Fatal(err)
	}
	for range 2 {
		g, err := s.CreateGender(t.Context(), me.AccountID, "After")
		if err != nil || g.Position != math.MaxInt64 {
			t.Fatalf("created %+v, %v; want position %d", g, err, int64(math.MaxInt64))
		}
	}
	if _, err := s.UpdateGender(t.Context(), me.AccountID, gs[1].ID, "First", math.MinInt64); err != nil {
		t.Fatal(err)
	}
	if got := genderNames(t, s, me.AccountID); got[0] != "First" || got[len(got)-1] != "After" {
		t.Errorf("order %q", got)
	}
}

// TestGenderDeletedWhilePersonsTakeIt: persons created and updated with a
// gender while it is deleted (side by side on PostgreSQL) either have it
// or are refused with ErrUnknownGender, never another error.
func TestGenderDeletedWhilePersonsTakeIt(t *testing.T) {
	s := newStore(t)
	u := newUser(t, s)
	for round := range 5 {
		g, err := s.CreateGender(t.Context(), u.AccountID, fmt.Sprint("G", round))
		if err != nil {
			t.Fatal(err)
		}
		existing := newPerson(t, s, u.AccountID, "Existing")
		var wg sync.WaitGroup
		for i := range 8 {
			wg.Go(func() {
				in := personIn(fmt.Sprint("P", i))
				in.GenderID = &g.ID
				var err error
				if i%2 == 0 {
					_, err = s.CreatePerson(t.Context(), u.AccountID, in)
				} else {
					_, err = s.UpdatePerson(t.Context(), u.AccountID, existing.ID, in)
				}
				if err != nil && !errors.Is(err, store.ErrUnknownGender) {
					t.Errorf("round %d, writer %d: %v", round, i, err)
				}
			})
		}
		wg.Go(func() {
			if err := s.DeleteGender(t.Context(), u.AccountID, g.ID); err != nil {
				t.Error(err)
			}
		})
		wg.Wait()
	}
}
