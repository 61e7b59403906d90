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
		if locked.PID == 0 {
			return nil, fmt.Errorf("another kith server has %s open", db)
		}
		return nil, fmt.Errorf("another kith server (pid %d) has %s open", locked.PID, db)
	}
	return release, err
}
