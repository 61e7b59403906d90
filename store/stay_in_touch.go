package store

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"time"
)

// Contact is how often the user wants to be in touch with a person, and
// when they last were.
type Contact struct {
	PersonID int64
	Name     string // the person's, as FullName makes it
	// EveryDays is the cadence, 1 to 3650 days; 0 when the person has none
	// (only StayInTouch returns such a Contact).
	EveryDays int64
	// SinceOn is the day, YYYY-MM-DD in the user's time zone, the cadence
	// was set; empty without one.
	SinceOn string
	// LastOn is the date of the person's latest interaction, nil when
	// there is none.
	LastOn *string
}

// DueOn returns the first day the person is due, YYYY-MM-DD: EveryDays
// after the last interaction, or after SinceOn when there is none. It
// reports false when the person has no cadence.
func (c Contact) DueOn() (string, bool) {
	due, ok := c.dueDay()
	if !ok {
		return "", false
	}
	return due.Format(time.DateOnly), true
}

// Due reports whether the person is due on today, a date YYYY-MM-DD: on
// DueOn or any day after it.
func (c Contact) Due(today string) bool {
	due, ok := c.dueDay()
	day, err := time.Parse(time.DateOnly, today)
	return ok && err == nil && !day.Before(due)
}

// dueDay is DueOn as a time, compared as one: a date past year 9999
// would not sort as text.
func (c Contact) dueDay() (time.Time, bool) {
	from := c.SinceOn
	if c.LastOn != nil {
		from = *c.LastOn
	}
	day, err := time.Parse(time.DateOnly, from)
	if c.EveryDays <= 0 || err != nil {
		return time.Time{}, false
	}
	return day.AddDate(0, 0, int(c.EveryDays)), true
}

// contactColumns are a Contact's columns in a query over persons p, with
// the cadence s left joined or joined; the last interaction is the end of
// the interactions_person index, one lookup a person.
const contactColumns = `p.id, p.first_name, p.last_name, s.every_days, s.since_on,
	(SELECT max(i.happened_on) FROM interactions i WHERE i.person_id = p.id)`

func scanContact(sc scanner, c *Contact) error {
	var first string
	var last *string
	var every sql.NullInt64
	var since sql.NullString
	if err := sc.Scan(&c.PersonID, &first, &last, &every, &since, &c.LastOn); err != nil {
		return err
	}
	c.Name, c.EveryDays, c.SinceOn = FullName(first, last), every.Int64, since.String
	return nil
}

// StayInTouch returns the person's cadence, if any, and last interaction.
func (s *Store) StayInTouch(ctx context.Context, accountID, personID int64) (Contact, error) {
	return getContact(ctx, s.r, accountID, personID)
}

func getContact(ctx context.Context, q queryer, accountID, personID int64) (Contact, error) {
	var c Contact
	err := scanContact(q.QueryRowContext(ctx, `SELECT `+contactColumns+`
		FROM persons p LEFT JOIN stay_in_touch s ON s.person_id = p.id
		WHERE p.id = ? AND p.account_id = ?`, personID, accountID), &c)
	if errors.Is(err, sql.ErrNoRows) {
		return Contact{}, ErrPersonNotFound
	}
	if err != nil {
		return Contact{}, fmt.Errorf("store: get stay in touch: %w", err)
	}
	return c, nil
}

// SetStayInTouch sets the person's cadence to everyDays, or clears it when
// everyDays is nil. A new cadence counts from today, the user's date
// (YYYY-MM-DD); changing the number of days of one keeps the day it was
// set, so that a new number is no way to put off a person already due.
func (s *Store) SetStayInTouch(ctx context.Context, accountID, personID int64, everyDays *int64, today string) (Contact, error) {
	var c Contact
	err := s.withTx(ctx, func(ctx context.Context, tx *txn) error {
		action, description, err := s.setCadence(ctx, tx, accountID, personID, everyDays, today)
		if err != nil {
			return err
		}
		if c, err = getContact(ctx, tx, accountID, personID); err != nil {
			return err
		}
		if action == "" {
			return nil // there was no cadence to clear
		}
		return s.logForPerson(ctx, tx, accountID, personID, action, description)
	})
	return c, err
}

// setCadence writes or deletes the person's cadence and says what to log.
func (s *Store) setCadence(ctx context.Context, tx *txn, accountID, personID int64, everyDays *int64, today string) (action, description string, err error) {
	if everyDays == nil {
		res, err := tx.ExecContext(ctx, `DELETE FROM stay_in_touch WHERE person_id = ? AND account_id = ?`, personID, accountID)
		if err != nil {
			return "", "", fmt.Errorf("store: clear stay in touch: %w", err)
		}
		if err := mustAffect(res, ErrPersonNotFound); err != nil {
			if errors.Is(err, ErrPersonNotFound) {
				return "", "", checkPerson(ctx, tx, accountID, personID)
			}
			return "", "", err
		}
		return "stay_in_touch_deletion", "Stopped the reminder to stay in touch with ", nil
	}
	now := s.now()
	var id int64
	err = tx.QueryRowContext(ctx, `INSERT INTO stay_in_touch (account_id, person_id, every_days, since_on, created_at, updated_at)
		SELECT p.account_id, p.id, CAST(? AS BIGINT), CAST(? AS TEXT), CAST(? AS BIGINT), CAST(? AS BIGINT)
		FROM persons p WHERE p.id = ? AND p.account_id = ?
		ON CONFLICT (person_id) DO UPDATE SET every_days = excluded.every_days, updated_at = excluded.updated_at
		RETURNING id`, *everyDays, today, now, now, personID, accountID).Scan(&id)
	if errors.Is(err, sql.ErrNoRows) {
		return "", "", ErrPersonNotFound
	}
	if err != nil {
		return "", "", fmt.Errorf("store: set stay in touch: %w", err)
	}
	return "stay_in_touch_update", fmt.Sprintf("Set to stay in touch every %d days with ", *everyDays), nil
}

// dueContactsQuery reads the account's cadences due by a day through the
// stay_in_touch_due index (migration 0041), each person by primary key
// and each last interaction from the end of interactions_person: as many
// steps as the persons due, whatever the number of cadences.
const dueContactsQuery = `SELECT ` + contactColumns + `
	FROM stay_in_touch s JOIN persons p ON p.id = s.person_id
	WHERE s.account_id = ? AND s.due_day <= ?
	ORDER BY s.person_id`

// DueContacts returns every person of the account whose cadence is due
// on through, a date YYYY-MM-DD, or before it (Contact.Due), by person
// id, each with the date of their last interaction (nil when none) and
// the day the cadence was set. Which day of the span one is due on is
// the caller's to decide, with Contact.DueOn.
func (s *Store) DueContacts(ctx context.Context, accountID int64, through string) ([]Contact, error) {
	day, err := time.Parse(time.DateOnly, through)
	if err != nil {
		return nil, fmt.Errorf("store: list due contacts: %w", err)
	}
	rows, err := s.r.QueryContext(ctx, dueContactsQuery, accountID, day.Unix()/86400)
	if err != nil {
		return nil, fmt.Errorf("store: list due contacts: %w", err)
	}
	defer rows.Close()
	contacts := []Contact{}
	for rows.Next() {
		var c Contact
		if err := scanContact(rows, &c); err != nil {
			return nil, fmt.Errorf("store: scan due contact: %w", err)
		}
		contacts = append(contacts, c)
	}
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("store: list due contacts: %w", err)
	}
	return contacts, nil
}
