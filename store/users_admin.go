package store

import (
	"cmp"
	"context"
	"database/sql"
	"errors"
	"fmt"
	"slices"
	"strings"
)

// What the command line does to users as their administrator: list them,
// set a password, delete one. Each names the user by email, as the
// command line does.

// UserListing is a user as the command line lists them.
type UserListing struct {
	User
	// LastSeenAt is the newest of the user's web sign-ins and of their API
	// keys' creation and last use, nil when they have none. No login time
	// is kept: a login makes a web session or an API key (and an API key's
	// use is written at most once a minute), and a session signed out or a
	// key revoked takes its time with it, so this is when the user was last
	// seen as far as the database still tells.
	LastSeenAt *int64
	// TwoFactor is whether the user's sign-in by password needs a code.
	TwoFactor bool
	// Passkeys is how many passkeys the user has.
	Passkeys int
}

// Users lists every user, in id order, with when each was last seen.
func (s *Store) Users(ctx context.Context) ([]UserListing, error) {
	rows, err := s.r.QueryContext(ctx, `SELECT `+inviteeColumns+`,
			(SELECT max(seen.at) FROM (
				SELECT max(w.last_seen_at) AS at FROM web_sessions w WHERE w.user_id = u.id
				UNION ALL
				SELECT max(coalesce(k.last_used_at, k.created_at)) AS at FROM api_keys k WHERE k.user_id = u.id
			) seen),
			(SELECT count(*) FROM two_factor t WHERE t.user_id = u.id AND t.secret IS NOT NULL),
			(SELECT count(*) FROM passkeys p WHERE p.user_id = u.id)
		FROM users u ORDER BY u.id`)
	if err != nil {
		return nil, fmt.Errorf("store: list users: %w", err)
	}
	defer rows.Close()
	users := []UserListing{}
	for rows.Next() {
		var l UserListing
		var twoFactor int
		if err := scanUser(rows, &l.User, &l.LastSeenAt, &twoFactor, &l.Passkeys); err != nil {
			return nil, fmt.Errorf("store: scan user: %w", err)
		}
		l.TwoFactor = twoFactor == 1
		users = append(users, l)
	}
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("store: list users: %w", err)
	}
	return users, nil
}

// PasswordChange is what SetPassword did: the user, and how many of their
// web sessions, API keys and invitations it revoked.
type PasswordChange struct {
	User                        User
	Sessions, Keys, Invitations int64
	// With revokeKeys: the calendar feeds revoked (0 or 1), and the
	// channels disabled, every one but email (which goes to the user's own
	// address), for the user to review and enable again.
	Feeds    int64
	Channels []Channel
}

// SetPassword gives the user with this email a new password and signs
// them out of the web app everywhere; with revokeKeys their API keys stop
// working too. All of it is one transaction, so no session outlives the
// password it was opened with. An invited user who has not joined yet
// joins by it: their invitation links stop working. The email's
// verification is left as it is: a password set by an administrator
// proves nothing of the address.
func (s *Store) SetPassword(ctx context.Context, email, password string, revokeKeys bool) (PasswordChange, error) {
	// Hashed before the transaction, which then holds the writer for no
	// more than its few statements.
	hash, err := s.hashPassword(password)
	if err != nil {
		return PasswordChange{}, err
	}
	var pc PasswordChange
	err = s.withSessionTx(ctx, func(ctx context.Context, tx *txn) error {
		pc = PasswordChange{}
		err := scanUser(tx.QueryRowContext(ctx, `
			UPDATE users SET password_hash = ?, updated_at = ? WHERE email = ?
			RETURNING `+userColumns,
			hash, s.now(), strings.ToLower(strings.TrimSpace(email))), &pc.User)
		if errors.Is(err, sql.ErrNoRows) {
			return ErrUserNotFound
		}
		if err != nil {
			return fmt.Errorf("store: set password: %w", err)
		}
		type revocation struct {
			n     *int64
			query string
		}
		revoke := []revocation{
			{&pc.Sessions, `DELETE FROM web_sessions WHERE user_id = ?`},
			{&pc.Invitations, `DELETE FROM invitations WHERE user_id = ?`},
		}
		if revokeKeys {
			revoke = append(revoke, revocation{&pc.Keys, `DELETE FROM api_keys WHERE user_id = ?`},
				revocation{&pc.Feeds, `DELETE FROM calendar_feeds WHERE user_id = ?`})
			if pc.Channels, err = disableChannels(ctx, tx, pc.User.ID, s.now()); err != nil {
				return err
			}
		}
		for _, r := range revoke {
			res, err := tx.ExecContext(ctx, r.query, pc.User.ID)
			if err != nil {
				return fmt.Errorf("store: set password: revoke: %w", err)
			}
			if *r.n, err = res.RowsAffected(); err != nil {
				return fmt.Errorf("store: rows affected: %w", err)
			}
		}
		return nil
	})
	return pc, err
}

// ChangePassword gives the user a new password they chose (the web app's
// Settings, behind their current one) and signs out every other web
// session of theirs, keeping the one that changed it (keep); keys stay.
func (s *Store) ChangePassword(ctx context.Context, userID int64, password string, keep int64) error {
	hash, err := s.hashPassword(password)
	if err != nil {
		return err
	}
	return s.withSessionTx(ctx, func(ctx context.Context, tx *txn) error {
		res, err := tx.ExecContext(ctx, `UPDATE users SET password_hash = ?, updated_at = ? WHERE id = ?`, hash, s.now(), userID)
		if err != nil {
			return fmt.Errorf("store: change password: %w", err)
		}
		if n, err := res.RowsAffected(); err != nil || n == 0 {
			return errors.Join(ErrUserNotFound, err)
		}
		if _, err := tx.ExecContext(ctx, `DELETE FROM web_sessions WHERE user_id = ? AND id <> ?`, userID, keep); err != nil {
			return fmt.Errorf("store: change password: sign out: %w", err)
		}
		return nil
	})
}

// disableChannels turns off every enabled channel of the user's but email,
// which can only reach the user's own address: after a credential reset,
// one an intruder added must not keep receiving the digests.
func disableChannels(ctx context.Context, tx *txn, userID, now int64) ([]Channel, error) {
	rows, err := tx.QueryContext(ctx, `
		UPDATE channels SET enabled = ?, updated_at = ?
		WHERE user_id = ? AND enabled = ? AND kind <> 'email'
		RETURNING `+channelColumns, false, now, userID, true)
	if err != nil {
		return nil, fmt.Errorf("store: set password: disable channels: %w", err)
	}
	defer rows.Close()
	var out []Channel
	for rows.Next() {
		var ch Channel
		if err := scanChannel(rows, &ch); err != nil {
			return nil, err
		}
		out = append(out, ch)
	}
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("store: set password: disable channels: %w", err)
	}
	slices.SortFunc(out, func(a, b Channel) int { return cmp.Compare(a.ID, b.ID) })
	return out, nil
}

// RowCount is how many rows of a table something concerns.
type RowCount struct {
	Table string
	Rows  int64
}

// UserDeletion is what deleting a user takes with them.
type UserDeletion struct {
	User User
	// OtherUsers counts the account's other users, invited ones included.
	// When there is none, the account goes with the user, and all its data.
	OtherUsers int64
	// Rows counts, table by table, the rows that go: the user's own (keys,
	// sessions, channels, log entries…) and, with the account, all of the
	// account's (persons and all that is theirs, journals, categories…).
	// The users and accounts rows themselves are not among them.
	Rows []RowCount
}

// AccountDeleted reports whether the account goes with the user, its last.
func (d UserDeletion) AccountDeleted() bool { return d.OtherUsers == 0 }

// userRowTables are the tables of a user's own rows, by user_id; each
// references users ON DELETE CASCADE. logs is counted among the account's
// when the account goes.
var userRowTables = []string{"api_keys", "web_sessions", "calendar_feeds", "channels", "reminder_settings",
	"invitations", "email_verifications", "logs",
	"two_factor", "two_factor_recovery", "action_links_used", "snoozes",
	"mail_in", "passkey_handles", "passkeys", "passkey_challenges", "log_counts"}

// accountRowTables are the tables of an account's rows, by account_id;
// each references accounts ON DELETE CASCADE.
var accountRowTables = []string{"persons", "contact_details", "important_dates", "notes", "gifts", "life_events",
	"work_history", "tasks", "interactions", "stay_in_touch", "photos", "task_categories", "genders", "journals",
	"journal_entries", "tags", "person_tags", "deleted_cards", "logs", "relationship_types", "relationships", "reminders",
	"person_counts", "task_counts", "entry_counts"}

// UserDeletionOf tells what DeleteUser would delete for this email, and
// deletes nothing.
func (s *Store) UserDeletionOf(ctx context.Context, email string) (UserDeletion, error) {
	tx, err := s.r.BeginTx(ctx, &sql.TxOptions{ReadOnly: true}) // one snapshot for all the counts
	if err != nil {
		return UserDeletion{}, fmt.Errorf("store: begin reading: %w", err)
	}
	defer tx.end(ctx, false)
	u, err := userWithEmail(ctx, tx, email)
	if err != nil {
		return UserDeletion{}, err
	}
	return userDeletionOf(ctx, tx, u)
}

// DeleteUser deletes the user with this email and, when they are the last
// user of their account, the account with all its data, in one
// transaction. It returns what went. The foreign keys' ON DELETE CASCADE
// does the deleting, so that no table of the account can be forgotten.
func (s *Store) DeleteUser(ctx context.Context, email string) (UserDeletion, error) {
	var d UserDeletion
	err := s.withSessionTx(ctx, func(ctx context.Context, tx *txn) error {
		u, err := userWithEmail(ctx, tx, email)
		if err != nil {
			return err
		}
		// A write that changes nothing locks the account's row, so that two
		// of its users deleted at once on PostgreSQL take turns, and the
		// second sees it is the last and takes the account along. A user
		// deleted meanwhile deletes nothing below: ErrUserNotFound.
		if _, err := tx.ExecContext(ctx, `UPDATE accounts SET card_seq = card_seq WHERE id = ?`, u.AccountID); err != nil {
			return fmt.Errorf("store: lock the account: %w", err)
		}
		if d, err = userDeletionOf(ctx, tx, u); err != nil {
			return err
		}
		var res sql.Result
		if d.AccountDeleted() {
			res, err = tx.ExecContext(ctx, `DELETE FROM accounts WHERE id = ?`, d.User.AccountID)
		} else {
			res, err = tx.ExecContext(ctx, `DELETE FROM users WHERE id = ?`, d.User.ID)
		}
		if err != nil {
			return fmt.Errorf("store: delete user: %w", err)
		}
		return mustAffect(res, ErrUserNotFound)
	})
	return d, err
}

// userDeletionOf counts what deleting user u takes.
func userDeletionOf(ctx context.Context, tx *txn, u User) (UserDeletion, error) {
	d := UserDeletion{User: u}
	err := tx.QueryRowContext(ctx, `SELECT count(*) FROM users WHERE account_id = ? AND id <> ?`,
		d.User.AccountID, d.User.ID).Scan(&d.OtherUsers)
	if err != nil {
		return UserDeletion{}, fmt.Errorf("store: count users: %w", err)
	}
	count := func(table, column string, id int64) error {
		var n int64
		// table and column come from the lists above, never from input.
		err := tx.QueryRowContext(ctx, `SELECT count(*) FROM `+quoteName(table)+` WHERE `+column+` = ?`, id).Scan(&n)
		if err != nil {
			return fmt.Errorf("store: count %s: %w", table, err)
		}
		d.Rows = append(d.Rows, RowCount{Table: table, Rows: n})
		return nil
	}
	for _, table := range userRowTables {
		if table == "logs" && d.AccountDeleted() {
			continue
		}
		if err := count(table, "user_id", d.User.ID); err != nil {
			return UserDeletion{}, err
		}
	}
	if d.AccountDeleted() {
		for _, table := range accountRowTables {
			if err := count(table, "account_id", d.User.AccountID); err != nil {
				return UserDeletion{}, err
			}
		}
	}
	return d, nil
}
