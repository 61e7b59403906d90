package store_test

import (
	"errors"
	"reflect"
	"testing"
	"time"

	"kith/store"
)

// firstCategory returns the account's first category.
func firstCategory(t *testing.T, s *store.Store, accountID int64) store.TaskCategory {
	t.Helper()
	cats, err := s.TaskCategories(t.Context(), accountID)
	if err != nil || len(cats) == 0 {
		t.Fatalf("categories %v, %v", cats, err)
	}
	return cats[0]
}

func showTask(tk store.Task) map[string]any {
	m := map[string]any{"id": tk.ID, "person": tk.PersonID, "person_name": tk.PersonName, "name": tk.Name,
		"completed": tk.IsCompleted, "due": deref(tk.DueAt), "completed_at": deref(tk.CompletedAt),
		"created": tk.CreatedAt, "updated": tk.UpdatedAt, "category": nil}
	if tk.Category != nil {
		m["category"] = *tk.Category
	}
	return m
}

func TestCreateTask(t *testing.T) {
	s := newStore(t)
	me, them := twoAccounts(t, s)
	in := personIn("Jim")
	in.LastName = ptr("Halpert")
	p, err := s.CreatePerson(t.Context(), me.AccountID, in)
	if err != nil {
		t.Fatal(err)
	}
	theirs := newPerson(t, s, them.AccountID, "Theirs")
	cat := firstCategory(t, s, me.AccountID)
	theirCat := firstCategory(t, s, them.AccountID)
	advance(s, time.Hour)

	t.Run("creates an open task with its person's name and category", func(t *testing.T) {
		due := t0.Add(48 * time.Hour).Unix()
		tk, err := s.CreateTask(t.Context(), me.AccountID, p.ID, store.TaskInput{Name: "call", DueAt: &due, CategoryID: &cat.ID, IsCompleted: ptr(true)})
		if err != nil {
			t.Fatal(err)
		}
		want := store.Task{ID: tk.ID, PersonID: p.ID, PersonName: "Jim Halpert", Name: "call", DueAt: &due,
			Category:  &store.CategoryRef{ID: cat.ID, Name: cat.Name, Color: cat.Color},
			CreatedAt: nowUnix(s), UpdatedAt: nowUnix(s)}
		if tk.ID <= 0 || !reflect.DeepEqual(tk, want) {
			t.Errorf("created %v\nwant %v", showTask(tk), showTask(want))
		}
		if got, err := s.Task(t.Context(), me.AccountID, p.ID, tk.ID); err != nil || !reflect.DeepEqual(got, tk) {
			t.Errorf("read back %v (%v)\nreturned %v", showTask(got), err, showTask(tk))
		}
	})
	t.Run("creates a task without due date or category", func(t *testing.T) {
		tk, err := s.CreateTask(t.Context(), me.AccountID, p.ID, store.TaskInput{Name: "plain"})
		if err != nil || tk.DueAt != nil || tk.Category != nil || tk.IsCompleted || tk.CompletedAt != nil {
			t.Errorf("created %v, %v", showTask(tk), err)
		}
		if got, err := s.Task(t.Context(), me.AccountID, p.ID, tk.ID); err != nil || !reflect.DeepEqual(got, tk) {
			t.Errorf("read back %v (%v)\nreturned %v", showTask(got), err, showTask(tk))
		}
	})

	t.Run("the person's name is FullName, and follows a rename", func(t *testing.T) {
		in := personIn("Pam")
		in.LastName = ptr("")
		pam, err := s.CreatePerson(t.Context(), me.AccountID, in)
		if err != nil {
			t.Fatal(err)
		}
		tk := newTask(t, s, me.AccountID, pam.ID, "paint")
		if want := store.FullName("Pam", ptr("")); tk.PersonName != want {
			t.Errorf("created with person name %q, want %q", tk.PersonName, want)
		}
		in.LastName = ptr("Beesly")
		if _, err := s.UpdatePerson(t.Context(), me.AccountID, pam.ID, in); err != nil {
			t.Fatal(err)
		}
		if got, err := s.Task(t.Context(), me.AccountID, pam.ID, tk.ID); err != nil || got.PersonName != "Pam Beesly" {
			t.Errorf("after the rename: %q, %v", got.PersonName, err)
		}
	})

	cases := []struct {
		name     string
		personID int64
		category *int64
		want     error
	}{
		{"a missing person is not found", theirs.ID + 100, nil, store.ErrPersonNotFound},
		{"another account's person is not found", theirs.ID, nil, store.ErrPersonNotFound},
		{"an unknown category is refused", p.ID, ptr(theirCat.ID + 100), store.ErrUnknownCategory},
		{"another account's category is refused", p.ID, &theirCat.ID, store.ErrUnknownCategory},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			before, _ := s.Tasks(t.Context(), me.AccountID, p.ID)
			_, err := s.CreateTask(t.Context(), me.AccountID, tc.personID, store.TaskInput{Name: "x", CategoryID: tc.category})
			wantErr(t, err, tc.want)
			if tc.want == store.ErrUnknownCategory && errors.Is(err, store.ErrNotFound) {
				t.Errorf("a bad category reads as not found: %v", err)
			}
			if after, _ := s.Tasks(t.Context(), me.AccountID, p.ID); len(after) != len(before) {
				t.Errorf("%d tasks after a refusal, want %d", len(after), len(before))
			}
			if their, _ := s.Tasks(t.Context(), them.AccountID, theirs.ID); len(their) != 0 {
				t.Errorf("the other account's person got tasks: %v", their)
			}
		})
	}
}

func TestTasks(t *testing.T) {
	s := newStore(t)
	me, them := twoAccounts(t, s)
	p := newPerson(t, s, me.AccountID, "Jim")
	other := newPerson(t, s, me.AccountID, "Other")
	empty := newPerson(t, s, me.AccountID, "Empty")
	theirs := newPerson(t, s, them.AccountID, "Theirs")
	newTask(t, s, them.AccountID, theirs.ID, "theirs")

	oldest := newTask(t, s, me.AccountID, p.ID, "oldest")
	newTask(t, s, me.AccountID, other.ID, "other's")
	advance(s, time.Minute)
	middleA := newTask(t, s, me.AccountID, p.ID, "middle a")
	middleB := newTask(t, s, me.AccountID, p.ID, "middle b") // same second: the later id first
	advance(s, time.Minute)
	newest := newTask(t, s, me.AccountID, p.ID, "newest")
	// A task made with the clock set back has the highest id but is the
	// oldest: the order is by creation time first.
	advance(s, -time.Hour)
	backdated := newTask(t, s, me.AccountID, p.ID, "backdated")
	advance(s, time.Hour)
	// Updating an old task does not move it: the order is by creation.
	advance(s, time.Minute)
	if _, err := s.UpdateTask(t.Context(), me.AccountID, p.ID, oldest.ID, store.TaskInput{Name: "oldest, renamed"}); err != nil {
		t.Fatal(err)
	}

	cases := []struct {
		name     string
		personID int64
		want     []int64
		err      error
	}{
		{"newest first, later id first within a second", p.ID, []int64{newest.ID, middleB.ID, middleA.ID, oldest.ID, backdated.ID}, nil},
		{"a person without tasks has an empty list", empty.ID, []int64{}, nil},
		{"a missing person is not found", theirs.ID + 100, nil, store.ErrPersonNotFound},
		{"another account's person is not found", theirs.ID, nil, store.ErrPersonNotFound},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			tasks, err := s.Tasks(t.Context(), me.AccountID, tc.personID)
			wantErr(t, err, tc.err)
			if tc.err != nil {
				if tasks != nil {
					t.Errorf("tasks %v beside the error", tasks)
				}
				return
			}
			if tasks == nil {
				t.Error("nil list, want an empty one")
			}
			got := []int64{}
			for _, tk := range tasks {
				got = append(got, tk.ID)
				if one, err := s.Task(t.Context(), me.AccountID, tc.personID, tk.ID); err != nil || !reflect.DeepEqual(one, tk) {
					t.Errorf("listed %v\nalone %v (%v)", showTask(tk), showTask(one), err)
				}
			}
			if !reflect.DeepEqual(got, tc.want) {
				t.Errorf("ids %v, want %v", got, tc.want)
			}
		})
	}
}

func TestTask(t *testing.T) {
	s := newStore(t)
	me, them := twoAccounts(t, s)
	p := newPerson(t, s, me.AccountID, "Jim")
	other := newPerson(t, s, me.AccountID, "Other")
	tk := newTask(t, s, me.AccountID, p.ID, "mine")
	theirs := newPerson(t, s, them.AccountID, "Theirs")
	theirTask := newTask(t, s, them.AccountID, theirs.ID, "theirs")

	cases := []struct {
		name     string
		personID int64
		id       int64
		want     error
	}{
		{"found under its person", p.ID, tk.ID, nil},
		{"a task of another person is not found", other.ID, tk.ID, store.ErrTaskNotFound},
		{"a missing task is not found", p.ID, theirTask.ID + 100, store.ErrTaskNotFound},
		{"another account's task under my person is not found", p.ID, theirTask.ID, store.ErrTaskNotFound},
		{"another account's person is not found", theirs.ID, theirTask.ID, store.ErrPersonNotFound},
		{"a missing person is not found", theirs.ID + 100, tk.ID, store.ErrPersonNotFound},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			got, err := s.Task(t.Context(), me.AccountID, tc.personID, tc.id)
			wantErr(t, err, tc.want)
			if tc.want != nil && !errors.Is(err, store.ErrNotFound) {
				t.Errorf("error %v does not match ErrNotFound", err)
			}
			if tc.want == nil && !reflect.DeepEqual(got, tk) {
				t.Errorf("got %v, want %v", showTask(got), showTask(tk))
			}
		})
	}
}

func TestUpdateTask(t *testing.T) {
	s := newStore(t)
	me, them := twoAccounts(t, s)
	p := newPerson(t, s, me.AccountID, "Jim")
	other := newPerson(t, s, me.AccountID, "Other")
	tk := newTask(t, s, me.AccountID, p.ID, "call")
	theirs := newPerson(t, s, them.AccountID, "Theirs")
	theirTask := newTask(t, s, them.AccountID, theirs.ID, "theirs")
	cat := firstCategory(t, s, me.AccountID)
	theirCat := firstCategory(t, s, them.AccountID)
	due := t0.Add(24 * time.Hour).Unix()

	// Each step runs a minute after the last; completedAt -1 means "the
	// step's now", 0 means NULL, and any other value is a time.
	steps := []struct {
		name        string
		in          store.TaskInput
		completed   bool
		completedAt int64
	}{
		{"replaces name, due date and category and leaves completion", store.TaskInput{Name: "call back", DueAt: &due, CategoryID: &cat.ID}, false, 0},
		{"completing sets completed_at to now", store.TaskInput{Name: "call back", IsCompleted: ptr(true)}, true, -1},
		{"completing again keeps the first completed_at", store.TaskInput{Name: "call back", IsCompleted: ptr(true)}, true, t0.Add(2 * time.Minute).Unix()},
		{"no completion given keeps it", store.TaskInput{Name: "call back"}, true, t0.Add(2 * time.Minute).Unix()},
		{"un-completing clears completed_at", store.TaskInput{Name: "call back", IsCompleted: ptr(false)}, false, 0},
		{"un-completing an open task keeps it open", store.TaskInput{Name: "call back", IsCompleted: ptr(false)}, false, 0},
	}
	for _, st := range steps {
		t.Run(st.name, func(t *testing.T) {
			advance(s, time.Minute)
			got, err := s.UpdateTask(t.Context(), me.AccountID, p.ID, tk.ID, st.in)
			if err != nil {
				t.Fatal(err)
			}
			want := store.Task{ID: tk.ID, PersonID: p.ID, PersonName: "Jim", Name: st.in.Name, DueAt: st.in.DueAt,
				IsCompleted: st.completed, CreatedAt: tk.CreatedAt, UpdatedAt: nowUnix(s)}
			if st.in.CategoryID != nil {
				want.Category = &store.CategoryRef{ID: cat.ID, Name: cat.Name, Color: cat.Color}
			}
			switch st.completedAt {
			case -1:
				want.CompletedAt = ptr(nowUnix(s))
			case 0:
			default:
				want.CompletedAt = ptr(st.completedAt)
			}
			if !reflect.DeepEqual(got, want) {
				t.Errorf("updated %v\nwant    %v", showTask(got), showTask(want))
			}
			if stored, err := s.Task(t.Context(), me.AccountID, p.ID, tk.ID); err != nil || !reflect.DeepEqual(stored, got) {
				t.Errorf("stored %v (%v)\nreturned %v", showTask(stored), err, showTask(got))
			}
		})
	}

	cases := []struct {
		name     string
		personID int64
		id       int64
		category *int64
		want     error
	}{
		{"a missing task is not found", p.ID, theirTask.ID + 100, nil, store.ErrTaskNotFound},
		{"a task of another person is not found", other.ID, tk.ID, nil, store.ErrTaskNotFound},
		{"a missing person is not found", theirs.ID + 100, tk.ID, nil, store.ErrPersonNotFound},
		{"another account's task is not found", theirs.ID, theirTask.ID, nil, store.ErrPersonNotFound},
		{"another account's task under my person is not found", p.ID, theirTask.ID, nil, store.ErrTaskNotFound},
		{"an unknown category is refused", p.ID, tk.ID, ptr(theirCat.ID + 100), store.ErrUnknownCategory},
		{"another account's category is refused", p.ID, tk.ID, &theirCat.ID, store.ErrUnknownCategory},
		{"a missing task is reported before a bad category", p.ID, theirTask.ID + 100, &theirCat.ID, store.ErrTaskNotFound},
		{"another account's task is reported missing before a bad category", theirs.ID, theirTask.ID, &theirCat.ID, store.ErrPersonNotFound},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			mine, _ := s.Task(t.Context(), me.AccountID, p.ID, tk.ID)
			_, err := s.UpdateTask(t.Context(), me.AccountID, tc.personID, tc.id,
				store.TaskInput{Name: "hijacked", CategoryID: tc.category, IsCompleted: ptr(true)})
			wantErr(t, err, tc.want)
			if tc.want == store.ErrUnknownCategory && errors.Is(err, store.ErrNotFound) {
				t.Errorf("a bad category reads as not found: %v", err)
			}
			if after, _ := s.Task(t.Context(), me.AccountID, p.ID, tk.ID); !reflect.DeepEqual(after, mine) {
				t.Errorf("my task changed: %v", showTask(after))
			}
			if after, _ := s.Task(t.Context(), them.AccountID, theirs.ID, theirTask.ID); !reflect.DeepEqual(after, theirTask) {
				t.Errorf("their task changed: %v", showTask(after))
			}
		})
	}
}

func TestToggleTask(t *testing.T) {
	s := newStore(t)
	me, them := twoAccounts(t, s)
	p := newPerson(t, s, me.AccountID, "Jim")
	cat := firstCategory(t, s, me.AccountID)
	tk, err := s.CreateTask(t.Context(), me.AccountID, p.ID, store.TaskInput{Name: "call", CategoryID: &cat.ID})
	if err != nil {
		t.Fatal(err)
	}
	theirs := newPerson(t, s, them.AccountID, "Theirs")
	theirTask := newTask(t, s, them.AccountID, theirs.ID, "theirs")

	for i, wantDone := range []bool{true, false, true} {
		name := map[bool]string{true: "completes an open task at now", false: "reopens a completed task"}[wantDone]
		t.Run(name, func(t *testing.T) {
			advance(s, time.Duration(i+1)*time.Minute)
			got, err := s.ToggleTask(t.Context(), me.AccountID, tk.ID)
			if err != nil {
				t.Fatal(err)
			}
			want := tk
			want.IsCompleted, want.UpdatedAt = wantDone, nowUnix(s)
			if wantDone {
				want.CompletedAt = ptr(nowUnix(s))
			}
			if !reflect.DeepEqual(got, want) {
				t.Errorf("toggled %v\nwant    %v", showTask(got), showTask(want))
			}
			if stored, _ := s.Task(t.Context(), me.AccountID, p.ID, tk.ID); !reflect.DeepEqual(stored, got) {
				t.Errorf("stored %v\nreturned %v", showTask(stored), showTask(got))
			}
		})
	}

	for _, tc := range []struct {
		name string
		id   int64
	}{{"a missing task is not found", theirTask.ID + 100}, {"another account's task is not found", theirTask.ID}} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := s.ToggleTask(t.Context(), me.AccountID, tc.id)
			wantErr(t, err, store.ErrTaskNotFound)
			if after, _ := s.Task(t.Context(), them.AccountID, theirs.ID, theirTask.ID); !reflect.DeepEqual(after, theirTask) {
				t.Errorf("their task changed: %v", showTask(after))
			}
		})
	}
}

func TestDeleteTask(t *testing.T) {
	s := newStore(t)
	me, them := twoAccounts(t, s)
	p := newPerson(t, s, me.AccountID, "Jim")
	other := newPerson(t, s, me.AccountID, "Other")
	gone := newTask(t, s, me.AccountID, p.ID, "gone")
	kept := newTask(t, s, me.AccountID, p.ID, "kept")
	theirs := newPerson(t, s, them.AccountID, "Theirs")
	theirTask := newTask(t, s, them.AccountID, theirs.ID, "theirs")

	t.Run("deletes one task of the person", func(t *testing.T) {
		wantErr(t, s.DeleteTask(t.Context(), me.AccountID, p.ID, gone.ID), nil)
		if _, err := s.Task(t.Context(), me.AccountID, p.ID, gone.ID); !errors.Is(err, store.ErrTaskNotFound) {
			t.Errorf("the task is still there: %v", err)
		}
		if tasks, err := s.Tasks(t.Context(), me.AccountID, p.ID); err != nil || len(tasks) != 1 || tasks[0].ID != kept.ID {
			t.Errorf("left %v, %v; want only task %d", tasks, err, kept.ID)
		}
	})

	cases := []struct {
		name     string
		personID int64
		id       int64
		want     error
	}{
		{"a deleted task is not found", p.ID, gone.ID, store.ErrTaskNotFound},
		{"a task of another person is not found", other.ID, kept.ID, store.ErrTaskNotFound},
		{"a missing person is not found", theirs.ID + 100, kept.ID, store.ErrPersonNotFound},
		{"another account's task is not found", theirs.ID, theirTask.ID, store.ErrPersonNotFound},
		{"another account's task under my person is not found", p.ID, theirTask.ID, store.ErrTaskNotFound},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			wantErr(t, s.DeleteTask(t.Context(), me.AccountID, tc.personID, tc.id), tc.want)
			if _, err := s.Task(t.Context(), me.AccountID, p.ID, kept.ID); err != nil {
				t.Errorf("my task went: %v", err)
			}
			if _, err := s.Task(t.Context(), them.AccountID, theirs.ID, theirTask.ID); err != nil {
				t.Errorf("their task went: %v", err)
			}
		})
	}
}

// TestTaskListsKeepEachRowsTimes: every task of a list keeps its own due
// date and completion time; the rows of a list are scanned one after
// another into the same place, and a task must not point into it.
func TestTaskListsKeepEachRowsTimes(t *testing.T) {
	s := newStore(t)
	me := newUser(t, s)
	p := newPerson(t, s, me.AccountID, "Jim")
	want := map[int64][2]any{}
	for i := range int64(3) {
		due := t0.Unix() + 86400*(i+1)
		tk, err := s.CreateTask(t.Context(), me.AccountID, p.ID, store.TaskInput{Name: "call", DueAt: &due})
		if err != nil {
			t.Fatal(err)
		}
		if _, err := s.ToggleTask(t.Context(), me.AccountID, tk.ID); err != nil {
			t.Fatal(err)
		}
		want[tk.ID] = [2]any{due, nowUnix(s)}
		advance(s, time.Minute)
	}
	byPerson, err := s.Tasks(t.Context(), me.AccountID, p.ID)
	if err != nil {
		t.Fatal(err)
	}
	inAccount, _, err := s.AccountTasks(t.Context(), me.AccountID, store.TaskFilter{}, 10, 0)
	if err != nil {
		t.Fatal(err)
	}
	for name, list := range map[string][]store.Task{"Tasks": byPerson, "AccountTasks": inAccount} {
		if len(list) != len(want) {
			t.Fatalf("%s: %d tasks, want %d", name, len(list), len(want))
		}
		for _, tk := range list {
			if got := [2]any{deref(tk.DueAt), deref(tk.CompletedAt)}; got != want[tk.ID] {
				t.Errorf("%s: task %d due and completed at %v, want %v", name, tk.ID, got, want[tk.ID])
			}
		}
	}
}
