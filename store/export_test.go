package store

// The statements the reminders run for every account each day, for the
// test that reads their plans (store_test cannot see unexported names).
const (
	YearlyDatesQuery = yearlyDatesQuery
	DueContactsQuery = dueContactsQuery
)
