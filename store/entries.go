package store

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"time"
)

// ErrEntryNotFound reports an entry asked for by a date that does not
// exist (2025-02-30, month 13, year 0).
var ErrEntryNotFound = &NotFoundError{What: "journal entry"}

// Entry is a journal's page for one date; a journal has at most one per
// date.
type Entry struct {
	ID        int64
	JournalID int64
	Year      int
	Month     int
	Day       int
	// Body is the entry's text, "" until written.
	Body      string
	CreatedAt int64
	UpdatedAt int64
}

const entryColumns = `id, journal_id, year, month, day, body, created_at, updated_at`

func scanEntry(sc scanner, en *Entry) error {
	return sc.Scan(&en.ID, &en.JournalID, &en.Year, &en.Month, &en.Day, &en.Body, &en.CreatedAt, &en.UpdatedAt)
}

// ValidDate reports whether year-month-day is a real day of years 1–9999.
func ValidDate(year, month, day int) bool {
	if year < 1 || year > 9999 || month < 1 || month > 12 || day < 1 {
		return false
	}
	t := time.Date(year, time.Month(month), day, 0, 0, 0, 0, time.UTC)
	return t.Day() == day && int(t.Month()) == month
}

// JournalEntry returns the journal's entry for the date, made by this call
// when the journal had none; created says which. A journal that is not the
// account's is ErrJournalNotFound, whatever the date; a date that does not
// exist is ErrEntryNotFound.
func (s *Store) JournalEntry(ctx context.Context, accountID, journalID int64, year, month, day int) (en Entry, created bool, err error) {
	if !ValidDate(year, month, day) {
		if _, err := getJournal(ctx, s.r, accountID, journalID); err != nil {
			return Entry{}, false, err
		}
		return Entry{}, false, ErrEntryNotFound
	}
	// Most asks are for an entry that exists: a read finds it without
	// waiting for the writer.
	en, err = getEntry(ctx, s.r, accountID, journalID, year, month, day)
	if err == nil || !errors.Is(err, sql.ErrNoRows) {
		return en, false, err
	}
	err = s.withTx(ctx, func(ctx context.Context, tx *txn) error {
		now := s.now()
		// One INSERT finds the journal in the account and writes the entry;
		// the UNIQUE constraint leaves an entry made meanwhile as it is.
		err := scanEntry(tx.QueryRowContext(ctx, `INSERT INTO journal_entries (account_id, journal_id, year, month, day, created_at, updated_at)
			SELECT j.account_id, j.id, CAST(? AS INTEGER), CAST(? AS INTEGER), CAST(? AS INTEGER), CAST(? AS BIGINT), CAST(? AS BIGINT)
			FROM journals j WHERE j.id = ? AND j.account_id = ?
			ON CONFLICT (journal_id, year, month, day) DO NOTHING
			RETURNING `+entryColumns, year, month, day, now, now, journalID, accountID), &en)
		if err == nil {
			created = true
			var name string
			if err := tx.QueryRowContext(ctx, `SELECT name FROM journals WHERE id = ?`, journalID).Scan(&name); err != nil {
				return fmt.Errorf("store: create journal entry: %w", err)
			}
			return s.logAction(ctx, tx, "entry_creation", "Created the entry for the journal called "+name)
		}
		if !errors.Is(err, sql.ErrNoRows) {
			return fmt.Errorf("store: create journal entry: %w", err)
		}
		en, err = getEntry(ctx, tx, accountID, journalID, year, month, day)
		if errors.Is(err, sql.ErrNoRows) {
			return ErrJournalNotFound
		}
		return err
	})
	return en, created, err
}

// EntryOn returns the journal's entry for the date without making it:
// ErrJournalNotFound for a journal that is not the account's, then
// ErrEntryNotFound for a date that does not exist or has no entry.
func (s *Store) EntryOn(ctx context.Context, accountID, journalID int64, year, month, day int) (Entry, error) {
	if _, err := getJournal(ctx, s.r, accountID, journalID); err != nil {
		return Entry{}, err
	}
	if !ValidDate(year, month, day) {
		return Entry{}, ErrEntryNotFound
	}
	en, err := getEntry(ctx, s.r, accountID, journalID, year, month, day)
	if errors.Is(err, sql.ErrNoRows) {
		return Entry{}, ErrEntryNotFound
	}
	return en, err
}

// WriteEntry sets the text of the journal's entry for the date, making
// the entry when the journal has none for it; created says which. The
// errors of a journal or a date that is not there are JournalEntry's.
func (s *Store) WriteEntry(ctx context.Context, accountID, journalID int64, year, month, day int, body string) (en Entry, created bool, err error) {
	if !ValidDate(year, month, day) {
		if _, err := getJournal(ctx, s.r, accountID, journalID); err != nil {
			return Entry{}, false, err
		}
		return Entry{}, false, ErrEntryNotFound
	}
	folded := foldCase(body)
	err = s.withTx(ctx, func(ctx context.Context, tx *txn) error {
		now := s.now()
		update := func() error {
			return scanEntry(tx.QueryRowContext(ctx, `UPDATE journal_entries SET body = ?, body_folded = ?, updated_at = ?
				WHERE journal_id = ? AND account_id = ? AND year = ? AND month = ? AND day = ?
				RETURNING `+entryColumns, body, folded, now, journalID, accountID, year, month, day), &en)
		}
		err := update()
		if errors.Is(err, sql.ErrNoRows) {
			err = scanEntry(tx.QueryRowContext(ctx, `INSERT INTO journal_entries
				(account_id, journal_id, year, month, day, body, body_folded, created_at, updated_at)
				SELECT j.account_id, j.id, CAST(? AS INTEGER), CAST(? AS INTEGER), CAST(? AS INTEGER),
					CAST(? AS TEXT), CAST(? AS TEXT), CAST(? AS BIGINT), CAST(? AS BIGINT)
				FROM journals j WHERE j.id = ? AND j.account_id = ?
				ON CONFLICT (journal_id, year, month, day) DO NOTHING
				RETURNING `+entryColumns, year, month, day, body, folded, now, now, journalID, accountID), &en)
			created = err == nil
			if errors.Is(err, sql.ErrNoRows) {
				// Made meanwhile by a first GET or PUT of another
				// transaction (PostgreSQL runs writers side by side), or
				// the journal is not there: the update tells which.
				err = update()
			}
		}
		if errors.Is(err, sql.ErrNoRows) {
			return ErrJournalNotFound
		}
		if err != nil {
			return fmt.Errorf("store: write journal entry: %w", err)
		}
		var name string
		if err := tx.QueryRowContext(ctx, `SELECT name FROM journals WHERE id = ?`, journalID).Scan(&name); err != nil {
			return fmt.Errorf("store: write journal entry: %w", err)
		}
		if created {
			return s.logAction(ctx, tx, "entry_creation", "Created the entry for the journal called "+name)
		}
		return s.logAction(ctx, tx, "entry_update", "Updated the entry for the journal called "+name)
	})
	return en, created, err
}

// getEntry returns the journal's entry for the date, or sql.ErrNoRows when
// the journal is not the account's or has no entry for it.
func getEntry(ctx context.Context, q queryer, accountID, journalID int64, year, month, day int) (Entry, error) {
	var en Entry
	err := scanEntry(q.QueryRowContext(ctx, `SELECT `+entryColumns+` FROM journal_entries
		WHERE journal_id = ? AND account_id = ? AND year = ? AND month = ? AND day = ?`,
		journalID, accountID, year, month, day), &en)
	if err != nil && !errors.Is(err, sql.ErrNoRows) {
		return Entry{}, fmt.Errorf("store: get journal entry: %w", err)
	}
	return en, err
}

// Entries lists a page of the journal's entries, the newest date first,
// with how many it has in all. A journal that is not the account's is
// ErrJournalNotFound.
func (s *Store) Entries(ctx context.Context, accountID, journalID, limit, offset int64) ([]Entry, int64, error) {
	return s.SearchEntries(ctx, accountID, journalID, "", limit, offset)
}

// SearchEntries is Entries narrowed by q, unless q is "": only the
// entries whose text holds q, case ignored (foldCase), and how many they
// are.
func (s *Store) SearchEntries(ctx context.Context, accountID, journalID int64, q string, limit, offset int64) ([]Entry, int64, error) {
	where, args := `journal_id = ? AND account_id = ?`, []any{journalID, accountID}
	if q != "" {
		where += ` AND body_folded LIKE ? ESCAPE '\'`
		args = append(args, "%"+likeEscaper.Replace(foldCase(q))+"%")
	}
	tx, err := s.r.BeginTx(ctx, &sql.TxOptions{ReadOnly: true}) // one snapshot for the page and its total
	if err != nil {
		return nil, 0, fmt.Errorf("store: list journal entries: %w", err)
	}
	defer tx.end(ctx, false)
	if _, err := getJournal(ctx, tx, accountID, journalID); err != nil {
		return nil, 0, err
	}
	// Without a search, entry_counts has the total (migration 0041); a
	// search reads every entry's text anyway.
	count, cargs := `SELECT coalesce((SELECT entries FROM entry_counts WHERE journal_id = ?), 0)`, []any{journalID}
	if q != "" {
		count, cargs = `SELECT count(*) FROM journal_entries WHERE `+where, args
	}
	var total int64
	if err := tx.QueryRowContext(ctx, count, cargs...).Scan(&total); err != nil {
		return nil, 0, fmt.Errorf("store: count journal entries: %w", err)
	}
	entries := []Entry{}
	err = eachRow(ctx, tx, `SELECT `+entryColumns+` FROM journal_entries WHERE `+where+`
		ORDER BY year DESC, month DESC, day DESC, id DESC LIMIT ? OFFSET ?`, append(args, limit, offset), func(sc scanner) error {
		var en Entry
		if err := scanEntry(sc, &en); err != nil {
			return err
		}
		entries = append(entries, en)
		return nil
	})
	if err != nil {
		return nil, 0, fmt.Errorf("store: list journal entries: %w", err)
	}
	return entries, total, nil
}

// EntryCount is how many entries a journal has, and the date of its
// newest (zero when it has none).
type EntryCount struct {
	Entries          int64
	Year, Month, Day int
}

// EntryCounts are the account's journals' entry counts by journal id; a
// journal without entries is not in the map.
func (s *Store) EntryCounts(ctx context.Context, accountID int64) (map[int64]EntryCount, error) {
	// The counts are entry_counts' (migration 0041); the newest date is the
	// first in the index on (journal_id, year, month, day) read backwards,
	// as year*10000 + month*100 + day, read back into its parts.
	rows, err := s.r.QueryContext(ctx, `SELECT c.journal_id, c.entries,
		(SELECT e.year * 10000 + e.month * 100 + e.day FROM journal_entries e WHERE e.journal_id = c.journal_id
			ORDER BY e.year DESC, e.month DESC, e.day DESC LIMIT 1)
		FROM entry_counts c WHERE c.account_id = ? AND c.entries > 0`, accountID)
	if err != nil {
		return nil, fmt.Errorf("store: count journal entries: %w", err)
	}
	defer rows.Close()
	out := map[int64]EntryCount{}
	for rows.Next() {
		var id, n, newest int64
		if err := rows.Scan(&id, &n, &newest); err != nil {
			return nil, fmt.Errorf("store: count journal entries: %w", err)
		}
		out[id] = EntryCount{Entries: n, Year: int(newest / 10000), Month: int(newest / 100 % 100), Day: int(newest % 100)}
	}
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("store: count journal entries: %w", err)
	}
	return out, nil
}
