package cli

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"io/fs"
	"net/url"
	"os"
	"path/filepath"
	"strings"

	"github.com/rs/zerolog"

	"kith/config"
	"kith/store"
)

func copyFlags(fs *flag.FlagSet) action {
	from := fs.String("from", "", "copy the database `DB`: a file path, sqlite:PATH or a postgres:// URL (required)")
	to := fs.String("to", "", "into the database `DB`, new or empty, which is migrated first (required)")
	return func(ctx context.Context, _ *config.Config, _ zerolog.Logger, stdout io.Writer) error {
		// copy runs without the configuration: a --db would be ignored.
		if given(fs, "db") {
			return errors.New("copy takes --from and --to, not --db")
		}
		return copyDatabase(ctx, *from, *to, stdout)
	}
}

// copyDatabase copies the database from into the database to, which it
// migrates first and which must hold no data, and prints the rows of each
// table. A server may run on the source, which is read in one snapshot;
// none may run on the target.
func copyDatabase(ctx context.Context, from, to string, stdout io.Writer) error {
	switch {
	case from == "" && to == "":
		return errors.New("copy needs --from DB and --to DB")
	case from == "":
		return errors.New("copy needs --from DB")
	case to == "":
		return errors.New("copy needs --to DB")
	case sameDatabase(from, to):
		return fmt.Errorf("--from and --to both name %s: copy into another database", store.Redacted(from))
	}
	src, err := openSource(ctx, from)
	if err != nil {
		return err
	}
	defer src.Close()

	release, err := lockDatabase(to)
	if errors.Is(err, store.ErrLocked) {
		return fmt.Errorf("%w: stop it before copying into it", err)
	}
	if err != nil {
		return err
	}
	defer release()
	dst, _, err := openStore(ctx, to)
	if err != nil {
		return fmt.Errorf("--to %s: %w", store.Redacted(to), err)
	}
	defer dst.Close()

	counts, err := store.Copy(ctx, src, dst)
	if errors.Is(err, store.ErrTargetNotEmpty) {
		return fmt.Errorf("--to %s: %w: copy into a new database", store.Redacted(to), err)
	}
	if err != nil {
		return fmt.Errorf("copy of %s to %s: %w", store.Redacted(from), store.Redacted(to), err)
	}
	return printCounts(stdout, counts, from, to)
}

// openSource opens the database to copy without migrating it: a copy
// should not change its source, and an older schema's columns are not the
// target's.
func openSource(ctx context.Context, from string) (*store.Store, error) {
	// Open would make an empty SQLite file of a mistyped path.
	if !store.IsPostgres(from) {
		path, err := store.SQLitePath(from)
		if err != nil {
			return nil, fmt.Errorf("--from: %w", err)
		}
		if _, err := os.Stat(path); errors.Is(err, fs.ErrNotExist) {
			return nil, fmt.Errorf("--from %s: no such database file", from)
		}
	}
	src, err := store.Open(ctx, from)
	if err != nil {
		return nil, fmt.Errorf("--from %s: %w", store.Redacted(from), err)
	}
	err = src.CheckVersion(ctx)
	var ve *store.VersionError
	switch {
	case errors.As(err, &ve) && ve.Version < ve.Known:
		err = fmt.Errorf("--from %s is at schema version %d, older than this kith's %d: run kith migrate --db %s first",
			store.Redacted(from), ve.Version, ve.Known, store.Redacted(from))
	case errors.As(err, &ve):
		err = fmt.Errorf("--from %s is at schema version %d, newer than this kith knows (%d): copy it with a newer kith",
			store.Redacted(from), ve.Version, ve.Known)
	}
	if err != nil {
		src.Close()
		return nil, err
	}
	return src, nil
}

// printCounts prints each table's rows, and fails if the target's differ
// from the source's.
func printCounts(stdout io.Writer, counts []store.TableCount, from, to string) error {
	var differ []string
	var rows int64
	for _, c := range counts {
		if c.Source != c.Target {
			fmt.Fprintf(stdout, "%s: %d rows in the source, %d in the target\n", c.Table, c.Source, c.Target)
			differ = append(differ, c.Table)
			continue
		}
		fmt.Fprintf(stdout, "%s: %d rows\n", c.Table, c.Target)
		rows += c.Target
	}
	if len(differ) > 0 {
		return fmt.Errorf("the copy of %s to %s is incomplete: the rows of %s differ",
			store.Redacted(from), store.Redacted(to), strings.Join(differ, ", "))
	}
	fmt.Fprintf(stdout, "copy of %s to %s complete: %d rows in %d tables\n", store.Redacted(from), store.Redacted(to), rows, len(counts))
	return nil
}

// sameDatabase reports whether from and to name one database, written two
// ways or not: the copy would migrate it as the target. Two URLs that
// differ more than by the password are taken for two databases; the
// target's check that it is empty catches the rest.
func sameDatabase(from, to string) bool {
	if store.IsPostgres(from) || store.IsPostgres(to) {
		return pgIdentity(from) == pgIdentity(to)
	}
	a, errA := store.SQLitePath(from)
	b, errB := store.SQLitePath(to)
	if errA != nil || errB != nil {
		return false
	}
	fa, errA := os.Stat(a)
	fb, errB := os.Stat(b)
	if errA == nil && errB == nil {
		return os.SameFile(fa, fb)
	}
	a, _ = filepath.Abs(a)
	b, _ = filepath.Abs(b)
	return a == b
}

// pgIdentity is a PostgreSQL URL without its password, its scheme and its
// parameters in one order.
func pgIdentity(db string) string {
	u, err := url.Parse(db)
	if err != nil || !store.IsPostgres(db) {
		return db
	}
	u.Scheme = "postgres"
	if u.User != nil {
		u.User = url.User(u.User.Username())
	}
	u.RawQuery = u.Query().Encode()
	return u.String()
}
