package store_test

import (
	"errors"
	"reflect"
	"strings"
	"sync"
	"testing"
	"time"

	"golang.org/x/crypto/bcrypt"

	"kith/store"
)

func TestValidEmail(t *testing.T) {
	cases := []struct {
		name string
		in   string
		want bool
	}{
		{"a bare address is valid", "ada@example.com", true},
		{"a plus tag is valid", "ada+kith@example.com", true},
		{"a display name is not", "Ada <ada@example.com>", false},
		{"an address in angle brackets is not", "<ada@example.com>", false},
		{"no at sign is not", "ada.example.com", false},
		{"an empty string is not", "", false},
		{"a space inside is not", "ada lovelace@example.com", false},
		{"surrounding spaces are not", " ada@example.com ", false},
		{"a trailing newline is not", "ada@example.com\n", false},
		{"two addresses are not", "a@example.com, b@example.com", false},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			if got := store.ValidEmail(tc.in); got != tc.want {
				t.Errorf("ValidEmail(%q) = %t, want %t", tc.in, got, tc.want)
			}
		})
	}
}

func TestCreateUser(t *testing.T) {
	s := newStore(t)
	advance(s, time.Hour)
	u, err := s.CreateUser(t.Context(), store.NewUser{FirstName: "Ada", LastName: "Lovelace", Email: "  Ada@Example.COM ", Password: testPassword})
	if err != nil {
		t.Fatal(err)
	}
	now := nowUnix(s)
	want := store.User{ID: u.ID, AccountID: u.AccountID, FirstName: "Ada", LastName: "Lovelace", Email: "ada@example.com",
		Timezone: "UTC", EmailVerifiedAt: &now, CreatedAt: now, UpdatedAt: now, PasswordHash: u.PasswordHash}
	if u.ID <= 0 || u.AccountID <= 0 || !reflect.DeepEqual(u, want) {
		t.Errorf("created %+v\nwant %+v", u, want)
	}
	if !u.Verified() {
		t.Error("a new user is not verified")
	}
	if bcrypt.CompareHashAndPassword(u.PasswordHash, []byte(testPassword)) != nil || strings.Contains(string(u.PasswordHash), testPassword) {
		t.Errorf("password hash %q is not a bcrypt hash of the password", u.PasswordHash)
	}
	if got, err := s.User(t.Context(), u.ID); err != nil || !reflect.DeepEqual(got, u) {
		t.Errorf("read back %+v, %v", got, err)
	}

	t.Run("a user given an account joins it and shares its persons", func(t *testing.T) {
		p := newPerson(t, s, u.AccountID, "Shared")
		b, err := s.CreateUser(t.Context(), store.NewUser{FirstName: "B", LastName: "L", Email: "b@example.com", Password: testPassword, AccountID: u.AccountID})
		if err != nil || b.AccountID != u.AccountID {
			t.Fatalf("joined account %d, %v; want %d", b.AccountID, err, u.AccountID)
		}
		if _, err := s.Person(t.Context(), b.AccountID, p.ID); err != nil {
			t.Errorf("the joiner cannot see the account's person: %v", err)
		}
	})
	t.Run("a user without an account gets a new one", func(t *testing.T) {
		c := newUser(t, s)
		if c.AccountID == u.AccountID {
			t.Errorf("account %d shared", c.AccountID)
		}
	})

	cases := []struct {
		name string
		nu   store.NewUser
		want error
	}{
		{"a password of 8 bytes is accepted", store.NewUser{Email: "eight@example.com", Password: "12345678"}, nil},
		{"a password of 72 bytes is accepted", store.NewUser{Email: "long@example.com", Password: strings.Repeat("p", 72)}, nil},
		{"a taken email is refused", store.NewUser{Email: "ada@example.com", Password: testPassword}, store.ErrEmailTaken},
		{"a taken email in another case is refused", store.NewUser{Email: "ADA@example.com", Password: testPassword}, store.ErrEmailTaken},
		{"a taken email with spaces is refused", store.NewUser{Email: " ada@example.com", Password: testPassword}, store.ErrEmailTaken},
		{"not an email is refused", store.NewUser{Email: "ada", Password: testPassword}, store.ErrInvalidEmail},
		{"an email with a display name is refused", store.NewUser{Email: "Ada <x@example.com>", Password: testPassword}, store.ErrInvalidEmail},
		{"an empty email is refused", store.NewUser{Email: "", Password: testPassword}, store.ErrInvalidEmail},
		{"a password of 7 bytes is refused", store.NewUser{Email: "x@example.com", Password: "1234567"}, store.ErrPasswordLength},
		{"a password of 73 bytes is refused", store.NewUser{Email: "x@example.com", Password: strings.Repeat("p", 73)}, store.ErrPasswordLength},
		{"a password of 37 two-byte runes is refused", store.NewUser{Email: "x@example.com", Password: strings.Repeat("é", 37)}, store.ErrPasswordLength},
		{"an empty password is refused", store.NewUser{Email: "x@example.com"}, store.ErrPasswordLength},
		{"an account that does not exist is not found", store.NewUser{Email: "x@example.com", Password: testPassword, AccountID: 999}, store.ErrAccountNotFound},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			tc.nu.FirstName, tc.nu.LastName = "X", "Y"
			got, err := s.CreateUser(t.Context(), tc.nu)
			wantErr(t, err, tc.want)
			if tc.want == store.ErrAccountNotFound && !errors.Is(err, store.ErrNotFound) {
				t.Errorf("error %v does not match ErrNotFound", err)
			}
			if tc.want == nil {
				if _, err := s.Login(t.Context(), tc.nu.Email, tc.nu.Password); err != nil {
					t.Errorf("the new user cannot log in: %v", err)
				}
				return
			}
			if got.ID != 0 {
				t.Errorf("a refused user came back: %+v", got)
			}
			if _, err := s.Login(t.Context(), "x@example.com", tc.nu.Password); !errors.Is(err, store.ErrInvalidCredentials) {
				t.Errorf("a refused user can log in: %v", err)
			}
		})
	}
	if again, _ := s.User(t.Context(), u.ID); !reflect.DeepEqual(again, u) {
		t.Errorf("the refusals changed the first user: %+v", again)
	}
}

func TestUser(t *testing.T) {
	s := newStore(t)
	me, them := twoAccounts(t, s)
	for _, tc := range []struct {
		name string
		id   int64
		want store.User
		err  error
	}{
		{"found by id", me.ID, me, nil},
		{"another user by id", them.ID, them, nil},
		{"a missing user is not found", them.ID + 100, store.User{}, store.ErrUserNotFound},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got, err := s.User(t.Context(), tc.id)
			wantErr(t, err, tc.err)
			if tc.err != nil && !errors.Is(err, store.ErrNotFound) {
				t.Errorf("error %v does not match ErrNotFound", err)
			}
			if !reflect.DeepEqual(got, tc.want) {
				t.Errorf("got %+v, want %+v", got, tc.want)
			}
		})
	}
}

func TestLogin(t *testing.T) {
	s := newStore(t)
	me := newUser(t, s)
	long := strings.Repeat("p", 72)
	longUser, err := s.CreateUser(t.Context(), store.NewUser{FirstName: "L", LastName: "L", Email: "long@example.com", Password: long})
	if err != nil {
		t.Fatal(err)
	}
	cases := []struct {
		name     string
		email    string
		password string
		want     store.User
		err      error
	}{
		{"the right password logs in", me.Email, testPassword, me, nil},
		{"the email in another case logs in", strings.ToUpper(me.Email), testPassword, me, nil},
		{"a 72-byte password logs in", "long@example.com", long, longUser, nil},
		{"a wrong password is refused", me.Email, "password2", store.User{}, store.ErrInvalidCredentials},
		{"an empty password is refused", me.Email, "", store.User{}, store.ErrInvalidCredentials},
		{"the password in another case is refused", me.Email, strings.ToUpper(testPassword), store.User{}, store.ErrInvalidCredentials},
		{"bytes past the 72nd are not ignored", "long@example.com", long + "x", store.User{}, store.ErrInvalidCredentials},
		{"an unknown email is refused the same way", "nobody@example.com", testPassword, store.User{}, store.ErrInvalidCredentials},
		{"an empty email is refused the same way", "", testPassword, store.User{}, store.ErrInvalidCredentials},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			got, err := s.Login(t.Context(), tc.email, tc.password)
			wantErr(t, err, tc.err)
			if !reflect.DeepEqual(got, tc.want) {
				t.Errorf("got %+v, want %+v", got, tc.want)
			}
		})
	}
	t.Run("after an email change the new address logs in and the old does not", func(t *testing.T) {
		if _, _, err := s.UpdateProfile(t.Context(), me.ID, store.Profile{FirstName: "A", LastName: "B", Email: "moved@example.com"}); err != nil {
			t.Fatal(err)
		}
		if u, err := s.Login(t.Context(), "moved@example.com", testPassword); err != nil || u.ID != me.ID {
			t.Errorf("new address: %+v, %v", u, err)
		}
		if _, err := s.Login(t.Context(), me.Email, testPassword); !errors.Is(err, store.ErrInvalidCredentials) {
			t.Errorf("old address: %v", err)
		}
	})
}

func TestUpdateProfile(t *testing.T) {
	s := newStore(t)
	me, them := twoAccounts(t, s)
	_, token, err := s.CreateAPIKey(t.Context(), me.ID, "k")
	if err != nil {
		t.Fatal(err)
	}
	advance(s, time.Hour)

	t.Run("the same email in another case changes the profile and stays verified", func(t *testing.T) {
		p := store.Profile{FirstName: "Ada", LastName: "King", Email: strings.ToUpper(me.Email), Nickname: ptr("Countess"), BornAt: ptr[int64](-4_800_000_000)}
		u, secret, err := s.UpdateProfile(t.Context(), me.ID, p)
		if err != nil {
			t.Fatal(err)
		}
		want := me
		want.FirstName, want.LastName, want.Nickname, want.BornAt, want.UpdatedAt = "Ada", "King", p.Nickname, p.BornAt, nowUnix(s)
		if secret != "" || !reflect.DeepEqual(u, want) {
			t.Errorf("updated %+v, secret %q\nwant %+v", u, secret, want)
		}
		if stored, _ := s.User(t.Context(), me.ID); !reflect.DeepEqual(stored, u) {
			t.Errorf("stored %+v", stored)
		}
	})
	t.Run("clearing nickname and birth date", func(t *testing.T) {
		u, _, err := s.UpdateProfile(t.Context(), me.ID, store.Profile{FirstName: "Ada", LastName: "King", Email: me.Email})
		if err != nil || u.Nickname != nil || u.BornAt != nil {
			t.Errorf("nickname %v born %v, %v", deref(u.Nickname), deref(u.BornAt), err)
		}
	})
	t.Run("a taken email is refused and changes nothing", func(t *testing.T) {
		before, _ := s.User(t.Context(), me.ID)
		_, secret, err := s.UpdateProfile(t.Context(), me.ID, store.Profile{FirstName: "Z", LastName: "Z", Email: strings.ToUpper(them.Email)})
		wantErr(t, err, store.ErrEmailTaken)
		if secret != "" {
			t.Errorf("a secret %q for a refused change", secret)
		}
		if after, _ := s.User(t.Context(), me.ID); !reflect.DeepEqual(after, before) {
			t.Errorf("changed to %+v", after)
		}
	})
	t.Run("an email is checked and normalised as CreateUser does", func(t *testing.T) {
		for _, email := range []string{"not an email", ""} {
			_, _, err := s.UpdateProfile(t.Context(), me.ID, store.Profile{FirstName: "Z", LastName: "Z", Email: email})
			wantErr(t, err, store.ErrInvalidEmail)
		}
		u, _, err := s.UpdateProfile(t.Context(), me.ID, store.Profile{FirstName: "Z", LastName: "Z", Email: " Spaced@example.com "})
		if err != nil || u.Email != "spaced@example.com" {
			t.Errorf("email %q, %v; want it trimmed and lower-cased", u.Email, err)
		}
	})
	t.Run("a missing user is not found", func(t *testing.T) {
		_, _, err := s.UpdateProfile(t.Context(), them.ID+100, store.Profile{FirstName: "Z", LastName: "Z", Email: "z@example.com"})
		wantErr(t, err, store.ErrUserNotFound)
		wantErr(t, err, store.ErrNotFound)
	})
	t.Run("a changed email unverifies and returns a secret that verifies once", func(t *testing.T) {
		advance(s, time.Minute)
		u, secret, err := s.UpdateProfile(t.Context(), me.ID, store.Profile{FirstName: "Ada", LastName: "King", Email: "New@Example.com"})
		if err != nil {
			t.Fatal(err)
		}
		if secret == "" || u.Verified() || u.EmailVerifiedAt != nil || u.Email != "new@example.com" || u.UpdatedAt != nowUnix(s) {
			t.Fatalf("after the change %+v, secret %q", u, secret)
		}
		if sess, err := s.Authenticate(t.Context(), token); err != nil || sess.Verified {
			t.Errorf("the session after the change: %+v, %v", sess, err)
		}
		advance(s, time.Minute)
		v, err := s.VerifyEmail(t.Context(), secret)
		if err != nil || v.ID != me.ID || v.EmailVerifiedAt == nil || *v.EmailVerifiedAt != nowUnix(s) {
			t.Fatalf("verified %+v (at %v), %v", v, deref(v.EmailVerifiedAt), err)
		}
		if _, err := s.VerifyEmail(t.Context(), secret); !errors.Is(err, store.ErrVerificationInvalid) {
			t.Errorf("the secret verified twice: %v", err)
		}
		if sess, err := s.Authenticate(t.Context(), token); err != nil || !sess.Verified {
			t.Errorf("the session after verifying: %+v, %v", sess, err)
		}
	})
	if other, _ := s.User(t.Context(), them.ID); !reflect.DeepEqual(other, them) {
		t.Errorf("the other user changed: %+v", other)
	}
}

func TestSetTimezone(t *testing.T) {
	s := newStore(t)
	me, them := twoAccounts(t, s)
	_, token, err := s.CreateAPIKey(t.Context(), me.ID, "k")
	if err != nil {
		t.Fatal(err)
	}
	advance(s, time.Hour)
	u, err := s.SetTimezone(t.Context(), me.ID, "Europe/Paris")
	want := me
	want.Timezone, want.UpdatedAt = "Europe/Paris", nowUnix(s)
	if err != nil || !reflect.DeepEqual(u, want) {
		t.Errorf("set %+v, %v\nwant %+v", u, err, want)
	}
	if stored, _ := s.User(t.Context(), me.ID); !reflect.DeepEqual(stored, want) {
		t.Errorf("stored %+v", stored)
	}
	if sess, err := s.Authenticate(t.Context(), token); err != nil || sess.Timezone != "Europe/Paris" {
		t.Errorf("the session's time zone %q, %v", sess.Timezone, err)
	}
	_, err = s.SetTimezone(t.Context(), them.ID+100, "Europe/Paris")
	wantErr(t, err, store.ErrUserNotFound)
	wantErr(t, err, store.ErrNotFound)
	if other, _ := s.User(t.Context(), them.ID); other.Timezone != "UTC" {
		t.Errorf("the other user's time zone %q", other.Timezone)
	}
}

func TestBootstrap(t *testing.T) {
	t.Run("creates the first user with a password and a key, once", func(t *testing.T) {
		s := newStore(t)
		creds, err := s.Bootstrap(t.Context(), "Admin@Example.com")
		if err != nil || creds == nil {
			t.Fatalf("%v, %v", creds, err)
		}
		u := creds.User
		if u.FirstName != "Admin" || u.LastName != "User" || u.Email != "admin@example.com" || !u.Verified() || u.CreatedAt != t0.Unix() {
			t.Errorf("user %+v", u)
		}
		if len(creds.Password) < 16 {
			t.Errorf("password %q is short", creds.Password)
		}
		if got, err := s.Login(t.Context(), "admin@example.com", creds.Password); err != nil || got.ID != u.ID {
			t.Errorf("login: %+v, %v", got, err)
		}
		sess, err := s.Authenticate(t.Context(), creds.Token)
		if err != nil || sess.UserID != u.ID || sess.AccountID != u.AccountID {
			t.Errorf("the key: %+v, %v", sess, err)
		}
		keys, err := s.APIKeys(t.Context(), u.ID)
		if err != nil || len(keys) != 1 || keys[0].Name != "First start key" || keys[0].ID != sess.KeyID {
			t.Errorf("keys %+v, %v", keys, err)
		}
		if cats, _ := s.TaskCategories(t.Context(), u.AccountID); len(cats) != 6 {
			t.Errorf("%d categories, want the 6 defaults", len(cats))
		}
		for _, email := range []string{"admin@example.com", "other@example.com"} {
			again, err := s.Bootstrap(t.Context(), email)
			if err != nil || again != nil {
				t.Errorf("again with %s: %+v, %v", email, again, err)
			}
		}
		if _, err := s.Login(t.Context(), "admin@example.com", creds.Password); err != nil {
			t.Errorf("the first password stopped working: %v", err)
		}
	})
	t.Run("does nothing when a user exists", func(t *testing.T) {
		s := newStore(t)
		u := newUser(t, s)
		creds, err := s.Bootstrap(t.Context(), "admin@example.com")
		if err != nil || creds != nil {
			t.Errorf("%+v, %v", creds, err)
		}
		if keys, _ := s.APIKeys(t.Context(), u.ID); len(keys) != 0 {
			t.Errorf("the existing user got keys: %+v", keys)
		}
		if _, err := s.Login(t.Context(), "admin@example.com", ""); !errors.Is(err, store.ErrInvalidCredentials) {
			t.Errorf("an admin was made: %v", err)
		}
	})
	t.Run("an invalid email is refused and leaves no user", func(t *testing.T) {
		s := newStore(t)
		creds, err := s.Bootstrap(t.Context(), "admin")
		wantErr(t, err, store.ErrInvalidEmail)
		if creds != nil {
			t.Errorf("credentials %+v beside the error", creds)
		}
		if creds, err := s.Bootstrap(t.Context(), "admin@example.com"); err != nil || creds == nil {
			t.Errorf("a valid bootstrap after the refusal: %+v, %v", creds, err)
		}
	})
}

func TestUserVerified(t *testing.T) {
	for _, tc := range []struct {
		name string
		at   *int64
		want bool
	}{
		{"a verification time is verified", ptr[int64](1), true},
		{"time zero is still verified", ptr[int64](0), true},
		{"no verification time is not", nil, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if got := (store.User{EmailVerifiedAt: tc.at}).Verified(); got != tc.want {
				t.Errorf("Verified() = %t with email_verified_at %v", got, deref(tc.at))
			}
		})
	}
}

func TestConcurrentUserCreation(t *testing.T) {
	t.Run("one email signed up at once makes one user", func(t *testing.T) {
		s := newStore(t)
		errs := make([]error, 8)
		var wg sync.WaitGroup
		for i := range errs {
			wg.Go(func() {
				_, errs[i] = s.CreateUser(t.Context(), store.NewUser{FirstName: "A", LastName: "B", Email: "same@example.com", Password: testPassword})
			})
		}
		wg.Wait()
		ok := 0
		for _, err := range errs {
			switch {
			case err == nil:
				ok++
			case !errors.Is(err, store.ErrEmailTaken):
				t.Errorf("error %v, want ErrEmailTaken", err)
			}
		}
		if ok != 1 {
			t.Errorf("%d users created, want 1", ok)
		}
	})
	t.Run("bootstraps at once make one admin", func(t *testing.T) {
		s := newStore(t)
		creds := make([]*store.Credentials, 8)
		var wg sync.WaitGroup
		for i := range creds {
			wg.Go(func() {
				var err error
				if creds[i], err = s.Bootstrap(t.Context(), "admin@example.com"); err != nil {
					t.Error(err)
				}
			})
		}
		wg.Wait()
		made := 0
		for _, c := range creds {
			if c != nil {
				made++
			}
		}
		if made != 1 {
			t.Errorf("%d bootstraps made credentials, want 1", made)
		}
	})
}
