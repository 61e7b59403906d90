package store

import "context"

// noteWrite remembers whether the last write transaction failed for want
// of storage, so that health can say so while reads still work.
func (s *Store) noteWrite(err error) {
	switch {
	case err == nil:
		s.writeFault.Store(false)
	case Unavailable(err):
		s.writeFault.Store(true)
	}
}

// probeSize is what the health probe writes: more than most requests, so
// that a disk with room for a page or two does not pass for a working one.
const probeSize = 64 << 10

// probeWrite commits a write of probeSize and removes it again: after a
// write fault it tells whether writing works again, without waiting for a
// client to try. Two transactions, because a row removed in the
// transaction that wrote it never reaches the disk.
func (sqliteEngine) probeWrite(ctx context.Context, s *Store) error {
	err := s.withTx(ctx, func(ctx context.Context, tx *txn) error {
		_, err := tx.ExecContext(ctx, `INSERT INTO health_probe (filler) VALUES (zeroblob(?))`, probeSize)
		return err
	})
	if err != nil {
		return err
	}
	return s.withTx(ctx, func(ctx context.Context, tx *txn) error {
		_, err := tx.ExecContext(ctx, `DELETE FROM health_probe`)
		return err
	})
}
