package store

import (
	"context"
	"database/sql"
	"fmt"
	"strings"
	"unicode/utf8"
)

// MaxSearchLength is the longest search SearchPersons takes, in
// characters: longer than any name and email together.
const MaxSearchLength = 255

// SearchPersons returns one page of the account's persons whose name,
// middle, last, nickname or maiden name or email address holds q, by id,
// and how many there are. Case does not count, nor, on SQLite, accents.
func (s *Store) SearchPersons(ctx context.Context, accountID int64, q string, limit, offset int64) ([]Person, int64, error) {
	cond, arg := s.eng.searchPersons(q)
	tx, err := s.r.BeginTx(ctx, &sql.TxOptions{ReadOnly: true}) // one snapshot for the page and its total
	if err != nil {
		return nil, 0, fmt.Errorf("store: search persons: %w", err)
	}
	defer tx.end(ctx, false)
	var total int64
	if err := tx.QueryRowContext(ctx, `SELECT count(*) FROM persons WHERE account_id = ? AND `+cond, accountID, arg).Scan(&total); err != nil {
		return nil, 0, fmt.Errorf("store: count found persons: %w", err)
	}
	persons := []Person{}
	err = eachRow(ctx, tx, `SELECT `+personColumns+` FROM persons WHERE account_id = ? AND `+cond+`
		ORDER BY id LIMIT ? OFFSET ?`, []any{accountID, arg, limit, offset}, func(sc scanner) error {
		var p Person
		if err := scanPerson(sc, &p); err != nil {
			return err
		}
		persons = append(persons, p)
		return nil
	})
	if err != nil {
		return nil, 0, fmt.Errorf("store: search persons: %w", err)
	}
	return persons, total, nil
}

// likeEscaper escapes LIKE's wildcards, with \ as the escape.
var likeEscaper = strings.NewReplacer(`\`, `\\`, `%`, `\%`, `_`, `\_`)

// searchPersons on SQLite: three characters or more are trigrams, which
// the FTS5 index finds (case and diacritics folded); fewer are looked for
// in each of the account's persons, case folded for ASCII.
func (sqliteEngine) searchPersons(q string) (string, any) {
	if utf8.RuneCountInString(q) >= 3 {
		return `id IN (SELECT rowid FROM persons_search WHERE persons_search MATCH ?)`, `"` + strings.ReplaceAll(q, `"`, `""`) + `"`
	}
	return `search_text LIKE ? ESCAPE '\'`, "%" + likeEscaper.Replace(q) + "%"
}

// searchPersons on PostgreSQL: search_text is in lower case, and a
// trigram index (pg_trgm) serves the LIKE where it could be made.
func (postgresEngine) searchPersons(q string) (string, any) {
	return `search_text LIKE ? ESCAPE '\'`, "%" + likeEscaper.Replace(strings.ToLower(q)) + "%"
}
