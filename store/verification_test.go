package store

import (
	"context"
	"database/sql"
	"errors"
	"path/filepath"
	"testing"
	"time"
)

// TestMigrationKeepsExistingUsersVerified builds a database at schema
// version 2 with a user, as Kith before email verification left it, and
// migrates it: the user must not be locked out by the upgrade.
func TestMigrationKeepsExistingUsersVerified(t *testing.T) {
	ctx := context.Background()
	path := filepath.Join(t.TempDir(), "old.db")
	db, err := sql.Open("sqlite", dsn(path, true))
	if err != nil {
		t.Fatal(err)
	}
	for _, name := range []string{"0001_init.sql", "0002_persons_tasks.sql"} {
		body, err := migrationFiles.ReadFile(sqliteMigrations + "/" + name)
		if err != nil {
			t.Fatal(err)
		}
		if _, err := db.Exec(string(body)); err != nil {
			t.Fatal(err)
		}
	}
	_, err = db.Exec(`
		CREATE TABLE schema_migrations (version INTEGER PRIMARY KEY, name TEXT NOT NULL, applied_at INTEGER NOT NULL);
		INSERT INTO schema_migrations VALUES (1, '0001_init', 0), (2, '0002_persons_tasks', 0);
		INSERT INTO accounts (id, created_at) VALUES (1, 100);
		INSERT INTO users (account_id, first_name, last_name, email, password_hash, created_at, updated_at)
		VALUES (1, 'Old', 'User', 'old@example.com', 'x', 100, 100)`)
	if err != nil {
		t.Fatal(err)
	}
	db.Close()

	s, err := Open(ctx, path)
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	applied, err := s.Migrate(ctx)
	if err != nil || len(applied) < 1 || applied[0] != "0003_email_verification" {
		t.Fatalf("applied %v, %v", applied, err)
	}
	var verifiedAt sql.NullInt64
	if err := s.r.QueryRow(`SELECT email_verified_at FROM users`).Scan(&verifiedAt); err != nil || verifiedAt.Int64 != 100 {
		t.Errorf("the existing user's email_verified_at: %v %v", verifiedAt, err)
	}
}

func TestVerifyEmail(t *testing.T) {
	ctx := context.Background()
	s, _ := openTest(t)
	now := time.Unix(1_000_000, 0)
	s.Now = func() time.Time { return now }
	u, err := s.CreateUser(ctx, NewUser{FirstName: "A", LastName: "L", Email: "ada@example.com", Password: "password"})
	if err != nil || !u.Verified() {
		t.Fatalf("a created user is verified: %+v %v", u, err)
	}
	if _, _, err := s.NewVerification(ctx, u.ID); !errors.Is(err, ErrAlreadyVerified) {
		t.Errorf("a link for a verified user: %v", err)
	}

	u, secret, err := s.UpdateProfile(ctx, u.ID, Profile{FirstName: "A", LastName: "L", Email: "New@Example.com"})
	if err != nil || secret == "" || u.Verified() || u.Email != "new@example.com" {
		t.Fatalf("email change: %+v %q %v", u, secret, err)
	}
	var stored []byte
	if err := s.r.QueryRow(`SELECT secret_hash FROM email_verifications WHERE user_id = ?`, u.ID).Scan(&stored); err != nil ||
		string(stored) != string(hashSecret(secret)) {
		t.Errorf("stored %x, want the hash of the secret: %v", stored, err)
	}
	if _, err := s.VerifyEmail(ctx, "nope"); !errors.Is(err, ErrVerificationInvalid) {
		t.Errorf("unknown secret: %v", err)
	}
	v, err := s.VerifyEmail(ctx, secret)
	if err != nil || !v.Verified() || v.ID != u.ID {
		t.Fatalf("verify: %+v %v", v, err)
	}
	if _, err := s.VerifyEmail(ctx, secret); !errors.Is(err, ErrVerificationInvalid) {
		t.Errorf("used secret: %v", err)
	}

	// An expired link is refused, and deleted so it cannot be tried again.
	_, secret, _ = s.UpdateProfile(ctx, u.ID, Profile{FirstName: "A", LastName: "L", Email: "newer@example.com"})
	now = now.Add(VerificationTTL * time.Second)
	if _, err := s.VerifyEmail(ctx, secret); !errors.Is(err, ErrVerificationInvalid) {
		t.Errorf("expired secret: %v", err)
	}
	var n int
	s.r.QueryRow(`SELECT count(*) FROM email_verifications`).Scan(&n)
	if n != 0 {
		t.Errorf("%d links left", n)
	}

	// The command line's way: any pending links go.
	_, _, _ = s.NewVerification(ctx, u.ID)
	if v, err := s.MarkVerified(ctx, " NEWER@example.com "); err != nil || !v.Verified() {
		t.Errorf("mark verified: %+v %v", v, err)
	}
	s.r.QueryRow(`SELECT count(*) FROM email_verifications`).Scan(&n)
	if n != 0 {
		t.Errorf("%d links left after marking verified", n)
	}
	if _, err := s.MarkVerified(ctx, "nobody@example.com"); !errors.Is(err, ErrUserNotFound) {
		t.Errorf("unknown email: %v", err)
	}
}
