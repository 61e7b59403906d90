package store

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"slices"
)

// CardInput is what a vCard gives a person. A card is the truth about what
// it holds: names, birthday, contact details, dates and the properties
// Kith keeps as Extra replace the person's. What some clients drop (a
// gender, a job, notes) is left alone when the card does not carry it.
type CardInput struct {
	UID                                            string
	FirstName                                      string
	LastName, MiddleName, Nickname, Prefix, Suffix *string
	// Gender names one of the account's genders (any case); nil, or a
	// name the account lacks, leaves the person's gender as it is.
	Gender *string
	// Birthday with a year is the person's exact age; nil clears an exact
	// age (and leaves an estimated one or a bracket). A birthday without a
	// year is a date labelled "birthday" among Dates.
	Birthday *CardBirthday
	Details  []ContactDetailInput
	// Dates replace the person's; one already there (same label and day)
	// keeps its remind_yearly, and a new one is reminded yearly when it
	// is a birthday or an anniversary.
	Dates []ImportantDateInput
	// Note, when it differs from the person's notes joined as an export
	// writes them, replaces them with one note; nil leaves them.
	Note *string
	// Work, when no active entry has its title and company, becomes the
	// active entry; nil leaves the work history.
	Work *WorkEntryInput
	// Tags, when not nil, replace the person's tags, by the rules of
	// SetPersonTags (an empty list takes every tag off); nil leaves them.
	Tags []string
	// Photo, a JPEG made of the card's PHOTO (server/photo), replaces the
	// person's photo; nil leaves it. PhotoSource is the digest (PhotoSum)
	// of the image the card carried: a card that carries the person's
	// photo as Kith gave it (a phone saving an edited contact) leaves the
	// photo as it is, rather than making it again a generation worse.
	Photo       []byte
	PhotoSource string
	Extra       string
	// Related are the card's RELATED that name another card: each is kept
	// with Extra until it is made a relationship (by PutCard at once; in
	// an import, by LinkCards once every card is in).
	Related []CardRelated
	// Name, when not "", names the card's resource (CardDAV) on creation.
	Name string
}

// CardBirthday is a birthday with a year; Month and Day may be unknown.
type CardBirthday struct {
	Year       int64
	Month, Day *int64
}

// NoteSeparator joins a person's notes into a card's one NOTE.
const NoteSeparator = "\n\n"

// PutCard creates the account's person of in.UID, or makes the one there
// match the card, in one transaction. check, when not nil, sees the card
// as it is (nil for none) before anything is written, and its error stops
// the write: a CardDAV If-Match compares ETags there, with no other write
// in between. created tells which it was. The relationships the card
// names are made too (see LinkCards), with the persons the account has.
func (s *Store) PutCard(ctx context.Context, accountID int64, in CardInput, check func(*Card) error) (c Card, created bool, err error) {
	err = s.withTx(ctx, func(ctx context.Context, tx *txn) error {
		c, created, err = s.putCardTx(ctx, tx, accountID, in, check, nil, map[string]int64{})
		if err != nil {
			return err
		}
		action, verb := "person_update", "Updated the person called "
		if created {
			action, verb = "person_creation", "Created the person called "
		}
		return s.logAction(ctx, tx, action, verb+FullName(c.FirstName, c.LastName)+" from a card")
	})
	return c, created, err
}

// PutCards puts each card as PutCard does, in one transaction, and tells
// how many persons it created; the others it updated.
func (s *Store) PutCards(ctx context.Context, accountID int64, ins []CardInput) (created int, err error) {
	err = s.withTx(ctx, func(ctx context.Context, tx *txn) error {
		var err error
		created, err = s.putCardsTx(ctx, tx, accountID, ins, newBulkBatch(tx, accountID), map[string]int64{})
		return err
	})
	return created, err
}

// ImportCards is a vCard file's import, in one transaction: a failure
// leaves the account as it was. read hands the file's cards to put a page
// at a time, each put as PutCards puts it, then the relationships they
// name to link, as LinkCards makes them; it returns the first error of
// either. created counts the persons made, updated the others.
func (s *Store) ImportCards(ctx context.Context, accountID int64,
	read func(put func([]CardInput) error, link func([]CardLinks) error) error) (created, updated int, err error) {
	err = s.withTx(ctx, func(ctx context.Context, tx *txn) error {
		created, updated = 0, 0
		bulk, tagIDs := newBulkBatch(tx, accountID), map[string]int64{}
		put := func(ins []CardInput) error {
			n, err := s.putCardsTx(ctx, tx, accountID, ins, bulk, tagIDs)
			created, updated = created+n, updated+len(ins)-n
			return err
		}
		link := func(cards []CardLinks) error { return s.linkCards(ctx, tx, accountID, cards) }
		return read(put, link)
	})
	return created, updated, err
}

// putCardTx is PutCard in tx; a card put alone (PutCard: bulk is nil)
// makes its relationships and is read back, and one of a batch of bulk
// (PutCards) leaves its card's count and search text to the batch's end.
// A new card, the most of an import, costs one lookup, one insert and one
// a detail. tagIDs caches the account's tags for setTags.
func (s *Store) putCardTx(ctx context.Context, tx *txn, accountID int64, in CardInput, check func(*Card) error, bulk *bulkBatch,
	tagIDs map[string]int64) (c Card, created bool, err error) {
	alone := bulk == nil
	in.Extra = WithKept(in)
	if len(in.Details) > MaxContactDetails {
		return Card{}, false, fmt.Errorf("store: card %s: %w", in.UID, ErrTooManyContactDetails)
	}
	var oldCard *Card
	var oldID int64
	err = tx.QueryRowContext(ctx, `SELECT id FROM persons WHERE account_id = ? AND uid = ?`, accountID, in.UID).Scan(&oldID)
	switch {
	case err == nil:
		old, err := loadCards(ctx, tx, accountID, `id = ?`, 1, oldID)
		if err != nil {
			return Card{}, false, err
		}
		if len(old) == 1 {
			oldCard = &old[0]
		}
	case !errors.Is(err, sql.ErrNoRows):
		return Card{}, false, fmt.Errorf("store: find card: %w", err)
	}
	if check != nil {
		if err := check(oldCard); err != nil {
			return Card{}, false, err
		}
	}
	var personID int64
	if oldCard == nil {
		created = true
		personID, err = s.insertCardPerson(ctx, tx, accountID, in)
	} else {
		personID = oldCard.ID
		err = s.updateCardPerson(ctx, tx, accountID, oldCard, in)
	}
	if err == nil {
		if created {
			bulk.made(personID)
		}
		bulk.touch(personID)
		err = s.putCardDetails(ctx, tx, accountID, personID, oldCard, in.Details, !bulk.active())
	}
	if err == nil {
		err = s.putCardDates(ctx, tx, accountID, personID, oldCard, in.Dates)
	}
	if err == nil {
		err = s.putCardNote(ctx, tx, accountID, personID, oldCard, in.Note)
	}
	if err == nil {
		err = s.putCardWork(ctx, tx, accountID, personID, oldCard, in.Work)
	}
	if err == nil && in.Tags != nil {
		err = s.setTags(ctx, tx, accountID, personID, in.Tags, tagIDs)
	}
	if err == nil && in.Photo != nil && (oldCard == nil || oldCard.Photo == nil || oldCard.Photo.SHA256 != in.PhotoSource) {
		err = putPhoto(ctx, tx, accountID, personID, in.Photo, s.now())
	}
	if err != nil || !alone {
		return Card{}, created, err
	}
	if len(in.Related) > 0 {
		types, err := relationshipTypes(ctx, tx, accountID)
		if err == nil {
			err = s.linkCard(ctx, tx, accountID, personID, in.Related, types)
		}
		if err != nil {
			return Card{}, false, err
		}
	}
	cards, err := loadCards(ctx, tx, accountID, `id = ?`, 1, personID)
	if err != nil {
		return Card{}, false, err
	}
	return cards[0], created, nil
}

func (s *Store) insertCardPerson(ctx context.Context, tx *txn, accountID int64, in CardInput) (int64, error) {
	now := s.now()
	genderID, err := cardGender(ctx, tx, accountID, in.Gender)
	if err != nil {
		return 0, err
	}
	var id int64
	var ageType *string
	var year *int64
	var month, day *int64
	var remind *bool
	if b := in.Birthday; b != nil {
		exact, yes := "exact", true
		ageType, year, month, day, remind = &exact, &b.Year, b.Month, b.Day, &yes
	}
	err = tx.QueryRowContext(ctx, `INSERT INTO persons (account_id, uid, card_name, first_name, last_name, middle_name,
			nickname, prefix, suffix, gender_id, vcard_extra, age_type, age_year, age_month, age_day, yearly_reminder,
			created_at, updated_at)
		VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?) RETURNING id`,
		accountID, in.UID, nullIfEmpty(in.Name), in.FirstName, in.LastName, in.MiddleName, in.Nickname, in.Prefix, in.Suffix,
		genderID, nullIfEmpty(in.Extra), ageType, year, month, day, remind, now, now).Scan(&id)
	if isForeignKeyViolation(err) {
		return 0, ErrAccountNotFound
	}
	if err != nil {
		return 0, fmt.Errorf("store: create person from card: %w", err)
	}
	return id, nil
}

func (s *Store) updateCardPerson(ctx context.Context, tx *txn, accountID int64, old *Card, in CardInput) error {
	genderID, err := cardGender(ctx, tx, accountID, in.Gender)
	if err != nil {
		return err
	}
	if genderID == nil && old.Gender != nil {
		genderID = &old.Gender.ID
	}
	_, err = tx.ExecContext(ctx, `UPDATE persons SET first_name = ?, last_name = ?, middle_name = ?, nickname = ?,
			prefix = ?, suffix = ?, gender_id = ?, vcard_extra = ?, updated_at = ?
		WHERE id = ?`,
		in.FirstName, in.LastName, in.MiddleName, in.Nickname, in.Prefix, in.Suffix, genderID,
		nullIfEmpty(in.Extra), s.now(), old.ID)
	if err != nil {
		return fmt.Errorf("store: update person from card: %w", err)
	}
	exact := old.Age.Type != nil && *old.Age.Type == "exact"
	switch {
	case in.Birthday != nil:
		return setCardBirthday(ctx, tx, old.ID, in.Birthday, !exact || old.Age.YearlyReminder == nil || *old.Age.YearlyReminder)
	case exact:
		_, err = tx.ExecContext(ctx, `UPDATE persons SET age_type = NULL, age_year = NULL, age_month = NULL, age_day = NULL,
			yearly_reminder = NULL WHERE id = ?`, old.ID)
		if err != nil {
			return fmt.Errorf("store: clear birthday from card: %w", err)
		}
	}
	return nil
}

// setCardBirthday makes the birthday the person's exact age.
func setCardBirthday(ctx context.Context, tx *txn, personID int64, b *CardBirthday, remind bool) error {
	_, err := tx.ExecContext(ctx, `UPDATE persons SET age_type = 'exact', age_year = ?, age_month = ?, age_day = ?,
		estimated_age = NULL, estimated_at = NULL, age_bracket = NULL, yearly_reminder = ? WHERE id = ?`,
		b.Year, b.Month, b.Day, remind, personID)
	if err != nil {
		return fmt.Errorf("store: set birthday from card: %w", err)
	}
	return nil
}

// cardGender is the id of the account's gender of that name, or nil.
func cardGender(ctx context.Context, tx *txn, accountID int64, name *string) (*int64, error) {
	if name == nil {
		return nil, nil
	}
	var id int64
	err := tx.QueryRowContext(ctx, `SELECT id FROM genders WHERE account_id = ? AND lower(name) = lower(?)
		ORDER BY id LIMIT 1`, accountID, *name).Scan(&id)
	if errors.Is(err, sql.ErrNoRows) {
		return nil, nil
	}
	if err != nil {
		return nil, fmt.Errorf("store: find gender of card: %w", err)
	}
	return &id, nil
}

// putCardDetails replaces the person's contact details with the card's,
// unless they are the same already: a card saved unchanged rewrites
// nothing. search asks for the person's search text again.
func (s *Store) putCardDetails(ctx context.Context, tx *txn, accountID, personID int64, old *Card, details []ContactDetailInput,
	search bool) error {
	if old != nil && sameDetails(old.Details, details) {
		return nil
	}
	if old != nil && len(old.Details) > 0 {
		if _, err := tx.ExecContext(ctx, `DELETE FROM contact_details WHERE person_id = ?`, personID); err != nil {
			return fmt.Errorf("store: replace contact details from card: %w", err)
		}
	}
	now := s.now()
	positions := map[string]int64{}
	for _, d := range details {
		positions[d.Kind]++
		_, err := tx.ExecContext(ctx, `INSERT INTO contact_details (account_id, person_id, kind, label, position,
				value, network, street, city, postal_code, region, country, created_at, updated_at)
			VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
			accountID, personID, d.Kind, d.Label, positions[d.Kind], d.Value, d.Network,
			d.Street, d.City, d.PostalCode, d.Region, d.Country, now, now)
		if err != nil {
			return fmt.Errorf("store: add contact detail from card: %w", err)
		}
	}
	if !search {
		return nil // the batch's end builds it
	}
	return refreshSearch(ctx, tx, personID)
}

// sameDetails tells whether the details hold the same fields in the same
// order, positions aside.
func sameDetails(old []ContactDetail, in []ContactDetailInput) bool {
	if len(old) != len(in) {
		return false
	}
	// old is by kind then position; the card's order within a kind is
	// what counts.
	byKind := func(kind string) []ContactDetailInput {
		var out []ContactDetailInput
		for _, d := range in {
			if d.Kind == kind {
				out = append(out, d)
			}
		}
		return out
	}
	seen := map[string][]ContactDetailInput{}
	counts := map[string]int{}
	for _, o := range old {
		if _, ok := seen[o.Kind]; !ok {
			seen[o.Kind] = byKind(o.Kind)
		}
		list, i := seen[o.Kind], counts[o.Kind]
		if i >= len(list) {
			return false
		}
		d := list[i]
		counts[o.Kind]++
		if !eqStr(o.Label, d.Label) || !eqStr(o.Value, d.Value) || !eqStr(o.Network, d.Network) ||
			!eqStr(o.Street, d.Street) || !eqStr(o.City, d.City) || !eqStr(o.PostalCode, d.PostalCode) ||
			!eqStr(o.Region, d.Region) || !eqStr(o.Country, d.Country) {
			return false
		}
	}
	return true
}

func eqStr(a, b *string) bool { return (a == nil) == (b == nil) && (a == nil || *a == *b) }

// putCardDates makes the person's important dates the card's: a date
// already there is kept as it is (with its remind_yearly).
func (s *Store) putCardDates(ctx context.Context, tx *txn, accountID, personID int64, old *Card, dates []ImportantDateInput) error {
	same := func(d ImportantDate, in ImportantDateInput) bool {
		return d.Label == in.Label && d.Month == in.Month && d.Day == in.Day &&
			(d.Year == nil) == (in.Year == nil) && (d.Year == nil || *d.Year == *in.Year)
	}
	var kept []ImportantDate
	if old != nil {
		for _, d := range old.Dates {
			if slices.ContainsFunc(dates, func(in ImportantDateInput) bool { return same(d, in) }) {
				kept = append(kept, d)
				continue
			}
			if _, err := tx.ExecContext(ctx, `DELETE FROM important_dates WHERE id = ?`, d.ID); err != nil {
				return fmt.Errorf("store: remove important date from card: %w", err)
			}
		}
	}
	now := s.now()
	for _, in := range dates {
		if slices.ContainsFunc(kept, func(d ImportantDate) bool { return same(d, in) }) {
			continue
		}
		remind := in.RemindYearly || in.Label == "birthday" || in.Label == "anniversary"
		_, err := tx.ExecContext(ctx, `INSERT INTO important_dates (account_id, person_id, label, year, month, day,
				remind_yearly, created_at, updated_at)
			VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)`, accountID, personID, in.Label, in.Year, in.Month, in.Day, remind, now, now)
		if err != nil {
			return fmt.Errorf("store: add important date from card: %w", err)
		}
		kept = append(kept, ImportantDate{Label: in.Label, Year: in.Year, Month: in.Month, Day: in.Day})
	}
	return nil
}

// putCardNote replaces the person's notes with the card's NOTE when it
// says something else than they do, joined.
func (s *Store) putCardNote(ctx context.Context, tx *txn, accountID, personID int64, old *Card, note *string) error {
	if note == nil || *note == "" {
		return nil
	}
	if old != nil && JoinNotes(old.Notes) == *note {
		return nil
	}
	if old != nil && len(old.Notes) > 0 {
		if _, err := tx.ExecContext(ctx, `DELETE FROM notes WHERE person_id = ?`, personID); err != nil {
			return fmt.Errorf("store: replace notes from card: %w", err)
		}
	}
	now := s.now()
	_, err := tx.ExecContext(ctx, `INSERT INTO notes (account_id, person_id, content, created_at, updated_at)
		VALUES (?, ?, ?, ?, ?)`, accountID, personID, *note, now, now)
	if err != nil {
		return fmt.Errorf("store: add note from card: %w", err)
	}
	return nil
}

// JoinNotes is the notes as a card's one NOTE.
func JoinNotes(notes []Note) string {
	var out string
	for i, n := range notes {
		if i > 0 {
			out += NoteSeparator
		}
		out += n.Content
	}
	return out
}

// putCardWork makes the card's job the person's active entry, unless it is.
func (s *Store) putCardWork(ctx context.Context, tx *txn, accountID, personID int64, old *Card, w *WorkEntryInput) error {
	if w == nil {
		return nil
	}
	if old != nil && old.Work != nil && old.Work.JobTitle == w.JobTitle && eqStr(old.Work.CompanyName, w.CompanyName) {
		return nil
	}
	now := s.now()
	if old != nil && old.Work != nil {
		if err := deactivateOthers(ctx, tx, accountID, personID, 0, now); err != nil {
			return err
		}
	}
	_, err := tx.ExecContext(ctx, `INSERT INTO work_history (account_id, person_id, job_title, company_name, active,
			created_at, updated_at)
		VALUES (?, ?, ?, ?, ?, ?, ?)`, accountID, personID, w.JobTitle, w.CompanyName, true, now, now)
	if err != nil {
		return fmt.Errorf("store: add work from card: %w", err)
	}
	return nil
}

// DeleteCard deletes the account's person of that UID, unless its
// can_be_deleted is false (ErrPersonProtected). check, when not nil, sees
// the card first, as for PutCard.
func (s *Store) DeleteCard(ctx context.Context, accountID int64, uid string, check func(*Card) error) error {
	return s.withTx(ctx, func(ctx context.Context, tx *txn) error {
		cards, err := loadCards(ctx, tx, accountID, `uid = ?`, 1, uid)
		if err != nil {
			return err
		}
		if len(cards) == 0 {
			return ErrCardNotFound
		}
		c := &cards[0]
		if check != nil {
			if err := check(c); err != nil {
				return err
			}
		}
		if !c.CanBeDeleted {
			return ErrPersonProtected
		}
		if _, err := tx.ExecContext(ctx, `DELETE FROM persons WHERE id = ?`, c.ID); err != nil {
			return fmt.Errorf("store: delete card: %w", err)
		}
		return s.logAction(ctx, tx, "person_deletion", "Deleted the person called "+FullName(c.FirstName, c.LastName))
	})
}

// CardChanges returns the account's address-book counter, and, when it is
// past since, the cards changed and deleted after since (a deleted card's
// Seq is that of its deletion), in one snapshot. When nothing changed it
// costs one query.
func (s *Store) CardChanges(ctx context.Context, accountID, since int64) (seq int64, changed, deleted []CardRef, err error) {
	tx, err := s.r.BeginTx(ctx, &sql.TxOptions{ReadOnly: true})
	if err != nil {
		return 0, nil, nil, fmt.Errorf("store: card changes: %w", err)
	}
	defer tx.end(ctx, false)
	err = tx.QueryRowContext(ctx, `SELECT card_seq FROM accounts WHERE id = ?`, accountID).Scan(&seq)
	if errors.Is(err, sql.ErrNoRows) {
		return 0, nil, nil, ErrAccountNotFound
	}
	if err != nil || seq <= since {
		return seq, nil, nil, err
	}
	collect := func(list *[]CardRef) func(scanner) error {
		return func(sc scanner) error {
			var r CardRef
			if err := sc.Scan(&r.UID, &r.Name, &r.Seq, &r.UpdatedAt); err != nil {
				return err
			}
			*list = append(*list, r)
			return nil
		}
	}
	err = eachRow(ctx, tx, `SELECT uid, card_name, card_seq, updated_at FROM persons
		WHERE account_id = ? AND card_seq > ? ORDER BY card_seq`, []any{accountID, since}, collect(&changed))
	if err == nil {
		err = eachRow(ctx, tx, `SELECT uid, name, card_seq, 0 FROM deleted_cards
			WHERE account_id = ? AND card_seq > ? ORDER BY card_seq`, []any{accountID, since}, collect(&deleted))
	}
	if err != nil {
		return 0, nil, nil, fmt.Errorf("store: card changes: %w", err)
	}
	return seq, changed, deleted, nil
}

func nullIfEmpty(s string) *string {
	if s == "" {
		return nil
	}
	return &s
}
