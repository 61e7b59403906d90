package store

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
)

// ErrCalendarFeedNotFound reports a user without a calendar feed, or a
// secret that names none: unknown, revoked, replaced by a newer one, or
// not even of the form of a secret.
var ErrCalendarFeedNotFound = &NotFoundError{What: "calendar feed"}

// CalendarFeed is a user's calendar feed, without its secret.
type CalendarFeed struct {
	UserID int64
	// CreatedAt is when the feed's current secret was made.
	CreatedAt int64
}

// feedSecretLen is the length of newSecret's secrets: two rand.Text.
const feedSecretLen = 52

// ValidFeedSecret reports whether secret has the form of a feed secret,
// 52 characters of rand.Text's alphabet (A–Z, 2–7). Anything else names
// no feed and costs no query.
func ValidFeedSecret(secret string) bool {
	if len(secret) != feedSecretLen {
		return false
	}
	for i := 0; i < len(secret); i++ {
		if c := secret[i]; (c < 'A' || c > 'Z') && (c < '2' || c > '7') {
			return false
		}
	}
	return true
}

// CreateCalendarFeed gives the user a calendar feed and returns it with
// its secret, which exists nowhere else after this call. A user who had
// a feed gets a new secret: the old one stops working.
func (s *Store) CreateCalendarFeed(ctx context.Context, userID int64) (CalendarFeed, string, error) {
	secret := newSecret()
	f := CalendarFeed{UserID: userID}
	err := s.withTx(ctx, func(ctx context.Context, tx *txn) error {
		// Locking the user's row first (a write that changes nothing)
		// makes two requests at once on PostgreSQL take turns, so the
		// second replaces the first rather than colliding with it.
		res, err := tx.ExecContext(ctx, `UPDATE users SET updated_at = updated_at WHERE id = ?`, userID)
		if err != nil {
			return fmt.Errorf("store: lock the user: %w", err)
		}
		if err := mustAffect(res, ErrUserNotFound); err != nil {
			return err
		}
		res, err = tx.ExecContext(ctx, `DELETE FROM calendar_feeds WHERE user_id = ?`, userID)
		if err != nil {
			return fmt.Errorf("store: replace calendar feed: %w", err)
		}
		replaced, err := res.RowsAffected()
		if err != nil {
			return fmt.Errorf("store: rows affected: %w", err)
		}
		f.CreatedAt = s.now()
		// changed_at 0: no body served yet, so the first one differs.
		_, err = tx.ExecContext(ctx, `INSERT INTO calendar_feeds (user_id, secret_hash, etag, changed_at, created_at)
			VALUES (?, ?, '', 0, ?)`, userID, hashSecret(secret), f.CreatedAt)
		if err != nil {
			return fmt.Errorf("store: create calendar feed: %w", err)
		}
		if replaced > 0 {
			return s.logAction(ctx, tx, "calendar_feed_rotation", "Replaced the calendar feed URL")
		}
		return s.logAction(ctx, tx, "calendar_feed_creation", "Created a calendar feed URL")
	})
	if err != nil {
		return CalendarFeed{}, "", err
	}
	return f, secret, nil
}

// CalendarFeed returns the user's feed, ErrCalendarFeedNotFound when the
// user has none.
func (s *Store) CalendarFeed(ctx context.Context, userID int64) (CalendarFeed, error) {
	f := CalendarFeed{UserID: userID}
	err := s.r.QueryRowContext(ctx, `SELECT created_at FROM calendar_feeds WHERE user_id = ?`, userID).Scan(&f.CreatedAt)
	if errors.Is(err, sql.ErrNoRows) {
		return CalendarFeed{}, ErrCalendarFeedNotFound
	}
	if err != nil {
		return CalendarFeed{}, fmt.Errorf("store: get calendar feed: %w", err)
	}
	return f, nil
}

// DeleteCalendarFeed revokes the user's feed: its URL stops working.
func (s *Store) DeleteCalendarFeed(ctx context.Context, userID int64) error {
	return s.withTx(ctx, func(ctx context.Context, tx *txn) error {
		res, err := tx.ExecContext(ctx, `DELETE FROM calendar_feeds WHERE user_id = ?`, userID)
		if err != nil {
			return fmt.Errorf("store: delete calendar feed: %w", err)
		}
		if err := mustAffect(res, ErrCalendarFeedNotFound); err != nil {
			return err
		}
		return s.logAction(ctx, tx, "calendar_feed_deletion", "Revoked the calendar feed URL")
	})
}

// CalendarFeedHead is a feed's bookkeeping and its user's time zone.
type CalendarFeedHead struct {
	FeedID   int64
	Timezone string // the user's, as stored
	// ETag is that of the last body served ("" before the first), and
	// ChangedAt when it was first served (0 before the first).
	ETag      string
	ChangedAt int64
}

// CalendarRows are what ReadCalendarFeed calls with each row of the feed,
// kind after kind in the order of the fields, each kind by its query's
// order. A nil field skips nothing: every call must be set.
type CalendarRows struct {
	Birthday  func(*Birthday) error
	LifeEvent func(*CalendarLifeEvent) error // those with should_be_reminded
	Date      func(*CalendarDate) error      // important dates with remind_yearly
	Task      func(*CalendarTask) error      // open ones with a due date
	Reminder  func(*Reminder) error          // every one users set, sent ones too
}

// CalendarData is everything one feed shows, held whole: ReadCalendarFeed
// gathered into slices, each kind in its order.
type CalendarData struct {
	CalendarFeedHead
	Birthdays  []Birthday
	LifeEvents []CalendarLifeEvent
	Dates      []CalendarDate
	Tasks      []CalendarTask
	Reminders  []Reminder
}

// Birthday is the birth date of a person whose exact age has a month and
// a day.
type Birthday struct {
	PersonID         int64
	PersonName       string
	Year, Month, Day int
	UpdatedAt        int64 // the person's
}

// CalendarLifeEvent is a life event with the name of its person.
type CalendarLifeEvent struct {
	ID          int64
	PersonName  string
	Description string
	Comment     *string
	HappenedAt  int64
	UpdatedAt   int64
}

// CalendarDate is an important date to remind yearly, with the name of
// its person.
type CalendarDate struct {
	ID         int64
	PersonName string
	Label      string
	Year       *int64 // nil when unknown
	Month, Day int
	UpdatedAt  int64
}

// CalendarTask is an open task with a due date, and its person's name.
type CalendarTask struct {
	ID, PersonID int64
	PersonName   string
	Name         string
	DueAt        int64
	UpdatedAt    int64
}

// The queries of ReadCalendarFeed start from the account's persons
// (persons_account), then reach each person's rows by their person
// index: tasks and life events have no index on account_id.
const (
	feedQuery = `SELECT f.id, f.etag, f.changed_at, u.account_id, u.timezone
		FROM calendar_feeds f JOIN users u ON u.id = f.user_id WHERE f.secret_hash = ?`
	birthdaysQuery = `SELECT p.id, ` + personName + `, p.age_year, p.age_month, p.age_day, p.updated_at
		FROM persons p
		WHERE p.account_id = ? AND p.age_type = 'exact'
			AND p.age_year IS NOT NULL AND p.age_month IS NOT NULL AND p.age_day IS NOT NULL
		ORDER BY p.id`
	feedLifeEventsQuery = `SELECT e.id, ` + personName + `, e.description, e.comment, e.happened_at, e.updated_at
		FROM persons p JOIN life_events e ON e.person_id = p.id
		WHERE p.account_id = ? AND e.should_be_reminded
		ORDER BY p.id, e.created_at DESC, e.id DESC`
	feedTasksQuery = `SELECT t.id, p.id, ` + personName + `, t.name, t.due_at, t.updated_at
		FROM persons p JOIN tasks t ON t.person_id = p.id
		WHERE p.account_id = ? AND NOT t.is_completed AND t.due_at IS NOT NULL
		ORDER BY p.id, t.created_at DESC, t.id DESC`
	feedDatesQuery = `SELECT d.id, ` + personName + `, d.label, d.year, d.month, d.day, d.updated_at
		FROM important_dates d JOIN persons p ON p.id = d.person_id
		WHERE d.account_id = ? AND d.remind_yearly
		ORDER BY d.month, d.day, d.id`
)

// ReadCalendarFeed reads what the feed of secret shows, six queries in
// one read-only snapshot whatever the size of the account: the feed's
// head, which fn gets first and answers with the calls for its rows, and
// then each row, handed over as it is read, so that no kind of row is
// ever held whole. A row's call may keep nothing it is given past its
// return: the next row reuses it.
func (s *Store) ReadCalendarFeed(ctx context.Context, secret string, fn func(CalendarFeedHead) (CalendarRows, error)) (CalendarFeedHead, error) {
	if !ValidFeedSecret(secret) {
		return CalendarFeedHead{}, ErrCalendarFeedNotFound
	}
	tx, err := s.r.BeginTx(ctx, &sql.TxOptions{ReadOnly: true})
	if err != nil {
		return CalendarFeedHead{}, fmt.Errorf("store: read calendar feed: %w", err)
	}
	defer tx.end(ctx, false)
	var h CalendarFeedHead
	var accountID int64
	err = tx.QueryRowContext(ctx, feedQuery, hashSecret(secret)).Scan(&h.FeedID, &h.ETag, &h.ChangedAt, &accountID, &h.Timezone)
	if errors.Is(err, sql.ErrNoRows) {
		return CalendarFeedHead{}, ErrCalendarFeedNotFound
	}
	if err != nil {
		return CalendarFeedHead{}, fmt.Errorf("store: find calendar feed: %w", err)
	}
	rows, err := fn(h)
	if err != nil {
		return h, err
	}
	var b Birthday
	err = queryEach(ctx, tx, birthdaysQuery, accountID, func(sc scanner) error {
		if err := sc.Scan(&b.PersonID, &b.PersonName, &b.Year, &b.Month, &b.Day, &b.UpdatedAt); err != nil {
			return err
		}
		return rows.Birthday(&b)
	})
	if err != nil {
		return h, fmt.Errorf("store: feed birthdays: %w", err)
	}
	var ev CalendarLifeEvent
	err = queryEach(ctx, tx, feedLifeEventsQuery, accountID, func(sc scanner) error {
		ev.Comment = nil
		if err := sc.Scan(&ev.ID, &ev.PersonName, &ev.Description, &ev.Comment, &ev.HappenedAt, &ev.UpdatedAt); err != nil {
			return err
		}
		return rows.LifeEvent(&ev)
	})
	if err != nil {
		return h, fmt.Errorf("store: feed life events: %w", err)
	}
	var cd CalendarDate
	err = queryEach(ctx, tx, feedDatesQuery, accountID, func(sc scanner) error {
		cd.Year = nil
		if err := sc.Scan(&cd.ID, &cd.PersonName, &cd.Label, &cd.Year, &cd.Month, &cd.Day, &cd.UpdatedAt); err != nil {
			return err
		}
		return rows.Date(&cd)
	})
	if err != nil {
		return h, fmt.Errorf("store: feed important dates: %w", err)
	}
	var t CalendarTask
	err = queryEach(ctx, tx, feedTasksQuery, accountID, func(sc scanner) error {
		if err := sc.Scan(&t.ID, &t.PersonID, &t.PersonName, &t.Name, &t.DueAt, &t.UpdatedAt); err != nil {
			return err
		}
		return rows.Task(&t)
	})
	if err != nil {
		return h, fmt.Errorf("store: feed tasks: %w", err)
	}
	err = queryEach(ctx, tx, accountRemindersQuery+` ORDER BY r.id`, accountID, func(sc scanner) error {
		var r Reminder
		if err := scanAccountReminder(sc, &r); err != nil {
			return err
		}
		return rows.Reminder(&r)
	})
	if err != nil {
		return h, fmt.Errorf("store: feed reminders: %w", err)
	}
	return h, nil
}

// CalendarFeedData is ReadCalendarFeed gathered whole, for a caller that
// looks at the rows themselves (the tests, a command): the feed itself
// streams them.
func (s *Store) CalendarFeedData(ctx context.Context, secret string) (CalendarData, error) {
	d := CalendarData{Birthdays: []Birthday{}, LifeEvents: []CalendarLifeEvent{}, Dates: []CalendarDate{},
		Tasks: []CalendarTask{}, Reminders: []Reminder{}}
	h, err := s.ReadCalendarFeed(ctx, secret, func(CalendarFeedHead) (CalendarRows, error) {
		return CalendarRows{
			Birthday:  func(b *Birthday) error { d.Birthdays = append(d.Birthdays, *b); return nil },
			LifeEvent: func(ev *CalendarLifeEvent) error { d.LifeEvents = append(d.LifeEvents, *ev); return nil },
			Date:      func(cd *CalendarDate) error { d.Dates = append(d.Dates, *cd); return nil },
			Task:      func(t *CalendarTask) error { d.Tasks = append(d.Tasks, *t); return nil },
			Reminder:  func(r *Reminder) error { d.Reminders = append(d.Reminders, *r); return nil },
		}, nil
	})
	if err != nil {
		return CalendarData{}, err
	}
	d.CalendarFeedHead = h
	return d, nil
}

// queryEach runs query and hands each row to scan.
func queryEach(ctx context.Context, tx *txn, query string, arg any, scan func(scanner) error) error {
	rows, err := tx.QueryContext(ctx, query, arg)
	if err != nil {
		return err
	}
	defer rows.Close()
	for rows.Next() {
		if err := scan(rows); err != nil {
			return err
		}
	}
	return rows.Err()
}

// RecordCalendarRender notes that the feed's body now has etag, which
// differs from the ETag its CalendarData read, and returns the feed's
// Last-Modified, Unix seconds. That is now, or one second past the last
// change when that is not earlier: each new body gets a later time than
// the one before, even within a second, so that a client asking "modified
// since" the time of the body it has always learns of a newer one. When
// another request recorded the same body meanwhile, its time stands.
func (s *Store) RecordCalendarRender(ctx context.Context, feedID int64, etag string) (int64, error) {
	var changed int64
	err := s.withTx(ctx, func(ctx context.Context, tx *txn) error {
		now := s.now()
		err := tx.QueryRowContext(ctx, `UPDATE calendar_feeds SET etag = ?,
				changed_at = CASE WHEN changed_at < CAST(? AS BIGINT) THEN CAST(? AS BIGINT) ELSE changed_at + 1 END
			WHERE id = ? AND etag <> ?
			RETURNING changed_at`, etag, now, now, feedID, etag).Scan(&changed)
		if !errors.Is(err, sql.ErrNoRows) {
			return err
		}
		err = tx.QueryRowContext(ctx, `SELECT changed_at FROM calendar_feeds WHERE id = ? AND etag = ?`, feedID, etag).Scan(&changed)
		if errors.Is(err, sql.ErrNoRows) {
			return ErrCalendarFeedNotFound // revoked or replaced meanwhile
		}
		return err
	})
	if err != nil && !errors.Is(err, ErrNotFound) {
		return 0, fmt.Errorf("store: record calendar render: %w", err)
	}
	return changed, err
}
