//go:build unix

package store

import (
	"context"
	"os"
	"path/filepath"
	"syscall"
	"testing"
)

// TestBackupIsPrivateFromTheFirstByte: the temporary file of a backup, which
// holds password hashes, is never readable by others, not even while
// VACUUM INTO writes it under the usual umask.
func TestBackupIsPrivateFromTheFirstByte(t *testing.T) {
	old := syscall.Umask(0o022)
	defer syscall.Umask(old)
	_, path := openTest(t)
	var seen []os.FileMode
	backupCopied = func(tmp string) {
		if fi, err := os.Stat(tmp); err == nil {
			seen = append(seen, fi.Mode().Perm())
		}
	}
	defer func() { backupCopied = nil }()
	if err := Backup(context.Background(), path, filepath.Join(t.TempDir(), "backup.db")); err != nil {
		t.Fatal(err)
	}
	if len(seen) != 1 || seen[0] != 0o600 {
		t.Errorf("the temporary file's mode just after the copy: %o, want 600", seen)
	}
}
