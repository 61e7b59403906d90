package store

import (
	"context"
	"crypto/rand"
	"database/sql"
	"errors"
	"fmt"
	"net/mail"
	"strings"

	"golang.org/x/crypto/bcrypt"
)

// Errors of users and their passwords.
var (
	ErrEmailTaken         = errors.New("store: email already taken")
	ErrInvalidEmail       = errors.New("store: not an email address")
	ErrInvalidCredentials = errors.New("store: invalid credentials")
	// ErrPasswordLength is returned for passwords under 8 or over 72 bytes:
	// bcrypt silently ignores everything past byte 72.
	ErrPasswordLength = errors.New("store: a password must be 8 to 72 bytes long")
)

// User is a person who logs in to an account.
type User struct {
	ID        int64
	AccountID int64
	FirstName string
	LastName  string
	Nickname  *string
	Email     string
	BornAt    *int64
	Timezone  string
	// EmailVerifiedAt is nil while a changed email waits for its link.
	EmailVerifiedAt *int64
	CreatedAt       int64
	UpdatedAt       int64
	PasswordHash    []byte `json:"-"`
}

// NewUser is what creating a user takes.
type NewUser struct {
	FirstName, LastName, Email, Password string
	// AccountID joins the user to an existing account, whose persons,
	// tasks and categories they then share; 0 makes a new account.
	AccountID int64
	// ReplaceInvitation lets the user take the place of an invitation to
	// the same email that was never accepted (kith user create): the
	// invited user and their links go, in the same transaction.
	ReplaceInvitation bool
}

// ErrAccountNotFound is returned for a NewUser.AccountID that names no account.
var ErrAccountNotFound = &NotFoundError{What: "account"}

// Profile is what a user may change about themselves.
type Profile struct {
	FirstName, LastName, Email string
	Nickname                   *string
	BornAt                     *int64
}

const userColumns = `id, account_id, first_name, last_name, nickname, email,
	born_at, timezone, email_verified_at, created_at, updated_at, password_hash`

// scanUser reads userColumns, then any extra columns into extra.
func scanUser(sc scanner, u *User, extra ...any) error {
	dest := []any{&u.ID, &u.AccountID, &u.FirstName, &u.LastName, &u.Nickname, &u.Email,
		&u.BornAt, &u.Timezone, &u.EmailVerifiedAt, &u.CreatedAt, &u.UpdatedAt, &u.PasswordHash}
	return sc.Scan(append(dest, extra...)...)
}

// Verified reports whether the user's email is verified.
func (u User) Verified() bool { return u.EmailVerifiedAt != nil }

// ValidEmail reports whether s is a bare email address (no display name).
func ValidEmail(s string) bool {
	a, err := mail.ParseAddress(s)
	return err == nil && a.Address == s && !strings.ContainsAny(s, " \t\r\n")
}

func checkPassword(p string) error {
	if len(p) < 8 || len(p) > 72 {
		return ErrPasswordLength
	}
	return nil
}

// hashPassword checks a password's length and hashes it at the store's
// cost, as every write of a password_hash does.
func (s *Store) hashPassword(password string) ([]byte, error) {
	if err := checkPassword(password); err != nil {
		return nil, err
	}
	hash, err := bcrypt.GenerateFromPassword([]byte(password), s.PasswordCost)
	if err != nil {
		return nil, fmt.Errorf("store: hash password: %w", err)
	}
	return hash, nil
}

// CreateUser creates a user, in a new account (which starts with the
// default task categories) unless nu names an existing one.
func (s *Store) CreateUser(ctx context.Context, nu NewUser) (User, error) {
	var u User
	err := s.withTx(ctx, func(ctx context.Context, tx *txn) error {
		var err error
		u, err = s.createUser(ctx, tx, nu)
		return err
	})
	return u, err
}

func (s *Store) createUser(ctx context.Context, tx *txn, nu NewUser) (User, error) {
	email := strings.ToLower(strings.TrimSpace(nu.Email))
	if !ValidEmail(email) {
		return User{}, ErrInvalidEmail
	}
	hash, err := s.hashPassword(nu.Password)
	if err != nil {
		return User{}, err
	}
	now := s.now()
	accountID, err := s.accountFor(ctx, tx, nu.AccountID, now)
	if err != nil {
		return User{}, err
	}
	if nu.ReplaceInvitation {
		if _, err := tx.ExecContext(ctx, `DELETE FROM users WHERE email = ? AND password_hash = ''`, email); err != nil {
			return User{}, fmt.Errorf("store: create user: replace an invitation: %w", err)
		}
	}
	var u User
	err = scanUser(tx.QueryRowContext(ctx, `
		INSERT INTO users (account_id, first_name, last_name, email, password_hash, email_verified_at, created_at, updated_at)
		VALUES (?, ?, ?, ?, ?, ?, ?, ?)
		RETURNING `+userColumns,
		accountID, nu.FirstName, nu.LastName, email, hash, now, now, now), &u)
	if isUniqueViolation(err) {
		return User{}, ErrEmailTaken
	}
	if err != nil {
		return User{}, fmt.Errorf("store: create user: %w", err)
	}
	return u, addEmailChannel(ctx, tx, u.ID, now)
}

// accountFor returns id when that account exists, or a new account's id
// when id is 0.
func (s *Store) accountFor(ctx context.Context, tx *txn, id, now int64) (int64, error) {
	if id != 0 {
		err := tx.QueryRowContext(ctx, `SELECT id FROM accounts WHERE id = ?`, id).Scan(&id)
		if errors.Is(err, sql.ErrNoRows) {
			return 0, ErrAccountNotFound
		}
		if err != nil {
			return 0, fmt.Errorf("store: find account: %w", err)
		}
		return id, nil
	}
	err := tx.QueryRowContext(ctx, `INSERT INTO accounts (created_at) VALUES (?) RETURNING id`, now).Scan(&id)
	if err != nil {
		return 0, fmt.Errorf("store: create account: %w", err)
	}
	if err := insertDefaultCategories(ctx, tx, id, now); err != nil {
		return 0, err
	}
	if err := insertDefaultGenders(ctx, tx, id, now); err != nil {
		return 0, err
	}
	if err := insertDefaultJournal(ctx, tx, id, now); err != nil {
		return 0, err
	}
	if err := insertDefaultRelationshipTypes(ctx, tx, id, now); err != nil {
		return 0, err
	}
	return id, nil
}

// User returns the user with this id.
func (s *Store) User(ctx context.Context, id int64) (User, error) {
	var u User
	err := scanUser(s.r.QueryRowContext(ctx, `SELECT `+userColumns+` FROM users WHERE id = ?`, id), &u)
	if errors.Is(err, sql.ErrNoRows) {
		return User{}, ErrUserNotFound
	}
	if err != nil {
		return User{}, fmt.Errorf("store: get user: %w", err)
	}
	return u, nil
}

// Login returns the user with this email and password, or
// ErrInvalidCredentials whichever of the two is wrong.
func (s *Store) Login(ctx context.Context, email, password string) (User, error) {
	if len(password) > 72 {
		// No password is longer (CreateUser refuses them), and bcrypt would
		// ignore the bytes past the 72nd: a 72-byte password plus anything
		// must not log in.
		return User{}, ErrInvalidCredentials
	}
	var u User
	err := scanUser(s.r.QueryRowContext(ctx, `SELECT `+userColumns+` FROM users WHERE email = ?`,
		strings.ToLower(email)), &u)
	if err != nil && !errors.Is(err, sql.ErrNoRows) {
		return User{}, fmt.Errorf("store: login: %w", err)
	}
	if err != nil || !u.Joined() {
		// Compare anyway, so that an unknown email, or an invited user's,
		// takes as long to refuse as a wrong password and does not reveal
		// who has an account.
		s.dummyOnce.Do(func() {
			s.dummyHash, _ = bcrypt.GenerateFromPassword([]byte(rand.Text()), s.PasswordCost)
		})
		bcrypt.CompareHashAndPassword(s.dummyHash, []byte(password))
		return User{}, ErrInvalidCredentials
	}
	if bcrypt.CompareHashAndPassword(u.PasswordHash, []byte(password)) != nil {
		return User{}, ErrInvalidCredentials
	}
	return u, nil
}

// UpdateProfile replaces the user's profile and returns the user. When the
// email changes (ignoring case), the user becomes unverified and secret is
// the new verification link's secret, to be sent to the new address;
// otherwise secret is empty.
func (s *Store) UpdateProfile(ctx context.Context, userID int64, p Profile) (u User, secret string, err error) {
	email := strings.ToLower(strings.TrimSpace(p.Email))
	if !ValidEmail(email) {
		return User{}, "", ErrInvalidEmail
	}
	err = s.withSessionTx(ctx, func(ctx context.Context, tx *txn) error {
		var old string
		err := tx.QueryRowContext(ctx, `SELECT email FROM users WHERE id = ?`, userID).Scan(&old)
		if errors.Is(err, sql.ErrNoRows) {
			return ErrUserNotFound
		}
		if err != nil {
			return fmt.Errorf("store: update profile: %w", err)
		}
		changed := old != email
		err = scanUser(tx.QueryRowContext(ctx, `
			UPDATE users SET first_name = ?, last_name = ?, nickname = ?, email = ?, born_at = ?, updated_at = ?,
				email_verified_at = CASE WHEN ? THEN NULL ELSE email_verified_at END
			WHERE id = ?
			RETURNING `+userColumns,
			p.FirstName, p.LastName, p.Nickname, email, p.BornAt, s.now(), changed, userID), &u)
		switch {
		case isUniqueViolation(err):
			return ErrEmailTaken
		case err != nil:
			return fmt.Errorf("store: update profile: %w", err)
		}
		if changed {
			if secret, err = s.createVerification(ctx, tx, u); err != nil {
				return err
			}
		}
		return s.logAction(ctx, tx, "personal_profile_update", "Updated their personal profile")
	})
	return u, secret, err
}

// SetTimezone sets the user's IANA time zone and returns the user.
func (s *Store) SetTimezone(ctx context.Context, userID int64, tz string) (User, error) {
	var u User
	err := s.withSessionTx(ctx, func(ctx context.Context, tx *txn) error {
		err := scanUser(tx.QueryRowContext(ctx, `
			UPDATE users SET timezone = ?, updated_at = ? WHERE id = ?
			RETURNING `+userColumns,
			tz, s.now(), userID), &u)
		if errors.Is(err, sql.ErrNoRows) {
			return ErrUserNotFound
		}
		if err != nil {
			return fmt.Errorf("store: set timezone: %w", err)
		}
		return s.logAction(ctx, tx, "timezone_update", "Updated their timezone")
	})
	return u, err
}

// Credentials are what first start prints: a user, its password and a key.
type Credentials struct {
	User     User
	Password string
	Token    string
}

// Bootstrap creates the first user, with a random password and an API key,
// when the database has no user at all. It returns nil when users exist,
// so the credentials are made and shown once in the life of a database.
func (s *Store) Bootstrap(ctx context.Context, email string) (*Credentials, error) {
	// Read first: a start that finds a user writes nothing, and so opens
	// no writer's connection (openSQLite).
	var one int
	switch err := s.r.QueryRowContext(ctx, `SELECT 1 FROM users LIMIT 1`).Scan(&one); {
	case err == nil:
		return nil, nil
	case !errors.Is(err, sql.ErrNoRows):
		return nil, fmt.Errorf("store: count users: %w", err)
	}
	var creds *Credentials
	err := s.withTx(ctx, func(ctx context.Context, tx *txn) error {
		var n int
		if err := tx.QueryRowContext(ctx, `SELECT count(*) FROM users`).Scan(&n); err != nil {
			return fmt.Errorf("store: count users: %w", err)
		}
		if n > 0 {
			return nil
		}
		password := rand.Text()
		u, err := s.createUser(ctx, tx, NewUser{FirstName: "Admin", LastName: "User", Email: email, Password: password})
		if err != nil {
			return err
		}
		_, token, err := s.createAPIKey(ctx, tx, u.ID, "First start key")
		if err != nil {
			return err
		}
		creds = &Credentials{User: u, Password: password, Token: token}
		return nil
	})
	if errors.Is(err, ErrEmailTaken) {
		// No user was there, yet the email is: another process's Bootstrap
		// made the first user meanwhile (PostgreSQL lets two run at once).
		return nil, nil
	}
	return creds, err
}

// UserByEmail returns the user with this email, whatever its case: the
// command line's way to name a user.
func (s *Store) UserByEmail(ctx context.Context, email string) (User, error) {
	return userWithEmail(ctx, s.r, email)
}

// userWithEmail finds the user with this email, through q (the readers or
// a transaction).
func userWithEmail(ctx context.Context, q queryer, email string) (User, error) {
	var u User
	err := scanUser(q.QueryRowContext(ctx, `SELECT `+userColumns+` FROM users WHERE email = ?`,
		strings.ToLower(strings.TrimSpace(email))), &u)
	if errors.Is(err, sql.ErrNoRows) {
		return User{}, ErrUserNotFound
	}
	if err != nil {
		return User{}, fmt.Errorf("store: get user by email: %w", err)
	}
	return u, nil
}
