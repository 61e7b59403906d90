package main

import (
	"context"
	"errors"
	"fmt"

	"kith/store"
)

// openStore opens the database and brings its schema up to date.
func openStore(ctx context.Context, path string) (*store.Store, []string, error) {
	st, err := store.Open(ctx, path)
	if err != nil {
		return nil, nil, err
	}
	applied, err := st.Migrate(ctx)
	if err != nil {
		st.Close()
		return nil, nil, err
	}
	return st, applied, nil
}

// lockDatabase takes the database's lock (store.Lock), which a server holds
// while it runs and a restore while it works; the other commands go on
// beside a server under SQLite's own locking.
func lockDatabase(db string) (release func() error, err error) {
	release, err = store.Lock(db)
	var locked *store.LockedError
	if errors.As(err, &locked) {
		return nil, &inUseError{db: db, locked: locked}
	}
	return release, err
}

// inUseError is the lock of a database that another kith process holds,
// said for the command line; it matches store.ErrLocked.
type inUseError struct {
	db     string
	locked *store.LockedError
}

func (e *inUseError) Error() string {
	if e.locked.PID == 0 {
		return fmt.Sprintf("another kith server has %s open", e.db)
	}
	return fmt.Sprintf("another kith server (pid %d) has %s open", e.locked.PID, e.db)
}

func (e *inUseError) Unwrap() error { return e.locked }
