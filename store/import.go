package store

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"strings"
)

// ErrAccountHasPersons refuses an import into an account that has persons
// already: an import restores an account, it does not merge two.
var ErrAccountHasPersons = errors.New("store: the account has persons already")

// AccountImport is what ImportAccount restores, every row with its own
// created_at and updated_at. The ids of TaskCategories and Genders are
// the document's own: persons' Gender.ID and tasks' Category.ID refer to
// them, and the rows get new ids. Every other id is ignored.
type AccountImport struct {
	// Timezone and Reminders are the importing user's, left as they are
	// when empty or nil.
	Timezone       string
	Reminders      *ReminderSettings
	TaskCategories []TaskCategory
	Genders        []Gender
	// RelationshipTypes, when not nil (even empty), take the place of the
	// account's own, in their order: a new account's defaults, which no
	// relationship has yet, would otherwise stand beside the document's.
	// Nil keeps the account's, which the relationships then name.
	RelationshipTypes []RelationshipType
	// Tags are the account's tags, those no person has among them; a
	// person's Tags name them, or new ones, ignoring case.
	Tags     []Tag
	Journals []JournalRecord
	// Persons calls add for each person in turn, and returns the first
	// error add returns: the persons are read as they are written, not
	// held all at once.
	Persons func(add func(*PersonRecord) error) error
}

// ImportCounts are the rows an import wrote.
type ImportCounts struct {
	Persons, ContactDetails, ImportantDates, Notes, Gifts, LifeEvents, WorkHistory, Tasks, Interactions,
	StayInTouch, TaskCategories, Genders, Journals, JournalEntries, RelationshipTypes, Relationships, Tags, Photos int
	// Merged counts the categories, genders, journals and tags that took
	// the place of one of the account's of the same name (a new account's
	// defaults; the tags that a prune left) rather than being added beside
	// it.
	Merged int
}

// ImportAccount restores an export into the account, for the user (who
// gets the time zone and reminder settings), in one transaction: a failure leaves the account as
// it was. An account that has a person already is ErrAccountHasPersons. A
// category, gender or journal of the same name as one of the account's
// (the defaults every account starts with) is merged into it, which takes
// the import's colour, position and times, so that none is doubled.
func (s *Store) ImportAccount(ctx context.Context, accountID, userID int64, in AccountImport) (ImportCounts, error) {
	var n ImportCounts
	err := s.withSessionTx(ctx, func(ctx context.Context, tx *txn) error {
		n = ImportCounts{}
		// The account's card counter first, which every write of a person
		// takes (migration 0020): a second import waits here, then sees
		// the persons. The account has none, so no person's row can be
		// locked before it by another write.
		if _, err := tx.ExecContext(ctx, `UPDATE accounts SET card_seq = card_seq WHERE id = ?`, accountID); err != nil {
			return fmt.Errorf("store: import: %w", err)
		}
		var one int
		err := tx.QueryRowContext(ctx, `SELECT 1 FROM persons WHERE account_id = ? LIMIT 1`, accountID).Scan(&one)
		if err == nil {
			return ErrAccountHasPersons
		}
		if !errors.Is(err, sql.ErrNoRows) {
			return fmt.Errorf("store: import: %w", err)
		}
		im := &importer{tx: tx, accountID: accountID, now: s.now(), n: &n, stmts: map[string]*sql.Stmt{},
			uids: map[string]int64{}, bulk: newBulkBatch(tx, accountID)}
		defer im.close()
		if err := im.run(ctx, userID, in); err != nil {
			return err
		}
		return s.logAction(ctx, tx, "account_import", fmt.Sprintf("Imported %d persons from an export", n.Persons))
	})
	return n, err
}

// importer writes one import in its transaction.
type importer struct {
	tx        *txn
	accountID int64
	now       int64 // for the rows the document gives no time of: the settings, a person's tags and photo
	n         *ImportCounts
	// categories and genders map the document's ids to the account's.
	categories, genders map[int64]int64
	// relationshipTypes are the account's types by names and group, the
	// first of each; uids the persons written, by the document's UID.
	relationshipTypes map[RelationshipTypeInput]int64
	uids              map[string]int64
	// tags are the account's tags by FoldTag key.
	tags map[string]int64
	// relationships wait until every person is in, since they name persons
	// that may come later in the document.
	relationships []pendingRelationship
	// stmts are the statements prepared for this import: each runs once a
	// row, thousands of times.
	stmts map[string]*sql.Stmt
	// bulk is the batch of persons being written, whose cards are counted
	// and search text built once for the batch.
	bulk *bulkBatch
}

func (im *importer) close() {
	for _, st := range im.stmts {
		st.Close()
	}
}

// stmt prepares query once in the transaction.
func (im *importer) stmt(ctx context.Context, query string) (*sql.Stmt, error) {
	if st, ok := im.stmts[query]; ok {
		return st, nil
	}
	st, err := im.tx.Tx.PrepareContext(ctx, im.tx.pool.sql(query))
	if err != nil {
		return nil, err
	}
	im.stmts[query] = st
	return st, nil
}

func (im *importer) exec(ctx context.Context, query string, args ...any) error {
	_, err := im.execResult(ctx, query, args...)
	return err
}

func (im *importer) execResult(ctx context.Context, query string, args ...any) (sql.Result, error) {
	st, err := im.stmt(ctx, query)
	if err != nil {
		return nil, err
	}
	return st.ExecContext(ctx, args...)
}

// insert runs an INSERT … RETURNING id.
func (im *importer) insert(ctx context.Context, query string, args ...any) (int64, error) {
	st, err := im.stmt(ctx, query)
	if err != nil {
		return 0, err
	}
	var id int64
	err = st.QueryRowContext(ctx, args...).Scan(&id)
	return id, err
}

func (im *importer) run(ctx context.Context, userID int64, in AccountImport) error {
	if err := im.settings(ctx, userID, in.Timezone, in.Reminders); err != nil {
		return fmt.Errorf("store: import settings: %w", err)
	}
	var err error
	if im.categories, err = im.categoriesOf(ctx, in.TaskCategories); err != nil {
		return fmt.Errorf("store: import task categories: %w", err)
	}
	if im.genders, err = im.gendersOf(ctx, in.Genders); err != nil {
		return fmt.Errorf("store: import genders: %w", err)
	}
	if err := im.relationshipTypesOf(ctx, in.RelationshipTypes); err != nil {
		return fmt.Errorf("store: import relationship types: %w", err)
	}
	if err := im.tagsOf(ctx, in.Tags); err != nil {
		return fmt.Errorf("store: import tags: %w", err)
	}
	journals, err := im.namedRows(ctx, `SELECT id, name FROM journals WHERE account_id = ? ORDER BY id`)
	if err != nil {
		return fmt.Errorf("store: import journals: %w", err)
	}
	for i := range in.Journals {
		if err := im.journal(ctx, journals, &in.Journals[i]); err != nil {
			return fmt.Errorf("store: import journal %d: %w", i, err)
		}
	}
	if in.Persons == nil {
		return nil
	}
	err = in.Persons(func(p *PersonRecord) error {
		if err := im.bulk.begin(ctx); err != nil {
			return err
		}
		if err := im.person(ctx, p); err != nil {
			return fmt.Errorf("store: import person %d: %w", im.n.Persons, err)
		}
		im.n.Persons++
		if im.bulk.full() {
			return im.bulk.end(ctx)
		}
		return nil
	})
	if err == nil {
		err = im.bulk.end(ctx)
	}
	if err != nil {
		return err
	}
	if err := im.writeRelationships(ctx); err != nil {
		return fmt.Errorf("store: import relationships: %w", err)
	}
	return nil
}

func (im *importer) settings(ctx context.Context, userID int64, tz string, rs *ReminderSettings) error {
	if tz != "" {
		res, err := im.tx.ExecContext(ctx, `UPDATE users SET timezone = ?, updated_at = ? WHERE id = ? AND account_id = ?`,
			tz, im.now, userID, im.accountID)
		if err != nil {
			return err
		}
		if err := mustAffect(res, ErrUserNotFound); err != nil {
			return err
		}
	}
	if rs == nil {
		return nil
	}
	_, err := im.tx.ExecContext(ctx, `INSERT INTO reminder_settings (user_id, send_at, days, updated_at) VALUES (?, ?, ?, ?)
		ON CONFLICT (user_id) DO UPDATE SET send_at = excluded.send_at, days = excluded.days, updated_at = excluded.updated_at`,
		userID, rs.SendAt, rs.Days, im.now)
	if isForeignKeyViolation(err) {
		return ErrUserNotFound
	}
	return err
}

// named are the account's rows of one table by name, in id order, each
// to be taken by one row of the document at most.
type named struct {
	ids   []int64
	names []string
	taken []bool
}

func (im *importer) namedRows(ctx context.Context, query string) (*named, error) {
	rows, err := im.tx.QueryContext(ctx, query, im.accountID)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	nm := &named{}
	for rows.Next() {
		var id int64
		var name string
		if err := rows.Scan(&id, &name); err != nil {
			return nil, err
		}
		nm.ids, nm.names, nm.taken = append(nm.ids, id), append(nm.names, name), append(nm.taken, false)
	}
	return nm, rows.Err()
}

// take returns the first row not yet taken of this name, or 0.
func (nm *named) take(name string) int64 {
	for i, n := range nm.names {
		if n == name && !nm.taken[i] {
			nm.taken[i] = true
			return nm.ids[i]
		}
	}
	return 0
}

func (im *importer) categoriesOf(ctx context.Context, cats []TaskCategory) (map[int64]int64, error) {
	return mergeByName(ctx, im, "task_categories", "color", cats, &im.n.TaskCategories, func(c TaskCategory) namedRow {
		return namedRow{ID: c.ID, Name: c.Name, Value: c.Color, CreatedAt: c.CreatedAt, UpdatedAt: c.UpdatedAt}
	})
}

func (im *importer) gendersOf(ctx context.Context, genders []Gender) (map[int64]int64, error) {
	return mergeByName(ctx, im, "genders", "position", genders, &im.n.Genders, func(g Gender) namedRow {
		return namedRow{ID: g.ID, Name: g.Name, Value: g.Position, CreatedAt: g.CreatedAt, UpdatedAt: g.UpdatedAt}
	})
}

// namedRow is what mergeByName writes of a task category or a gender:
// Value is its one column besides the name and the times.
type namedRow struct {
	ID        int64 // the document's id, which its persons and tasks refer to
	Name      string
	Value     any
	CreatedAt int64
	UpdatedAt *int64
}

// mergeByName writes each row into the account's row of table that has its
// name and is not yet taken (counted as merged), or as a new row (counted
// in added). column is the table's column for namedRow.Value. It returns
// the account's id for each id of the document.
func mergeByName[T any](ctx context.Context, im *importer, table, column string, rows []T, added *int, rowOf func(T) namedRow) (map[int64]int64, error) {
	have, err := im.namedRows(ctx, `SELECT id, name FROM `+table+` WHERE account_id = ? ORDER BY id`)
	if err != nil {
		return nil, err
	}
	ids := make(map[int64]int64, len(rows))
	for _, row := range rows {
		r := rowOf(row)
		id := have.take(r.Name)
		if id != 0 {
			err = im.exec(ctx, `UPDATE `+table+` SET `+column+` = ?, created_at = ?, updated_at = ? WHERE id = ?`,
				r.Value, r.CreatedAt, r.UpdatedAt, id)
			im.n.Merged++
		} else {
			id, err = im.insert(ctx, `INSERT INTO `+table+` (account_id, name, `+column+`, created_at, updated_at)
				VALUES (?, ?, ?, ?, ?) RETURNING id`, im.accountID, r.Name, r.Value, r.CreatedAt, r.UpdatedAt)
			(*added)++
		}
		if err != nil {
			return nil, err
		}
		ids[r.ID] = id
	}
	return ids, nil
}

// journal writes a journal, into the account's of its name that have
// is not yet taken, or as a new one.
func (im *importer) journal(ctx context.Context, have *named, j *JournalRecord) error {
	var err error
	id := have.take(j.Name)
	if id != 0 {
		err = im.exec(ctx, `UPDATE journals SET created_at = ?, updated_at = ? WHERE id = ?`, j.CreatedAt, j.UpdatedAt, id)
		im.n.Merged++
	} else {
		id, err = im.insert(ctx, `INSERT INTO journals (account_id, name, slug, created_at, updated_at)
			VALUES (?, ?, '', ?, ?) RETURNING id`, im.accountID, j.Name, j.CreatedAt, j.UpdatedAt)
		if err == nil {
			err = im.exec(ctx, `UPDATE journals SET slug = ? WHERE id = ?`, JournalSlug(id, j.Name), id)
		}
		im.n.Journals++
	}
	if err != nil {
		return err
	}
	for _, en := range j.Entries {
		// A merged journal may have the date already: it keeps its own.
		res, err := im.execResult(ctx, `INSERT INTO journal_entries (account_id, journal_id, year, month, day, body, body_folded,
				created_at, updated_at)
			VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?) ON CONFLICT (journal_id, year, month, day) DO NOTHING`,
			im.accountID, id, en.Year, en.Month, en.Day, en.Body, foldCase(en.Body), en.CreatedAt, en.UpdatedAt)
		if err != nil {
			return err
		}
		if added, err := res.RowsAffected(); err == nil {
			im.n.JournalEntries += int(added)
		}
	}
	return nil
}

// insertPerson writes every column of a person but the ones the triggers
// keep (card_seq; uid when it is NULL).
var insertPerson = `INSERT INTO persons (account_id, uid, vcard_extra, first_name, last_name, middle_name, nickname,
	maiden_name, prefix, suffix, how_we_met, marital_status, kids_status, gender_id, can_be_deleted, is_listed,
	age_type, age_year, age_month, age_day, estimated_age, estimated_at, age_bracket, yearly_reminder,
	` + strings.Join(AppearanceFields, ", ") + `, created_at, updated_at)
	VALUES (?` + strings.Repeat(", ?", 25+len(AppearanceFields)) + `) RETURNING id`

func (im *importer) person(ctx context.Context, p *PersonRecord) error {
	if len(p.ContactDetails) > MaxContactDetails {
		return ErrTooManyContactDetails
	}
	var gender *int64
	if p.Gender != nil {
		id, ok := im.genders[p.Gender.ID]
		if !ok {
			return ErrUnknownGender
		}
		gender = &id
	}
	a := p.Age
	args := []any{im.accountID, p.UID, p.VCardExtra, p.FirstName, p.LastName, p.MiddleName, p.Nickname,
		p.MaidenName, p.Prefix, p.Suffix, p.HowWeMet, p.MaritalStatus, p.KidsStatus, gender, p.CanBeDeleted, p.IsListed,
		a.Type, a.Year, a.Month, a.Day, a.Estimated, a.EstimatedAt, a.Bracket, a.YearlyReminder}
	for i := range AppearanceFields {
		var v *string
		if i < len(p.Appearance) {
			v = p.Appearance[i]
		}
		args = append(args, v)
	}
	id, err := im.insert(ctx, insertPerson, append(args, p.CreatedAt, p.UpdatedAt)...)
	if err != nil {
		return err
	}
	im.bulk.made(id)
	im.bulk.touch(id)
	if p.UID != nil {
		im.uids[*p.UID] = id
	}
	if err := im.holdRelationships(id, p.Relationships); err != nil {
		return err
	}
	if err := im.personTags(ctx, id, p.Tags); err != nil {
		return fmt.Errorf("tags: %w", err)
	}
	return im.children(ctx, id, p)
}

// children writes what a person has, in the document's order.
func (im *importer) children(ctx context.Context, person int64, p *PersonRecord) error {
	acct := im.accountID
	for _, d := range p.ContactDetails {
		if err := im.exec(ctx, `INSERT INTO contact_details (account_id, person_id, kind, label, position, value, network,
			street, city, postal_code, region, country, created_at, updated_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
			acct, person, d.Kind, d.Label, d.Position, d.Value, d.Network, d.Street, d.City, d.PostalCode, d.Region, d.Country,
			d.CreatedAt, d.UpdatedAt); err != nil {
			return fmt.Errorf("contact detail: %w", err)
		}
	}
	// In a batch, its end builds the search text.
	if len(p.ContactDetails) > 0 && !im.bulk.active() {
		if err := im.exec(ctx, refreshSearchSQL, person); err != nil {
			return fmt.Errorf("search text: %w", err)
		}
	}
	for _, d := range p.ImportantDates {
		if err := im.exec(ctx, `INSERT INTO important_dates (account_id, person_id, label, year, month, day, remind_yearly,
			created_at, updated_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)`,
			acct, person, d.Label, d.Year, d.Month, d.Day, d.RemindYearly, d.CreatedAt, d.UpdatedAt); err != nil {
			return fmt.Errorf("important date: %w", err)
		}
	}
	for _, nt := range p.Notes {
		if err := im.exec(ctx, `INSERT INTO notes (account_id, person_id, content, created_at, updated_at) VALUES (?, ?, ?, ?, ?)`,
			acct, person, nt.Content, nt.CreatedAt, nt.UpdatedAt); err != nil {
			return fmt.Errorf("note: %w", err)
		}
	}
	for _, g := range p.Gifts {
		if err := im.exec(ctx, `INSERT INTO gifts (account_id, person_id, name, occasion, url, status, gifted_at, created_at, updated_at)
			VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)`,
			acct, person, g.Name, g.Occasion, g.URL, g.Status, g.GiftedAt, g.CreatedAt, g.UpdatedAt); err != nil {
			return fmt.Errorf("gift: %w", err)
		}
	}
	for _, ev := range p.LifeEvents {
		if err := im.exec(ctx, `INSERT INTO life_events (account_id, person_id, description, comment, icon, bg_color, text_color,
			happened_at, should_be_reminded, created_at, updated_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
			acct, person, ev.Description, ev.Comment, ev.Icon, ev.BgColor, ev.TextColor, ev.HappenedAt, ev.ShouldBeReminded,
			ev.CreatedAt, ev.UpdatedAt); err != nil {
			return fmt.Errorf("life event: %w", err)
		}
	}
	for _, w := range p.WorkHistory {
		if err := im.exec(ctx, `INSERT INTO work_history (account_id, person_id, job_title, company_name, estimated_salary,
			duration, active, created_at, updated_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)`,
			acct, person, w.JobTitle, w.CompanyName, w.EstimatedSalary, w.Duration, w.Active, w.CreatedAt, w.UpdatedAt); err != nil {
			return fmt.Errorf("work history: %w", err)
		}
	}
	for _, t := range p.Tasks {
		var cat *int64
		if t.Category != nil {
			id, ok := im.categories[t.Category.ID]
			if !ok {
				return ErrUnknownCategory
			}
			cat = &id
		}
		if err := im.exec(ctx, `INSERT INTO tasks (account_id, person_id, task_category_id, name, is_completed, due_at,
			completed_at, created_at, updated_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)`,
			acct, person, cat, t.Name, t.IsCompleted, t.DueAt, t.CompletedAt, t.CreatedAt, t.UpdatedAt); err != nil {
			return fmt.Errorf("task: %w", err)
		}
	}
	for _, in := range p.Interactions {
		if err := im.exec(ctx, `INSERT INTO interactions (account_id, person_id, happened_on, kind, note, created_at, updated_at)
			VALUES (?, ?, ?, ?, ?, ?, ?)`, acct, person, in.HappenedOn, in.Kind, in.Note, in.CreatedAt, in.UpdatedAt); err != nil {
			return fmt.Errorf("interaction: %w", err)
		}
	}
	if p.Photo != nil {
		// The document's photo is one that Kith made, checked as such:
		// kept byte for byte, so that its ETag stays.
		if err := im.exec(ctx, `INSERT INTO photos (account_id, person_id, jpeg, sha256, created_at, updated_at)
			VALUES (?, ?, ?, ?, ?, ?)`, acct, person, p.Photo, PhotoSum(p.Photo), im.now, im.now); err != nil {
			return fmt.Errorf("photo: %w", err)
		}
		im.n.Photos++
	}
	if c := p.StayInTouch; c != nil {
		if err := im.exec(ctx, `INSERT INTO stay_in_touch (account_id, person_id, every_days, since_on, created_at, updated_at)
			VALUES (?, ?, ?, ?, ?, ?)`, acct, person, c.EveryDays, c.SinceOn, c.CreatedAt, c.UpdatedAt); err != nil {
			return fmt.Errorf("stay in touch: %w", err)
		}
		im.n.StayInTouch++
	}
	n := im.n
	n.ContactDetails += len(p.ContactDetails)
	n.ImportantDates += len(p.ImportantDates)
	n.Notes += len(p.Notes)
	n.Gifts += len(p.Gifts)
	n.LifeEvents += len(p.LifeEvents)
	n.WorkHistory += len(p.WorkHistory)
	n.Tasks += len(p.Tasks)
	n.Interactions += len(p.Interactions)
	return nil
}
