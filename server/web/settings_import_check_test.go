package web

import (
	"testing"

	"kith/server/transfer"
)

// TestImportCheckView: the check's page lists the first 50 skipped records
// and problems, and counts the rest; a CSV file's are by line and column.
func TestImportCheckView(t *testing.T) {
	ans := &transfer.CSVAnswer{Rows: 1, Format: transfer.CSVGoogle, IgnoredColumns: []string{"Photo"}}
	for i := range 60 {
		place := transfer.Place{CSVPlace: &transfer.CSVPlace{Line: i + 2}}
		ans.Skipped = append(ans.Skipped, transfer.Skip{Place: place, Reason: "the row has no name"})
		if i < 51 {
			ans.Problems = append(ans.Problems, transfer.Problem{Place: place, Name: "Jo", Column: "Birthday", Reason: "not a date"})
		}
	}
	ans.Counts.Notes = 3
	v := newImportCheckView("Import a CSV file", "/settings/import/csv/t", importOutcome{PeopleAnswer: ans.PeopleAnswer, answer: ans})
	if len(v.Skipped) != maxShown || v.MoreSkipped != 10 || v.SkippedCount != 60 {
		t.Errorf("skipped: %d listed, %d more, %d in all", len(v.Skipped), v.MoreSkipped, v.SkippedCount)
	}
	if len(v.Problems) != maxShown || v.MoreProblems != 1 || v.Problems[0] != (importLine{Line: 2, Name: "Jo", Field: "Birthday", Reason: "not a date"}) {
		t.Errorf("problems: %d listed, %d more, first %+v", len(v.Problems), v.MoreProblems, v.Problems[0])
	}
	if v.Rows != "1 row" || v.Format != "Google Contacts" || len(v.IgnoredColumns) != 1 || v.Cancel != "/settings/import/csv/t/cancel" {
		t.Errorf("view %+v", v)
	}
	if len(v.Counts) != 1 || v.Counts[0] != (fact{"Notes", "3"}) {
		t.Errorf("counts %v: only those not 0", v.Counts)
	}
}
