package store

import (
	"context"
	"crypto/rand"
	"database/sql"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strconv"
)

// Backup writes a consistent copy of the database db (a Store's Open
// value) to out, while
// the server may be writing to it: VACUUM INTO reads one snapshot, which
// WAL lets writers go on beside. The copy goes to a temporary name, is
// checked, synced and only then linked to out, which must not exist: a
// file at out is never clobbered and never half-written.
func Backup(ctx context.Context, db, out string) error {
	if IsPostgres(db) {
		return ErrPostgresBackup
	}
	src, err := SQLitePath(db)
	if err != nil {
		return err
	}
	if _, err := os.Lstat(out); err == nil {
		return fmt.Errorf("%s already exists", out)
	}
	tmp := filepath.Join(filepath.Dir(out), "."+filepath.Base(out)+".tmp-"+rand.Text()[:8])
	defer os.Remove(tmp)
	conn, err := sql.Open("sqlite", "file:"+uriPath.Replace(src)+"?mode=ro&_pragma=busy_timeout(10000)")
	if err != nil {
		return err
	}
	defer conn.Close()
	if _, err := schemaVersion(ctx, conn); err != nil {
		return fmt.Errorf("%s is not a Kith database: %w", src, err)
	}
	// The copy holds password hashes and everyone's relationships, so its
	// file is made by us, empty and readable by its owner only, before
	// SQLite writes a byte to it: SQLite would create it 0644 less the
	// umask, and a chmod afterwards leaves it readable meanwhile. VACUUM
	// INTO accepts an empty file, and any journal SQLite makes beside it
	// takes its mode. (A umask of 077 would do as well, but it is the whole
	// process's, and not ours to change under the server's other files.)
	if err := createPrivate(tmp); err != nil {
		return err
	}
	if _, err := conn.ExecContext(ctx, `VACUUM INTO ?`, tmp); err != nil {
		return fmt.Errorf("copy: %w", err)
	}
	if backupCopied != nil {
		backupCopied(tmp)
	}
	if _, err := CheckBackup(ctx, tmp); err != nil {
		return err
	}
	if err := syncFile(tmp); err != nil {
		return err
	}
	if err := os.Link(tmp, out); err != nil { // fails, rather than replaces, if out appeared meanwhile
		return err
	}
	return syncFile(filepath.Dir(out))
}

// backupCopied, when set, is called with the temporary file of a backup
// once the copy is in it and before anything else is done to it: tests
// look at the file there.
var backupCopied func(tmp string)

// CheckBackup returns the schema version of the backup at path once
// SQLite's integrity check passes and this binary knows the schema. It
// checks what Restore would install: with a WAL (or a rollback journal)
// beside it, a backup is read as SQLite reads it, through a copy of the
// two in a private temporary directory, and path itself is never written.
func CheckBackup(ctx context.Context, path string) (int, error) {
	if _, err := os.Stat(path); err != nil {
		return 0, err
	}
	if !hasJournal(path) {
		return checkFile(ctx, path, path)
	}
	dir, err := os.MkdirTemp("", "kith-check-")
	if err != nil {
		return 0, err
	}
	defer os.RemoveAll(dir)
	tmp := filepath.Join(dir, "check.db")
	if err := settle(ctx, path, tmp); err != nil {
		return 0, fmt.Errorf("%s: %w", path, err)
	}
	return checkFile(ctx, tmp, path)
}

// checkFile is CheckBackup on a file that is the whole database, with no
// journal beside it; name is what errors call it.
func checkFile(ctx context.Context, path, name string) (int, error) {
	db, err := sql.Open("sqlite", "file:"+uriPath.Replace(path)+"?mode=ro")
	if err != nil {
		return 0, err
	}
	defer db.Close()
	var res string
	if err := db.QueryRowContext(ctx, `PRAGMA integrity_check`).Scan(&res); err != nil {
		return 0, fmt.Errorf("%s: integrity check: %w", name, err)
	}
	if res != "ok" {
		return 0, fmt.Errorf("%s: integrity check failed: %s", name, res)
	}
	v, err := schemaVersion(ctx, db)
	if err != nil {
		return 0, fmt.Errorf("%s is not a Kith database: %w", name, err)
	}
	ms, err := migrations(sqliteMigrations)
	if err != nil {
		return 0, err
	}
	if latest := ms[len(ms)-1].version; v > latest {
		return 0, fmt.Errorf("%s is at schema version %d, newer than this binary knows (%d)", name, v, latest)
	}
	return v, nil
}

// journals are the files beside a database whose committed content SQLite
// reads with it: the WAL, and a hot rollback journal, which it rolls back.
var journals = []string{"-wal", "-journal"}

// hasJournal reports whether a journal of the database at path is beside it.
func hasJournal(path string) bool {
	for _, suffix := range journals {
		if _, err := os.Lstat(path + suffix); err == nil {
			return true
		}
	}
	return false
}

// settle copies the database at from, with its journals, to a new file at
// to, and has SQLite fold them into it there: to is then one file holding
// what SQLite reads at from, with nothing beside it. from is never opened
// by SQLite, which would write to its journals. A backup copied while its
// server ran, -wal and all, was checked with everything in its WAL and
// restored without it, 500 persons short.
func settle(ctx context.Context, from, to string) (err error) {
	defer func() {
		for _, suffix := range []string{"-wal", "-shm", "-journal"} {
			if rerr := os.Remove(to + suffix); rerr != nil && !errors.Is(rerr, os.ErrNotExist) && err == nil {
				err = rerr
			}
		}
	}()
	if err := copyFile(from, to); err != nil {
		return err
	}
	for _, suffix := range journals {
		if err := copyFile(from+suffix, to+suffix); err != nil && !errors.Is(err, os.ErrNotExist) {
			return err
		}
	}
	db, err := sql.Open("sqlite", "file:"+uriPath.Replace(to)+"?_pragma=busy_timeout(10000)")
	if err != nil {
		return err
	}
	defer db.Close()
	db.SetMaxOpenConns(1)
	// Reading rolls a hot journal back; leaving WAL mode checkpoints the
	// WAL into the file and deletes it. (Kith's Open puts it back in WAL.)
	var n int
	if err := db.QueryRowContext(ctx, `SELECT count(*) FROM sqlite_schema`).Scan(&n); err != nil {
		return fmt.Errorf("read: %w", err)
	}
	var mode string
	if err := db.QueryRowContext(ctx, `PRAGMA journal_mode = DELETE`).Scan(&mode); err != nil {
		return fmt.Errorf("checkpoint: %w", err)
	}
	if mode != "delete" {
		return fmt.Errorf("checkpoint: journal mode %s", mode)
	}
	return db.Close()
}

// Restore puts the backup at from in place of the database db (a Store's
// Open value), which must not be in use. The backup is read as SQLite
// reads it, with the WAL beside it if any (see CheckBackup), into a
// temporary file beside dst, which is checked and synced before it takes
// dst's name: what was checked is what is installed. What was at dst is
// kept beside it, with its WAL, as dst.before-restore-<stamp>.
func Restore(ctx context.Context, from, db, stamp string) (kept string, err error) {
	if IsPostgres(db) {
		return "", ErrPostgresRestore
	}
	dst, err := SQLitePath(db)
	if err != nil {
		return "", err
	}
	if _, err := os.Stat(from); err != nil {
		return "", err
	}
	tmp := filepath.Join(filepath.Dir(dst), "."+filepath.Base(dst)+".restore-"+rand.Text()[:8])
	defer os.Remove(tmp)
	if err := settle(ctx, from, tmp); err != nil {
		return "", fmt.Errorf("%s: %w", from, err)
	}
	if _, err := checkFile(ctx, tmp, from); err != nil {
		return "", err
	}
	if err := syncFile(tmp); err != nil {
		return "", err
	}
	if _, err := os.Stat(dst); err == nil {
		if kept, err = keepAside(dst, stamp); err != nil {
			return "", err
		}
	}
	// The index of the old WAL must not be read against the new file.
	if err := os.Remove(dst + "-shm"); err != nil && !errors.Is(err, os.ErrNotExist) {
		return kept, err
	}
	if err := os.Rename(tmp, dst); err != nil {
		return kept, err
	}
	return kept, syncFile(filepath.Dir(dst))
}

// keepAside moves the database at dst and its WAL to a name no file has
// yet, dst.before-restore-<stamp>, with -2, -3… when a restore of the same
// stamp kept one already: a database kept aside is never overwritten.
func keepAside(dst, stamp string) (string, error) {
	for n := 1; n < 1000; n++ {
		kept := dst + ".before-restore-" + stamp
		if n > 1 {
			kept += "-" + strconv.Itoa(n)
		}
		// Link fails, rather than replaces, when the name is taken.
		err := os.Link(dst, kept)
		if errors.Is(err, os.ErrExist) {
			continue
		}
		if err != nil {
			return "", err
		}
		if err := os.Remove(dst); err != nil {
			return "", err
		}
		err = os.Rename(dst+"-wal", kept+"-wal")
		if errors.Is(err, os.ErrNotExist) {
			// No WAL of its own: one left under the kept name by some
			// earlier file is not this database's, and must not be read
			// with it.
			err = os.Remove(kept + "-wal")
			if errors.Is(err, os.ErrNotExist) {
				err = nil
			}
		}
		return kept, err
	}
	return "", fmt.Errorf("%s: too many restores with the stamp %s", dst, stamp)
}

// createPrivate creates an empty file at path, readable by its owner
// only, which must not exist yet.
func createPrivate(path string) error {
	f, err := os.OpenFile(path, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o600)
	if err != nil {
		return err
	}
	return f.Close()
}

func copyFile(from, to string) error {
	in, err := os.Open(from)
	if err != nil {
		return err
	}
	defer in.Close()
	f, err := os.OpenFile(to, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o600)
	if err != nil {
		return err
	}
	if _, err := io.Copy(f, in); err != nil {
		f.Close()
		return err
	}
	if err := f.Sync(); err != nil {
		f.Close()
		return err
	}
	return f.Close()
}

// syncFile flushes a file, or a directory's entries, to the disk.
func syncFile(path string) error {
	f, err := os.Open(path)
	if err != nil {
		return err
	}
	defer f.Close()
	return f.Sync()
}
