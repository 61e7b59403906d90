package server

import (
	"bufio"
	"crypto/sha256"
	"hash"
	"io"
	"os"
)

// spoolMemory is how much of a body a spool keeps in memory; the rest goes
// to a temporary file. A variable, so that a test sends a feed from its
// file without importing a megabyte of people.
var spoolMemory = 1 << 20

// spool keeps a body that cannot leave before it is whole, since a header
// (the feed's ETag, its hash) depends on all of it: in memory up to
// spoolMemory, then in a temporary file, so that a large account's feed
// costs disk, not memory. It hashes what it is given as it goes.
type spool struct {
	mem  []byte
	file *os.File
	buf  *bufio.Writer // to file
	size int64
	sum  hash.Hash
}

func newSpool() *spool { return &spool{sum: sha256.New()} }

func (s *spool) Write(p []byte) (int, error) {
	s.sum.Write(p)
	s.size += int64(len(p))
	if s.file == nil && len(s.mem)+len(p) <= spoolMemory {
		s.mem = append(s.mem, p...)
		return len(p), nil
	}
	if s.file == nil {
		f, err := os.CreateTemp("", "kith-spool-*")
		if err != nil {
			return 0, err
		}
		s.file, s.buf = f, bufio.NewWriterSize(f, 64<<10)
		if _, err := s.buf.Write(s.mem); err != nil {
			return 0, err
		}
		s.mem = nil
	}
	return s.buf.Write(p)
}

// Sum is the SHA-256 of what was written.
func (s *spool) Sum() []byte { return s.sum.Sum(nil) }

// Size is how many bytes were written.
func (s *spool) Size() int64 { return s.size }

// WriteTo writes what was spooled to w, once.
func (s *spool) WriteTo(w io.Writer) (int64, error) {
	if s.file == nil {
		n, err := w.Write(s.mem)
		return int64(n), err
	}
	if err := s.buf.Flush(); err != nil {
		return 0, err
	}
	if _, err := s.file.Seek(0, io.SeekStart); err != nil {
		return 0, err
	}
	return io.Copy(w, s.file)
}

// Close removes the temporary file, if there is one.
func (s *spool) Close() error {
	if s.file == nil {
		return nil
	}
	s.file.Close()
	return os.Remove(s.file.Name())
}
