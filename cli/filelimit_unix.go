//go:build unix

package cli

import "syscall"

// raiseFileLimit raises the soft limit on open files (RLIMIT_NOFILE) to the
// hard limit and returns the limits in force. Every connection is a file:
// a soft limit of 1,024, still common, would be reached before the
// connection caps are. Go's runtime already does this at start on Linux
// and macOS; doing it here too makes it explicit, covers the other unixes,
// and tells the log what the limit is.
func raiseFileLimit() (soft, hard uint64, err error) {
	var lim syscall.Rlimit
	if err := syscall.Getrlimit(syscall.RLIMIT_NOFILE, &lim); err != nil {
		return 0, 0, err
	}
	if lim.Cur < lim.Max {
		want := lim
		want.Cur = lim.Max
		if err := syscall.Setrlimit(syscall.RLIMIT_NOFILE, &want); err != nil {
			// macOS refuses an unlimited hard limit; what we have stands.
			return uint64(lim.Cur), uint64(lim.Max), err
		}
		lim = want
	}
	return uint64(lim.Cur), uint64(lim.Max), nil
}
