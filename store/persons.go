package store

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"strconv"
	"strings"
	"time"
)

// Errors of persons.
var (
	ErrPersonNotFound = &NotFoundError{What: "person"}
	// ErrPersonProtected is returned for deleting a person whose
	// can_be_deleted is false.
	ErrPersonProtected = errors.New("store: person cannot be deleted")
)

// AppearanceFields are the physical appearance attributes of a person, in
// the order the API shows them; each is a column of its own.
var AppearanceFields = []string{
	"height", "weight", "build", "skin_tone", "face_shape", "eye_color", "eye_shape", "hair_color",
	"hair_type", "hair_length", "facial_hair", "scars", "tatoos", "piercings", "distinctive_marks",
	"glasses", "dress_style", "voice",
}

// Person is someone in the user's life.
type Person struct {
	ID                                                                   int64
	AccountID                                                            int64
	FirstName                                                            string
	LastName, MiddleName, Nickname, MaidenName, Prefix, Suffix, HowWeMet *string
	MaritalStatus, KidsStatus                                            string
	Gender                                                               *GenderRef // nil when the person has none
	CanBeDeleted, IsListed                                               bool
	Age                                                                  Age
	Appearance                                                           []*string // by AppearanceFields
	// Tags are the names of the person's tags, by name ignoring case, then
	// tag id; nil where a read did not load them (an export's).
	Tags                 []string
	CreatedAt, UpdatedAt int64
	HasPhoto             bool // whether the person has a photo
}

// GenderRef is the part of a gender that a person shows.
type GenderRef struct {
	ID   int64
	Name string
}

// Age is what is known of a person's age: one of three kinds, by Type.
type Age struct {
	Type           *string // "exact", "estimated", "bracket", or nil
	Year           *int64  // exact
	Month, Day     *int64  // exact, optional
	Estimated      *int64  // estimated: the age when it was set
	EstimatedAt    *int64  // estimated: when it was set
	Bracket        *string // bracket: "N-M"
	YearlyReminder *bool
}

// YearsOld is how old the person is on today (the user's date, as
// midnight UTC; loc their zone): an exact age counts birthdays, an
// estimated one the years since it was set. A bracket, or no age, has
// none.
func (a Age) YearsOld(today time.Time, loc *time.Location) (int64, bool) {
	switch {
	case a.Type == nil:
		return 0, false
	case *a.Type == "exact":
		month, day := time.January, 1 // a missing month or day counts as the first
		if a.Month != nil {
			month = time.Month(*a.Month)
		}
		if a.Day != nil {
			day = int(*a.Day)
		}
		born := time.Date(int(*a.Year), month, day, 0, 0, 0, 0, time.UTC)
		return int64(WholeYears(born, today)), true
	case *a.Type == "estimated":
		t := time.Unix(*a.EstimatedAt, 0).In(loc)
		set := time.Date(t.Year(), t.Month(), t.Day(), 0, 0, 0, 0, time.UTC)
		return *a.Estimated + int64(WholeYears(set, today)), true
	}
	return 0, false
}

// WholeYears counts the birthdays from from to today, never below zero.
// Comparing (month, day) pairs makes someone born on 29 February a year
// older on 1 March in a common year.
func WholeYears(from, today time.Time) int {
	years := today.Year() - from.Year()
	if today.Month() < from.Month() || (today.Month() == from.Month() && today.Day() < from.Day()) {
		years--
	}
	return max(0, years)
}

// PersonInput is what creating or replacing a person takes.
type PersonInput struct {
	FirstName                                                            string
	LastName, MiddleName, Nickname, MaidenName, Prefix, Suffix, HowWeMet *string
	MaritalStatus, KidsStatus                                            string
	GenderID                                                             *int64 // nil for none
	CanBeDeleted, IsListed                                               bool
}

// FullName is first and last name joined by a space, or the first alone.
func FullName(first string, last *string) string {
	if last == nil || *last == "" {
		return first
	}
	return first + " " + *last
}

var personColumns = `id, account_id, first_name, last_name, middle_name, nickname, maiden_name, prefix, suffix,
	how_we_met, marital_status, kids_status, can_be_deleted, is_listed,
	age_type, age_year, age_month, age_day, estimated_age, estimated_at, age_bracket, yearly_reminder,
	` + strings.Join(AppearanceFields, ", ") + `, created_at, updated_at,
	gender_id, (SELECT g.name FROM genders g WHERE g.id = persons.gender_id),
	EXISTS (SELECT 1 FROM photos ph WHERE ph.person_id = persons.id)`

func scanPerson(sc scanner, p *Person) error {
	p.Appearance = make([]*string, len(AppearanceFields))
	dest := []any{&p.ID, &p.AccountID, &p.FirstName, &p.LastName, &p.MiddleName, &p.Nickname, &p.MaidenName,
		&p.Prefix, &p.Suffix, &p.HowWeMet, &p.MaritalStatus, &p.KidsStatus, &p.CanBeDeleted, &p.IsListed,
		&p.Age.Type, &p.Age.Year, &p.Age.Month, &p.Age.Day, &p.Age.Estimated, &p.Age.EstimatedAt,
		&p.Age.Bracket, &p.Age.YearlyReminder}
	for i := range p.Appearance {
		dest = append(dest, &p.Appearance[i])
	}
	var genderID sql.NullInt64
	var genderName sql.NullString
	if err := sc.Scan(append(dest, &p.CreatedAt, &p.UpdatedAt, &genderID, &genderName, &p.HasPhoto)...); err != nil {
		return err
	}
	if genderID.Valid {
		p.Gender = &GenderRef{ID: genderID.Int64, Name: genderName.String}
	}
	return nil
}

// Persons returns one page of the account's persons by id, and how many
// the account has in all.
func (s *Store) Persons(ctx context.Context, accountID, limit, offset int64) ([]Person, int64, error) {
	return s.persons(ctx, accountID, "id", limit, offset)
}

// HasPersons reports whether the account has a person: one indexed row
// read, whatever their number.
func (s *Store) HasPersons(ctx context.Context, accountID int64) (bool, error) {
	var has bool
	err := s.r.QueryRowContext(ctx, `SELECT EXISTS (SELECT 1 FROM persons WHERE account_id = ?)`, accountID).Scan(&has)
	if err != nil {
		return false, fmt.Errorf("store: has persons: %w", err)
	}
	return has, nil
}

// PersonsByName is Persons in the order a person reads a list of names:
// by first name, then last name, case aside (ASCII case on SQLite).
func (s *Store) PersonsByName(ctx context.Context, accountID, limit, offset int64) ([]Person, int64, error) {
	return s.persons(ctx, accountID, personOrders[OrderByName], limit, offset)
}

// persons is a page of the account's persons in order, a fixed ORDER BY.
func (s *Store) persons(ctx context.Context, accountID int64, order string, limit, offset int64) ([]Person, int64, error) {
	return s.personPage(ctx, accountID, "", nil, order, limit, offset)
}

// personPage is a page of the account's persons that cond (" AND …" on
// persons, with args; "" for all) picks, in order, and their total, in one
// snapshot: three queries (the total, the page, its tags), two when cond
// filters (filteredPage), whatever the page's size.
func (s *Store) personPage(ctx context.Context, accountID int64, cond string, args []any, order string, limit, offset int64) ([]Person, int64, error) {
	listed, total, err := s.listedPage(ctx, accountID, cond, args, order, false, limit, offset)
	if err != nil {
		return nil, 0, err
	}
	persons := make([]Person, len(listed))
	for i, l := range listed {
		persons[i] = l.Person
	}
	return persons, total, nil
}

// listedPage is personPage that also reads what the people list shows
// beside each name when lines is true, in the page's own query.
func (s *Store) listedPage(ctx context.Context, accountID int64, cond string, args []any, order string, lines bool, limit, offset int64) ([]ListedPerson, int64, error) {
	tx, err := s.r.BeginTx(ctx, &sql.TxOptions{ReadOnly: true})
	if err != nil {
		return nil, 0, fmt.Errorf("store: list persons: %w", err)
	}
	defer tx.end(ctx, false)
	where := `account_id = ?` + cond
	if leads(cond) {
		// The unary plus keeps every index of the account's persons from
		// serving the account's condition: SQLite, which has no statistics
		// (Kith runs no ANALYZE), would otherwise walk the account's
		// persons in the page's order and test each against the tag's or
		// the search's ids, 70 ms for a page of a small tag at 100,000
		// people instead of 3.
		where = `+account_id = ?` + cond
	}
	args = append([]any{accountID}, args...)
	if cond != "" {
		return s.filteredPage(ctx, tx, where, cond, args, order, lines, limit, offset)
	}
	total, err := countPersons(ctx, tx, where, cond, args)
	if err != nil {
		return nil, 0, err
	}
	page := `FROM persons WHERE ` + where + ` ORDER BY ` + order + ` LIMIT ? OFFSET ?`
	args = append(args, limit, offset)
	query := `SELECT ` + personColumns + ` ` + page
	if lines {
		// The page's ids first, then its rows: ordered by what is not
		// indexed, the engines would otherwise work out every column of
		// every person before sorting them (a tenth of a second for ten
		// thousand people).
		query = `SELECT ` + personColumns + `, ` + listedColumns + ` FROM persons
			WHERE id IN (SELECT id ` + page + `) ORDER BY ` + order
	}
	persons := []ListedPerson{}
	err = eachRow(ctx, tx, query, args, func(sc scanner) error {
		var p ListedPerson
		if lines {
			sc = withExtra{sc, []any{&p.Company, &p.LastContact}}
		}
		if err := scanPerson(sc, &p.Person); err != nil {
			return err
		}
		persons = append(persons, p)
		return nil
	})
	if err != nil {
		return nil, 0, fmt.Errorf("store: list persons: %w", err)
	}
	ptrs := make([]*Person, len(persons))
	for i := range persons {
		ptrs[i] = &persons[i].Person
	}
	// The same page again, by a query of fixed text: a list of ids would
	// make a statement per length, which the statement cache keeps.
	if err := loadTags(ctx, tx, ptrs, `SELECT id `+page, args...); err != nil {
		return nil, 0, err
	}
	return persons, total, nil
}

// filteredPage is listedPage's page of the persons that cond (a search,
// a tag) picks. cond is evaluated once: one query finds the matches,
// counts them and reads the page's rows, and the tags are read by the
// page's ids. The total, the page and its tags each evaluated it before,
// and a search's cost is mostly the trigram index's: on PostgreSQL it
// reads the posting list of each trigram of the query near each
// candidate, and the candidates grow with the account.
func (s *Store) filteredPage(ctx context.Context, tx *txn, where, cond string, args []any, order string, lines bool, limit, offset int64) ([]ListedPerson, int64, error) {
	cols := personColumns
	if lines {
		cols += `, ` + listedColumns
	}
	if err := fenceGrams(ctx, tx, cond); err != nil {
		return nil, 0, err
	}
	query := `WITH page AS MATERIALIZED (SELECT id, count(*) OVER () AS total FROM persons WHERE ` + where +
		` ORDER BY ` + order + ` LIMIT ? OFFSET ?)
		SELECT ` + cols + `, (SELECT total FROM page LIMIT 1) FROM persons
		WHERE id IN (SELECT id FROM page) ORDER BY ` + order
	persons := []ListedPerson{}
	var total int64
	err := eachRow(ctx, tx, query, append(args, limit, offset), func(sc scanner) error {
		var p ListedPerson
		extra := []any{&total}
		if lines {
			extra = []any{&p.Company, &p.LastContact, &total}
		}
		if err := scanPerson(withExtra{sc, extra}, &p.Person); err != nil {
			return err
		}
		persons = append(persons, p)
		return nil
	})
	if err != nil {
		return nil, 0, fmt.Errorf("store: list persons: %w", err)
	}
	if len(persons) == 0 && offset > 0 {
		// A page past the last has no row to carry the total.
		if total, err = countPersons(ctx, tx, where, cond, args); err != nil {
			return nil, 0, err
		}
	}
	ptrs := make([]*Person, len(persons))
	ids := make([]string, len(persons))
	for i := range persons {
		ptrs[i] = &persons[i].Person
		ids[i] = strconv.FormatInt(persons[i].ID, 10)
	}
	if err := loadTags(ctx, tx, ptrs, s.eng.jsonIDs(), "["+strings.Join(ids, ",")+"]"); err != nil {
		return nil, 0, err
	}
	return persons, total, nil
}

func (sqliteEngine) jsonIDs() string { return `SELECT value FROM json_each(?)` }

func (postgresEngine) jsonIDs() string {
	return `SELECT CAST(value AS bigint) FROM json_array_elements_text(CAST(? AS json))`
}

// leads is whether cond picks persons by ids that an index of its own
// finds, a tag's or the search index's (" AND id IN (…)", or the grams
// of a search on PostgreSQL): then the page starts from those ids, as
// many as cond finds, whatever the account's size.
func leads(cond string) bool {
	return strings.HasPrefix(cond, ` AND id IN (`) || strings.HasPrefix(cond, ` AND `+gramsCond)
}

// countPersons is how many persons where (on the account, and cond)
// picks: the account's count that the triggers keep (migration 0038)
// when cond picks them all, one row whatever their number; else those
// cond finds, as many rows as it finds.
func countPersons(ctx context.Context, tx *txn, where, cond string, args []any) (int64, error) {
	query := `SELECT count(*) FROM persons WHERE ` + where
	if cond == "" {
		query = `SELECT coalesce((SELECT persons FROM person_counts WHERE account_id = ?), 0)`
	}
	var total int64
	if err := tx.QueryRowContext(ctx, query, args...).Scan(&total); err != nil {
		return 0, fmt.Errorf("store: count persons: %w", err)
	}
	return total, nil
}

// Person returns one of the account's persons.
func (s *Store) Person(ctx context.Context, accountID, id int64) (Person, error) {
	p, err := getPerson(ctx, s.r, accountID, id)
	if err != nil {
		return Person{}, err
	}
	if err := loadTags(ctx, s.r, []*Person{&p}, `?`, id); err != nil {
		return Person{}, err
	}
	return p, nil
}

func getPerson(ctx context.Context, q queryer, accountID, id int64) (Person, error) {
	var p Person
	err := scanPerson(q.QueryRowContext(ctx, `SELECT `+personColumns+` FROM persons WHERE id = ? AND account_id = ?`, id, accountID), &p)
	if errors.Is(err, sql.ErrNoRows) {
		return Person{}, ErrPersonNotFound
	}
	if err != nil {
		return Person{}, fmt.Errorf("store: get person: %w", err)
	}
	return p, nil
}

// CreatePerson adds a person to the account. A GenderID that is not a
// gender of the account is ErrUnknownGender.
func (s *Store) CreatePerson(ctx context.Context, accountID int64, in PersonInput) (Person, error) {
	return s.CreatePersonWith(ctx, accountID, in, nil, nil)
}

// CreatePersonWith adds a person with an age (nil for none) and contact
// details, all in one transaction: the web app's quick add, which makes
// nothing when any part fails.
func (s *Store) CreatePersonWith(ctx context.Context, accountID int64, in PersonInput, age *Age, details []ContactDetailInput) (Person, error) {
	var p Person
	err := s.withTx(ctx, func(ctx context.Context, tx *txn) error {
		var err error
		if p, err = s.createPersonTx(ctx, tx, accountID, in); err != nil {
			return err
		}
		if age != nil {
			if p, err = s.updatePersonTx(ctx, tx, accountID, p.ID, ageSets, ageArgs(*age)...); err != nil {
				return err
			}
		}
		for _, d := range details {
			if _, err := s.createContactDetailTx(ctx, tx, accountID, p.ID, d); err != nil {
				return err
			}
		}
		return nil
	})
	return p, err
}

func (s *Store) createPersonTx(ctx context.Context, tx *txn, accountID int64, in PersonInput) (Person, error) {
	var p Person
	if err := checkGender(ctx, tx, accountID, in.GenderID); err != nil {
		return p, err
	}
	now := s.now()
	err := scanPerson(tx.QueryRowContext(ctx, `
		INSERT INTO persons (account_id, first_name, last_name, middle_name, nickname, maiden_name, prefix, suffix,
			how_we_met, marital_status, kids_status, gender_id, can_be_deleted, is_listed, created_at, updated_at)
		VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
		RETURNING `+personColumns,
		accountID, in.FirstName, in.LastName, in.MiddleName, in.Nickname, in.MaidenName, in.Prefix, in.Suffix,
		in.HowWeMet, in.MaritalStatus, in.KidsStatus, in.GenderID, in.CanBeDeleted, in.IsListed, now, now), &p)
	if isForeignKeyViolation(err) && in.GenderID != nil {
		// The gender went after it was checked (possible where writers
		// run side by side, on PostgreSQL).
		return p, ErrUnknownGender
	}
	if isForeignKeyViolation(err) {
		return p, ErrAccountNotFound
	}
	if err != nil {
		return p, fmt.Errorf("store: create person: %w", err)
	}
	p.Tags = []string{}
	return p, s.logAction(ctx, tx, "person_creation", "Created the person called "+FullName(p.FirstName, p.LastName))
}

// UpdatePerson replaces the person's names, statuses, gender and flags;
// age and appearance have their own methods. A missing person is reported
// before a GenderID that is not a gender of the account (ErrUnknownGender).
func (s *Store) UpdatePerson(ctx context.Context, accountID, id int64, in PersonInput) (Person, error) {
	var p Person
	err := s.withTx(ctx, func(ctx context.Context, tx *txn) error {
		if in.GenderID != nil {
			if err := checkPerson(ctx, tx, accountID, id); err != nil {
				return err
			}
			if err := checkGender(ctx, tx, accountID, in.GenderID); err != nil {
				return err
			}
		}
		var err error
		p, err = s.updatePersonTx(ctx, tx, accountID, id, `first_name = ?, last_name = ?, middle_name = ?, nickname = ?,
		maiden_name = ?, prefix = ?, suffix = ?, how_we_met = ?, marital_status = ?, kids_status = ?,
		gender_id = ?, can_be_deleted = ?, is_listed = ?`,
			in.FirstName, in.LastName, in.MiddleName, in.Nickname, in.MaidenName, in.Prefix, in.Suffix,
			in.HowWeMet, in.MaritalStatus, in.KidsStatus, in.GenderID, in.CanBeDeleted, in.IsListed)
		if isForeignKeyViolation(err) {
			return ErrUnknownGender // gone since it was checked, as in CreatePerson
		}
		if err != nil {
			return err
		}
		return s.logAction(ctx, tx, "person_update", "Updated the person called "+FullName(p.FirstName, p.LastName))
	})
	return p, err
}

// UpdateAppearance sets the appearance fields in changes (by name, from
// AppearanceFields; nil clears one) and leaves the others as they are.
func (s *Store) UpdateAppearance(ctx context.Context, accountID, id int64, changes map[string]*string) (Person, error) {
	args := make([]any, 0, 2*len(AppearanceFields))
	sent := false
	for _, f := range AppearanceFields {
		v, ok := changes[f]
		args = append(args, ok, v)
		sent = sent || ok
	}
	if !sent {
		return s.Person(ctx, accountID, id)
	}
	return s.updatePerson(ctx, accountID, id, "person_physical_appearance_update", "Updated physical appearance for ",
		appearanceSets, args...)
}

// appearanceSets sets each appearance column to its new value when its
// flag is true: one constant statement, whatever subset a request sends.
var appearanceSets = func() string {
	sets := make([]string, len(AppearanceFields))
	for i, f := range AppearanceFields {
		sets[i] = f + " = CASE WHEN CAST(? AS BOOLEAN) THEN CAST(? AS TEXT) ELSE " + f + " END"
	}
	return strings.Join(sets, ", ")
}()

// SetAge replaces what is known of the person's age. Every age column is
// written, so the columns of the kind not chosen are cleared.
func (s *Store) SetAge(ctx context.Context, accountID, id int64, a Age) (Person, error) {
	return s.updatePerson(ctx, accountID, id, "age_update", "Updated the age of ", ageSets, ageArgs(a)...)
}

const ageSets = `age_type = ?, age_year = ?, age_month = ?, age_day = ?,
	estimated_age = ?, estimated_at = ?, age_bracket = ?, yearly_reminder = ?`

func ageArgs(a Age) []any {
	return []any{a.Type, a.Year, a.Month, a.Day, a.Estimated, a.EstimatedAt, a.Bracket, a.YearlyReminder}
}

// updatePerson runs "UPDATE persons SET <sets>, updated_at = now" on one
// person of the account and returns it, logging action with the
// description that the person's name completes.
func (s *Store) updatePerson(ctx context.Context, accountID, id int64, action, description, sets string, args ...any) (Person, error) {
	var p Person
	err := s.withTx(ctx, func(ctx context.Context, tx *txn) error {
		var err error
		p, err = s.updatePersonTx(ctx, tx, accountID, id, sets, args...)
		if err != nil {
			return err
		}
		return s.logAction(ctx, tx, action, description+FullName(p.FirstName, p.LastName))
	})
	return p, err
}

// updatePersonTx is updatePerson inside the caller's transaction.
func (s *Store) updatePersonTx(ctx context.Context, tx *txn, accountID, id int64, sets string, args ...any) (Person, error) {
	var p Person
	args = append(args, s.now(), id, accountID)
	err := scanPerson(tx.QueryRowContext(ctx, `UPDATE persons SET `+sets+`, updated_at = ?
		WHERE id = ? AND account_id = ? RETURNING `+personColumns, args...), &p)
	if errors.Is(err, sql.ErrNoRows) {
		return Person{}, ErrPersonNotFound
	}
	if err != nil {
		return Person{}, fmt.Errorf("store: update person: %w", err)
	}
	if err := loadTags(ctx, tx, []*Person{&p}, `?`, id); err != nil {
		return Person{}, err
	}
	return p, nil
}

// DeletePerson deletes the person and, by cascade, its tasks, unless its
// can_be_deleted is false. One conditional statement decides, so that no
// other write can come between the check and the delete.
func (s *Store) DeletePerson(ctx context.Context, accountID, id int64) error {
	return s.withTx(ctx, func(ctx context.Context, tx *txn) error {
		var first string
		var last *string
		err := tx.QueryRowContext(ctx, `DELETE FROM persons WHERE id = ? AND account_id = ? AND can_be_deleted
			RETURNING first_name, last_name`, id, accountID).Scan(&first, &last)
		if errors.Is(err, sql.ErrNoRows) {
			// Missing, or protected: which one is for the client to hear.
			if err := checkPerson(ctx, tx, accountID, id); err != nil {
				return err
			}
			return ErrPersonProtected
		}
		if err != nil {
			return fmt.Errorf("store: delete person: %w", err)
		}
		return s.logAction(ctx, tx, "person_deletion", "Deleted the person called "+FullName(first, last))
	})
}
