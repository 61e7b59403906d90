package store

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"strconv"
	"strings"
)

// lockPersons is the first step of a write of many persons at once (a
// gender's deletion, a prune). Every write of a person locks its row and
// then, by the triggers of migration 0020, the account's card counter; a
// statement that writes many rows would take the counter at its first row
// and wait for the next while holding it, and deadlock on PostgreSQL with
// a write of that next person. Locking the rows first keeps the order:
// rows, then counter. SQLite has one writer, and nothing to do.
func (s *Store) lockPersons(ctx context.Context, tx *txn, cond string, args ...any) error {
	return s.eng.lockPersons(ctx, tx, cond, args...)
}

func (sqliteEngine) lockPersons(context.Context, *txn, string, ...any) error { return nil }

func (postgresEngine) lockPersons(ctx context.Context, tx *txn, cond string, args ...any) error {
	if _, err := tx.ExecContext(ctx, `SELECT id FROM persons WHERE `+cond+` ORDER BY id FOR UPDATE`, args...); err != nil {
		return fmt.Errorf("store: lock persons: %w", err)
	}
	return nil
}

// Card is a person with all that their vCard shows.
type Card struct {
	Person
	UID string
	// Name is the name a CardDAV client gave the card's resource, nil
	// when it is none but the UID's own.
	Name *string
	// Extra holds the card's properties that Kith has no field for, as a
	// vCard fragment, so that an export gives them back; "" for none.
	Extra string
	// Seq is the account's card_seq when the card last changed.
	Seq     int64
	Details []ContactDetail // by kind, position and id
	Dates   []ImportantDate // by month, day and id
	Notes   []Note          // oldest first
	Work    *WorkEntry      // the active entry, nil for none
	Related []CardRelation  // the person's relationships, from either side, by id
	Photo   *Photo          // nil for none
}

// ErrCardNotFound is a UID that names no person of the account.
var ErrCardNotFound = &NotFoundError{What: "card"}

var cardColumns = `uid, card_name, coalesce(vcard_extra, ''), card_seq, ` + personColumns

// Card returns the card of one of the account's persons.
func (s *Store) Card(ctx context.Context, accountID, personID int64) (Card, error) {
	return s.oneCard(ctx, accountID, ErrPersonNotFound, `id = ?`, personID)
}

// CardByUID returns the card of the account's person with that UID.
func (s *Store) CardByUID(ctx context.Context, accountID int64, uid string) (Card, error) {
	return s.oneCard(ctx, accountID, ErrCardNotFound, `uid = ?`, uid)
}

func (s *Store) oneCard(ctx context.Context, accountID int64, notFound error, where string, arg any) (Card, error) {
	tx, err := s.r.BeginTx(ctx, &sql.TxOptions{ReadOnly: true}) // the person and their details in one snapshot
	if err != nil {
		return Card{}, fmt.Errorf("store: get card: %w", err)
	}
	defer tx.end(ctx, false)
	cards, err := loadCards(ctx, tx, accountID, where, 1, arg)
	if err != nil {
		return Card{}, err
	}
	if len(cards) == 0 {
		return Card{}, notFound
	}
	return cards[0], nil
}

// CardByName returns the card of the account whose resource a CardDAV
// client named name; with none so named, the card of UID uid (the name a
// UID's card has by default), when uid is not "".
func (s *Store) CardByName(ctx context.Context, accountID int64, name, uid string) (Card, error) {
	c, err := s.oneCard(ctx, accountID, ErrCardNotFound, `card_name = ?`, name)
	if errors.Is(err, ErrCardNotFound) && uid != "" {
		c, err = s.oneCard(ctx, accountID, ErrCardNotFound, `uid = ? AND card_name IS NULL`, uid)
	}
	return c, err
}

// CardNameBatch is the most names CardsByName looks up at once. Its
// statement always has that many places, the names asked repeated to fill
// them, so that it is one statement whatever the number asked.
const CardNameBatch = 100

// CardsByName is CardByName for each of names (at most CardNameBatch) and
// the UID whose default name each is (uids, "" for none): the card of
// each, nil for none, read in one snapshot with the queries of one page
// of cards, not a few queries a name.
func (s *Store) CardsByName(ctx context.Context, accountID int64, names, uids []string) ([]*Card, error) {
	if len(names) == 0 || len(names) > CardNameBatch || len(uids) != len(names) {
		return nil, fmt.Errorf("store: cards by name: %d names and %d UIDs, want 1 to %d of each", len(names), len(uids), CardNameBatch)
	}
	args := make([]any, 0, 2*CardNameBatch+2)
	args = append(args, accountID)
	for i := range CardNameBatch {
		args = append(args, names[i%len(names)])
	}
	args = append(args, accountID)
	for i := range CardNameBatch {
		args = append(args, uids[i%len(uids)])
	}
	tx, err := s.r.BeginTx(ctx, &sql.TxOptions{ReadOnly: true})
	if err != nil {
		return nil, fmt.Errorf("store: cards by name: %w", err)
	}
	defer tx.end(ctx, false)
	// Names and UIDs are each unique in an account: at most one card a
	// name by each. A card of one of the UIDs that has a name of its own
	// is read too, and found by that name only.
	cards, err := loadCards(ctx, tx, accountID, cardsByNameWhere, 2*CardNameBatch, args...)
	if err != nil {
		return nil, err
	}
	byName := make(map[string]*Card, len(cards))
	byUID := make(map[string]*Card, len(cards))
	for i := range cards {
		if c := &cards[i]; c.Name != nil {
			byName[*c.Name] = c
		} else {
			byUID[c.UID] = c
		}
	}
	out := make([]*Card, len(names))
	for i, name := range names {
		if c, ok := byName[name]; ok {
			out[i] = c
		} else if c, ok := byUID[uids[i]]; ok && uids[i] != "" {
			out[i] = c
		}
	}
	return out, nil
}

// cardsByNameWhere selects the cards of CardNameBatch names and of as many
// UIDs: two lookups, through the unique indexes on each. Written as one
// OR, SQLite read the whole account for it (by persons_account, or
// persons_card_name for the cards without a name, nearly all).
var cardsByNameWhere = `id IN (SELECT id FROM persons WHERE account_id = ? AND card_name IN (` + places(CardNameBatch) + `)
	UNION ALL SELECT id FROM persons WHERE account_id = ? AND uid IN (` + places(CardNameBatch) + `))`

// places is n placeholders, comma-separated.
func places(n int) string {
	return strings.TrimSuffix(strings.Repeat("?, ", n), ", ")
}

// CardSeq returns the account's address-book counter, which moves on
// with every change to one of its cards.
func (s *Store) CardSeq(ctx context.Context, accountID int64) (int64, error) {
	var seq int64
	err := s.r.QueryRowContext(ctx, `SELECT card_seq FROM accounts WHERE id = ?`, accountID).Scan(&seq)
	if errors.Is(err, sql.ErrNoRows) {
		return 0, ErrAccountNotFound
	}
	if err != nil {
		return 0, fmt.Errorf("store: card seq: %w", err)
	}
	return seq, nil
}

// CardRef is what a listing of cards shows of one: enough for its URL and
// its ETag.
type CardRef struct {
	ID        int64 // the person's, which orders a listing
	UID       string
	Name      *string
	Seq       int64
	UpdatedAt int64
}

// CardRefs returns up to limit of the account's cards, by id, after the id
// afterID, without their content: a listing of every card reads them a
// page at a time, one query a page.
func (s *Store) CardRefs(ctx context.Context, accountID, afterID int64, limit int) ([]CardRef, error) {
	refs := make([]CardRef, 0, min(limit, 1024))
	// The limit is in the text, as loadCards's: its values are few.
	err := eachRow(ctx, s.r, `SELECT id, uid, card_name, card_seq, updated_at FROM persons
		WHERE account_id = ? AND id > ? ORDER BY id LIMIT `+strconv.Itoa(limit),
		[]any{accountID, afterID}, func(sc scanner) error {
			var r CardRef
			if err := sc.Scan(&r.ID, &r.UID, &r.Name, &r.Seq, &r.UpdatedAt); err != nil {
				return err
			}
			refs = append(refs, r)
			return nil
		})
	if err != nil {
		return nil, fmt.Errorf("store: list cards: %w", err)
	}
	return refs, nil
}

// Cards returns up to limit cards of the account by id, after the id
// afterID: an export reads them page by page, so that a large account is
// never in memory at once.
func (s *Store) Cards(ctx context.Context, accountID, afterID int64, limit int) ([]Card, error) {
	return s.CardsChanged(ctx, accountID, 0, afterID, limit)
}

// CardsChanged is Cards of those that changed after the counter value
// since; 0 is every card, those whose counter is still 0 too (a person
// made before migration 0020 and never changed since): a CardDAV answer
// reads the cards it sends a page at a time, a few queries a page rather
// than a few a card.
func (s *Store) CardsChanged(ctx context.Context, accountID, since, afterID int64, limit int) ([]Card, error) {
	tx, err := s.r.BeginTx(ctx, &sql.TxOptions{ReadOnly: true})
	if err != nil {
		return nil, fmt.Errorf("store: list cards: %w", err)
	}
	defer tx.end(ctx, false)
	if since == 0 {
		return loadCards(ctx, tx, accountID, `id > ?`, limit, afterID)
	}
	return loadCards(ctx, tx, accountID, `card_seq > ? AND id > ?`, limit, since, afterID)
}

// loadCards reads the account's persons that match where, by id, with
// their details and tags: one query a table, whatever the number of
// persons.
func loadCards(ctx context.Context, tx *txn, accountID int64, where string, limit int, args ...any) ([]Card, error) {
	// The limit is written into the text, not bound: SQLite prepares a
	// statement whose LIMIT is bound again at every run, which was 30% of
	// an import. Its values are few (1 and a page), so the statements are.
	lim := " LIMIT " + strconv.Itoa(limit)
	cards := []Card{}
	err := eachRow(ctx, tx, `SELECT `+cardColumns+` FROM persons WHERE account_id = ? AND `+where+` ORDER BY id`+lim,
		append([]any{accountID}, args...), func(sc scanner) error {
			var c Card
			if err := scanPerson(extraScanner{sc, []any{&c.UID, &c.Name, &c.Extra, &c.Seq}}, &c.Person); err != nil {
				return err
			}
			cards = append(cards, c)
			return nil
		})
	if err != nil || len(cards) == 0 {
		return cards, wrapErr("store: list cards", err)
	}
	at := make(map[int64]*Card, len(cards))
	for i := range cards {
		cards[i].Tags = []string{}
		at[cards[i].ID] = &cards[i]
	}
	// The same persons again, by a query of fixed text: a list of ids
	// would make a statement per length, which the statement cache keeps.
	in := ` WHERE person_id IN (SELECT id FROM persons WHERE account_id = ? AND ` + where + ` ORDER BY id` + lim + `)`
	children := []struct {
		query string
		row   func(scanner) error
	}{
		{`SELECT ` + contactDetailColumns + ` FROM contact_details` + in + ` ORDER BY person_id, kind, position, id`,
			rowInto(at, scanContactDetail, func(d *ContactDetail) int64 { return d.PersonID },
				func(c *Card, d ContactDetail) { c.Details = append(c.Details, d) })},
		{`SELECT ` + importantDateColumns + ` FROM important_dates` + in + ` ORDER BY person_id, month, day, id`,
			rowInto(at, scanImportantDate, func(d *ImportantDate) int64 { return d.PersonID },
				func(c *Card, d ImportantDate) { c.Dates = append(c.Dates, d) })},
		{`SELECT ` + noteColumns + ` FROM notes` + in + ` ORDER BY person_id, id`,
			rowInto(at, scanNote, func(n *Note) int64 { return n.PersonID },
				func(c *Card, n Note) { c.Notes = append(c.Notes, n) })},
		{`SELECT ` + workEntryColumns + ` FROM work_history` + in + ` AND active`,
			rowInto(at, scanWorkEntry, func(w *WorkEntry) int64 { return w.PersonID },
				func(c *Card, w WorkEntry) { c.Work = &w })},
		{personTagsOf(`SELECT id FROM persons WHERE account_id = ? AND ` + where + ` ORDER BY id` + lim),
			rowInto(at, scanPersonTag, func(pt *personTag) int64 { return pt.PersonID },
				func(c *Card, pt personTag) { c.Tags = append(c.Tags, pt.Name) })},
		{`SELECT ` + photoColumns + ` FROM photos` + in,
			rowInto(at, scanPhoto, func(p *Photo) int64 { return p.PersonID },
				func(c *Card, p Photo) { c.Photo = &p })},
	}
	for _, ch := range children {
		if err := eachRow(ctx, tx, ch.query, append([]any{accountID}, args...), ch.row); err != nil {
			return nil, fmt.Errorf("store: list cards: %w", err)
		}
	}
	if err := loadCardRelations(ctx, tx, at, accountID, where, lim, args); err != nil {
		return nil, err
	}
	return cards, nil
}

// wrapErr is err with what prefixed, or nil.
func wrapErr(what string, err error) error {
	if err == nil {
		return nil
	}
	return fmt.Errorf("%s: %w", what, err)
}
