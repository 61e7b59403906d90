package store

import (
	"context"
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
	cond, args := s.eng.searchPersons(accountID, q)
	return s.personPage(ctx, accountID, ` AND `+cond, args, "id", limit, offset)
}

// likeEscaper escapes LIKE's wildcards, with \ as the escape.
var likeEscaper = strings.NewReplacer(`\`, `\\`, `%`, `\%`, `_`, `\_`)

// searchPersons on SQLite: three characters or more are trigrams, which
// the FTS5 index finds (case and diacritics folded); fewer are looked for
// in each of the account's persons, case folded for ASCII.
func (sqliteEngine) searchPersons(_ int64, q string) (string, []any) {
	if utf8.RuneCountInString(q) >= 3 {
		return `id IN (SELECT rowid FROM persons_search WHERE persons_search MATCH ?)`, []any{`"` + strings.ReplaceAll(q, `"`, `""`) + `"`}
	}
	return `search_text LIKE ? ESCAPE '\'`, []any{"%" + likeEscaper.Replace(q) + "%"}
}

// searchGram is the length of the grams of person_search_grams
// (migration 0043).
const searchGram = 5

// gramsCond is the condition of a person whose grams hold the query's.
// Worked out for a row, the grams cost 10 to 20 µs, and a plan that
// tested them on each of the account's persons, which the planner picks
// for a query most of them hold, took 2 s at 100,000 people: fenceGrams
// leaves the index the one way to them.
const gramsCond = `person_search_grams(account_id, search_text) @> person_search_grams(?, ?)`

// searchPersons on PostgreSQL: search_text is in lower case. A query of
// searchGram characters or more is found by its grams in the account's
// own keys of persons_search_grams (migration 0043), which are as rare at
// 100,000 people as at 10,000, then tested by the LIKE, whose text is an
// expression there (search_text and the empty string) so that the
// trigram index, which grows with every account, is not read beside
// them. A shorter query is found by the trigram index (pg_trgm) where it
// could be made.
func (postgresEngine) searchPersons(accountID int64, q string) (string, []any) {
	q = strings.ToLower(q)
	like := "%" + likeEscaper.Replace(q) + "%"
	if utf8.RuneCountInString(q) >= searchGram {
		return gramsCond + ` AND (search_text || '') LIKE ? ESCAPE '\'`, []any{accountID, q, like}
	}
	return `search_text LIKE ? ESCAPE '\'`, []any{like}
}

// fenceGrams turns off, for the rest of tx, the scans that would test
// each row's grams instead of reading their index, when cond holds
// gramsCond: the account's condition does not lead (leads), the LIKE's
// text is no column, so the only scan of persons left is the bitmap scan
// of the index of grams, and its plan is one for any query (generic),
// which spares planning every search again. Every table keeps its bitmap
// scans, which the rest of a page's queries use.
func fenceGrams(ctx context.Context, tx *txn, cond string) error {
	if !strings.Contains(cond, gramsCond) {
		return nil
	}
	if _, err := tx.ExecContext(ctx, `SELECT set_config('enable_seqscan', 'off', true), set_config('enable_indexscan', 'off', true),
		set_config('plan_cache_mode', 'force_generic_plan', true)`); err != nil {
		return fmt.Errorf("store: search persons: %w", err)
	}
	return nil
}
