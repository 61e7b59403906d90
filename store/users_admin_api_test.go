package store_test

import (
	"crypto/sha256"
	"errors"
	"fmt"
	"reflect"
	"testing"
	"time"

	"golang.org/x/crypto/bcrypt"

	"kith/store"
)

// fillAccount gives the user's account a row in every table of an account
// and the user a row in every table of a user, and returns their counts
// as RowsOf reads them.
func fillAccount(t *testing.T, s *store.Store, u store.User) map[string]int64 {
	t.Helper()
	ctx := t.Context()
	full := importedPerson("Full")
	full.StayInTouch = &store.Cadence{EveryDays: 7, SinceOn: "2026-03-01", CreatedAt: 1, UpdatedAt: 1}
	full.ContactDetails = []store.ContactDetail{{Kind: "email", Value: ptr("full@example.com"), CreatedAt: 1, UpdatedAt: 1}}
	full.ImportantDates = []store.ImportantDate{{Label: "met", Month: 2, Day: 29, RemindYearly: true, CreatedAt: 1, UpdatedAt: 1}}
	full.Gifts = []store.Gift{{Name: "a book", Status: "idea", CreatedAt: 1, UpdatedAt: 1}}
	full.LifeEvents = []store.LifeEvent{{Description: "moved", HappenedAt: 1, CreatedAt: 1, UpdatedAt: 1}}
	full.WorkHistory = []store.WorkEntry{{JobTitle: "engineer", Active: true, CreatedAt: 1, UpdatedAt: 1}}
	full.Interactions = []store.Interaction{{HappenedOn: "2026-03-02", Kind: "call", CreatedAt: 1, UpdatedAt: 1}}
	in := importOf(full, importedPerson("Gone"), importedPerson("Kin"))
	in.Journals = []store.JournalRecord{{Journal: store.Journal{Name: "Travels", CreatedAt: 1, UpdatedAt: 1},
		Entries: []store.Entry{{Year: 2025, Month: 1, Day: 1, CreatedAt: 1, UpdatedAt: 1}}}}
	in.Reminders = &store.ReminderSettings{Days: 7}
	if _, err := s.ImportAccount(ctx, u.AccountID, u.ID, in); err != nil {
		t.Fatal(err)
	}
	persons, _, err := s.Persons(ctx, u.AccountID, 10, 0)
	if err != nil {
		t.Fatal(err)
	}
	byName := map[string]int64{}
	for _, p := range persons {
		byName[p.FirstName] = p.ID
		if p.FirstName == "Gone" { // a card deleted, for deleted_cards
			wantErr(t, s.DeletePerson(ctx, u.AccountID, p.ID), nil)
		}
		if p.FirstName == "Full" { // tags and person_tags, photos
			if _, err := s.SetPhoto(ctx, u.AccountID, p.ID, []byte("a JPEG")); err != nil {
				t.Fatal(err)
			}
			if _, err := s.SetPersonTags(ctx, u.AccountID, p.ID, []string{"Chess"}); err != nil {
				t.Fatal(err)
			}
		}
	}
	types, err := s.RelationshipTypes(ctx, u.AccountID)
	if err != nil || len(types) == 0 {
		t.Fatalf("relationship types %v, %v", types, err)
	}
	if _, err := s.CreateRelationship(ctx, u.AccountID, byName["Full"], types[0].ID, byName["Kin"]); err != nil {
		t.Fatal(err)
	}
	if _, err := s.CreateReminder(ctx, u.AccountID, byName["Full"], store.ReminderInput{Label: "Call", StartsOn: "2026-01-01", Frequency: "monthly", Every: 1}); err != nil {
		t.Fatal(err)
	}
	// Logged as the user's (logs), with a key of theirs (api_keys).
	if _, _, err := s.CreateAPIKey(store.WithActor(ctx, u.ID), u.ID, "phone"); err != nil {
		t.Fatal(err)
	}
	// Two-factor on, with its recovery codes (before the web session, which turning it on signs out).
	if _, err := s.SetPendingTwoFactor(ctx, u.ID, "JBSWY3DPEHPK3PXPJBSWY3DPEHPK3PXP"); err != nil {
		t.Fatal(err)
	}
	if err := s.ConfirmTwoFactor(ctx, u.ID, "JBSWY3DPEHPK3PXPJBSWY3DPEHPK3PXP", 1, [][]byte{make([]byte, 32)}, 0); err != nil {
		t.Fatal(err)
	}
	if _, err := s.CreateWebSession(ctx, u.ID, store.WebClient{}); err != nil {
		t.Fatal(err)
	}
	// A passkey, its user handle, and a registration's challenge not yet answered.
	if _, err := s.PasskeyHandle(ctx, u.ID); err != nil {
		t.Fatal(err)
	}
	if _, err := s.AddPasskey(ctx, store.Passkey{UserID: u.ID, CredentialID: []byte(u.Email), PublicKey: []byte("k"), Name: "Laptop"}); err != nil {
		t.Fatal(err)
	}
	if err := s.IssuePasskeyChallenge(ctx, store.PasskeyRegister, u.ID, []byte(u.Email)); err != nil {
		t.Fatal(err)
	}
	if _, _, err := s.CreateCalendarFeed(ctx, u.ID); err != nil {
		t.Fatal(err)
	}
	// A digest's snooze link, used.
	hash := sha256.Sum256([]byte(fmt.Sprint("link of ", u.ID)))
	if err := s.UseActionLink(ctx, store.ActionLink{Hash: hash[:], UserID: u.ID, Do: store.ActionSnooze, Kind: "birthday", RefID: 1, Day: "2026-03-17"}); err != nil {
		t.Fatal(err)
	}
	if _, err := s.MailInSecret(ctx, u.ID); err != nil {
		t.Fatal(err)
	}
	counts, err := store.RowsOf(ctx, s, u.AccountID, u.ID)
	if err != nil {
		t.Fatal(err)
	}
	for table, n := range counts {
		if n == 0 && table != "persons_search (of no person)" && table != "foreign_key_check" &&
			table != "invitations" && table != "email_verifications" && table != "bulk_writes" {
			t.Errorf("the filled account has no row in %s", table)
		}
	}
	return counts
}

func TestDeleteUser(t *testing.T) {
	s := newStore(t)
	ctx := t.Context()
	last, other := twoAccounts(t, s)
	fillAccount(t, s, last)
	otherRows := fillAccount(t, s, other)
	inv, err := s.InviteUser(ctx, last.ID, store.Invitee{Email: "invited@example.com", FirstName: "I", LastName: "N"})
	if err != nil {
		t.Fatal(err)
	}

	t.Run("a user beside another keeps the account and takes only their rows", func(t *testing.T) {
		before, _ := store.RowsOf(ctx, s, last.AccountID)
		plan, err := s.UserDeletionOf(ctx, "  INVITED@example.com ")
		if err != nil || plan.User.ID != inv.User.ID || plan.AccountDeleted() || plan.OtherUsers != 1 {
			t.Fatalf("plan %+v, %v", plan, err)
		}
		if n := rowsIn(plan, "invitations"); n != 1 {
			t.Errorf("the plan counts %d invitations, want 1", n)
		}
		if n := rowsIn(plan, "persons"); n != -1 {
			t.Errorf("the plan counts the account's persons (%d), which stay", n)
		}
		d, err := s.DeleteUser(ctx, "invited@example.com")
		if err != nil || !reflect.DeepEqual(d, plan) {
			t.Fatalf("deleted %+v, %v; the plan was %+v", d, err, plan)
		}
		wantErr(t, func() error { _, err := s.User(ctx, inv.User.ID); return err }(), store.ErrUserNotFound)
		if _, err := s.User(ctx, last.ID); err != nil {
			t.Errorf("the other user of the account: %v", err)
		}
		gone, _ := store.RowsOf(ctx, s, 0, inv.User.ID)
		after, _ := store.RowsOf(ctx, s, last.AccountID)
		for table, n := range gone {
			if n != 0 {
				t.Errorf("%d rows of the deleted user left in %s", n, table)
			}
		}
		for table, n := range before {
			if table != "users" && table != "channels" && after[table] != n {
				t.Errorf("%s: %d rows of the account before, %d after", table, n, after[table])
			}
		}
	})

	t.Run("the last user takes the account and every row of it", func(t *testing.T) {
		plan, err := s.UserDeletionOf(ctx, last.Email)
		if err != nil || !plan.AccountDeleted() {
			t.Fatalf("plan %+v, %v", plan, err)
		}
		if rowsIn(plan, "persons") != 2 || rowsIn(plan, "tasks") != 2 || rowsIn(plan, "api_keys") != 1 || rowsIn(plan, "web_sessions") != 1 {
			t.Errorf("plan %+v", plan.Rows)
		}
		// The plan names its tables by hand: it must count each table the
		// catalog has of an account or a user, as RowsOf does.
		want, err := store.RowsOf(ctx, s, last.AccountID, last.ID)
		if err != nil {
			t.Fatal(err)
		}
		for table, n := range want {
			switch table {
			// bulk_writes holds a row only inside an import's transaction.
			case "accounts", "users", "persons_search (of no person)", "foreign_key_check", "bulk_writes":
				continue
			}
			if got := rowsIn(plan, table); got != n {
				t.Errorf("the plan counts %d rows in %s, RowsOf %d", got, table, n)
			}
		}
		d, err := s.DeleteUser(ctx, last.Email)
		if err != nil || !reflect.DeepEqual(d, plan) {
			t.Fatalf("deleted %+v, %v; the plan was %+v", d, err, plan)
		}
		left, err := store.RowsOf(ctx, s, last.AccountID, last.ID, inv.User.ID)
		if err != nil {
			t.Fatal(err)
		}
		for table, n := range left {
			if n != 0 {
				t.Errorf("%d rows left in %s", n, table)
			}
		}
		if got, _ := store.RowsOf(ctx, s, other.AccountID, other.ID); !reflect.DeepEqual(got, otherRows) {
			t.Errorf("the other account's rows changed:\n%v\nwere\n%v", got, otherRows)
		}
		if _, err := s.Login(ctx, other.Email, testPassword); err != nil {
			t.Errorf("the other account's user: %v", err)
		}
	})

	t.Run("an unknown email is not found, and deletes nothing", func(t *testing.T) {
		_, err := s.DeleteUser(ctx, "nobody@example.com")
		wantErr(t, err, store.ErrUserNotFound)
		_, err = s.UserDeletionOf(ctx, last.Email)
		wantErr(t, err, store.ErrUserNotFound)
		if got, _ := store.RowsOf(ctx, s, other.AccountID, other.ID); !reflect.DeepEqual(got, otherRows) {
			t.Errorf("the other account's rows changed:\n%v\nwere\n%v", got, otherRows)
		}
	})
}

// rowsIn is the plan's count of table, -1 when it does not count it.
func rowsIn(d store.UserDeletion, table string) int64 {
	for _, r := range d.Rows {
		if r.Table == table {
			return r.Rows
		}
	}
	return -1
}

func TestSetPassword(t *testing.T) {
	s := newStore(t)
	ctx := t.Context()
	u, other := twoAccounts(t, s)
	for _, who := range []store.User{u, other} {
		if _, err := s.CreateWebSession(ctx, who.ID, store.WebClient{}); err != nil {
			t.Fatal(err)
		}
	}
	cookie, _ := s.CreateWebSession(ctx, u.ID, store.WebClient{})
	_, token, _ := s.CreateAPIKey(ctx, u.ID, "phone")
	otherCookie, _ := s.CreateWebSession(ctx, other.ID, store.WebClient{})
	advance(s, time.Minute)

	t.Run("signs the user out of the web app and keeps their keys", func(t *testing.T) {
		pc, err := s.SetPassword(ctx, " "+u.Email+" ", "new password", false)
		if err != nil || pc.User.ID != u.ID || pc.Sessions != 2 || pc.Keys != 0 || pc.Invitations != 0 {
			t.Fatalf("%+v, %v", pc, err)
		}
		if pc.User.UpdatedAt != nowUnix(s) || bcrypt.CompareHashAndPassword(pc.User.PasswordHash, []byte("new password")) != nil {
			t.Errorf("user after: %+v", pc.User)
		}
		if _, err := s.Login(ctx, u.Email, "new password"); err != nil {
			t.Errorf("the new password: %v", err)
		}
		wantErr(t, func() error { _, err := s.Login(ctx, u.Email, testPassword); return err }(), store.ErrInvalidCredentials)
		wantErr(t, func() error { _, err := s.WebSession(ctx, cookie); return err }(), store.ErrUnauthenticated)
		if _, err := s.Authenticate(ctx, token); err != nil {
			t.Errorf("the key without revokeKeys: %v", err)
		}
		if _, err := s.WebSession(ctx, otherCookie); err != nil {
			t.Errorf("another user's session: %v", err)
		}
	})
	t.Run("with revokeKeys revokes the keys too", func(t *testing.T) {
		pc, err := s.SetPassword(ctx, u.Email, "newer password", true)
		if err != nil || pc.Sessions != 0 || pc.Keys != 1 {
			t.Fatalf("%+v, %v", pc, err)
		}
		wantErr(t, func() error { _, err := s.Authenticate(ctx, token); return err }(), store.ErrUnauthenticated)
	})
	t.Run("an invited user joins by it and their invitation is spent", func(t *testing.T) {
		inv, err := s.InviteUser(ctx, u.ID, store.Invitee{Email: "invited@example.com", FirstName: "I", LastName: "N"})
		if err != nil {
			t.Fatal(err)
		}
		pc, err := s.SetPassword(ctx, "invited@example.com", "their password", false)
		if err != nil || pc.Invitations != 1 || !pc.User.Joined() {
			t.Fatalf("%+v, %v", pc, err)
		}
		_, err = s.AcceptInvitation(ctx, inv.Secret, "another password")
		wantErr(t, err, store.ErrInvitationInvalid)
	})
	t.Run("refusals change nothing", func(t *testing.T) {
		for _, tc := range []struct {
			name, email, password string
			want                  error
		}{
			{"an unknown email", "nobody@example.com", "long enough", store.ErrUserNotFound},
			{"a short password", u.Email, "short", store.ErrPasswordLength},
			{"a long password", u.Email, string(make([]byte, 73)), store.ErrPasswordLength},
		} {
			_, err := s.SetPassword(ctx, tc.email, tc.password, true)
			if !errors.Is(err, tc.want) {
				t.Errorf("%s: %v, want %v", tc.name, err, tc.want)
			}
		}
		if _, err := s.Login(ctx, u.Email, "newer password"); err != nil {
			t.Errorf("the password after refusals: %v", err)
		}
	})
}

// TestUsersLastSeen: a user is last seen at their newest web sign-in, or
// their newest key's last use or creation; a user with neither, never.
func TestUsersLastSeen(t *testing.T) {
	s := newStore(t)
	ctx := t.Context()
	signer, user := twoAccounts(t, s)
	maker, never := twoAccounts(t, s)
	created := nowUnix(s)
	advance(s, time.Hour)
	web, err := s.CreateWebSession(ctx, signer.ID, store.WebClient{})
	if err != nil {
		t.Fatal(err)
	}
	// A page an hour later: the session was seen then, not only made.
	advance(s, time.Hour)
	ws, err := s.WebSession(ctx, web)
	if err != nil {
		t.Fatal(err)
	}
	wantErr(t, s.TouchWebSession(ctx, ws.KeyID, "192.0.2.1"), nil)
	signedIn := nowUnix(s)
	advance(s, time.Hour)
	_, token, err := s.CreateAPIKey(ctx, user.ID, "phone")
	if err != nil {
		t.Fatal(err)
	}
	if _, _, err := s.CreateAPIKey(ctx, maker.ID, "never used"); err != nil {
		t.Fatal(err)
	}
	keyMade := nowUnix(s)
	advance(s, time.Hour)
	sess, err := s.Authenticate(ctx, token)
	if err != nil {
		t.Fatal(err)
	}
	wantErr(t, s.TouchAPIKey(ctx, sess.KeyID), nil)
	used := nowUnix(s)

	users, err := s.Users(ctx)
	if err != nil {
		t.Fatal(err)
	}
	want := map[int64]*int64{signer.ID: &signedIn, user.ID: &used, maker.ID: &keyMade, never.ID: nil}
	seen := 0
	for i, l := range users {
		if i > 0 && users[i-1].ID >= l.ID {
			t.Errorf("not in id order: %d after %d", l.ID, users[i-1].ID)
		}
		w, ok := want[l.ID]
		if !ok {
			continue
		}
		seen++
		if !reflect.DeepEqual(l.LastSeenAt, w) || l.CreatedAt != created || l.Email == "" {
			t.Errorf("user %d: last seen %v, created %d; want %v, %d", l.ID, deref(l.LastSeenAt), l.CreatedAt, deref(w), created)
		}
	}
	if seen != len(want) {
		t.Errorf("listed %d of the %d users", seen, len(want))
	}
}
