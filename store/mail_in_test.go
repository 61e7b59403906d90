package store

import (
	"strings"
	"testing"
)

// TestMailInUsesTheEmailIndex: a message's addresses are found by index,
// not by reading every contact detail of the account.
func TestMailInUsesTheEmailIndex(t *testing.T) {
	s, _ := openTest(t)
	ctx := t.Context()
	if _, err := s.w.ExecContext(ctx, `ANALYZE`); err != nil {
		t.Fatal(err)
	}
	rows, err := s.r.QueryContext(ctx, `EXPLAIN QUERY PLAN `+emailPersonsQuery(3), 1, "a@example.com", "b@example.com", "c@example.com")
	if err != nil {
		t.Fatal(err)
	}
	defer rows.Close()
	var plan []string
	for rows.Next() {
		var id, parent, unused int
		var detail string
		if err := rows.Scan(&id, &parent, &unused, &detail); err != nil {
			t.Fatal(err)
		}
		plan = append(plan, detail)
	}
	if text := strings.Join(plan, "\n"); !strings.Contains(text, "USING INDEX contact_details_email") {
		t.Errorf("the plan does not use contact_details_email:\n%s", text)
	}
}
