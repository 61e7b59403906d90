package store

import "context"

// The statements the reminders run for every account each day, for the
// test that reads their plans (store_test cannot see unexported names).
var (
	YearlyDatesQuery, _ = yearlyDatesQuery(0, nil)
	DueContactsQuery    = dueContactsQuery
	DueTasksQuery       = dueTasksQuery
)

// UpcomingQueries are the statements the reminders read a span's dates
// with, each with its arguments for accountID and spans.
func UpcomingQueries(accountID int64, spans []DaySpan) map[string]struct {
	Query string
	Args  []any
} {
	out := map[string]struct {
		Query string
		Args  []any
	}{}
	add := func(name string, query func(int64, []DaySpan) (string, []any)) {
		q, args := query(accountID, spans)
		out[name] = struct {
			Query string
			Args  []any
		}{q, args}
	}
	add("birthdays", upcomingBirthdaysQuery)
	add("life events", lifeEventsQuery)
	add("important dates", yearlyDatesQuery)
	add("reminders", upcomingRemindersQuery)
	return out
}

// BatchQueries are the statements an export reads each batch of persons
// with, for the test that reads their plans.
var BatchQueries = map[string]string{
	"contact_details": batchContactDetails, "important_dates": batchImportantDates, "notes": batchNotes,
	"gifts": batchGifts, "life_events": batchLifeEvents, "work_history": batchWorkHistory,
	"interactions": batchInteractions, "stay_in_touch": batchStayInTouch, "tasks": batchTasks,
	"relationships": batchRelationships, "tags": batchTags,
	"photos": batchPhotos,
}

// PlanModes is PostgreSQL's plan_cache_mode inside freshPlans and after
// it, in a transaction that had set it to force_generic_plan; "" on
// SQLite, which has no plan cache to set.
func (s *Store) PlanModes(ctx context.Context) (inside, after string, err error) {
	err = s.withTx(ctx, func(ctx context.Context, tx *txn) error {
		if tx.pool.bind == nil {
			return nil
		}
		mode := func(into *string) error {
			return tx.QueryRowContext(ctx, `SELECT current_setting('plan_cache_mode')`).Scan(into)
		}
		if _, err := tx.ExecContext(ctx, `SELECT set_config('plan_cache_mode', 'force_generic_plan', true)`); err != nil {
			return err
		}
		if err := freshPlans(ctx, tx, func() error { return mode(&inside) }); err != nil {
			return err
		}
		return mode(&after)
	})
	return inside, after, err
}
