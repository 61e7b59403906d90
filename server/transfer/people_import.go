package transfer

import (
	"kith/store"
)

// The answer of a people import (import-formats.md §2), shared by Monica's
// and the CSV importer: what was made, matched, skipped and left out.

// MaxProblems bounds the problems an answer lists.
const MaxProblems = 1000

// Place is where a record is in its file: Monica's JSON path and uuid, or
// a CSV file's line. Exactly one of the two is set.
type Place struct {
	*MonicaPlace
	*CSVPlace
}

// MonicaPlace is a Monica object's JSON path and its uuid.
type MonicaPlace struct {
	Item string `json:"item"`
	UUID string `json:"uuid"`
}

// CSVPlace is the line where a CSV record starts, the header being line 1.
type CSVPlace struct {
	Line int `json:"line"`
}

// Skip is a record not imported.
type Skip struct {
	Place
	Name   string `json:"name"`
	Reason string `json:"reason"`
}

// Problem is a part of an imported record left out.
type Problem struct {
	Place
	Name   string `json:"name"`
	Field  string `json:"field,omitempty"`  // Monica
	Column string `json:"column,omitempty"` // CSV
	Reason string `json:"reason"`
}

// Problems collects an answer's problems, the first MaxProblems of them.
type Problems struct{ List []Problem }

// Add records p unless the list is full.
func (ps *Problems) Add(p Problem) {
	if ps.List == nil {
		ps.List = []Problem{}
	}
	if len(ps.List) < MaxProblems {
		ps.List = append(ps.List, p)
	}
}

// Counts are the rows an import wrote, by kind, as its answer says them.
type Counts struct {
	Persons        int `json:"persons"`
	ContactDetails int `json:"contact_details"`
	ImportantDates int `json:"important_dates"`
	Notes          int `json:"notes"`
	Tasks          int `json:"tasks"`
	Gifts          int `json:"gifts"`
	LifeEvents     int `json:"life_events"`
	Interactions   int `json:"interactions"`
	WorkHistory    int `json:"work_history"`
	Relationships  int `json:"relationships"`
	Tags           int `json:"tags"`
	Photos         int `json:"photos"`
	JournalEntries int `json:"journal_entries"`
}

// CountsOf says the store's counts; Tags are the tags made.
func CountsOf(n store.ImportCounts) Counts {
	return Counts{Persons: n.Persons, ContactDetails: n.ContactDetails, ImportantDates: n.ImportantDates, Notes: n.Notes,
		Tasks: n.Tasks, Gifts: n.Gifts, LifeEvents: n.LifeEvents, Interactions: n.Interactions, WorkHistory: n.WorkHistory,
		Relationships: n.Relationships, Tags: n.Tags, Photos: n.Photos, JournalEntries: n.JournalEntries}
}

// PeopleAnswer is what both answers hold.
type PeopleAnswer struct {
	Object    string `json:"object"`
	DryRun    bool   `json:"dry_run"`
	Created   int    `json:"created"`
	Updated   int    `json:"updated"`
	Unchanged int    `json:"unchanged"`
	Skipped   []Skip `json:"skipped"`
	Counts    Counts `json:"counts"`
}

// Result takes in the store's result.
func (a *PeopleAnswer) Result(res store.PeopleImportResult) {
	a.Created, a.Updated, a.Unchanged = res.Created, res.Updated, res.Unchanged
	a.Counts = CountsOf(res.Counts)
}
