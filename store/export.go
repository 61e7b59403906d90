package store

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
)

// PersonRecord is a person with everything of theirs, as an export reads
// it and an import writes it. Person.Gender and each task's Category name
// a gender and a category by id, of the account when read, of the
// document (see AccountImport) when written; Person.Tags name tags by
// name, ignoring case when written.
type PersonRecord struct {
	Person
	UID        *string // the card's UID, kept across export and import so that a phone's contact stays itself
	VCardExtra *string // the card's properties that Kith has no field for
	// StayInTouch is the person's cadence, nil for none.
	StayInTouch    *Cadence
	ContactDetails []ContactDetail
	ImportantDates []ImportantDate
	Notes          []Note
	Gifts          []Gift
	LifeEvents     []LifeEvent
	WorkHistory    []WorkEntry
	Tasks          []Task
	Interactions   []Interaction
	// Relationships are those stored on the person (made on them), so
	// that an export holds each once.
	Relationships []RelationshipRecord
	// Photo is the person's JPEG as Kith keeps it, nil for none.
	Photo []byte
}

// RelationshipRecord is a relationship stored on its person, as an export
// reads it and an import makes it: the other person by their card's UID,
// which an export keeps, and the type by its names and group, since the
// type's id is the exporting account's.
type RelationshipRecord struct {
	// ID is the exporting account's id, which orders the relationships:
	// an import makes them in its order (those without one last), so that
	// every person's list, by id, keeps its order.
	ID        int64
	PersonID  int64 // the person it is stored on, when read
	Type      RelationshipTypeInput
	OtherUID  string
	CreatedAt int64
	UpdatedAt int64
}

// Cadence is how often the user wants to be in touch with a person, and
// since which day (YYYY-MM-DD) it counts.
type Cadence struct {
	EveryDays            int64
	SinceOn              string
	CreatedAt, UpdatedAt int64
}

// JournalRecord is a journal with its entries.
type JournalRecord struct {
	Journal
	Entries []Entry
}

// UserSettings are the choices of a user that an export carries: the
// user's time zone and daily digest. Channels are not among them: their
// URLs and tokens are credentials.
type UserSettings struct {
	Timezone  string
	Reminders ReminderSettings
}

// AccountReader reads one account for an export, all of it in the one
// snapshot of ReadAccount: the small tables whole, the persons a batch at
// a time, so that a large account never sits in memory at once.
type AccountReader struct {
	tx        *txn
	accountID int64
}

// ReadAccount runs fn with a reader of the account, in one read-only
// transaction: what fn reads is the account at one moment, however long it
// takes, while writes go on beside it.
func (s *Store) ReadAccount(ctx context.Context, accountID int64, fn func(r *AccountReader) error) error {
	tx, err := s.r.BeginTx(ctx, &sql.TxOptions{ReadOnly: true})
	if err != nil {
		return fmt.Errorf("store: read account: %w", err)
	}
	defer tx.end(ctx, false)
	return fn(&AccountReader{tx: tx, accountID: accountID})
}

// UserSettings returns the settings of one of the account's users.
func (r *AccountReader) UserSettings(ctx context.Context, userID int64) (UserSettings, error) {
	var us UserSettings
	var days sql.NullInt64
	err := r.tx.QueryRowContext(ctx, `SELECT u.timezone, rs.send_at, rs.days FROM users u
		LEFT JOIN reminder_settings rs ON rs.user_id = u.id
		WHERE u.id = ? AND u.account_id = ?`, userID, r.accountID).Scan(&us.Timezone, &us.Reminders.SendAt, &days)
	if errors.Is(err, sql.ErrNoRows) {
		return UserSettings{}, ErrUserNotFound
	}
	if err != nil {
		return UserSettings{}, fmt.Errorf("store: read settings: %w", err)
	}
	us.Reminders.Days = DefaultReminderDays
	if days.Valid {
		us.Reminders.Days = days.Int64
	}
	return us, nil
}

// TaskCategories lists the account's categories by id.
func (r *AccountReader) TaskCategories(ctx context.Context) ([]TaskCategory, error) {
	return readAll(ctx, r, `SELECT `+categoryColumns+` FROM task_categories WHERE account_id = ? ORDER BY id`, scanCategory)
}

// Genders lists the account's genders by id.
func (r *AccountReader) Genders(ctx context.Context) ([]Gender, error) {
	return readAll(ctx, r, `SELECT `+genderColumns+` FROM genders WHERE account_id = ? ORDER BY id`, scanGender)
}

// RelationshipTypes lists the account's relationship types by id.
func (r *AccountReader) RelationshipTypes(ctx context.Context) ([]RelationshipType, error) {
	return readAll(ctx, r, `SELECT `+relationshipTypeColumns+` FROM relationship_types WHERE account_id = ? ORDER BY id`,
		scanRelationshipType)
}

// Tags lists the account's tags by id, those no person has among them.
func (r *AccountReader) Tags(ctx context.Context) ([]Tag, error) {
	return readAll(ctx, r, `SELECT `+tagColumns+` FROM tags WHERE account_id = ? ORDER BY id`, scanTag)
}

// Journals lists the account's journals by id, each with its entries by
// id.
func (r *AccountReader) Journals(ctx context.Context) ([]JournalRecord, error) {
	js, err := readAll(ctx, r, `SELECT `+journalColumns+` FROM journals WHERE account_id = ? ORDER BY id`, scanJournal)
	if err != nil {
		return nil, err
	}
	entries, err := readAll(ctx, r, `SELECT `+entryColumns+` FROM journal_entries WHERE account_id = ? ORDER BY id`, scanEntry)
	if err != nil {
		return nil, err
	}
	out := make([]JournalRecord, len(js))
	at := make(map[int64]int, len(js))
	for i, j := range js {
		out[i] = JournalRecord{Journal: j, Entries: []Entry{}}
		at[j.ID] = i
	}
	for _, en := range entries {
		if i, ok := at[en.JournalID]; ok {
			out[i].Entries = append(out[i].Entries, en)
		}
	}
	return out, nil
}

// readAll reads every row of an account's query, whose one parameter is
// the account.
func readAll[T any](ctx context.Context, r *AccountReader, query string, scan func(scanner, *T) error) ([]T, error) {
	out := []T{}
	err := r.each(ctx, query, func(sc scanner) error {
		var v T
		if err := scan(sc, &v); err != nil {
			return err
		}
		out = append(out, v)
		return nil
	}, r.accountID)
	return out, err
}

// each runs query and calls row for each of its rows.
func (r *AccountReader) each(ctx context.Context, query string, row func(scanner) error, args ...any) error {
	return wrapErr("store: export", eachRow(ctx, r.tx, query, args, row))
}

// The queries of a batch of persons: the batch's persons are those of the
// account whose ids lie between its first and its last, so that each
// table is read once per batch, through its index on person_id. The unary
// + keeps SQLite's planner off the indexes that start with account_id
// (life_events_account, tasks_account_due), which it took for the
// equality and which read every row of the account for each batch: the
// export of 5,000 persons took ten times that of 1,000.
const (
	batchWhere          = ` WHERE +account_id = ? AND person_id BETWEEN ? AND ? ORDER BY person_id, id`
	batchContactDetails = `SELECT ` + contactDetailColumns + ` FROM contact_details` + batchWhere
	batchImportantDates = `SELECT ` + importantDateColumns + ` FROM important_dates` + batchWhere
	batchNotes          = `SELECT ` + noteColumns + ` FROM notes` + batchWhere
	batchGifts          = `SELECT ` + giftColumns + ` FROM gifts` + batchWhere
	batchLifeEvents     = `SELECT ` + lifeEventColumns + ` FROM life_events` + batchWhere
	batchWorkHistory    = `SELECT ` + workEntryColumns + ` FROM work_history` + batchWhere
	batchInteractions   = `SELECT ` + interactionColumns + ` FROM interactions` + batchWhere
	batchStayInTouch    = `SELECT person_id, every_days, since_on, created_at, updated_at FROM stay_in_touch` + batchWhere
	batchTasks          = `SELECT t.id, t.person_id, t.name, t.is_completed, t.due_at, t.completed_at, t.created_at, t.updated_at,
		c.id, c.name, c.color
		FROM tasks t LEFT JOIN task_categories c ON c.id = t.task_category_id
		WHERE +t.account_id = ? AND t.person_id BETWEEN ? AND ? ORDER BY t.person_id, t.id`
	// batchTags reads the tags of the batch's persons, in the order of the
	// person's JSON.
	batchTags = `SELECT ` + personTagColumns + ` FROM person_tags pt JOIN tags t ON t.id = pt.tag_id
		WHERE +pt.account_id = ? AND pt.person_id BETWEEN ? AND ? ORDER BY pt.person_id, t.name_key, t.id`
	batchPhotos = `SELECT person_id, jpeg FROM photos WHERE +account_id = ? AND person_id BETWEEN ? AND ? ORDER BY person_id`
	// batchRelationships reads the relationships stored on the batch's
	// persons, with the names of their types and the other persons' UIDs.
	batchRelationships = `SELECT r.id, r.person_id, t.name, t.name_reverse, t.group_name, o.uid, r.created_at, r.updated_at
		FROM relationships r
		JOIN relationship_types t ON t.id = r.relationship_type_id
		JOIN persons o ON o.id = r.other_person_id
		WHERE +r.account_id = ? AND r.person_id BETWEEN ? AND ? ORDER BY r.person_id, r.id`
)

// batchPersons selects the persons with their card's UID and extra
// properties, which Person does not carry.
var batchPersons = `SELECT uid, vcard_extra, ` + personColumns + ` FROM persons
	WHERE account_id = ? AND id > ? ORDER BY id LIMIT ?`

// Persons returns up to limit of the account's persons whose ids come
// after afterID, by id, each with everything of theirs in id order; none
// when no more are left.
func (r *AccountReader) Persons(ctx context.Context, afterID int64, limit int) ([]PersonRecord, error) {
	batch := []PersonRecord{}
	err := r.each(ctx, batchPersons, func(sc scanner) error {
		var p PersonRecord
		if err := scanPerson(extraScanner{sc, []any{&p.UID, &p.VCardExtra}}, &p.Person); err != nil {
			return err
		}
		batch = append(batch, p)
		return nil
	}, r.accountID, afterID, limit)
	if err != nil || len(batch) == 0 {
		return batch, err
	}
	at := make(map[int64]*PersonRecord, len(batch))
	for i := range batch {
		at[batch[i].ID] = &batch[i]
	}
	first, last := batch[0].ID, batch[len(batch)-1].ID
	children := []struct {
		query string
		row   func(sc scanner) error
	}{
		{batchContactDetails, rowInto(at, scanContactDetail, func(d *ContactDetail) int64 { return d.PersonID },
			func(p *PersonRecord, d ContactDetail) { p.ContactDetails = append(p.ContactDetails, d) })},
		{batchImportantDates, rowInto(at, scanImportantDate, func(d *ImportantDate) int64 { return d.PersonID },
			func(p *PersonRecord, d ImportantDate) { p.ImportantDates = append(p.ImportantDates, d) })},
		{batchNotes, rowInto(at, scanNote, func(n *Note) int64 { return n.PersonID },
			func(p *PersonRecord, n Note) { p.Notes = append(p.Notes, n) })},
		{batchGifts, rowInto(at, scanGift, func(g *Gift) int64 { return g.PersonID },
			func(p *PersonRecord, g Gift) { p.Gifts = append(p.Gifts, g) })},
		{batchLifeEvents, rowInto(at, scanLifeEvent, func(ev *LifeEvent) int64 { return ev.PersonID },
			func(p *PersonRecord, ev LifeEvent) { p.LifeEvents = append(p.LifeEvents, ev) })},
		{batchWorkHistory, rowInto(at, scanWorkEntry, func(w *WorkEntry) int64 { return w.PersonID },
			func(p *PersonRecord, w WorkEntry) { p.WorkHistory = append(p.WorkHistory, w) })},
		{batchTasks, rowInto(at, scanExportTask, func(t *Task) int64 { return t.PersonID },
			func(p *PersonRecord, t Task) { p.Tasks = append(p.Tasks, t) })},
		{batchInteractions, rowInto(at, scanInteraction, func(in *Interaction) int64 { return in.PersonID },
			func(p *PersonRecord, in Interaction) { p.Interactions = append(p.Interactions, in) })},
		{batchTags, rowInto(at, scanPersonTag, func(pt *personTag) int64 { return pt.PersonID },
			func(p *PersonRecord, pt personTag) { p.Tags = append(p.Tags, pt.Name) })},
		{batchRelationships, rowInto(at, scanRelationshipRecord, func(rel *RelationshipRecord) int64 { return rel.PersonID },
			func(p *PersonRecord, rel RelationshipRecord) { p.Relationships = append(p.Relationships, rel) })},
		{batchPhotos, func(sc scanner) error {
			var personID int64
			var jpeg []byte
			if err := sc.Scan(&personID, &jpeg); err != nil {
				return err
			}
			if p, ok := at[personID]; ok {
				p.Photo = jpeg
			}
			return nil
		}},
		{batchStayInTouch, func(sc scanner) error {
			var personID int64
			var c Cadence
			if err := sc.Scan(&personID, &c.EveryDays, &c.SinceOn, &c.CreatedAt, &c.UpdatedAt); err != nil {
				return err
			}
			if p, ok := at[personID]; ok {
				p.StayInTouch = &c
			}
			return nil
		}},
	}
	for _, ch := range children {
		if err := r.each(ctx, ch.query, ch.row, r.accountID, first, last); err != nil {
			return nil, err
		}
	}
	return batch, nil
}

// scanExportTask reads a row of batchTasks; the task's person is not
// named, only its id.
func scanExportTask(sc scanner, t *Task) error {
	var catID sql.NullInt64
	var catName, catColor sql.NullString
	if err := sc.Scan(&t.ID, &t.PersonID, &t.Name, &t.IsCompleted, &t.DueAt, &t.CompletedAt, &t.CreatedAt, &t.UpdatedAt,
		&catID, &catName, &catColor); err != nil {
		return err
	}
	if catID.Valid {
		t.Category = &CategoryRef{ID: catID.Int64, Name: catName.String, Color: catColor.String}
	}
	return nil
}

func scanRelationshipRecord(sc scanner, rel *RelationshipRecord) error {
	return sc.Scan(&rel.ID, &rel.PersonID, &rel.Type.Name, &rel.Type.NameReverse, &rel.Type.Group, &rel.OtherUID,
		&rel.CreatedAt, &rel.UpdatedAt)
}
