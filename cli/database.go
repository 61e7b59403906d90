package cli

import (
	"context"
	"errors"
	"fmt"
	"os"

	"github.com/rs/zerolog"

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

// warnExposed logs a warning for each of the database's files and the
// configuration file (which may hold the SMTP password) that group or
// others may read, and for the database's directory if they may write it,
// with the command that fixes it.
func warnExposed(log zerolog.Logger, db, configFile string) {
	files, err := store.Exposed(db)
	if err != nil {
		return // the store's open reports a bad db value
	}
	if configFile != "" {
		if fi, err := os.Stat(configFile); err == nil && fi.Mode().Perm()&0o044 != 0 {
			files = append(files, store.ExposedFile{What: "config file", Path: configFile, Mode: fi.Mode().Perm()})
		}
	}
	for _, f := range files {
		ev := log.Warn().Str("path", f.Path).Str("mode", fmt.Sprintf("%04o", f.Mode))
		if f.What == "database directory" {
			ev.Msgf("the database directory is writable by group or others, who could remove or replace the database: "+
				"chmod 700 %s, or keep the database in a folder of your own", f.Path)
			continue
		}
		ev.Msgf("the %s is readable by group or others, and holds secrets: chmod 600 %s", f.What, f.Path)
	}
}
