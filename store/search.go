package store

import (
	"context"
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
	return s.personPage(ctx, accountID, ` AND `+cond, []any{arg}, "id", limit, offset)
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
