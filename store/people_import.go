package store

// The people import: the core that Monica's JSON export and CSV files
// share (import-formats.md §1–§3). A reader turns its file into
// IncomingPersons and hands them to ImportPeople, which matches each
// against the account, adds what the person lacks, makes the others, and
// answers the counts, all in one transaction.
//
// A CSV reader plugs in like this:
//
//	res, err := st.ImportPeople(ctx, accountID, store.PeopleImport{
//		Source: store.SourceCSV,
//		DryRun: dryRun,
//		Persons: func(add func(*store.IncomingPerson) error) error {
//			for _, row := range rows { // a skipped row never reaches add
//				if err := add(&store.IncomingPerson{PersonRecord: row.Record, Place: row}); err != nil {
//					return err
//				}
//			}
//			return nil
//		},
//		Problem: func(p *store.IncomingPerson, field, reason string) { /* p.Place is the row */ },
//	})
//	// res.Created, res.Updated, res.Unchanged, and res.Counts by kind.
//
// What an IncomingPerson's PersonRecord may hold, each value already
// checked by the API's rules: the names (FirstName required; a nil or
// empty other name is none), HowWeMet, Age, UID (read for
// SourceMonica only), StayInTouch, ContactDetails (Position is not read:
// a person's new details go after their own of the kind, in the record's
// order; an address's country is an ISO code), ImportantDates, Notes,
// Gifts, LifeEvents, WorkHistory, Tasks (no category), Interactions, Tags
// (names) and Photo (a JPEG as photo.Process makes it). The gender goes by
// name, in GenderName. Its Relationships and every id are not read.
// Created and updated times left 0 are the import's.

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"strings"
)

// The sources of a people import, which set its rules of matching (§3)
// and the words of its log entry.
const (
	SourceMonica = "monica"
	SourceCSV    = "csv"
)

// peopleImportBatch is how many incoming persons are matched together, so
// that the matched persons' rows are read a batch at a time rather than
// with a query per person.
const peopleImportBatch = 500

// IncomingPerson is one person of a file.
type IncomingPerson struct {
	PersonRecord
	// Key is the file's name for the person, which IncomingRelationships
	// use (Monica: the contact's uuid); "" for none.
	Key string
	// GenderName is the person's gender by name, matched ignoring case
	// among the account's, and made (last) when none has it; "" for none.
	GenderName string
	// Unlisted makes a new person one that the list leaves out (Monica's
	// partial and archived contacts); PersonRecord.IsListed is not read.
	Unlisted bool
	// Place is the caller's own, for its problems.
	Place any
}

// IncomingRelationship says that ToKey's person is FromKey's person's
// Type.Name: a relationship made on FromKey's person. Type is the
// account's type of that name, ignoring case, or a new one with Type's
// reverse and group.
type IncomingRelationship struct {
	FromKey, ToKey string
	Type           RelationshipTypeInput
}

// PeopleImport is a file's persons and what comes with them.
type PeopleImport struct {
	Source string // SourceMonica or SourceCSV
	// DryRun does everything, then rolls it back: the same answer, and
	// nothing written, not even the log entry.
	DryRun bool
	// Persons calls add for each person of the file, in its order, and
	// returns the first error add returns. add keeps the person until its
	// batch is written: each must be a value of its own.
	Persons func(add func(*IncomingPerson) error) error
	// Relationships are made once every person is in; one whose key names
	// no person of the file, or whose two keys are one person, is left out.
	Relationships []IncomingRelationship
	// Journal names the journal that JournalEntries go into (Year, Month,
	// Day, Body, CreatedAt), made when the account has none of that name;
	// an entry on a day that has one already is left out.
	Journal        string
	JournalEntries []Entry
	// Problem hears of each part of a person that the import's own rules
	// leave out (a contact detail over MaxContactDetails).
	Problem func(p *IncomingPerson, field, reason string)
}

// PeopleImportResult is what an import did, or what a dry run would do.
type PeopleImportResult struct {
	// Created counts the persons made; Updated the matched persons the
	// import added something to; Unchanged those it added nothing to.
	Created, Updated, Unchanged int
	// Counts are the rows written, by kind; Counts.Tags the tags made,
	// Counts.Persons Created + Updated.
	Counts ImportCounts
}

// errDryRun rolls a dry run back.
var errDryRun = errors.New("store: dry run")

// MsgTooManyDetails is the problem of a contact detail over MaxContactDetails.
var MsgTooManyDetails = fmt.Sprintf("A person may have at most %d contact details.", MaxContactDetails)

// ImportPeople imports in's persons into the account, in one transaction
// (import-formats.md §3). Each is matched: for SourceMonica by UID first;
// then by an email, ignoring case; then, when it has no email, by first
// and last name; several matches give the lowest id. A match gains only
// what it lacks; the others are made. A real import writes one log entry.
func (s *Store) ImportPeople(ctx context.Context, accountID int64, in PeopleImport) (PeopleImportResult, error) {
	var res PeopleImportResult
	err := s.withTx(ctx, func(ctx context.Context, tx *txn) error {
		res = PeopleImportResult{}
		// The account's card counter first, which every write of a person
		// takes: two imports into one account run one after the other.
		if _, err := tx.ExecContext(ctx, `UPDATE accounts SET card_seq = card_seq WHERE id = ?`, accountID); err != nil {
			return fmt.Errorf("store: people import: %w", err)
		}
		pi := newPeopleImporter(tx, accountID, s.now(), &in, &res.Counts)
		defer pi.close()
		if err := pi.run(ctx); err != nil {
			return fmt.Errorf("store: people import: %w", err)
		}
		res.Created, res.Updated, res.Unchanged = pi.outcomes()
		res.Counts.Persons = res.Created + res.Updated
		if in.DryRun {
			return errDryRun
		}
		from := "Monica"
		if in.Source == SourceCSV {
			from = "a CSV file"
		}
		return s.logAction(ctx, tx, in.Source+"_import",
			fmt.Sprintf("Imported %d persons and updated %d from %s", res.Created, res.Updated, from))
	})
	if errors.Is(err, errDryRun) {
		err = nil
	}
	return res, err
}

// peopleImporter is one people import in its transaction; importer gives
// it the prepared statements and the writes of a person's rows.
type peopleImporter struct {
	importer
	in *PeopleImport
	// byUID, byEmail and byName are the account's persons before the
	// import, the lowest id of each key; fileEmails and fileNames the
	// persons a CSV file made, for its later rows.
	byUID, byEmail, byName map[string]int64
	fileEmails, fileNames  map[string]*importedPerson
	// touched are the persons the import matched or made, by id; byKey by
	// the file's key, for the relationships.
	touched map[int64]*importedPerson
	made    []*importedPerson
	byKey   map[string]*importedPerson
	genders map[string]int64 // by foldCase of the name
	batch   []pendingPerson
}

// pendingPerson is an incoming person and the person it is matched to,
// or will make.
type pendingPerson struct {
	in     *IncomingPerson
	person *importedPerson
}

func newPeopleImporter(tx *txn, accountID, now int64, in *PeopleImport, n *ImportCounts) *peopleImporter {
	return &peopleImporter{
		importer: importer{tx: tx, accountID: accountID, now: now, n: n, stmts: map[string]*sql.Stmt{}, uids: map[string]int64{},
			bulk: newBulkBatch(tx, accountID)},
		in: in, byUID: map[string]int64{}, byEmail: map[string]int64{}, byName: map[string]int64{},
		fileEmails: map[string]*importedPerson{}, fileNames: map[string]*importedPerson{},
		touched: map[int64]*importedPerson{}, byKey: map[string]*importedPerson{}, genders: map[string]int64{},
	}
}

func (pi *peopleImporter) run(ctx context.Context) error {
	if err := pi.loadMatches(ctx); err != nil {
		return fmt.Errorf("matches: %w", err)
	}
	if err := pi.loadGenders(ctx); err != nil {
		return fmt.Errorf("genders: %w", err)
	}
	if err := pi.tagsOf(ctx, nil); err != nil {
		return fmt.Errorf("tags: %w", err)
	}
	if pi.in.Persons != nil {
		err := pi.in.Persons(func(p *IncomingPerson) error {
			pi.batch = append(pi.batch, pendingPerson{in: p, person: pi.match(p)})
			if len(pi.batch) < peopleImportBatch {
				return nil
			}
			return pi.flush(ctx)
		})
		if err != nil {
			return err
		}
		if err := pi.flush(ctx); err != nil {
			return err
		}
	}
	if err := pi.relationships(ctx); err != nil {
		return fmt.Errorf("relationships: %w", err)
	}
	if err := pi.journal(ctx); err != nil {
		return fmt.Errorf("journal: %w", err)
	}
	return nil
}

// outcomes counts the persons made, updated and left as they were.
func (pi *peopleImporter) outcomes() (created, updated, unchanged int) {
	created = len(pi.made)
	for _, p := range pi.touched {
		switch {
		case p.created:
		case p.added:
			updated++
		default:
			unchanged++
		}
	}
	return created, updated, unchanged
}

// loadMatches reads the keys of the account's persons that §3 matches by.
func (pi *peopleImporter) loadMatches(ctx context.Context) error {
	first := func(m map[string]int64, key string, id int64) {
		if old, ok := m[key]; !ok || id < old {
			m[key] = id
		}
	}
	if pi.in.Source == SourceMonica {
		err := eachRow(ctx, pi.tx, `SELECT id, uid FROM persons WHERE account_id = ? AND uid IS NOT NULL`, []any{pi.accountID},
			func(sc scanner) error {
				var id int64
				var uid string
				err := sc.Scan(&id, &uid)
				first(pi.byUID, uid, id)
				return err
			})
		if err != nil {
			return err
		}
	}
	err := eachRow(ctx, pi.tx, `SELECT person_id, value FROM contact_details WHERE account_id = ? AND kind = 'email'`,
		[]any{pi.accountID}, func(sc scanner) error {
			var id int64
			var value sql.NullString
			err := sc.Scan(&id, &value)
			if value.Valid {
				first(pi.byEmail, emailKey(value.String), id)
			}
			return err
		})
	if err != nil {
		return err
	}
	return eachRow(ctx, pi.tx, `SELECT id, first_name, last_name FROM persons WHERE account_id = ?`, []any{pi.accountID},
		func(sc scanner) error {
			var id int64
			var firstName string
			var last *string
			err := sc.Scan(&id, &firstName, &last)
			first(pi.byName, nameKey(firstName, last), id)
			return err
		})
}

func emailKey(s string) string { return foldCase(strings.TrimSpace(s)) }

// nameKey is a person's first and last name trimmed and folded; an absent
// last name is apart from every present one.
func nameKey(first string, last *string) string {
	k := foldCase(strings.TrimSpace(first)) + "\x00"
	if l := nonEmpty(last); l != nil {
		return k + "\x01" + foldCase(*l)
	}
	return k
}

// nonEmpty is s trimmed, nil when that leaves nothing.
func nonEmpty(s *string) *string {
	if s == nil {
		return nil
	}
	t := strings.TrimSpace(*s)
	if t == "" {
		return nil
	}
	return &t
}

// match finds the person p is (§3), or a new one to be made.
func (pi *peopleImporter) match(p *IncomingPerson) *importedPerson {
	if pi.in.Source == SourceMonica && p.UID != nil {
		if id, ok := pi.byUID[*p.UID]; ok {
			return pi.existing(id)
		}
	}
	var emails []string
	for _, d := range p.ContactDetails {
		if d.Kind == "email" && d.Value != nil {
			emails = append(emails, emailKey(*d.Value))
		}
	}
	csv := pi.in.Source == SourceCSV
	var best int64
	for _, e := range emails {
		if id, ok := pi.byEmail[e]; ok && (best == 0 || id < best) {
			best = id
		}
	}
	if best != 0 {
		return pi.existing(best)
	}
	name := nameKey(p.FirstName, p.LastName)
	if len(emails) == 0 {
		if id, ok := pi.byName[name]; ok {
			return pi.existing(id)
		}
	}
	if csv {
		for _, e := range emails {
			if made, ok := pi.fileEmails[e]; ok {
				return made
			}
		}
		if made, ok := pi.fileNames[name]; ok && len(emails) == 0 {
			return made
		}
	}
	made := &importedPerson{created: true, loaded: true}
	made.init()
	pi.made = append(pi.made, made)
	if csv {
		for _, e := range emails {
			if _, ok := pi.fileEmails[e]; !ok {
				pi.fileEmails[e] = made
			}
		}
		if _, ok := pi.fileNames[name]; !ok {
			pi.fileNames[name] = made
		}
	}
	return made
}

// existing is the account's person id, as the import sees it.
func (pi *peopleImporter) existing(id int64) *importedPerson {
	if p, ok := pi.touched[id]; ok {
		return p
	}
	p := &importedPerson{id: id}
	pi.touched[id] = p
	return p
}

// flush writes the batch: the matched persons' rows are read first, for
// all of them at once.
func (pi *peopleImporter) flush(ctx context.Context) error {
	var ids []int64
	for _, pp := range pi.batch {
		if !pp.person.loaded && pp.person.id != 0 {
			ids = append(ids, pp.person.id)
			pp.person.init()
			pp.person.loaded = true // once, though several incoming persons match it
		}
	}
	if err := pi.loadPersons(ctx, ids); err != nil {
		return fmt.Errorf("read the matched persons: %w", err)
	}
	if err := pi.bulk.begin(ctx); err != nil {
		return err
	}
	for _, pp := range pi.batch {
		if err := pi.write(ctx, pp.in, pp.person); err != nil {
			return fmt.Errorf("person %q: %w", pp.in.FirstName, err)
		}
	}
	if err := pi.bulk.end(ctx); err != nil {
		return err
	}
	// What the batch's persons have is in the transaction now: a later
	// batch that matches one of them reads it again, and the memory goes.
	for i, pp := range pi.batch {
		pp.person.release()
		pi.batch[i] = pendingPerson{}
	}
	pi.batch = pi.batch[:0]
	return nil
}
