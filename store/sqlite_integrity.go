package store

import (
	"context"
	"fmt"
)

// QuickCheck runs SQLite's PRAGMA quick_check over the whole database and
// returns what it found wrong: nil when every page reads as it should. A
// page damaged on disk is otherwise only noticed when a request happens to
// read it, and a backup of it carries the damage on. PostgreSQL checks its
// own pages and has no such pragma: there it returns nil.
func (s *Store) QuickCheck(ctx context.Context) ([]string, error) {
	if _, ok := s.eng.(sqliteEngine); !ok {
		return nil, nil
	}
	rows, err := s.r.QueryContext(ctx, `PRAGMA quick_check`)
	if err != nil && ctx.Err() != nil {
		return nil, fmt.Errorf("store: quick check: %w", err) // stopped, not damaged
	}
	if err != nil {
		return []string{err.Error()}, nil // a page too damaged to read at all
	}
	defer rows.Close()
	var problems []string
	for rows.Next() {
		var line string
		if err := rows.Scan(&line); err != nil {
			return nil, fmt.Errorf("store: quick check: %w", err)
		}
		if line != "ok" {
			problems = append(problems, line)
		}
	}
	if err := rows.Err(); err != nil {
		if ctx.Err() != nil {
			return nil, fmt.Errorf("store: quick check: %w", err)
		}
		problems = append(problems, err.Error())
	}
	return problems, nil
}
