//go:build !unix

package cli

import "errors"

// raiseFileLimit has nothing to raise where there is no RLIMIT_NOFILE.
func raiseFileLimit() (soft, hard uint64, err error) {
	return 0, 0, errors.ErrUnsupported
}
