package store_test

import (
	"testing"
	"time"

	"kith/store"
)

func TestInvitations(t *testing.T) {
	s := newStore(t)
	me, them := twoAccounts(t, s)
	ctx := store.WithActor(t.Context(), me.ID)

	inv, err := s.InviteUser(ctx, me.ID, store.Invitee{Email: "  New@Example.com ", FirstName: "New", LastName: "Comer"})
	if err != nil {
		t.Fatal(err)
	}
	u := inv.User
	if u.AccountID != me.AccountID || u.Email != "new@example.com" || u.Timezone != "UTC" || u.Joined() || u.Verified() ||
		inv.InvitedBy != me.FirstName+" "+me.LastName || len(inv.Secret) < 32 {
		t.Fatalf("invitation %+v", inv)
	}
	logs, _, err := s.Logs(t.Context(), me.ID, 1, 0)
	if err != nil || len(logs) != 1 || logs[0].Action != "user_invitation" || logs[0].Description != "Invited new@example.com to the account" {
		t.Errorf("log %+v %v", logs, err)
	}

	t.Run("an invited user cannot log in", func(t *testing.T) {
		for _, pw := range []string{"", testPassword} {
			_, err := s.Login(t.Context(), "new@example.com", pw)
			wantErr(t, err, store.ErrInvalidCredentials)
		}
	})
	t.Run("the email is taken, ignoring case", func(t *testing.T) {
		_, err := s.InviteUser(ctx, me.ID, store.Invitee{Email: "NEW@example.com", FirstName: "x", LastName: "y"})
		wantErr(t, err, store.ErrEmailTaken)
		_, err = s.InviteUser(ctx, me.ID, store.Invitee{Email: them.Email, FirstName: "x", LastName: "y"})
		wantErr(t, err, store.ErrEmailTaken)
		_, err = s.InviteUser(ctx, me.ID, store.Invitee{Email: "not an email", FirstName: "x", LastName: "y"})
		wantErr(t, err, store.ErrInvalidEmail)
	})
	t.Run("a reinvitation voids the earlier link", func(t *testing.T) {
		again, err := s.Reinvite(ctx, me.ID, u.ID)
		if err != nil || again.Secret == inv.Secret || again.User.ID != u.ID {
			t.Fatalf("reinvite %+v %v", again, err)
		}
		_, err = s.AcceptInvitation(t.Context(), inv.Secret, "new password")
		wantErr(t, err, store.ErrInvitationInvalid)
		inv = again
		logs, _, _ := s.Logs(t.Context(), me.ID, 1, 0)
		if logs[0].Action != "user_invitation_resend" || logs[0].Description != "Resent invitation to new@example.com" {
			t.Errorf("log %+v", logs[0])
		}
	})
	t.Run("only users of the inviter's account who have not joined", func(t *testing.T) {
		_, err := s.Reinvite(ctx, them.ID, u.ID)
		wantErr(t, err, store.ErrUserNotFound)
		_, err = s.Reinvite(ctx, me.ID, them.ID)
		wantErr(t, err, store.ErrUserNotFound)
		_, err = s.Reinvite(ctx, me.ID, 999999)
		wantErr(t, err, store.ErrUserNotFound)
		_, err = s.Reinvite(ctx, me.ID, me.ID)
		wantErr(t, err, store.ErrUserJoined)
	})
	t.Run("bad links and passwords", func(t *testing.T) {
		for _, secret := range []string{"", "nope", string(make([]byte, 300))} {
			_, err := s.AcceptInvitation(t.Context(), secret, "new password")
			wantErr(t, err, store.ErrInvitationInvalid)
		}
		_, err := s.AcceptInvitation(t.Context(), inv.Secret, "short")
		wantErr(t, err, store.ErrPasswordLength)
	})
	t.Run("accepting joins the user, once", func(t *testing.T) {
		advance(s, time.Hour)
		got, err := s.AcceptInvitation(t.Context(), inv.Secret, "new password")
		if err != nil || got.ID != u.ID || !got.Joined() || !got.Verified() || *got.EmailVerifiedAt != nowUnix(s) {
			t.Fatalf("accepted %+v %v", got, err)
		}
		if logged, err := s.Login(t.Context(), "new@example.com", "new password"); err != nil || logged.ID != u.ID {
			t.Errorf("login after joining: %+v %v", logged, err)
		}
		_, err = s.AcceptInvitation(t.Context(), inv.Secret, "other password")
		wantErr(t, err, store.ErrInvitationInvalid)
		_, err = s.Reinvite(ctx, me.ID, u.ID)
		wantErr(t, err, store.ErrUserJoined)
		// Accepting is no logged action: it has no actor.
		if logs, _, _ := s.Logs(t.Context(), u.ID, 10, 0); len(logs) != 0 {
			t.Errorf("accepting logged %+v", logs)
		}
	})
	t.Run("a link expires after 72 hours", func(t *testing.T) {
		late, err := s.InviteUser(ctx, me.ID, store.Invitee{Email: "late@example.com", FirstName: "Late", LastName: "Comer"})
		if err != nil {
			t.Fatal(err)
		}
		advance(s, 72*time.Hour)
		_, err = s.AcceptInvitation(t.Context(), late.Secret, "new password")
		wantErr(t, err, store.ErrInvitationInvalid)
		fresh, err := s.Reinvite(ctx, me.ID, late.User.ID)
		if err != nil {
			t.Fatal(err)
		}
		advance(s, 72*time.Hour-time.Second)
		if _, err := s.AcceptInvitation(t.Context(), fresh.Secret, "new password"); err != nil {
			t.Errorf("a second before expiry: %v", err)
		}
	})
	t.Run("two accepting at once: one joins, the other is refused", func(t *testing.T) {
		race, err := s.InviteUser(ctx, me.ID, store.Invitee{Email: "race@example.com", FirstName: "Race", LastName: "Condition"})
		if err != nil {
			t.Fatal(err)
		}
		errs := make(chan error, 2)
		for _, pw := range []string{"first password", "second password"} {
			go func() {
				_, err := s.AcceptInvitation(t.Context(), race.Secret, pw)
				errs <- err
			}()
		}
		e1, e2 := <-errs, <-errs
		if (e1 == nil) == (e2 == nil) {
			t.Fatalf("both or neither joined: %v, %v", e1, e2)
		}
		if e1 != nil {
			e1, e2 = e2, e1
		}
		wantErr(t, e2, store.ErrInvitationInvalid)
	})
}
