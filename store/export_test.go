package store

// The statements the reminders run for every account each day, for the
// test that reads their plans (store_test cannot see unexported names).
const (
	YearlyDatesQuery = yearlyDatesQuery
	DueContactsQuery = dueContactsQuery
)

// BatchQueries are the statements an export reads each batch of persons
// with, for the test that reads their plans.
var BatchQueries = map[string]string{
	"contact_details": batchContactDetails, "important_dates": batchImportantDates, "notes": batchNotes,
	"gifts": batchGifts, "life_events": batchLifeEvents, "work_history": batchWorkHistory,
	"interactions": batchInteractions, "stay_in_touch": batchStayInTouch, "tasks": batchTasks,
	"relationships": batchRelationships, "tags": batchTags,
	"photos": batchPhotos,
}
