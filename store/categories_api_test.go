package store_test

import (
	"errors"
	"reflect"
	"testing"
	"time"

	"kith/store"
)

func TestTaskCategories(t *testing.T) {
	s := newStore(t)
	me, them := twoAccounts(t, s)
	advance(s, time.Hour)
	added, err := s.CreateTaskCategory(t.Context(), me.AccountID, "Coffee", "bg-brown-100")
	if err != nil {
		t.Fatal(err)
	}
	if _, err := s.CreateTaskCategory(t.Context(), them.AccountID, "Theirs", "bg-black-100"); err != nil {
		t.Fatal(err)
	}

	t.Run("defaults then added ones, by id, in the account only", func(t *testing.T) {
		cats, err := s.TaskCategories(t.Context(), me.AccountID)
		if err != nil {
			t.Fatal(err)
		}
		var got []string
		for i, c := range cats {
			got = append(got, c.Name+" "+c.Color)
			if c.AccountID != me.AccountID {
				t.Errorf("%s belongs to account %d", c.Name, c.AccountID)
			}
			if i > 0 && c.ID <= cats[i-1].ID {
				t.Errorf("%s (id %d) after id %d", c.Name, c.ID, cats[i-1].ID)
			}
			if i < len(cats)-1 && (c.UpdatedAt != nil || c.CreatedAt != t0.Unix()) {
				t.Errorf("default %s: created %d updated %v, want %d and nil", c.Name, c.CreatedAt, deref(c.UpdatedAt), t0.Unix())
			}
		}
		want := []string{"Birthday bg-purple-100", "Call bg-blue-100", "Email bg-green-100", "Follow up bg-yellow-100",
			"Lunch bg-orange-100", "Thank you bg-red-100", "Coffee bg-brown-100"}
		if !reflect.DeepEqual(got, want) {
			t.Errorf("categories %q\nwant %q", got, want)
		}
		if len(cats) > 0 && !reflect.DeepEqual(cats[len(cats)-1], added) {
			t.Errorf("listed %+v, created %+v", cats[len(cats)-1], added)
		}
	})
	t.Run("an account without categories has an empty list", func(t *testing.T) {
		cats, err := s.TaskCategories(t.Context(), 999)
		if err != nil || cats == nil || len(cats) != 0 {
			t.Errorf("%v (nil: %t), %v", cats, cats == nil, err)
		}
	})
	t.Run("a user joining an account shares its categories", func(t *testing.T) {
		u, err := s.CreateUser(t.Context(), store.NewUser{FirstName: "B", LastName: "L", Email: "joiner@example.com", Password: testPassword, AccountID: me.AccountID})
		if err != nil {
			t.Fatal(err)
		}
		cats, _ := s.TaskCategories(t.Context(), u.AccountID)
		if len(cats) != 7 {
			t.Errorf("%d categories after a user joined, want the 7 there were", len(cats))
		}
	})
}

func TestTaskCategory(t *testing.T) {
	s := newStore(t)
	me, them := twoAccounts(t, s)
	mine := firstCategory(t, s, me.AccountID)
	theirs := firstCategory(t, s, them.AccountID)
	cases := []struct {
		name string
		id   int64
		want error
	}{
		{"found in its account", mine.ID, nil},
		{"a missing category is not found", theirs.ID + 100, store.ErrCategoryNotFound},
		{"another account's category is not found", theirs.ID, store.ErrCategoryNotFound},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			got, err := s.TaskCategory(t.Context(), me.AccountID, tc.id)
			wantErr(t, err, tc.want)
			wantErr(t, err, map[bool]error{true: nil, false: store.ErrNotFound}[tc.want == nil])
			if tc.want == nil && !reflect.DeepEqual(got, mine) {
				t.Errorf("got %+v, want %+v", got, mine)
			}
		})
	}
}

func TestCreateTaskCategory(t *testing.T) {
	s := newStore(t)
	me, them := twoAccounts(t, s)
	advance(s, time.Hour)
	c, err := s.CreateTaskCategory(t.Context(), me.AccountID, "Coffee", "bg-brown-100")
	if err != nil {
		t.Fatal(err)
	}
	want := store.TaskCategory{ID: c.ID, AccountID: me.AccountID, Name: "Coffee", Color: "bg-brown-100",
		CreatedAt: nowUnix(s), UpdatedAt: ptr(nowUnix(s))}
	if c.ID <= 0 || !reflect.DeepEqual(c, want) {
		t.Errorf("created %+v (updated %v)\nwant %+v", c, deref(c.UpdatedAt), want)
	}
	if got, err := s.TaskCategory(t.Context(), me.AccountID, c.ID); err != nil || !reflect.DeepEqual(got, c) {
		t.Errorf("read back %+v, %v", got, err)
	}
	if _, err := s.TaskCategory(t.Context(), them.AccountID, c.ID); !errors.Is(err, store.ErrCategoryNotFound) {
		t.Errorf("the other account reads it: %v", err)
	}
	t.Run("a missing account is not found", func(t *testing.T) {
		_, err := s.CreateTaskCategory(t.Context(), them.AccountID+100, "Ghost", "bg-gray-100")
		wantErr(t, err, store.ErrAccountNotFound)
	})
	t.Run("a task can use it", func(t *testing.T) {
		p := newPerson(t, s, me.AccountID, "Jim")
		tk, err := s.CreateTask(t.Context(), me.AccountID, p.ID, store.TaskInput{Name: "coffee", CategoryID: &c.ID})
		if err != nil || tk.Category == nil || *tk.Category != (store.CategoryRef{ID: c.ID, Name: "Coffee", Color: "bg-brown-100"}) {
			t.Errorf("task %v, %v", showTask(tk), err)
		}
	})
}

func TestUpdateTaskCategory(t *testing.T) {
	s := newStore(t)
	me, them := twoAccounts(t, s)
	mine := firstCategory(t, s, me.AccountID)
	theirs := firstCategory(t, s, them.AccountID)
	p := newPerson(t, s, me.AccountID, "Jim")
	tk, err := s.CreateTask(t.Context(), me.AccountID, p.ID, store.TaskInput{Name: "call", CategoryID: &mine.ID})
	if err != nil {
		t.Fatal(err)
	}
	advance(s, time.Hour)

	t.Run("renames and recolours, and its tasks show it", func(t *testing.T) {
		got, err := s.UpdateTaskCategory(t.Context(), me.AccountID, mine.ID, "Birthdays", "bg-pink-100")
		if err != nil {
			t.Fatal(err)
		}
		want := mine
		want.Name, want.Color, want.UpdatedAt = "Birthdays", "bg-pink-100", ptr(nowUnix(s))
		if !reflect.DeepEqual(got, want) {
			t.Errorf("updated %+v (updated %v)\nwant %+v", got, deref(got.UpdatedAt), want)
		}
		if stored, _ := s.TaskCategory(t.Context(), me.AccountID, mine.ID); !reflect.DeepEqual(stored, got) {
			t.Errorf("stored %+v", stored)
		}
		task, err := s.Task(t.Context(), me.AccountID, p.ID, tk.ID)
		if err != nil || task.Category == nil || *task.Category != (store.CategoryRef{ID: mine.ID, Name: "Birthdays", Color: "bg-pink-100"}) {
			t.Errorf("task %v, %v", showTask(task), err)
		}
	})

	for _, tc := range []struct {
		name string
		id   int64
	}{{"a missing category is not found", theirs.ID + 100}, {"another account's category is not found", theirs.ID}} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := s.UpdateTaskCategory(t.Context(), me.AccountID, tc.id, "Hijacked", "bg-red-100")
			wantErr(t, err, store.ErrCategoryNotFound)
			if after, _ := s.TaskCategory(t.Context(), them.AccountID, theirs.ID); !reflect.DeepEqual(after, theirs) {
				t.Errorf("their category changed: %+v", after)
			}
		})
	}
}

func TestDeleteTaskCategory(t *testing.T) {
	s := newStore(t)
	me, them := twoAccounts(t, s)
	cats, _ := s.TaskCategories(t.Context(), me.AccountID)
	gone, kept := cats[0], cats[1]
	theirs := firstCategory(t, s, them.AccountID)
	p := newPerson(t, s, me.AccountID, "Jim")
	orphan, err := s.CreateTask(t.Context(), me.AccountID, p.ID, store.TaskInput{Name: "orphan", CategoryID: &gone.ID})
	if err != nil {
		t.Fatal(err)
	}
	keptTask, err := s.CreateTask(t.Context(), me.AccountID, p.ID, store.TaskInput{Name: "kept", CategoryID: &kept.ID})
	if err != nil {
		t.Fatal(err)
	}
	theirPerson := newPerson(t, s, them.AccountID, "Theirs")
	theirTask, err := s.CreateTask(t.Context(), them.AccountID, theirPerson.ID, store.TaskInput{Name: "theirs", CategoryID: &theirs.ID})
	if err != nil {
		t.Fatal(err)
	}

	t.Run("deletes it and keeps its tasks without a category", func(t *testing.T) {
		wantErr(t, s.DeleteTaskCategory(t.Context(), me.AccountID, gone.ID), nil)
		if _, err := s.TaskCategory(t.Context(), me.AccountID, gone.ID); !errors.Is(err, store.ErrCategoryNotFound) {
			t.Errorf("the category is still there: %v", err)
		}
		got, err := s.Task(t.Context(), me.AccountID, p.ID, orphan.ID)
		want := orphan
		want.Category = nil
		if err != nil || !reflect.DeepEqual(got, want) {
			t.Errorf("the task %v (%v)\nwant %v", showTask(got), err, showTask(want))
		}
		if got, _ := s.Task(t.Context(), me.AccountID, p.ID, keptTask.ID); !reflect.DeepEqual(got, keptTask) {
			t.Errorf("a task of another category changed: %v", showTask(got))
		}
		if cats, _ := s.TaskCategories(t.Context(), me.AccountID); len(cats) != 5 {
			t.Errorf("%d categories left, want 5", len(cats))
		}
		if _, err := s.CreateTask(t.Context(), me.AccountID, p.ID, store.TaskInput{Name: "x", CategoryID: &gone.ID}); !errors.Is(err, store.ErrUnknownCategory) {
			t.Errorf("a task in the deleted category: %v", err)
		}
	})

	cases := []struct {
		name string
		id   int64
	}{
		{"a deleted category is not found", gone.ID},
		{"a missing category is not found", theirs.ID + 100},
		{"another account's category is not found", theirs.ID},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			wantErr(t, s.DeleteTaskCategory(t.Context(), me.AccountID, tc.id), store.ErrCategoryNotFound)
			if got, err := s.TaskCategory(t.Context(), them.AccountID, theirs.ID); err != nil || !reflect.DeepEqual(got, theirs) {
				t.Errorf("their category: %+v, %v", got, err)
			}
			if got, _ := s.Task(t.Context(), them.AccountID, theirPerson.ID, theirTask.ID); !reflect.DeepEqual(got, theirTask) {
				t.Errorf("their task changed: %v", showTask(got))
			}
		})
	}
}
