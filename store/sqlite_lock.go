package store

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"time"
)

// ErrLocked matches (errors.Is) the error of Lock when another process
// holds the database's lock.
var ErrLocked = errors.New("store: database locked by another process")

// LockedError is Lock's error when another process holds the lock: PID is
// the holder's process id as it wrote it, 0 when it could not be read.
type LockedError struct {
	Path string // the lock file
	PID  int
}

func (e *LockedError) Error() string {
	if e.PID == 0 {
		return "store: " + e.Path + " is locked by another process"
	}
	return fmt.Sprintf("store: %s is locked by process %d", e.Path, e.PID)
}

// Is makes every LockedError match ErrLocked.
func (e *LockedError) Is(target error) bool { return target == ErrLocked }

// LockPath is the lock file of the database at dbPath: beside the file it
// names, after symbolic links, so that two spellings of one database (a
// linked directory, a linked file) share one lock.
func LockPath(dbPath string) string {
	if p, err := filepath.EvalSymlinks(dbPath); err == nil {
		return p + ".lock"
	}
	// The database does not exist yet: its directory still may be a link.
	if dir, err := filepath.EvalSymlinks(filepath.Dir(dbPath)); err == nil {
		return filepath.Join(dir, filepath.Base(dbPath)) + ".lock"
	}
	return dbPath + ".lock"
}

// Lock takes the exclusive lock of the database db (a value for Open), or fails at
// once with a *LockedError when another process holds it. The lock lasts
// until release is called or the process ends, however it ends: the
// operating system drops it with the last open descriptor (flock), so a
// killed process leaves no stale lock. The lock file itself stays: removing
// it would let a later process lock a new file while another still holds
// the old one. It holds the holder's pid, for the message of whoever is
// refused.
//
// SQLite's own locking keeps concurrent writers consistent; this lock is for
// what SQLite cannot see, such as a second server on the same file or a
// restore that swaps the file under a running one. On PostgreSQL there is
// nothing to lock: any number of servers may share its database.
func Lock(db string) (release func() error, err error) {
	if IsPostgres(db) {
		return func() error { return nil }, nil
	}
	dbPath, err := SQLitePath(db)
	if err != nil {
		return nil, err
	}
	path := LockPath(dbPath)
	f, err := os.OpenFile(path, os.O_RDWR|os.O_CREATE, 0o600)
	if err != nil {
		return nil, fmt.Errorf("store: lock %s: %w", dbPath, err)
	}
	held, err := tryLock(f)
	if err != nil {
		f.Close()
		return nil, fmt.Errorf("store: lock %s: %w", dbPath, err)
	}
	if !held {
		defer f.Close()
		return nil, &LockedError{Path: path, PID: readPID(f)}
	}
	pid := []byte(strconv.Itoa(os.Getpid()) + "\n")
	if err := f.Truncate(0); err == nil {
		_, err = f.WriteAt(pid, 0)
	}
	if err != nil {
		f.Close()
		return nil, fmt.Errorf("store: lock %s: %w", dbPath, err)
	}
	var once sync.Once
	return func() error {
		once.Do(func() {
			// Emptied first, so that no pid of a process long gone is left.
			err = errors.Join(f.Truncate(0), f.Close())
		})
		return err
	}, nil
}

// readPID reads the holder's pid from the lock file. A holder writes it
// just after taking the lock, so an empty file is read again for a moment.
func readPID(f *os.File) int {
	for range 20 {
		b := make([]byte, 32)
		n, _ := f.ReadAt(b, 0)
		if pid, err := strconv.Atoi(strings.TrimSpace(string(b[:n]))); err == nil && pid > 0 {
			return pid
		}
		time.Sleep(5 * time.Millisecond)
	}
	return 0
}
