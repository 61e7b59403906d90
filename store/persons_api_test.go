package store_test

import (
	"errors"
	"reflect"
	"testing"
	"time"

	"kith/store"
)

func TestFullName(t *testing.T) {
	cases := []struct {
		name  string
		first string
		last  *string
		want  string
	}{
		{"first and last joined by a space", "Ada", ptr("Lovelace"), "Ada Lovelace"},
		{"no last name is the first alone", "Ada", nil, "Ada"},
		{"an empty last name is the first alone", "Ada", ptr(""), "Ada"},
		{"a last name with spaces is kept whole", "Jan", ptr("van der Berg"), "Jan van der Berg"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			if got := store.FullName(tc.first, tc.last); got != tc.want {
				t.Errorf("FullName(%q, %v) = %q, want %q", tc.first, deref(tc.last), got, tc.want)
			}
		})
	}
}

func TestCreatePerson(t *testing.T) {
	s := newStore(t)
	me := newUser(t, s)
	in := store.PersonInput{
		FirstName: "Jim", LastName: ptr("Halpert"), MiddleName: ptr("Duncan"), Nickname: ptr("Big Tuna"),
		MaidenName: ptr("M"), Prefix: ptr("Mr"), Suffix: ptr("Jr"), HowWeMet: ptr("at work"),
		MaritalStatus: "couple", KidsStatus: "has_kids", CanBeDeleted: false, IsListed: true,
	}
	p, err := s.CreatePerson(t.Context(), me.AccountID, in)
	if err != nil {
		t.Fatal(err)
	}
	want := store.Person{
		ID: p.ID, AccountID: me.AccountID, FirstName: "Jim", LastName: ptr("Halpert"), MiddleName: ptr("Duncan"),
		Nickname: ptr("Big Tuna"), MaidenName: ptr("M"), Prefix: ptr("Mr"), Suffix: ptr("Jr"), HowWeMet: ptr("at work"),
		MaritalStatus: "couple", KidsStatus: "has_kids", CanBeDeleted: false, IsListed: true,
		Appearance: make([]*string, len(store.AppearanceFields)), Tags: []string{},
		CreatedAt: t0.Unix(), UpdatedAt: t0.Unix(),
	}
	if p.ID <= 0 || !reflect.DeepEqual(p, want) {
		t.Errorf("created\n%+v\nwant\n%+v", p, want)
	}
	got, err := s.Person(t.Context(), me.AccountID, p.ID)
	if err != nil || !reflect.DeepEqual(got, p) {
		t.Errorf("read back\n%+v (%v)\nwant\n%+v", got, err, p)
	}

	t.Run("an empty optional field is kept empty, not made NULL", func(t *testing.T) {
		in := personIn("Pam")
		in.LastName = ptr("")
		p, err := s.CreatePerson(t.Context(), me.AccountID, in)
		if err != nil || p.LastName == nil || *p.LastName != "" {
			t.Errorf("last name %v, %v", deref(p.LastName), err)
		}
	})

	t.Run("a missing account is not found", func(t *testing.T) {
		_, err := s.CreatePerson(t.Context(), me.AccountID+100, personIn("Ghost"))
		wantErr(t, err, store.ErrAccountNotFound)
	})

	refusals := []struct {
		name string
		in   store.PersonInput
	}{
		{"an unknown marital status is refused", store.PersonInput{FirstName: "X", MaritalStatus: "married", KidsStatus: "unknown"}},
		{"an unknown kids status is refused", store.PersonInput{FirstName: "X", MaritalStatus: "unknown", KidsStatus: "many"}},
		{"an empty marital status is refused", store.PersonInput{FirstName: "X", KidsStatus: "unknown"}},
	}
	for _, tc := range refusals {
		t.Run(tc.name, func(t *testing.T) {
			_, before, _ := s.Persons(t.Context(), me.AccountID, 100, 0)
			_, err := s.CreatePerson(t.Context(), me.AccountID, tc.in)
			if err == nil || errors.Is(err, store.ErrNotFound) {
				t.Errorf("error %v, want a refusal", err)
			}
			if _, after, _ := s.Persons(t.Context(), me.AccountID, 100, 0); after != before {
				t.Errorf("%d persons after a refusal, want %d", after, before)
			}
		})
	}
}

func TestPerson(t *testing.T) {
	s := newStore(t)
	me, them := twoAccounts(t, s)
	mine := newPerson(t, s, me.AccountID, "Mine")
	theirs := newPerson(t, s, them.AccountID, "Theirs")
	cases := []struct {
		name    string
		account int64
		id      int64
		want    error
	}{
		{"found in its account", me.AccountID, mine.ID, nil},
		{"not found when missing", me.AccountID, theirs.ID + 100, store.ErrNotFound},
		{"not found in another account", me.AccountID, theirs.ID, store.ErrNotFound},
		{"not found for an account that does not exist", 999, mine.ID, store.ErrNotFound},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			p, err := s.Person(t.Context(), tc.account, tc.id)
			wantErr(t, err, tc.want)
			if tc.want == nil && !reflect.DeepEqual(p, mine) {
				t.Errorf("got %+v, want %+v", p, mine)
			}
			if tc.want != nil && !errors.Is(err, store.ErrPersonNotFound) {
				t.Errorf("error %v, want ErrPersonNotFound", err)
			}
		})
	}
}

func TestPersons(t *testing.T) {
	s := newStore(t)
	me, them := twoAccounts(t, s)
	var ids []int64
	for i, name := range []string{"A", "B", "C", "D", "E"} {
		ids = append(ids, newPerson(t, s, me.AccountID, name).ID)
		if i == 1 { // interleave the other account's rows
			newPerson(t, s, them.AccountID, "Other")
		}
	}
	newPerson(t, s, them.AccountID, "Other")
	cases := []struct {
		name          string
		account       int64
		limit, offset int64
		want          []int64
		total         int64
	}{
		{"a full page by id", me.AccountID, 10, 0, ids, 5},
		{"the first page", me.AccountID, 2, 0, ids[:2], 5},
		{"a middle page", me.AccountID, 2, 2, ids[2:4], 5},
		{"the last, short page", me.AccountID, 2, 4, ids[4:], 5},
		{"past the end is empty with the total", me.AccountID, 2, 10, []int64{}, 5},
		{"a zero limit is empty with the total", me.AccountID, 0, 0, []int64{}, 5},
		{"an account without persons is empty", 999, 10, 0, []int64{}, 0},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			ps, total, err := s.Persons(t.Context(), tc.account, tc.limit, tc.offset)
			if err != nil {
				t.Fatal(err)
			}
			if ps == nil {
				t.Error("nil list, want an empty one")
			}
			got := []int64{}
			for _, p := range ps {
				if p.AccountID != tc.account {
					t.Errorf("person %d of account %d in account %d's list", p.ID, p.AccountID, tc.account)
				}
				got = append(got, p.ID)
			}
			if !reflect.DeepEqual(got, tc.want) || total != tc.total {
				t.Errorf("ids %v total %d, want %v total %d", got, total, tc.want, tc.total)
			}
		})
	}
	t.Run("the other account sees only its own", func(t *testing.T) {
		ps, total, err := s.Persons(t.Context(), them.AccountID, 10, 0)
		if err != nil || total != 2 || len(ps) != 2 || ps[0].FirstName != "Other" {
			t.Errorf("%d persons (total %d), %v", len(ps), total, err)
		}
	})
	t.Run("a listed person equals the person read alone", func(t *testing.T) {
		ps, _, _ := s.Persons(t.Context(), me.AccountID, 1, 0)
		p, err := s.Person(t.Context(), me.AccountID, ids[0])
		if err != nil || len(ps) != 1 || !reflect.DeepEqual(ps[0], p) {
			t.Errorf("listed %+v\nalone %+v (%v)", ps, p, err)
		}
	})
}

func TestUpdatePerson(t *testing.T) {
	s := newStore(t)
	me, them := twoAccounts(t, s)
	in := personIn("Jim")
	in.LastName, in.Nickname = ptr("Halpert"), ptr("Tuna")
	p, err := s.CreatePerson(t.Context(), me.AccountID, in)
	if err != nil {
		t.Fatal(err)
	}
	p, err = s.SetAge(t.Context(), me.AccountID, p.ID, store.Age{Type: ptr("bracket"), Bracket: ptr("20-30")})
	if err != nil {
		t.Fatal(err)
	}
	p, err = s.UpdateAppearance(t.Context(), me.AccountID, p.ID, map[string]*string{"height": ptr("tall")})
	if err != nil {
		t.Fatal(err)
	}
	theirs := newPerson(t, s, them.AccountID, "Theirs")
	advance(s, time.Hour)

	t.Run("replaces names, statuses and flags and keeps age and appearance", func(t *testing.T) {
		up := store.PersonInput{FirstName: "James", MiddleName: ptr("D"), MaritalStatus: "single", KidsStatus: "no_kids",
			CanBeDeleted: false, IsListed: false}
		got, err := s.UpdatePerson(t.Context(), me.AccountID, p.ID, up)
		if err != nil {
			t.Fatal(err)
		}
		want := p
		want.FirstName, want.LastName, want.MiddleName, want.Nickname = "James", nil, ptr("D"), nil
		want.MaritalStatus, want.KidsStatus, want.CanBeDeleted, want.IsListed = "single", "no_kids", false, false
		want.UpdatedAt = nowUnix(s)
		if !reflect.DeepEqual(got, want) {
			t.Errorf("updated\n%+v\nwant\n%+v", got, want)
		}
		if again, _ := s.Person(t.Context(), me.AccountID, p.ID); !reflect.DeepEqual(again, want) {
			t.Errorf("read back\n%+v\nwant\n%+v", again, want)
		}
	})

	cases := []struct {
		name    string
		account int64
		id      int64
		in      store.PersonInput
		want    error
	}{
		{"not found when missing", me.AccountID, theirs.ID + 100, personIn("X"), store.ErrNotFound},
		{"not found in another account", me.AccountID, theirs.ID, personIn("X"), store.ErrNotFound},
		{"an unknown marital status is refused", me.AccountID, p.ID, store.PersonInput{FirstName: "X", MaritalStatus: "wed", KidsStatus: "unknown"}, nil},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			before, _ := s.Person(t.Context(), them.AccountID, theirs.ID)
			mineBefore, _ := s.Person(t.Context(), me.AccountID, p.ID)
			_, err := s.UpdatePerson(t.Context(), tc.account, tc.id, tc.in)
			if tc.want != nil {
				wantErr(t, err, tc.want)
			} else if err == nil || errors.Is(err, store.ErrNotFound) {
				t.Errorf("error %v, want a refusal", err)
			}
			if after, _ := s.Person(t.Context(), them.AccountID, theirs.ID); !reflect.DeepEqual(after, before) {
				t.Errorf("the other account's person changed: %+v", after)
			}
			if after, _ := s.Person(t.Context(), me.AccountID, p.ID); !reflect.DeepEqual(after, mineBefore) {
				t.Errorf("a refused update changed the person: %+v", after)
			}
		})
	}
}

// appearance returns the person's appearance by field name, set ones only.
func appearance(p store.Person) map[string]string {
	m := map[string]string{}
	for i, f := range store.AppearanceFields {
		if p.Appearance[i] != nil {
			m[f] = *p.Appearance[i]
		}
	}
	return m
}

func TestUpdateAppearance(t *testing.T) {
	s := newStore(t)
	me, them := twoAccounts(t, s)
	p := newPerson(t, s, me.AccountID, "Jim")
	theirs := newPerson(t, s, them.AccountID, "Theirs")

	steps := []struct {
		name    string
		changes map[string]*string
		want    map[string]string
	}{
		{"sets the named fields", map[string]*string{"height": ptr("tall"), "voice": ptr("deep"), "tatoos": ptr("none")},
			map[string]string{"height": "tall", "voice": "deep", "tatoos": "none"}},
		{"changes one field and leaves the others", map[string]*string{"height": ptr("short")},
			map[string]string{"height": "short", "voice": "deep", "tatoos": "none"}},
		{"nil clears a field", map[string]*string{"voice": nil},
			map[string]string{"height": "short", "tatoos": "none"}},
		{"an unknown name is ignored", map[string]*string{"shoe_size": ptr("44"), "glasses": ptr("round")},
			map[string]string{"height": "short", "tatoos": "none", "glasses": "round"}},
		{"no changes leave the person as it is", map[string]*string{},
			map[string]string{"height": "short", "tatoos": "none", "glasses": "round"}},
	}
	for _, st := range steps {
		t.Run(st.name, func(t *testing.T) {
			advance(s, time.Minute)
			before, _ := s.Person(t.Context(), me.AccountID, p.ID)
			got, err := s.UpdateAppearance(t.Context(), me.AccountID, p.ID, st.changes)
			if err != nil {
				t.Fatal(err)
			}
			if a := appearance(got); !reflect.DeepEqual(a, st.want) {
				t.Errorf("appearance %v, want %v", a, st.want)
			}
			if len(got.Appearance) != len(store.AppearanceFields) {
				t.Errorf("%d appearance fields, want %d", len(got.Appearance), len(store.AppearanceFields))
			}
			if got.FirstName != "Jim" || got.CreatedAt != before.CreatedAt {
				t.Errorf("other fields changed: %+v", got)
			}
			if stored, _ := s.Person(t.Context(), me.AccountID, p.ID); !reflect.DeepEqual(stored, got) {
				t.Errorf("stored\n%+v\nreturned\n%+v", stored, got)
			}
		})
	}

	for _, changes := range []map[string]*string{{"height": ptr("x")}, {}} {
		for _, tc := range []struct {
			name string
			id   int64
		}{{"not found when missing", theirs.ID + 100}, {"not found in another account", theirs.ID}} {
			t.Run(tc.name+" with "+map[bool]string{true: "no", false: "some"}[len(changes) == 0]+" changes", func(t *testing.T) {
				_, err := s.UpdateAppearance(t.Context(), me.AccountID, tc.id, changes)
				wantErr(t, err, store.ErrNotFound)
				if after, _ := s.Person(t.Context(), them.AccountID, theirs.ID); len(appearance(after)) != 0 {
					t.Errorf("the other account's person changed: %v", appearance(after))
				}
			})
		}
	}
}

func TestSetAge(t *testing.T) {
	s := newStore(t)
	me, them := twoAccounts(t, s)
	p := newPerson(t, s, me.AccountID, "Jim")
	theirs := newPerson(t, s, them.AccountID, "Theirs")

	exact := store.Age{Type: ptr("exact"), Year: ptr[int64](1980), Month: ptr[int64](2), Day: ptr[int64](29), YearlyReminder: ptr(true)}
	estimated := store.Age{Type: ptr("estimated"), Estimated: ptr[int64](40), EstimatedAt: ptr(t0.Unix())}
	bracket := store.Age{Type: ptr("bracket"), Bracket: ptr("30-40"), YearlyReminder: ptr(false)}
	steps := []struct {
		name string
		age  store.Age
	}{
		{"sets an exact age", exact},
		{"an estimated age clears the exact columns", estimated},
		{"a bracket clears the estimated columns", bracket},
		{"an exact age clears the bracket", exact},
		{"an empty age clears everything", store.Age{}},
	}
	for _, st := range steps {
		t.Run(st.name, func(t *testing.T) {
			advance(s, time.Minute)
			got, err := s.SetAge(t.Context(), me.AccountID, p.ID, st.age)
			if err != nil {
				t.Fatal(err)
			}
			if !reflect.DeepEqual(got.Age, st.age) {
				t.Errorf("age %s, want %s", showAge(got.Age), showAge(st.age))
			}
			if got.UpdatedAt != nowUnix(s) || got.FirstName != "Jim" {
				t.Errorf("updated_at %d (want %d), first name %q", got.UpdatedAt, nowUnix(s), got.FirstName)
			}
			if stored, _ := s.Person(t.Context(), me.AccountID, p.ID); !reflect.DeepEqual(stored, got) {
				t.Errorf("stored %s, returned %s", showAge(stored.Age), showAge(got.Age))
			}
		})
	}

	refusals := []struct {
		name string
		id   int64
		age  store.Age
		want error
	}{
		{"not found when missing", theirs.ID + 100, exact, store.ErrNotFound},
		{"not found in another account", theirs.ID, exact, store.ErrNotFound},
		{"an unknown kind is refused", p.ID, store.Age{Type: ptr("guessed")}, nil},
		{"a thirteenth month is refused", p.ID, store.Age{Type: ptr("exact"), Year: ptr[int64](1980), Month: ptr[int64](13)}, nil},
		{"a day 32 is refused", p.ID, store.Age{Type: ptr("exact"), Year: ptr[int64](1980), Month: ptr[int64](1), Day: ptr[int64](32)}, nil},
	}
	for _, tc := range refusals {
		t.Run(tc.name, func(t *testing.T) {
			mineBefore, _ := s.Person(t.Context(), me.AccountID, p.ID)
			_, err := s.SetAge(t.Context(), me.AccountID, tc.id, tc.age)
			if tc.want != nil {
				wantErr(t, err, tc.want)
			} else if err == nil || errors.Is(err, store.ErrNotFound) {
				t.Errorf("error %v, want a refusal", err)
			}
			if after, _ := s.Person(t.Context(), them.AccountID, theirs.ID); after.Age.Type != nil {
				t.Errorf("the other account's person got an age: %s", showAge(after.Age))
			}
			if after, _ := s.Person(t.Context(), me.AccountID, p.ID); !reflect.DeepEqual(after, mineBefore) {
				t.Errorf("a refused age changed the person: %s", showAge(after.Age))
			}
		})
	}
}

func showAge(a store.Age) map[string]any {
	return map[string]any{"type": deref(a.Type), "year": deref(a.Year), "month": deref(a.Month), "day": deref(a.Day),
		"estimated": deref(a.Estimated), "estimated_at": deref(a.EstimatedAt), "bracket": deref(a.Bracket),
		"reminder": deref(a.YearlyReminder)}
}

func TestDeletePerson(t *testing.T) {
	s := newStore(t)
	me, them := twoAccounts(t, s)

	t.Run("deletes the person and its tasks", func(t *testing.T) {
		p := newPerson(t, s, me.AccountID, "Gone")
		keep := newPerson(t, s, me.AccountID, "Kept")
		t1 := newTask(t, s, me.AccountID, p.ID, "one")
		t2 := newTask(t, s, me.AccountID, p.ID, "two")
		kept := newTask(t, s, me.AccountID, keep.ID, "kept")
		wantErr(t, s.DeletePerson(t.Context(), me.AccountID, p.ID), nil)
		if _, err := s.Person(t.Context(), me.AccountID, p.ID); !errors.Is(err, store.ErrNotFound) {
			t.Errorf("the person is still there: %v", err)
		}
		if _, err := s.Tasks(t.Context(), me.AccountID, p.ID); !errors.Is(err, store.ErrNotFound) {
			t.Errorf("its task list: %v", err)
		}
		// ToggleTask finds a task by id alone: only a deleted task row is
		// not found by it.
		for _, tk := range []store.Task{t1, t2} {
			if _, err := s.ToggleTask(t.Context(), me.AccountID, tk.ID); !errors.Is(err, store.ErrTaskNotFound) {
				t.Errorf("task %d outlived its person: %v", tk.ID, err)
			}
		}
		if got, err := s.Task(t.Context(), me.AccountID, keep.ID, kept.ID); err != nil || got.Name != "kept" {
			t.Errorf("another person's task: %+v %v", got, err)
		}
		wantErr(t, s.DeletePerson(t.Context(), me.AccountID, p.ID), store.ErrNotFound)
	})

	protectedIn := personIn("Me")
	protectedIn.CanBeDeleted = false
	protected, err := s.CreatePerson(t.Context(), me.AccountID, protectedIn)
	if err != nil {
		t.Fatal(err)
	}
	theirProtected, err := s.CreatePerson(t.Context(), them.AccountID, protectedIn)
	if err != nil {
		t.Fatal(err)
	}
	theirs := newPerson(t, s, them.AccountID, "Theirs")
	cases := []struct {
		name    string
		id      int64
		want    error
		account int64 // whose person must survive
	}{
		{"a protected person is refused", protected.ID, store.ErrPersonProtected, me.AccountID},
		{"not found when missing", theirs.ID + 100, store.ErrNotFound, 0},
		{"not found in another account", theirs.ID, store.ErrNotFound, them.AccountID},
		{"another account's protected person is not found, not protected", theirProtected.ID, store.ErrPersonNotFound, them.AccountID},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			err := s.DeletePerson(t.Context(), me.AccountID, tc.id)
			wantErr(t, err, tc.want)
			if tc.want == store.ErrPersonProtected && errors.Is(err, store.ErrNotFound) {
				t.Errorf("a protected person is reported missing: %v", err)
			}
			if tc.account != 0 {
				if _, err := s.Person(t.Context(), tc.account, tc.id); err != nil {
					t.Errorf("the person went: %v", err)
				}
			}
		})
	}
}

func TestPersonsByName(t *testing.T) {
	s := newStore(t)
	me, them := twoAccounts(t, s)
	add := func(first, last string) int64 {
		in := personIn(first)
		if last != "" {
			in.LastName = &last
		}
		p, err := s.CreatePerson(t.Context(), me.AccountID, in)
		if err != nil {
			t.Fatal(err)
		}
		return p.ID
	}
	zoe := add("zoë", "")
	annB := add("Ann", "Brown")
	bob := add("bob", "")
	annA := add("ann", "adams")
	ann := add("Ann", "")
	newPerson(t, s, them.AccountID, "Aaron")
	want := []int64{ann, annA, annB, bob, zoe} // no last name first; case aside
	ps, total, err := s.PersonsByName(t.Context(), me.AccountID, 10, 0)
	if err != nil {
		t.Fatal(err)
	}
	got := []int64{}
	for _, p := range ps {
		got = append(got, p.ID)
	}
	if !reflect.DeepEqual(got, want) || total != 5 {
		t.Errorf("ids %v total %d, want %v total 5", got, total, want)
	}
	page, _, err := s.PersonsByName(t.Context(), me.AccountID, 2, 2)
	if err != nil || len(page) != 2 || page[0].ID != annB || page[1].ID != bob {
		t.Errorf("the second page of two: %v, %v", page, err)
	}
}
