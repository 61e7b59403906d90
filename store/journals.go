package store

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"strconv"
	"strings"
	"sync"
)

// ErrJournalNotFound reports a journal that is not the account's.
var ErrJournalNotFound = &NotFoundError{What: "journal"}

// Journal is a diary of the account, whose entries are one per date.
type Journal struct {
	ID        int64
	AccountID int64
	Name      string
	Slug      string
	CreatedAt int64
	UpdatedAt int64
}

const journalColumns = `id, account_id, name, slug, created_at, updated_at`

func scanJournal(sc scanner, j *Journal) error {
	return sc.Scan(&j.ID, &j.AccountID, &j.Name, &j.Slug, &j.CreatedAt, &j.UpdatedAt)
}

// JournalSlug is "<id>-<name slugged>": ASCII letters and digits
// lower-cased, accented letters without their accents, every run of other
// characters one "-", none at either end; the id alone when nothing is
// left of the name.
func JournalSlug(id int64, name string) string {
	var b strings.Builder
	b.WriteString(strconv.FormatInt(id, 10))
	dash := true // a "-" comes before the first word
	for _, r := range name {
		for _, f := range foldRune(r) {
			switch {
			case f >= 'a' && f <= 'z', f >= '0' && f <= '9':
				if dash {
					b.WriteByte('-')
					dash = false
				}
				b.WriteRune(f)
			case f >= 'A' && f <= 'Z':
				if dash {
					b.WriteByte('-')
					dash = false
				}
				b.WriteRune(f - 'A' + 'a')
			default:
				dash = true
			}
		}
	}
	return b.String()
}

// accents maps the Latin letters with diacritics (Latin-1 and Latin
// Extended-A) to the ASCII they lose their accents to. The standard
// library has no Unicode decomposition, and this is all a slug needs.
var accents = sync.OnceValue(func() map[rune]string {
	m := map[rune]string{'ß': "ss", 'æ': "ae", 'Æ': "AE", 'œ': "oe", 'Œ': "OE", 'ø': "o", 'Ø': "O",
		'đ': "d", 'Đ': "D", 'ł': "l", 'Ł': "L", 'þ': "th", 'Þ': "TH", 'ð': "d", 'Ð': "D", 'ı': "i", 'ŀ': "l", 'Ŀ': "L"}
	for base, letters := range map[string]string{
		"a": "àáâãäåāăą", "A": "ÀÁÂÃÄÅĀĂĄ", "c": "çćĉċč", "C": "ÇĆĈĊČ", "d": "ď", "D": "Ď",
		"e": "èéêëēĕėęě", "E": "ÈÉÊËĒĔĖĘĚ", "g": "ĝğġģ", "G": "ĜĞĠĢ", "h": "ĥħ", "H": "ĤĦ",
		"i": "ìíîïĩīĭįĳ", "I": "ÌÍÎÏĨĪĬĮİĲ", "j": "ĵ", "J": "Ĵ", "k": "ķ", "K": "Ķ", "l": "ĺļľ", "L": "ĹĻĽ",
		"n": "ñńņňŉ", "N": "ÑŃŅŇ", "o": "òóôõöōŏő", "O": "ÒÓÔÕÖŌŎŐ", "r": "ŕŗř", "R": "ŔŖŘ",
		"s": "śŝşšſ", "S": "ŚŜŞŠ", "t": "ţťŧ", "T": "ŢŤŦ", "u": "ùúûüũūŭůűų", "U": "ÙÚÛÜŨŪŬŮŰŲ",
		"w": "ŵ", "W": "Ŵ", "y": "ýÿŷ", "Y": "ÝŶŸ", "z": "źżž", "Z": "ŹŻŽ",
	} {
		for _, r := range letters {
			m[r] = base
		}
	}
	return m
})

// foldRune is r without its accent, or r itself.
func foldRune(r rune) string {
	if s, ok := accents()[r]; ok {
		return s
	}
	return string(r)
}

// defaultJournal is the name of the journal every new account starts with.
const defaultJournal = "My first journal"

// insertDefaultJournal gives a new account its first journal.
func insertDefaultJournal(ctx context.Context, tx *txn, accountID, now int64) error {
	var id int64
	err := tx.QueryRowContext(ctx, `INSERT INTO journals (account_id, name, slug, created_at, updated_at)
		VALUES (?, ?, '', ?, ?) RETURNING id`, accountID, defaultJournal, now, now).Scan(&id)
	if err == nil {
		_, err = tx.ExecContext(ctx, `UPDATE journals SET slug = ? WHERE id = ?`, JournalSlug(id, defaultJournal), id)
	}
	if err != nil {
		return fmt.Errorf("store: create default journal: %w", err)
	}
	return nil
}

// Journals lists the account's journals, newest first.
func (s *Store) Journals(ctx context.Context, accountID int64) ([]Journal, error) {
	rows, err := s.r.QueryContext(ctx, `SELECT `+journalColumns+` FROM journals WHERE account_id = ?
		ORDER BY created_at DESC, id DESC`, accountID)
	if err != nil {
		return nil, fmt.Errorf("store: list journals: %w", err)
	}
	defer rows.Close()
	js := []Journal{}
	for rows.Next() {
		var j Journal
		if err := scanJournal(rows, &j); err != nil {
			return nil, fmt.Errorf("store: scan journal: %w", err)
		}
		js = append(js, j)
	}
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("store: list journals: %w", err)
	}
	return js, nil
}

// Journal returns one of the account's journals.
func (s *Store) Journal(ctx context.Context, accountID, id int64) (Journal, error) {
	return getJournal(ctx, s.r, accountID, id)
}

func getJournal(ctx context.Context, q queryer, accountID, id int64) (Journal, error) {
	var j Journal
	err := scanJournal(q.QueryRowContext(ctx, `SELECT `+journalColumns+` FROM journals WHERE id = ? AND account_id = ?`, id, accountID), &j)
	if errors.Is(err, sql.ErrNoRows) {
		return Journal{}, ErrJournalNotFound
	}
	if err != nil {
		return Journal{}, fmt.Errorf("store: get journal: %w", err)
	}
	return j, nil
}

// CreateJournal adds a journal to the account. Its slug needs its id, so
// the row is written first and slugged in the same transaction.
func (s *Store) CreateJournal(ctx context.Context, accountID int64, name string) (Journal, error) {
	var j Journal
	err := s.withTx(ctx, func(ctx context.Context, tx *txn) error {
		now := s.now()
		var id int64
		err := tx.QueryRowContext(ctx, `INSERT INTO journals (account_id, name, slug, created_at, updated_at)
			VALUES (?, ?, '', ?, ?) RETURNING id`, accountID, name, now, now).Scan(&id)
		if isForeignKeyViolation(err) {
			return ErrAccountNotFound
		}
		if err != nil {
			return fmt.Errorf("store: create journal: %w", err)
		}
		err = scanJournal(tx.QueryRowContext(ctx, `UPDATE journals SET slug = ? WHERE id = ? RETURNING `+journalColumns,
			JournalSlug(id, name), id), &j)
		if err != nil {
			return fmt.Errorf("store: create journal: %w", err)
		}
		return s.logAction(ctx, tx, "journal_creation", "Created the journal called "+j.Name)
	})
	return j, err
}

// UpdateJournal renames one of the account's journals and remakes its slug.
func (s *Store) UpdateJournal(ctx context.Context, accountID, id int64, name string) (Journal, error) {
	var j Journal
	err := s.withTx(ctx, func(ctx context.Context, tx *txn) error {
		err := scanJournal(tx.QueryRowContext(ctx, `UPDATE journals SET name = ?, slug = ?, updated_at = ?
			WHERE id = ? AND account_id = ? RETURNING `+journalColumns, name, JournalSlug(id, name), s.now(), id, accountID), &j)
		if errors.Is(err, sql.ErrNoRows) {
			return ErrJournalNotFound
		}
		if err != nil {
			return fmt.Errorf("store: update journal: %w", err)
		}
		return s.logAction(ctx, tx, "journal_update", "Updated the journal called "+j.Name)
	})
	return j, err
}

// DeleteJournal deletes one of the account's journals and, by the foreign
// key's cascade, its entries.
func (s *Store) DeleteJournal(ctx context.Context, accountID, id int64) error {
	return s.withTx(ctx, func(ctx context.Context, tx *txn) error {
		var name string
		err := tx.QueryRowContext(ctx, `DELETE FROM journals WHERE id = ? AND account_id = ? RETURNING name`, id, accountID).Scan(&name)
		if errors.Is(err, sql.ErrNoRows) {
			return ErrJournalNotFound
		}
		if err != nil {
			return fmt.Errorf("store: delete journal: %w", err)
		}
		return s.logAction(ctx, tx, "journal_deletion", "Deleted the journal called "+name)
	})
}
