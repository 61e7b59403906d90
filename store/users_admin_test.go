package store

import (
	"context"
	"database/sql"
	"fmt"
	"slices"
	"strings"
)

// RowsOf counts, in every table of the schema that has an account_id or a
// user_id column, the rows of the account or of one of the users (and in
// accounts and users, those rows themselves), for the tests of deleting
// users: the tables come from the engine's catalog, so a new table is
// counted without being named here. On SQLite it also counts the search
// index's entries of persons that are gone, and the broken references
// that PRAGMA foreign_key_check finds.
func RowsOf(ctx context.Context, s *Store, accountID int64, userIDs ...int64) (map[string]int64, error) {
	tx, err := s.r.BeginTx(ctx, &sql.TxOptions{ReadOnly: true})
	if err != nil {
		return nil, err
	}
	defer tx.end(ctx, false)
	eng := s.eng.(copyEngine)
	tables, err := eng.tableNames(ctx, tx)
	if err != nil {
		return nil, err
	}
	users := "0"
	for _, id := range userIDs {
		users += fmt.Sprintf(", %d", id)
	}
	counts := map[string]int64{}
	for _, table := range tables {
		cols, err := eng.columns(ctx, tx, table)
		if err != nil {
			return nil, err
		}
		var conds []string
		for _, c := range cols {
			switch {
			case c.name == "account_id":
				conds = append(conds, fmt.Sprintf("account_id = %d", accountID))
			case c.name == "user_id":
				conds = append(conds, "user_id IN ("+users+")")
			case c.name == "id" && table == "accounts":
				conds = append(conds, fmt.Sprintf("id = %d", accountID))
			case c.name == "id" && table == "users":
				conds = append(conds, "id IN ("+users+")")
			}
		}
		if len(conds) == 0 {
			continue
		}
		var n int64
		q := `SELECT count(*) FROM ` + quoteName(table) + ` WHERE ` + strings.Join(conds, " OR ")
		if err := tx.Tx.QueryRowContext(ctx, q).Scan(&n); err != nil {
			return nil, fmt.Errorf("%s: %w", q, err)
		}
		counts[table] = n
	}
	if slices.Contains(tables, "persons_search_docsize") {
		var n int64
		err := tx.Tx.QueryRowContext(ctx, `SELECT count(*) FROM persons_search_docsize
			WHERE id NOT IN (SELECT id FROM persons)`).Scan(&n)
		if err != nil {
			return nil, err
		}
		counts["persons_search (of no person)"] = n
		rows, err := tx.Tx.QueryContext(ctx, `PRAGMA foreign_key_check`)
		if err != nil {
			return nil, err
		}
		defer rows.Close()
		for rows.Next() {
			counts["foreign_key_check"]++
		}
		if err := rows.Err(); err != nil {
			return nil, err
		}
	}
	return counts, nil
}
