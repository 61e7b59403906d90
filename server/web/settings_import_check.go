package web

import (
	"strconv"

	"kith/server/transfer"
)

// maxShown is how many skipped records, and how many problems, the check's
// page lists: the rest are "and N more".
const maxShown = 50

// importCheckView is the check's page: a dry run's answer in words.
type importCheckView struct {
	Title string
	// Columns offers to map a generic CSV file's columns again.
	Columns bool
	// Action is where Import posts; Cancel, where Cancel does.
	Action, Cancel              string
	Created, Updated, Unchanged int
	// Rows are a CSV file's, in words ("480 rows"), and Format its
	// format's name.
	Rows, Format    string
	Counts, Dropped []fact
	Skipped         []importLine
	// SkippedCount is every skipped record, listed or not.
	SkippedCount   int
	MoreSkipped    int
	Problems       []importLine
	MoreProblems   int
	IgnoredColumns []string
}

// importLine is a skipped record or a problem: where, who, what and why.
type importLine struct {
	Line   int // a CSV file's; 0 for Monica's
	Name   string
	Field  string
	Reason string
}

func newImportCheckView(title, base string, out importOutcome) importCheckView {
	v := importCheckView{Title: title, Action: base, Cancel: base + "/cancel",
		Created: out.Created, Updated: out.Updated, Unchanged: out.Unchanged, SkippedCount: len(out.Skipped)}
	n := out.Counts
	for _, k := range []struct {
		label string
		n     int
	}{
		{"Contact details", n.ContactDetails}, {"Important dates", n.ImportantDates}, {"Notes", n.Notes},
		{"Tasks", n.Tasks}, {"Gifts", n.Gifts}, {"Life events", n.LifeEvents}, {"Interactions", n.Interactions},
		{"Work history", n.WorkHistory}, {"Relationships", n.Relationships}, {"Tags", n.Tags}, {"Photos", n.Photos},
		{"Journal entries", n.JournalEntries},
	} {
		if k.n > 0 {
			v.Counts = append(v.Counts, fact{k.label, strconv.Itoa(k.n)})
		}
	}
	for i, s := range out.Skipped {
		if i == maxShown {
			v.MoreSkipped = len(out.Skipped) - maxShown
			break
		}
		v.Skipped = append(v.Skipped, importLine{Line: lineOf(s.Place), Name: s.Name, Reason: s.Reason})
	}
	var problems []transfer.Problem
	switch ans := out.answer.(type) {
	case *transfer.CSVAnswer:
		problems = ans.Problems
		v.Rows, v.Format, v.IgnoredColumns = count(ans.Rows, "row", "rows"), csvFormatNames[ans.Format], ans.IgnoredColumns
	case *transfer.MonicaAnswer:
		problems = ans.Problems
		for _, d := range []struct {
			label string
			n     int
		}{{"Reminders", ans.Dropped.Reminders}, {"Documents", ans.Dropped.Documents}, {"Photos", ans.Dropped.Photos}} {
			if d.n > 0 {
				v.Dropped = append(v.Dropped, fact{d.label, strconv.Itoa(d.n)})
			}
		}
	}
	for i, p := range problems {
		if i == maxShown {
			v.MoreProblems = len(problems) - maxShown
			break
		}
		field := p.Field
		if p.Column != "" {
			field = p.Column
		}
		v.Problems = append(v.Problems, importLine{Line: lineOf(p.Place), Name: p.Name, Field: field, Reason: p.Reason})
	}
	return v
}

// lineOf is a CSV record's line, 0 for a Monica object, whose JSON path
// means nothing to a reader.
func lineOf(p transfer.Place) int {
	if p.CSVPlace != nil {
		return p.Line
	}
	return 0
}

// count is n of a thing in words: "1 row", "2 rows".
func count(n int, one, many string) string {
	if n == 1 {
		return "1 " + one
	}
	return strconv.Itoa(n) + " " + many
}
