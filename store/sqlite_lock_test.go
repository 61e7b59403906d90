package store

import (
	"bufio"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"testing"
)

func TestLockIsExclusiveAndSaysWhoHoldsIt(t *testing.T) {
	db := filepath.Join(t.TempDir(), "kith.db")
	release, err := Lock(db)
	if err != nil {
		t.Fatal(err)
	}
	fi, err := os.Stat(db + ".lock")
	if err != nil || fi.Mode().Perm() != 0o600 {
		t.Fatalf("lock file: %v %v", fi, err)
	}
	if b, _ := os.ReadFile(db + ".lock"); strings.TrimSpace(string(b)) != strconv.Itoa(os.Getpid()) {
		t.Errorf("lock file holds %q, want this pid", b)
	}

	// A second lock is refused even within one process: flock belongs to
	// the open file, not to the process.
	_, err = Lock(db)
	var locked *LockedError
	if !errors.Is(err, ErrLocked) || !errors.As(err, &locked) || locked.PID != os.Getpid() {
		t.Fatalf("second lock: %v", err)
	}
	if !strings.Contains(err.Error(), "process "+strconv.Itoa(os.Getpid())) {
		t.Errorf("the message lacks the pid: %v", err)
	}

	if err := release(); err != nil {
		t.Fatal(err)
	}
	if err := release(); err != nil {
		t.Errorf("a second release: %v", err)
	}
	again, err := Lock(db)
	if err != nil {
		t.Fatalf("after release: %v", err)
	}
	again()
}

func TestLockFollowsSymlinks(t *testing.T) {
	dir := t.TempDir()
	link := filepath.Join(t.TempDir(), "data")
	if err := os.Symlink(dir, link); err != nil {
		t.Skip(err)
	}
	release, err := Lock(filepath.Join(dir, "kith.db"))
	if err != nil {
		t.Fatal(err)
	}
	defer release()
	if _, err := Lock(filepath.Join(link, "kith.db")); !errors.Is(err, ErrLocked) {
		t.Errorf("the same database through a linked directory: %v", err)
	}
}

// TestLockDiesWithItsProcess: a process killed with SIGKILL leaves its lock
// file but not its lock.
func TestLockDiesWithItsProcess(t *testing.T) {
	if runtime.GOOS == "windows" {
		t.Skip("no flock")
	}
	if db := os.Getenv("KITH_TEST_HOLD_LOCK"); db != "" {
		if _, err := Lock(db); err != nil {
			os.Exit(3)
		}
		os.Stdout.WriteString("locked\n")
		select {}
	}
	db := filepath.Join(t.TempDir(), "kith.db")
	cmd := exec.Command(os.Args[0], "-test.run=^TestLockDiesWithItsProcess$")
	cmd.Env = append(os.Environ(), "KITH_TEST_HOLD_LOCK="+db)
	out, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	defer cmd.Process.Kill()
	if line, err := bufio.NewReader(out).ReadString('\n'); line != "locked\n" {
		t.Fatalf("the child did not lock: %q %v", line, err)
	}
	_, err = Lock(db)
	var locked *LockedError
	if !errors.As(err, &locked) || locked.PID != cmd.Process.Pid {
		t.Fatalf("beside the child: %v", err)
	}
	cmd.Process.Kill()
	cmd.Wait()
	release, err := Lock(db)
	if err != nil {
		t.Fatalf("after the holder was killed: %v", err)
	}
	release()
	if _, err := os.Stat(db + ".lock"); err != nil {
		t.Errorf("the lock file is gone: %v", err)
	}
}
