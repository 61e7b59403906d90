//go:build unix

package cli

import (
	"syscall"
	"testing"
)

func TestRaiseFileLimitLiftsTheSoftLimitToTheHard(t *testing.T) {
	var lim syscall.Rlimit
	if err := syscall.Getrlimit(syscall.RLIMIT_NOFILE, &lim); err != nil {
		t.Fatal(err)
	}
	if lim.Max <= 256 {
		t.Skipf("hard limit %d leaves nothing to lower", lim.Max)
	}
	low := lim
	low.Cur = 256
	if err := syscall.Setrlimit(syscall.RLIMIT_NOFILE, &low); err != nil {
		t.Skipf("cannot lower the soft limit: %v", err)
	}
	t.Cleanup(func() { syscall.Setrlimit(syscall.RLIMIT_NOFILE, &lim) })
	soft, hard, err := raiseFileLimit()
	if err != nil {
		t.Fatal(err)
	}
	var now syscall.Rlimit
	syscall.Getrlimit(syscall.RLIMIT_NOFILE, &now)
	if soft != hard || uint64(now.Cur) != uint64(lim.Max) || hard != uint64(lim.Max) {
		t.Errorf("after raiseFileLimit: soft %d, hard %d, in force %d; want all %d", soft, hard, now.Cur, lim.Max)
	}
}
