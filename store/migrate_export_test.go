package store

import "context"

// MigrateTo is migrateTo, for the tests that build a database of an older
// version on either engine (store_test cannot see unexported names).
func (s *Store) MigrateTo(ctx context.Context, upTo int) ([]string, error) {
	return s.migrateTo(ctx, upTo)
}
