package store

import (
	"context"
	"database/sql"
	"fmt"
	"strings"
)

// The kinds of Yearly.
const (
	YearlyBirthday      = "birthday"
	YearlyLifeEvent     = "life_event"
	YearlyImportantDate = "important_date"
)

// Yearly is a date that comes back every year: a birthday, a life event
// or an important date to be reminded of.
type Yearly struct {
	// ID is the row the date is read from: the person's for a birthday,
	// the life event's, the important date's. A snooze names it.
	ID         int64
	PersonID   int64
	PersonName string
	Kind       string
	Label      string // the life event's description, the date's label
	Year       *int64 // nil when unknown
	Month, Day int
	// At is a life event's time, whose date depends on the user's zone:
	// Month and Day are zero then and the caller reads them from At.
	At *int64
}

// DueTask is an open task with a due date.
type DueTask struct {
	ID, PersonID     int64
	PersonName, Name string
	DueAt            int64
}

// ReminderData is what an account's reminders are made of.
type ReminderData struct {
	Yearly []Yearly
	// Tasks are the open tasks due before the time ReminderData was given.
	Tasks []DueTask
}

// DaySpan is the days From through To of a month, a part of the span of
// dates a digest looks at.
type DaySpan struct{ Month, From, To int }

// ReminderData reads, in one snapshot, the account's yearly dates and its
// open tasks due before dueBefore. spans keeps only the birthdays within
// them, and eventSpans the life events whose day in UTC is within them;
// nil keeps all.
func (s *Store) ReminderData(ctx context.Context, accountID, dueBefore int64, spans, eventSpans []DaySpan) (ReminderData, error) {
	var d ReminderData
	tx, err := s.r.BeginTx(ctx, &sql.TxOptions{ReadOnly: true})
	if err != nil {
		return d, fmt.Errorf("store: reminder data: %w", err)
	}
	defer tx.end(ctx, false)
	if d.Yearly, err = birthdays(ctx, tx, accountID, spans); err != nil {
		return d, err
	}
	if d.Yearly, err = lifeEventDates(ctx, tx, accountID, eventSpans, d.Yearly); err != nil {
		return d, err
	}
	if d.Tasks, err = dueTasks(ctx, tx, accountID, dueBefore); err != nil {
		return d, err
	}
	return d, nil
}

// upcomingBirthdaysQuery reads the birthdays within spans through
// persons_birthday.
func upcomingBirthdaysQuery(accountID int64, spans []DaySpan) (string, []any) {
	return perSpan(`SELECT id, first_name, last_name, age_year, age_month, age_day FROM persons
		WHERE account_id = ? AND age_type = 'exact' AND age_month IS NOT NULL AND age_day IS NOT NULL AND yearly_reminder`,
		"age_month", "age_day", spans, "1", accountID)
}

// birthdays are the exact birth dates, with month and day, that the user
// asked to be reminded of (add_yearly_reminder), within spans when it is
// not nil: a daily digest wants a week's, not the year's, and each span
// is a search of persons_birthday.
func birthdays(ctx context.Context, q *txn, accountID int64, spans []DaySpan) ([]Yearly, error) {
	query, args := upcomingBirthdaysQuery(accountID, spans)
	rows, err := q.QueryContext(ctx, query, args...)
	if err != nil {
		return nil, fmt.Errorf("store: birthdays: %w", err)
	}
	defer rows.Close()
	out := []Yearly{}
	for rows.Next() {
		y := Yearly{Kind: YearlyBirthday}
		var first string
		var last *string
		var month, day int64
		if err := rows.Scan(&y.PersonID, &first, &last, &y.Year, &month, &day); err != nil {
			return nil, fmt.Errorf("store: scan birthday: %w", err)
		}
		y.ID = y.PersonID
		y.PersonName, y.Month, y.Day = FullName(first, last), int(month), int(day)
		out = append(out, y)
	}
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("store: birthdays: %w", err)
	}
	return out, nil
}

// spanParts are the SELECTs, base and a condition each, that read the
// rows whose month and day columns fall within spans, one a span, each a
// range of an index on (account_id, …, month, day); with their args, base
// taking args before each. One SELECT a span, not an OR of them in one:
// SQLite's planner read the account's every row for the OR.
func spanParts(base, month, day string, spans []DaySpan, args ...any) ([]string, []any) {
	parts := make([]string, len(spans))
	var all []any
	for i, sp := range spans {
		parts[i] = base + ` AND ` + month + ` = ? AND ` + day + ` BETWEEN ? AND ?`
		all = append(append(all, args...), sp.Month, sp.From, sp.To)
	}
	return parts, all
}

// perSpan is the statement that reads base's rows within spans (every
// row when spans is nil), ordered by order, result column numbers: the
// UNION ALL of spanParts, whose spans never share a day.
func perSpan(base, month, day string, spans []DaySpan, order string, args ...any) (string, []any) {
	if spans == nil {
		return base + ` ORDER BY ` + order, args
	}
	parts, all := spanParts(base, month, day, spans, args...)
	return strings.Join(parts, ` UNION ALL `) + ` ORDER BY ` + order, all
}

// lifeEventsQuery reads the life events to be reminded of whose day in
// UTC is within spans, through life_events_yearly.
func lifeEventsQuery(accountID int64, spans []DaySpan) (string, []any) {
	return perSpan(`SELECT e.id, p.id, p.first_name, p.last_name, e.description, e.happened_at
		FROM life_events e JOIN persons p ON p.id = e.person_id
		WHERE e.account_id = ? AND e.should_be_reminded`, "e.utc_month", "e.utc_day", spans, "1", accountID)
}

// lifeEventDates appends the life events to be reminded of every year
// whose day in UTC is within spans (all when nil), through
// life_events_yearly.
func lifeEventDates(ctx context.Context, q *txn, accountID int64, spans []DaySpan, out []Yearly) ([]Yearly, error) {
	query, args := lifeEventsQuery(accountID, spans)
	rows, err := q.QueryContext(ctx, query, args...)
	if err != nil {
		return nil, fmt.Errorf("store: life event dates: %w", err)
	}
	defer rows.Close()
	for rows.Next() {
		y := Yearly{Kind: YearlyLifeEvent}
		var first string
		var last *string
		var at int64
		if err := rows.Scan(&y.ID, &y.PersonID, &first, &last, &y.Label, &at); err != nil {
			return nil, fmt.Errorf("store: scan life event date: %w", err)
		}
		y.PersonName, y.At = FullName(first, last), &at
		out = append(out, y)
	}
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("store: life event dates: %w", err)
	}
	return out, nil
}

const dueTasksQuery = `SELECT t.id, p.id, p.first_name, p.last_name, t.name, t.due_at
		FROM tasks t JOIN persons p ON p.id = t.person_id
		WHERE t.account_id = ? AND t.due_at < ? AND NOT t.is_completed
		ORDER BY t.due_at, t.id`

// dueTasks are the account's open tasks due before dueBefore, soonest
// first, read through tasks_open_due: the done ones are not read.
func dueTasks(ctx context.Context, q *txn, accountID, dueBefore int64) ([]DueTask, error) {
	rows, err := q.QueryContext(ctx, dueTasksQuery, accountID, dueBefore)
	if err != nil {
		return nil, fmt.Errorf("store: due tasks: %w", err)
	}
	defer rows.Close()
	out := []DueTask{}
	for rows.Next() {
		var t DueTask
		var first string
		var last *string
		if err := rows.Scan(&t.ID, &t.PersonID, &first, &last, &t.Name, &t.DueAt); err != nil {
			return nil, fmt.Errorf("store: scan due task: %w", err)
		}
		t.PersonName = FullName(first, last)
		out = append(out, t)
	}
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("store: due tasks: %w", err)
	}
	return out, nil
}
