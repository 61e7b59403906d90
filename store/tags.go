package store

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"strings"
	"unicode"
)

// MaxTagLength is the longest tag name, in characters.
const MaxTagLength = 50

// ErrTagNotFound is a tag id that names no tag of the account.
var ErrTagNotFound = &NotFoundError{What: "tag"}

// Tag is a name the account gives some of its persons.
type Tag struct {
	ID, AccountID        int64
	Name                 string
	PersonsCount         int64 // the persons that have it
	CreatedAt, UpdatedAt int64
}

// FoldTag is a tag name's key, which is unique in the account: each
// character under Unicode simple case folding, so that two names that
// strings.EqualFold finds equal have one key ("Étude" and "étude", "ß" and
// "ẞ"), and full folding's changes of length ("ß" and "ss") are not made.
func FoldTag(name string) string { return strings.Map(caseFold, name) }

// caseFold is the one member of r's case orbit (unicode.SimpleFold) that
// every member folds to: the lower case of its upper case, as Unicode's
// own folding mostly is (K, k and the Kelvin sign fold to k; Σ, σ and ς to
// σ); for the few orbits that lack it (İ, alone in its orbit, lowers to an
// i of another orbit), the orbit's smallest.
func caseFold(r rune) rune {
	want := unicode.ToLower(unicode.ToUpper(r))
	if want == r {
		return r
	}
	least := r
	for f := unicode.SimpleFold(r); f != r; f = unicode.SimpleFold(f) {
		if f == want {
			return want
		}
		least = min(least, f)
	}
	return least
}

const tagColumns = `id, account_id, name, (SELECT count(*) FROM person_tags pt WHERE pt.tag_id = tags.id), created_at, updated_at`

func scanTag(sc scanner, t *Tag) error {
	return sc.Scan(&t.ID, &t.AccountID, &t.Name, &t.PersonsCount, &t.CreatedAt, &t.UpdatedAt)
}

// Tags lists the account's tags by name ignoring case, then id.
func (s *Store) Tags(ctx context.Context, accountID int64) ([]Tag, error) {
	tags := []Tag{}
	err := eachRow(ctx, s.r, `SELECT `+tagColumns+` FROM tags WHERE account_id = ? ORDER BY name_key, id`,
		[]any{accountID}, func(sc scanner) error {
			var t Tag
			if err := scanTag(sc, &t); err != nil {
				return err
			}
			tags = append(tags, t)
			return nil
		})
	if err != nil {
		return nil, fmt.Errorf("store: list tags: %w", err)
	}
	return tags, nil
}

// Tag returns one of the account's tags.
func (s *Store) Tag(ctx context.Context, accountID, id int64) (Tag, error) {
	return getTag(ctx, s.r, accountID, id)
}

func getTag(ctx context.Context, q queryer, accountID, id int64) (Tag, error) {
	var t Tag
	err := scanTag(q.QueryRowContext(ctx, `SELECT `+tagColumns+` FROM tags WHERE id = ? AND account_id = ?`, id, accountID), &t)
	if errors.Is(err, sql.ErrNoRows) {
		return Tag{}, ErrTagNotFound
	}
	if err != nil {
		return Tag{}, fmt.Errorf("store: get tag: %w", err)
	}
	return t, nil
}

// SetPersonTags makes names exactly the person's tags (see setTags) and
// returns the person.
func (s *Store) SetPersonTags(ctx context.Context, accountID, personID int64, names []string) (Person, error) {
	var p Person
	err := s.withTx(ctx, func(ctx context.Context, tx *txn) error {
		// The person's row first, which takes the card counter after it,
		// as every write of a person does; tag names are then written
		// under the counter (see lockTagNames).
		res, err := tx.ExecContext(ctx, `UPDATE persons SET updated_at = ? WHERE id = ? AND account_id = ?`,
			s.now(), personID, accountID)
		if err != nil {
			return fmt.Errorf("store: set tags: %w", err)
		}
		if err := mustAffect(res, ErrPersonNotFound); err != nil {
			return err
		}
		if err := s.setTags(ctx, tx, accountID, personID, names, map[string]int64{}); err != nil {
			return err
		}
		if p, err = getPerson(ctx, tx, accountID, personID); err != nil {
			return err
		}
		if err := loadTags(ctx, tx, []*Person{&p}, `?`, personID); err != nil {
			return err
		}
		return s.logAction(ctx, tx, "tags_update", "Updated the tags of "+FullName(p.FirstName, p.LastName))
	})
	return p, err
}

// setTags makes names the person's tags: each trimmed, empty ones left
// out, names equal ignoring case counted once. A name the account has
// (ignoring case) is that tag, with its own spelling; another makes a new
// tag, spelled as it first comes. Only the tags taken on or off are
// written. ids caches the tags' ids by key for one transaction (an import
// puts many cards with the same tags).
func (s *Store) setTags(ctx context.Context, tx *txn, accountID, personID int64, names []string, ids map[string]int64) error {
	want := map[int64]bool{}
	var order []int64
	for _, name := range names {
		name = strings.TrimSpace(name)
		if name == "" {
			continue
		}
		id, err := s.tagID(ctx, tx, accountID, name, ids)
		if err != nil {
			return err
		}
		if !want[id] {
			want[id] = true
			order = append(order, id)
		}
	}
	have := map[int64]bool{}
	err := eachRow(ctx, tx, `SELECT tag_id FROM person_tags WHERE person_id = ?`, []any{personID}, func(sc scanner) error {
		var id int64
		err := sc.Scan(&id)
		have[id] = true
		return err
	})
	if err != nil {
		return fmt.Errorf("store: read tags: %w", err)
	}
	for id := range have {
		if want[id] {
			continue
		}
		if _, err := tx.ExecContext(ctx, `DELETE FROM person_tags WHERE person_id = ? AND tag_id = ?`, personID, id); err != nil {
			return fmt.Errorf("store: take a tag off: %w", err)
		}
	}
	now := s.now()
	for _, id := range order {
		if have[id] {
			continue
		}
		_, err := tx.ExecContext(ctx, `INSERT INTO person_tags (account_id, person_id, tag_id, created_at) VALUES (?, ?, ?, ?)`,
			accountID, personID, id, now)
		if err != nil {
			return fmt.Errorf("store: put a tag on: %w", err)
		}
	}
	return nil
}

// tagID is the id of the account's tag named name ignoring case, made
// when the account has none. The insert gives way to one of the same key
// made meanwhile (ON CONFLICT), and the second look finds that one.
func (s *Store) tagID(ctx context.Context, tx *txn, accountID int64, name string, ids map[string]int64) (int64, error) {
	key := FoldTag(name)
	if id, ok := ids[key]; ok {
		return id, nil
	}
	find := func() (int64, error) {
		var id int64
		err := tx.QueryRowContext(ctx, `SELECT id FROM tags WHERE account_id = ? AND name_key = ?`, accountID, key).Scan(&id)
		return id, err
	}
	id, err := find()
	if errors.Is(err, sql.ErrNoRows) {
		now := s.now()
		err = tx.QueryRowContext(ctx, `INSERT INTO tags (account_id, name, name_key, created_at, updated_at)
			VALUES (?, ?, ?, ?, ?) ON CONFLICT (account_id, name_key) DO NOTHING RETURNING id`,
			accountID, name, key, now, now).Scan(&id)
		if errors.Is(err, sql.ErrNoRows) {
			id, err = find()
		}
	}
	if isForeignKeyViolation(err) {
		return 0, ErrAccountNotFound
	}
	if err != nil {
		return 0, fmt.Errorf("store: find or make tag: %w", err)
	}
	ids[key] = id
	return id, nil
}

// lockTagNames is the start of a write of a tag's name or persons: the
// tag's persons (lockPersons), then the account's card counter. A write of
// a person's tags takes both, in that order, before it makes a tag, so
// that on PostgreSQL no other can make or rename a tag of the account
// until this write is done: a rename cannot meet a name made meanwhile.
func (s *Store) lockTagNames(ctx context.Context, tx *txn, accountID, id int64) error {
	if err := s.lockPersons(ctx, tx, `account_id = ? AND id IN (SELECT person_id FROM person_tags WHERE tag_id = ?)`,
		accountID, id); err != nil {
		return err
	}
	if _, err := tx.ExecContext(ctx, `UPDATE accounts SET card_seq = card_seq WHERE id = ?`, accountID); err != nil {
		return fmt.Errorf("store: lock the account's tags: %w", err)
	}
	return nil
}

// RenameTag renames one of the account's tags. When another tag of the
// account has that name ignoring case, the two are merged: every person
// of this one gets the other (once), this one is deleted, and the other
// is returned, with its own spelling. A rename to the tag's own name in
// another case just renames it.
func (s *Store) RenameTag(ctx context.Context, accountID, id int64, name string) (Tag, error) {
	var t Tag
	err := s.withTx(ctx, func(ctx context.Context, tx *txn) error {
		if err := s.lockTagNames(ctx, tx, accountID, id); err != nil {
			return err
		}
		old, err := getTag(ctx, tx, accountID, id)
		if err != nil {
			return err
		}
		key := FoldTag(name)
		var other int64
		err = tx.QueryRowContext(ctx, `SELECT id FROM tags WHERE account_id = ? AND name_key = ? AND id <> ?`,
			accountID, key, id).Scan(&other)
		now := s.now()
		switch {
		case err == nil:
			err = mergeTag(ctx, tx, id, other, now)
			id = other
		case !errors.Is(err, sql.ErrNoRows):
			// the lookup's own error, wrapped below
		case name == old.Name:
			// Nothing for a card to show: the name is not written, so
			// that the cards do not change (tags_card_update).
			_, err = tx.ExecContext(ctx, `UPDATE tags SET updated_at = ? WHERE id = ?`, now, id)
		default:
			_, err = tx.ExecContext(ctx, `UPDATE tags SET name = ?, name_key = ?, updated_at = ? WHERE id = ?`, name, key, now, id)
		}
		if err != nil {
			return wrapErr("store: rename tag", err)
		}
		if t, err = getTag(ctx, tx, accountID, id); err != nil {
			return err
		}
		return s.logAction(ctx, tx, "tag_update", "Updated the tag called "+t.Name)
	})
	return t, err
}

// mergeTag gives every person of tag from the tag into (once), and
// deletes from.
func mergeTag(ctx context.Context, tx *txn, from, into, now int64) error {
	_, err := tx.ExecContext(ctx, `INSERT INTO person_tags (account_id, person_id, tag_id, created_at)
		SELECT account_id, person_id, CAST(? AS BIGINT), CAST(? AS BIGINT) FROM person_tags
		WHERE tag_id = ? AND person_id NOT IN (SELECT person_id FROM person_tags WHERE tag_id = ?)`, into, now, from, into)
	if err == nil {
		_, err = tx.ExecContext(ctx, `DELETE FROM person_tags WHERE tag_id = ?`, from)
	}
	if err == nil {
		_, err = tx.ExecContext(ctx, `DELETE FROM tags WHERE id = ?`, from)
	}
	if err == nil {
		_, err = tx.ExecContext(ctx, `UPDATE tags SET updated_at = ? WHERE id = ?`, now, into)
	}
	return err
}

// moveTags gives the kept person of a merge the other's tags it lacks:
// the union of both; the rest go with the other.
func moveTags(ctx context.Context, tx *txn, keptID, otherID int64) error {
	if _, err := tx.ExecContext(ctx, `UPDATE person_tags SET person_id = ?
		WHERE person_id = ? AND tag_id NOT IN (SELECT tag_id FROM person_tags WHERE person_id = ?)`,
		keptID, otherID, keptID); err != nil {
		return fmt.Errorf("store: merge tags: %w", err)
	}
	return nil
}

// DeleteTag takes one of the account's tags off every person and deletes
// it.
func (s *Store) DeleteTag(ctx context.Context, accountID, id int64) error {
	return s.withTx(ctx, func(ctx context.Context, tx *txn) error {
		if err := s.lockTagNames(ctx, tx, accountID, id); err != nil {
			return err
		}
		// Its persons first, as lockTagNames locked them; the cascade
		// would do the same, in an order of its own.
		if _, err := tx.ExecContext(ctx, `DELETE FROM person_tags WHERE tag_id = ? AND account_id = ?`, id, accountID); err != nil {
			return fmt.Errorf("store: delete tag: %w", err)
		}
		var name string
		err := tx.QueryRowContext(ctx, `DELETE FROM tags WHERE id = ? AND account_id = ? RETURNING name`, id, accountID).Scan(&name)
		if errors.Is(err, sql.ErrNoRows) {
			return ErrTagNotFound
		}
		if err != nil {
			return fmt.Errorf("store: delete tag: %w", err)
		}
		return s.logAction(ctx, tx, "tag_deletion", "Deleted the tag called "+name)
	})
}

// TaggedPersons is Persons of those who have the tag named name (ignoring
// case), and, when q is not nil, whose names or emails hold q as
// SearchPersons finds them. A name no tag has is an empty page.
func (s *Store) TaggedPersons(ctx context.Context, accountID int64, name string, q *string, limit, offset int64) ([]Person, int64, error) {
	cond, args := taggedCond, []any{accountID, FoldTag(name)}
	if q != nil {
		search, searchArgs := s.eng.searchPersons(accountID, *q)
		cond += ` AND ` + search
		args = append(args, searchArgs...)
	}
	return s.personPage(ctx, accountID, cond, args, "id", limit, offset)
}

// taggedCond picks the persons who have the tag of the account (its
// first argument) whose name_key is the second.
const taggedCond = ` AND id IN (SELECT pt.person_id FROM person_tags pt JOIN tags t ON t.id = pt.tag_id
		WHERE t.account_id = ? AND t.name_key = ?)`

// personTag is one tag of a person, by name.
type personTag struct {
	PersonID int64
	Name     string
}

const personTagColumns = `pt.person_id, t.name`

func scanPersonTag(sc scanner, pt *personTag) error { return sc.Scan(&pt.PersonID, &pt.Name) }

// personTagsOf is the query of the tags of the persons whose ids the
// query ids selects, by person, then name ignoring case, then id.
func personTagsOf(ids string) string {
	return `SELECT ` + personTagColumns + ` FROM person_tags pt JOIN tags t ON t.id = pt.tag_id
		WHERE pt.person_id IN (` + ids + `) ORDER BY pt.person_id, t.name_key, t.id`
}

// loadTags gives each of persons its tags in one query, whatever their
// number: ids is a query of their ids (a page's own), with its args.
func loadTags(ctx context.Context, q rowsQueryer, persons []*Person, ids string, args ...any) error {
	if len(persons) == 0 {
		return nil
	}
	at := make(map[int64]*Person, len(persons))
	for _, p := range persons {
		p.Tags = []string{}
		at[p.ID] = p
	}
	err := eachRow(ctx, q, personTagsOf(ids), args, rowInto(at, scanPersonTag,
		func(pt *personTag) int64 { return pt.PersonID }, func(p *Person, pt personTag) { p.Tags = append(p.Tags, pt.Name) }))
	if err != nil {
		return fmt.Errorf("store: list tags of persons: %w", err)
	}
	return nil
}
