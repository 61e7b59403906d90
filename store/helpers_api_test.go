package store_test

// The *_api_test.go files test the store through its exported API only, so
// that they can later run unchanged against another engine. Nothing in them
// may reach into SQLite; the backup tests, which are about SQLite files,
// are the exception.

import (
	"context"
	"errors"
	"fmt"
	"reflect"
	"sync/atomic"
	"testing"
	"time"

	"golang.org/x/crypto/bcrypt"

	"kith/store"
	"kith/store/storetest"
)

// t0 is the fixed time every test store starts at.
var t0 = time.Unix(1_800_000_000, 0).UTC()

// testPassword is the password of every fixture user.
const testPassword = "password1"

// TestMain runs the store's tests on SQLite and, with
// KITH_TEST_POSTGRES_URL set, again on PostgreSQL.
func TestMain(m *testing.M) { storetest.Main(m) }

// newStore opens and migrates a store on a new database of this run's
// engine, with the clock fixed at t0 and cheap password hashes.
func newStore(t *testing.T) *store.Store {
	t.Helper()
	s, _ := newStoreAt(t)
	return s
}

// newStoreAt is newStore that also returns the db value that opens the
// database again (a file path, or a PostgreSQL URL).
func newStoreAt(t testing.TB) (*store.Store, string) {
	t.Helper()
	where := storetest.Migrated(t)
	return openFresh(t, where), where
}

// openFresh opens and migrates a store on the new database where, with
// the clock fixed at t0 and cheap password hashes.
func openFresh(t testing.TB, where string) *store.Store {
	t.Helper()
	s, err := store.Open(t.Context(), where)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { s.Close() })
	setClock(s, t0)
	s.PasswordCost = bcrypt.MinCost
	if _, err := s.Migrate(t.Context()); err != nil {
		t.Fatal(err)
	}
	return s
}

// setClock fixes the store's clock at now.
func setClock(s *store.Store, now time.Time) {
	var sec atomic.Int64
	sec.Store(now.Unix())
	s.Now = func() time.Time { return time.Unix(sec.Load(), 0) }
}

// advance moves the store's fixed clock on by d.
func advance(s *store.Store, d time.Duration) {
	setClock(s, s.Now().Add(d))
}

// nowUnix is the store's current fixed time in Unix seconds.
func nowUnix(s *store.Store) int64 { return s.Now().Unix() }

var userSeq atomic.Int64

// newUser creates a user with testPassword in a new account.
func newUser(t *testing.T, s *store.Store) store.User {
	t.Helper()
	n := userSeq.Add(1)
	u, err := s.CreateUser(t.Context(), store.NewUser{
		FirstName: fmt.Sprint("User", n), LastName: "Test",
		Email: fmt.Sprintf("user%d@example.com", n), Password: testPassword,
	})
	if err != nil {
		t.Fatal(err)
	}
	return u
}

// twoAccounts returns a user of one account and a user of another.
func twoAccounts(t *testing.T, s *store.Store) (mine, theirs store.User) {
	t.Helper()
	mine, theirs = newUser(t, s), newUser(t, s)
	if mine.AccountID == theirs.AccountID {
		t.Fatalf("both users are in account %d", mine.AccountID)
	}
	return mine, theirs
}

// personIn is a valid PersonInput with this first name.
func personIn(first string) store.PersonInput {
	return store.PersonInput{FirstName: first, MaritalStatus: "unknown", KidsStatus: "unknown", CanBeDeleted: true, IsListed: true}
}

// newPerson creates a deletable person in the account.
func newPerson(t *testing.T, s *store.Store, accountID int64, first string) store.Person {
	t.Helper()
	p, err := s.CreatePerson(t.Context(), accountID, personIn(first))
	if err != nil {
		t.Fatal(err)
	}
	return p
}

// newTask creates a task of the person without a category.
func newTask(t *testing.T, s *store.Store, accountID, personID int64, name string) store.Task {
	t.Helper()
	tk, err := s.CreateTask(t.Context(), accountID, personID, store.TaskInput{Name: name})
	if err != nil {
		t.Fatal(err)
	}
	return tk
}

// wantErr fails the test unless errors.Is(err, want); a nil want asks for
// no error.
func wantErr(t *testing.T, err, want error) {
	t.Helper()
	if want == nil && err != nil {
		t.Fatalf("error %v, want none", err)
	}
	if want != nil && !errors.Is(err, want) {
		t.Fatalf("error %v, want %v", err, want)
	}
}

func ptr[T any](v T) *T { return &v }

// deref shows a pointer's value, or nil, in failure messages.
func deref[T any](p *T) any {
	if p == nil {
		return nil
	}
	return *p
}

// personKind is one kind of record that belongs to a person (a gift, a
// note, a task...), through the store's methods for it, each called with
// an account, a person and, but for create and list, a record's id.
type personKind struct {
	name     string
	notFound error // what asking a person for a record it does not have gives
	create   func(ctx context.Context, accountID, personID int64) (id int64, err error)
	get      func(ctx context.Context, accountID, personID, id int64) (any, error)
	update   func(ctx context.Context, accountID, personID, id int64) error
	delete   func(ctx context.Context, accountID, personID, id int64) error
	list     func(ctx context.Context, accountID, personID int64) (int, error)
	// more are the kind's other calls on a person, by name, refused as
	// list is.
	more map[string]func(ctx context.Context, accountID, personID int64) error
}

// kindOf makes a personKind of the store's methods for records of type R
// made from an In: in is what create and update are given.
func kindOf[R, In any](name string, notFound error, in In,
	create func(context.Context, int64, int64, In) (R, error),
	get func(context.Context, int64, int64, int64) (R, error),
	update func(context.Context, int64, int64, int64, In) (R, error),
	del func(context.Context, int64, int64, int64) error,
	list func(context.Context, int64, int64) (int, error),
) personKind {
	return personKind{
		name: name, notFound: notFound,
		create: func(ctx context.Context, account, person int64) (int64, error) {
			r, err := create(ctx, account, person, in)
			return reflect.ValueOf(r).FieldByName("ID").Int(), err
		},
		get: func(ctx context.Context, account, person, id int64) (any, error) {
			return get(ctx, account, person, id)
		},
		update: func(ctx context.Context, account, person, id int64) error {
			_, err := update(ctx, account, person, id, in)
			return err
		},
		delete: del,
		list:   list,
	}
}

// count is the length of a list of a person's records.
func count[R any](list func(context.Context, int64, int64) ([]R, error)) func(context.Context, int64, int64) (int, error) {
	return func(ctx context.Context, account, person int64) (int, error) {
		rs, err := list(ctx, account, person)
		return len(rs), err
	}
}

// countPages is the length of a paged list of a person's records, whose
// total must agree with it.
func countPages[R any](list func(context.Context, int64, int64, int64, int64) ([]R, int64, error)) func(context.Context, int64, int64) (int, error) {
	return func(ctx context.Context, account, person int64) (int, error) {
		rs, total, err := list(ctx, account, person, 1000, 0)
		if err == nil && total != int64(len(rs)) {
			err = fmt.Errorf("a page of %d, a total of %d", len(rs), total)
		}
		return len(rs), err
	}
}

// personKinds are every kind of record that belongs to a person.
func personKinds(s *store.Store) []personKind {
	interactions := kindOf("interaction", store.ErrInteractionNotFound, store.InteractionInput{HappenedOn: "2026-01-01", Kind: "call"},
		s.CreateInteraction, s.Interaction, s.UpdateInteraction, s.DeleteInteraction, countPages(s.Interactions))
	interactions.more = map[string]func(context.Context, int64, int64) error{
		"StayInTouch": func(ctx context.Context, account, person int64) error {
			_, err := s.StayInTouch(ctx, account, person)
			return err
		},
		"SetStayInTouch every 7 days": func(ctx context.Context, account, person int64) error {
			_, err := s.SetStayInTouch(ctx, account, person, ptr(int64(7)), "2026-01-01")
			return err
		},
		"SetStayInTouch off": func(ctx context.Context, account, person int64) error {
			_, err := s.SetStayInTouch(ctx, account, person, nil, "2026-01-01")
			return err
		},
	}
	return []personKind{
		kindOf("contact detail", store.ErrContactDetailNotFound, store.ContactDetailInput{Kind: "phone", Value: ptr("1")},
			s.CreateContactDetail, s.ContactDetail, s.UpdateContactDetail, s.DeleteContactDetail,
			func(ctx context.Context, account, person int64) (int, error) {
				ds, err := s.ContactDetails(ctx, account, person, "")
				return len(ds), err
			}),
		kindOf("gift", store.ErrGiftNotFound, store.GiftInput{Name: "x", Status: "idea"},
			s.CreateGift, s.Gift, s.UpdateGift, s.DeleteGift, count(s.Gifts)),
		kindOf("important date", store.ErrImportantDateNotFound, store.ImportantDateInput{Label: "x", Month: 1, Day: 1},
			s.CreateImportantDate, s.ImportantDate, s.UpdateImportantDate, s.DeleteImportantDate, count(s.ImportantDates)),
		interactions,
		kindOf("life event", store.ErrLifeEventNotFound, store.LifeEventInput{Description: "x"},
			s.CreateLifeEvent, s.LifeEvent, s.UpdateLifeEvent, s.DeleteLifeEvent, count(s.LifeEvents)),
		kindOf("note", store.ErrNoteNotFound, "x",
			s.CreateNote, s.Note, s.UpdateNote, s.DeleteNote, countPages(s.Notes)),
		kindOf("reminder", store.ErrReminderNotFound, store.ReminderInput{Label: "x", StartsOn: "2026-01-01", Frequency: "weekly", Every: 1},
			s.CreateReminder, s.Reminder, s.UpdateReminder, s.DeleteReminder, count(s.Reminders)),
		kindOf("task", store.ErrTaskNotFound, store.TaskInput{Name: "x"},
			s.CreateTask, s.Task, s.UpdateTask, s.DeleteTask, count(s.Tasks)),
		// Every entry is active, so that a refused update that still
		// made the person's other entries inactive shows.
		kindOf("work entry", store.ErrWorkEntryNotFound, store.WorkEntryInput{JobTitle: "x", Active: true},
			s.CreateWorkEntry, s.WorkEntry, s.UpdateWorkEntry, s.DeleteWorkEntry, countPages(s.WorkHistory)),
	}
}

// isolated is two accounts, mine with Jim and Pam and theirs with
// Theirs, each person with one record of every personKind.
type isolated struct {
	me, them         store.User
	jim, pam, theirs store.Person
	kinds            []personKind
	// records[kind name] are the records of that kind, as created:
	// Jim's, Pam's, then Theirs'.
	records map[string][]owned
}

// owned is a record, whose it is and what it was when created.
type owned struct {
	who                 string
	account, person, id int64
	saved               any
}

// isolationFixture makes the isolated accounts in s.
func isolationFixture(t *testing.T, s *store.Store) isolated {
	t.Helper()
	ctx := t.Context()
	f := isolated{kinds: personKinds(s), records: map[string][]owned{}}
	f.me, f.them = twoAccounts(t, s)
	f.jim = newPerson(t, s, f.me.AccountID, "Jim")
	f.pam = newPerson(t, s, f.me.AccountID, "Pam")
	f.theirs = newPerson(t, s, f.them.AccountID, "Theirs")
	for _, k := range f.kinds {
		for _, p := range []struct {
			who             string
			account, person int64
		}{
			{"Jim", f.me.AccountID, f.jim.ID}, {"Pam", f.me.AccountID, f.pam.ID}, {"Theirs", f.them.AccountID, f.theirs.ID},
		} {
			id, err := k.create(ctx, p.account, p.person)
			if err != nil {
				t.Fatalf("%s: %v", k.name, err)
			}
			saved, err := k.get(ctx, p.account, p.person, id)
			if err != nil {
				t.Fatalf("%s: %v", k.name, err)
			}
			f.records[k.name] = append(f.records[k.name], owned{p.who, p.account, p.person, id, saved})
		}
	}
	return f
}
