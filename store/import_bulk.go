package store

import (
	"context"
	"fmt"
)

// bulkBatchSize is how many persons an import writes between two ends of
// its batch: one count of the cards and one statement of search text for
// each, a few hundred rows at a time.
const bulkBatchSize = 500

// bulkBatch is an import's writes of persons while its mark holds the
// per-row triggers of the card counter and the search text back
// (migrations 0040, 0042). Each person made names itself (made), each
// write of a person's card names the person (touch); end lets the
// triggers run again, counts the batch's new persons, clears their UIDs
// from deleted_cards, counts the batch as one change of the address book
// and has the touched persons' search text built, each in one statement
// for the batch. A batch begun must end before its transaction commits:
// on SQLite, a bulk_writes row left would hold the account's triggers
// back for good.
type bulkBatch struct {
	tx        *txn
	accountID int64
	on        bool
	persons   []int64
	seen      map[int64]bool
	madeIDs   []int64
}

func newBulkBatch(tx *txn, accountID int64) *bulkBatch {
	return &bulkBatch{tx: tx, accountID: accountID, seen: map[int64]bool{}}
}

// begin holds the triggers back, unless they are already.
func (b *bulkBatch) begin(ctx context.Context) error {
	if b == nil || b.on {
		return nil
	}
	if err := b.mark(ctx, true); err != nil {
		return fmt.Errorf("store: begin a batch: %w", err)
	}
	b.on = true
	return nil
}

// mark sets or clears the batch's mark: on SQLite the account's row in
// bulk_writes; on PostgreSQL a setting local to the transaction, which
// no other transaction waits for.
func (b *bulkBatch) mark(ctx context.Context, on bool) error {
	var err error
	switch {
	case b.tx.pool.bind != nil:
		v := "0"
		if on {
			v = "1"
		}
		var set string
		err = b.tx.QueryRowContext(ctx, `SELECT set_config('kith.bulk_' || CAST(? AS BIGINT), ?, true)`, b.accountID, v).Scan(&set)
	case on:
		_, err = b.tx.ExecContext(ctx, `INSERT INTO bulk_writes (account_id) VALUES (?)`, b.accountID)
	default:
		_, err = b.tx.ExecContext(ctx, `DELETE FROM bulk_writes WHERE account_id = ?`, b.accountID)
	}
	return err
}

// active tells whether the triggers are held back: the writes of a
// person's rows then leave the search text to end.
func (b *bulkBatch) active() bool { return b != nil && b.on }

// touch names a person whose card the batch changed.
func (b *bulkBatch) touch(id int64) {
	if b == nil || b.seen[id] {
		return
	}
	b.seen[id] = true
	b.persons = append(b.persons, id)
}

// made names a person the batch made. The person's card is touched
// apart: an import that writes a new person's count and search text with
// the person (insertNewCards) does not touch it.
func (b *bulkBatch) made(id int64) {
	if b.active() {
		b.madeIDs = append(b.madeIDs, id)
	}
}

// full tells whether the batch has written enough persons to end.
func (b *bulkBatch) full() bool { return b != nil && len(b.persons) >= bulkBatchSize }

// end lets the triggers run again, gives the touched persons' cards the
// account's next count and has their search text built.
func (b *bulkBatch) end(ctx context.Context) error {
	if b == nil || !b.on {
		return nil
	}
	if err := b.mark(ctx, false); err != nil {
		return fmt.Errorf("store: end a batch: %w", err)
	}
	b.on = false
	if err := b.endMade(ctx); err != nil {
		return err
	}
	if len(b.persons) == 0 {
		return nil
	}
	// PostgreSQL's card_bump counts a transaction once, as every write
	// of a person there does; SQLite's triggers count each write.
	bump := `UPDATE accounts SET card_seq = card_seq + 1 WHERE id = ? RETURNING card_seq`
	if b.tx.pool.bind != nil {
		bump = `SELECT card_bump(?)`
	}
	var seq int64
	if err := b.tx.QueryRowContext(ctx, bump, b.accountID).Scan(&seq); err != nil {
		return fmt.Errorf("store: count a batch's cards: %w", err)
	}
	// search_text set to NULL is built again by the triggers, the
	// batch's persons' in one statement: SQLite's FTS5 index writes them
	// to the disk together. A new card_seq is no change of its own.
	if err := execChunks(ctx, b.tx, `UPDATE persons SET card_seq = ?, search_text = NULL
		WHERE account_id = ? AND id IN `+personChunkIn, []any{seq, b.accountID}, b.persons); err != nil {
		return fmt.Errorf("store: end a batch: %w", err)
	}
	b.persons = b.persons[:0]
	clear(b.seen)
	return nil
}

// endMade adds the batch's new persons to the account's count of persons
// and takes their UIDs out of deleted_cards: a card deleted and made
// again is no longer deleted. The per-row triggers that do both stood
// aside (migration 0042).
func (b *bulkBatch) endMade(ctx context.Context) error {
	if len(b.madeIDs) == 0 {
		return nil
	}
	if _, err := b.tx.ExecContext(ctx, `INSERT INTO person_counts AS c (account_id, persons) VALUES (?, ?)
		ON CONFLICT (account_id) DO UPDATE SET persons = c.persons + excluded.persons`, b.accountID, len(b.madeIDs)); err != nil {
		return fmt.Errorf("store: count a batch's persons: %w", err)
	}
	if err := execChunks(ctx, b.tx, `DELETE FROM deleted_cards WHERE account_id = ? AND uid IN
		(SELECT uid FROM persons WHERE account_id = ? AND id IN `+personChunkIn+`)`, []any{b.accountID, b.accountID}, b.madeIDs); err != nil {
		return fmt.Errorf("store: clear a batch's deleted cards: %w", err)
	}
	b.madeIDs = b.madeIDs[:0]
	return nil
}

// execChunks runs query, whose last placeholders are personChunkIn's,
// once for each chunk of ids after the arguments of prefix, each planned
// for its chunk (freshPlans).
func execChunks(ctx context.Context, tx *txn, query string, prefix []any, ids []int64) error {
	args := make([]any, 0, len(prefix)+personChunk)
	return freshPlans(ctx, tx, func() error {
		for len(ids) > 0 {
			n := min(len(ids), personChunk)
			args = appendChunk(append(args[:0], prefix...), ids[:n], func(id int64) any { return id })
			if _, err := tx.ExecContext(ctx, query, args...); err != nil {
				return err
			}
			ids = ids[n:]
		}
		return nil
	})
}

// freshPlans runs f with PostgreSQL planning each statement for its own
// arguments, then gives the transaction its plan cache back. A lookup of
// a chunk of UIDs or ids planned once, at an import's first pages when
// the account had few persons, went on reading every one of them at the
// later pages, by the account's first index that came to hand: 174 µs a
// card at 10,000 cards against 11 at 1,000. Planned for the chunk, it
// goes by the unique index. Only the lookups: with every statement
// planned again, each row's foreign-key checks were too, and the
// inserts cost five times as much. SQLite plans each statement anew.
func freshPlans(ctx context.Context, tx *txn, f func() error) error {
	if tx.pool.bind == nil {
		return f()
	}
	var was string
	if err := tx.QueryRowContext(ctx, `SELECT current_setting('plan_cache_mode'),
		set_config('plan_cache_mode', 'force_custom_plan', true)`).Scan(&was, new(string)); err != nil {
		return err
	}
	if err := f(); err != nil {
		return err
	}
	_, err := tx.ExecContext(ctx, `SELECT set_config('plan_cache_mode', ?, true)`, was)
	return err
}

// appendChunk appends to args the values of a chunk of at most
// personChunk items, and the chunk's first again for the places left
// over: an IN list of personChunkIn's one length, whose statement is
// prepared once, and a value repeated matches nothing more.
func appendChunk[T any](args []any, chunk []T, value func(T) any) []any {
	for i := range personChunk {
		if i < len(chunk) {
			args = append(args, value(chunk[i]))
		} else {
			args = append(args, value(chunk[0]))
		}
	}
	return args
}
