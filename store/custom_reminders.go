package store

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"strings"
	"time"
)

// ErrReminderNotFound reports a reminder that is not the person's.
var ErrReminderNotFound = &NotFoundError{What: "reminder"}

// The frequencies of a reminder.
const (
	FrequencyOnce    = "one_time"
	FrequencyDaily   = "daily"
	FrequencyWeekly  = "weekly"
	FrequencyMonthly = "monthly"
	FrequencyYearly  = "yearly"
)

// Frequencies are the values frequency takes, in the order a form lists them.
var Frequencies = []string{FrequencyOnce, FrequencyDaily, FrequencyWeekly, FrequencyMonthly, FrequencyYearly}

// Reminder is one a user set on a person: a label, a first day, and how
// often it comes back after it.
type Reminder struct {
	ID, PersonID int64
	// PersonName is the person's full name; AccountReminders fills it.
	PersonName string
	Label      string
	StartsOn   string // YYYY-MM-DD
	Frequency  string
	Every      int64   // 1 for one_time
	Until      *string // YYYY-MM-DD; nil for one_time
	// SentAt is when a one_time reminder first went out in a digest.
	SentAt    *int64
	CreatedAt int64
	UpdatedAt int64
}

// ReminderInput is what creating or replacing a reminder takes; the
// caller checks the dates and numbers, the database bounds them.
type ReminderInput struct {
	Label, StartsOn, Frequency string
	Every                      int64
	Until                      *string
}

const reminderColumns = `id, person_id, label, starts_on, frequency, every, until, sent_at, created_at, updated_at`

func scanReminder(sc scanner, r *Reminder) error {
	return sc.Scan(&r.ID, &r.PersonID, &r.Label, &r.StartsOn, &r.Frequency, &r.Every, &r.Until, &r.SentAt, &r.CreatedAt, &r.UpdatedAt)
}

// Reminders lists the person's reminders by id.
func (s *Store) Reminders(ctx context.Context, accountID, personID int64) ([]Reminder, error) {
	tx, err := s.r.BeginTx(ctx, &sql.TxOptions{ReadOnly: true}) // the person and the reminders in one snapshot
	if err != nil {
		return nil, fmt.Errorf("store: list reminders: %w", err)
	}
	defer tx.end(ctx, false)
	if err := checkPerson(ctx, tx, accountID, personID); err != nil {
		return nil, err
	}
	rows, err := tx.QueryContext(ctx, `SELECT `+reminderColumns+` FROM reminders
		WHERE person_id = ? AND account_id = ? ORDER BY id`, personID, accountID)
	if err != nil {
		return nil, fmt.Errorf("store: list reminders: %w", err)
	}
	defer rows.Close()
	out := []Reminder{}
	for rows.Next() {
		var r Reminder
		if err := scanReminder(rows, &r); err != nil {
			return nil, fmt.Errorf("store: scan reminder: %w", err)
		}
		out = append(out, r)
	}
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("store: list reminders: %w", err)
	}
	return out, nil
}

// accountRemindersQuery reads the account's reminders with their persons'
// names through reminders_account.
const accountRemindersQuery = `SELECT r.id, r.person_id, r.label, r.starts_on, r.frequency, r.every, r.until,
		r.sent_at, r.created_at, r.updated_at, p.first_name, p.last_name
	FROM reminders r JOIN persons p ON p.id = r.person_id
	WHERE r.account_id = ?`

// upcomingRemindersQuery is AccountReminders' statement: the one_time and
// yearly reminders within spans, each span a range of reminders_upcoming;
// the monthly ones whose day of the month is in them; the daily and weekly
// ones, which fall in any week.
func upcomingRemindersQuery(accountID int64, spans []DaySpan) (string, []any) {
	base := accountRemindersQuery + ` AND r.sent_at IS NULL`
	if spans == nil {
		return base + ` ORDER BY r.id`, []any{accountID}
	}
	parts, args := spanParts(base+` AND r.frequency IN ('one_time', 'yearly')`, "r.start_month", "r.start_day", spans, accountID)
	for _, days := range monthDays(spans) {
		parts = append(parts, base+` AND r.frequency = 'monthly' AND r.start_day BETWEEN ? AND ?`)
		args = append(args, accountID, days[0], days[1])
	}
	for _, f := range []string{FrequencyDaily, FrequencyWeekly} {
		parts = append(parts, base+` AND r.frequency = ?`)
		args = append(args, accountID, f)
	}
	return strings.Join(parts, ` UNION ALL `) + ` ORDER BY 1`, args
}

// monthDays are the ranges of days of the month, apart and in order, on
// which a monthly reminder falls within spans when its first day's day of
// the month is in one. A span to a month's end (the 28th or later) takes
// the days after it too: a reminder of the 31st falls on a shorter
// month's last day. AccountReminders' caller keeps the exact days.
func monthDays(spans []DaySpan) [][2]int {
	var in [33]bool
	for _, sp := range spans {
		to := sp.To
		if to >= 28 {
			to = 31
		}
		for d := sp.From; d <= to; d++ {
			in[d] = true
		}
	}
	var out [][2]int
	for d := 1; d <= 31; d++ {
		if in[d] && !in[d-1] {
			out = append(out, [2]int{d, d})
		}
		if in[d] {
			out[len(out)-1][1] = d
		}
	}
	return out
}

// scanAccountReminder scans a row of accountRemindersQuery.
func scanAccountReminder(sc scanner, r *Reminder) error {
	var first string
	var last *string
	if err := sc.Scan(&r.ID, &r.PersonID, &r.Label, &r.StartsOn, &r.Frequency, &r.Every, &r.Until,
		&r.SentAt, &r.CreatedAt, &r.UpdatedAt, &first, &last); err != nil {
		return err
	}
	r.PersonName = FullName(first, last)
	return nil
}

// AccountReminders lists the reminders of the account that can fall
// within spans, with their persons' names, by id: one query for the
// digests and the upcoming list, which work out the days in Go. The
// one_time reminders that went out already are left out. A one_time or
// yearly reminder can fall within spans only on its first day's month
// and day, a monthly one on its day of the month (or a month's last day);
// daily and weekly ones are read whatever the spans. Nil spans read all.
func (s *Store) AccountReminders(ctx context.Context, accountID int64, spans []DaySpan) ([]Reminder, error) {
	q, args := upcomingRemindersQuery(accountID, spans)
	rows, err := s.r.QueryContext(ctx, q, args...)
	if err != nil {
		return nil, fmt.Errorf("store: account reminders: %w", err)
	}
	defer rows.Close()
	out := []Reminder{}
	for rows.Next() {
		var r Reminder
		if err := scanAccountReminder(rows, &r); err != nil {
			return nil, fmt.Errorf("store: scan reminder: %w", err)
		}
		out = append(out, r)
	}
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("store: account reminders: %w", err)
	}
	return out, nil
}

// Reminder returns one reminder of the person; when there is none it
// says whether the person or the reminder is missing.
func (s *Store) Reminder(ctx context.Context, accountID, personID, id int64) (Reminder, error) {
	var r Reminder
	err := scanReminder(s.r.QueryRowContext(ctx, `SELECT `+reminderColumns+` FROM reminders
		WHERE id = ? AND person_id = ? AND account_id = ?`, id, personID, accountID), &r)
	if errors.Is(err, sql.ErrNoRows) {
		return Reminder{}, missingRecord(ctx, s.r, accountID, personID, ErrReminderNotFound)
	}
	if err != nil {
		return Reminder{}, fmt.Errorf("store: get reminder: %w", err)
	}
	return r, nil
}

// CreateReminder adds a reminder to the person, found in the account by
// the INSERT itself.
func (s *Store) CreateReminder(ctx context.Context, accountID, personID int64, in ReminderInput) (Reminder, error) {
	var r Reminder
	err := s.withTx(ctx, func(ctx context.Context, tx *txn) error {
		now := s.now()
		err := scanReminder(tx.QueryRowContext(ctx, `INSERT INTO reminders (account_id, person_id, label, starts_on,
				frequency, every, until, created_at, updated_at)
			SELECT p.account_id, p.id, CAST(? AS TEXT), CAST(? AS TEXT), CAST(? AS TEXT), CAST(? AS BIGINT),
				CAST(? AS TEXT), CAST(? AS BIGINT), CAST(? AS BIGINT)
			FROM persons p WHERE p.id = ? AND p.account_id = ?
			RETURNING `+reminderColumns,
			in.Label, in.StartsOn, in.Frequency, in.Every, in.Until, now, now, personID, accountID), &r)
		if errors.Is(err, sql.ErrNoRows) {
			return ErrPersonNotFound
		}
		if err != nil {
			return fmt.Errorf("store: create reminder: %w", err)
		}
		return s.logForPerson(ctx, tx, accountID, personID, "reminder_creation", "Added a reminder for ")
	})
	return r, err
}

// UpdateReminder replaces every field of the person's reminder. A one_time
// reminder that keeps its day keeps its sent_at; any other change makes
// it one to send again.
func (s *Store) UpdateReminder(ctx context.Context, accountID, personID, id int64, in ReminderInput) (Reminder, error) {
	var r Reminder
	err := s.withTx(ctx, func(ctx context.Context, tx *txn) error {
		err := scanReminder(tx.QueryRowContext(ctx, `UPDATE reminders SET label = ?,
				sent_at = CASE WHEN starts_on = CAST(? AS TEXT) AND frequency = CAST(? AS TEXT) THEN sent_at ELSE NULL END,
				starts_on = ?, frequency = ?, every = ?, until = ?, updated_at = ?
			WHERE id = ? AND person_id = ? AND account_id = ?
			RETURNING `+reminderColumns,
			in.Label, in.StartsOn, in.Frequency, in.StartsOn, in.Frequency, in.Every, in.Until, s.now(), id, personID, accountID), &r)
		if errors.Is(err, sql.ErrNoRows) {
			return missingRecord(ctx, tx, accountID, personID, ErrReminderNotFound)
		}
		if err != nil {
			return fmt.Errorf("store: update reminder: %w", err)
		}
		return s.logForPerson(ctx, tx, accountID, personID, "reminder_update", "Updated a reminder for ")
	})
	return r, err
}

// DeleteReminder deletes one reminder of the person.
func (s *Store) DeleteReminder(ctx context.Context, accountID, personID, id int64) error {
	return s.withTx(ctx, func(ctx context.Context, tx *txn) error {
		res, err := tx.ExecContext(ctx, `DELETE FROM reminders WHERE id = ? AND person_id = ? AND account_id = ?`,
			id, personID, accountID)
		if err != nil {
			return fmt.Errorf("store: delete reminder: %w", err)
		}
		if err := mustAffect(res, ErrReminderNotFound); err != nil {
			if errors.Is(err, ErrReminderNotFound) {
				return missingRecord(ctx, tx, accountID, personID, err)
			}
			return err
		}
		return s.logForPerson(ctx, tx, accountID, personID, "reminder_deletion", "Deleted a reminder for ")
	})
}

// RemindersSent records that a digest holding these one_time reminders of
// the account on their day was delivered at at; the first delivery's time
// stays.
func (s *Store) RemindersSent(ctx context.Context, accountID int64, ids []int64, at int64) error {
	if len(ids) == 0 {
		return nil
	}
	return s.withTx(ctx, func(ctx context.Context, tx *txn) error {
		for _, id := range ids {
			if _, err := tx.ExecContext(ctx, `UPDATE reminders SET sent_at = ?
				WHERE id = ? AND account_id = ? AND frequency = 'one_time' AND sent_at IS NULL`, at, id, accountID); err != nil {
				return fmt.Errorf("store: reminder sent: %w", err)
			}
		}
		return nil
	})
}

// Between lists the days from from through to (dates at midnight UTC) on
// which the reminder falls; a one_time reminder already sent falls on
// none.
func (r *Reminder) Between(from, to time.Time) []time.Time { return r.upTo(from, to, -1) }

// upTo is Between stopped at max days (all when max < 0).
func (r *Reminder) upTo(from, to time.Time, max int) []time.Time {
	if r.Frequency == FrequencyOnce && r.SentAt != nil {
		return nil
	}
	start, err := time.Parse(time.DateOnly, r.StartsOn)
	if err != nil {
		return nil
	}
	if r.Until != nil && r.Frequency != FrequencyOnce {
		if u, err := time.Parse(time.DateOnly, *r.Until); err == nil && u.Before(to) {
			to = u
		}
	}
	return Occurrences(r.Frequency, int(r.Every), start, from, to, max)
}

// NextOn is the reminder's first day on or after today, or nil when
// there is none. One day, not all of them: a daily reminder falls on
// some 2.9 million days before 9999, listed on every page that shows it.
func (r *Reminder) NextOn(today time.Time) *string {
	days := r.upTo(today, time.Date(9999, 12, 31, 0, 0, 0, 0, time.UTC), 1)
	if len(days) == 0 {
		return nil
	}
	s := days[0].Format(time.DateOnly)
	return &s
}

// Occurrences lists, up to max of them (all when max < 0), the days from
// from through to on which a reminder of freq, every every, first on
// start, falls: start plus k·every days, weeks, months or years. A month
// or year lands on start's day of the month, or on the month's last day
// when it has fewer (31 January: 29 February, 31 March, 30 April; 29
// February: 28 February in common years), never drifting. Dates are
// midnight UTC. It starts at the first k that can reach from, so a
// reminder set long ago costs as little as a new one.
func Occurrences(freq string, every int, start, from, to time.Time, max int) []time.Time {
	if every < 1 {
		every = 1
	}
	var at func(k int) time.Time
	k := 0
	switch freq {
	case FrequencyOnce:
		at = func(int) time.Time { return start }
	case FrequencyDaily, FrequencyWeekly:
		step := every
		if freq == FrequencyWeekly {
			step *= 7
		}
		if gap := int(from.Sub(start).Hours() / 24); gap > 0 {
			k = (gap + step - 1) / step
		}
		at = func(k int) time.Time { return start.AddDate(0, 0, k*step) }
	case FrequencyMonthly:
		if gap := monthIndex(from) - monthIndex(start); gap > 0 {
			k = gap / every
		}
		at = func(k int) time.Time { return onDay(monthIndex(start)+k*every, start.Day()) }
	case FrequencyYearly:
		if gap := from.Year() - start.Year(); gap > 0 {
			k = gap / every
		}
		at = func(k int) time.Time { return onDay(monthIndex(start)+12*k*every, start.Day()) }
	default:
		return nil
	}
	var out []time.Time
	for ; max < 0 || len(out) < max; k++ {
		if freq == FrequencyOnce && k > 0 {
			break
		}
		d := at(k)
		if d.After(to) {
			break
		}
		if !d.Before(from) {
			out = append(out, d)
		}
	}
	return out
}

// monthIndex counts months from year 0: months apart subtract.
func monthIndex(t time.Time) int { return t.Year()*12 + int(t.Month()) - 1 }

// onDay is day dom of month index m, or the month's last day when it is
// shorter.
func onDay(m, dom int) time.Time {
	year, month := m/12, time.Month(m%12+1)
	last := time.Date(year, month+1, 0, 0, 0, 0, 0, time.UTC).Day()
	return time.Date(year, month, min(dom, last), 0, 0, 0, 0, time.UTC)
}
