package server

import (
	"context"
	"fmt"
	"strings"
	"testing"
)

// listCounts are what a user's paginated lists total, each checked
// against the rows counted one by one.
type listCounts struct {
	tasks, logs, entries int
}

// apiTotal is meta.total of a GET of path.
func (e *env) apiTotal(t *testing.T, key, path string) int {
	t.Helper()
	r := e.do(req{method: "GET", path: path, key: key})
	if r.code != 200 {
		t.Fatalf("%s: %d %s", path, r.code, r.body)
	}
	return int(r.json(t)["meta"].(map[string]any)["total"].(float64))
}

// listTotals checks every total the account's and the user's lists give,
// the tasks' under each filter the store counts without reading the
// tasks, against count(*), and the journals page's count of entries, and
// answers them.
func (e *env) listTotals(t *testing.T, key string, b *browser, userID, accountID int64, journal string) listCounts {
	t.Helper()
	filters := []struct{ query, cond string }{
		{"", ""},
		{"&is_completed=0", " AND NOT is_completed"},
		{"&is_completed=1", " AND is_completed"},
		{"&has_due_date=1", " AND due_at IS NOT NULL"},
		{"&has_due_date=0", " AND due_at IS NULL"},
		{"&is_completed=0&has_due_date=1", " AND NOT is_completed AND due_at IS NOT NULL"},
		{"&is_completed=1&has_due_date=0", " AND is_completed AND due_at IS NULL"},
		// 2026-03-20 to 2026-06-30 at midnight UTC (the test user's zone).
		{"&due_from=2026-03-20&due_to=2026-06-30", " AND due_at >= 1773964800 AND due_at < 1782864000"},
	}
	var out listCounts
	for _, f := range filters {
		got := e.apiTotal(t, key, "/api/tasks?per_page=1"+f.query)
		if want := e.count(`SELECT count(*) FROM tasks WHERE account_id = ?`+f.cond, accountID); got != want {
			t.Errorf("tasks%s: total %d, but the account has %d", f.query, got, want)
		}
		if f.query == "" {
			out.tasks = got
		}
	}
	out.logs = e.apiTotal(t, key, "/api/administration/logs")
	if want := e.count(`SELECT count(*) FROM logs WHERE user_id = ?`, userID); out.logs != want {
		t.Errorf("logs: total %d, but the user has %d", out.logs, want)
	}
	out.entries = e.apiTotal(t, key, "/api/journals/"+journal+"/entries?per_page=1")
	if want := e.count(`SELECT count(*) FROM journal_entries WHERE journal_id = ?`, journal); out.entries != want {
		t.Errorf("entries: total %d, but the journal has %d", out.entries, want)
	}
	pg := b.get("/journals")
	if out.entries == 0 {
		pg.has(t, "No entries yet")
	} else {
		pg.has(t, ">"+entriesSaid(out.entries))
	}
	return out
}

// entriesSaid is how the journals page says a journal has n entries.
func entriesSaid(n int) string {
	if n == 1 {
		return "1 entry, the latest"
	}
	return fmt.Sprintf("%d entries, the latest", n)
}

// TestListTotals: the totals of the tasks, the logs and a journal's
// entries, which the store keeps rather than counts, stay the rows'
// number after every write that makes, changes or takes them: create,
// update, toggle, delete, the deletion of their person or journal,
// merge, the Monica and JSON imports, prune and the account's own
// deletion; another account's rows never count.
func TestListTotals(t *testing.T) {
	e := newEnv(t)
	u, key := e.user("ada@example.com")
	other, otherKey := e.user("bob@example.com")
	b := e.signIn(t, "ada@example.com")
	someone := e.person(otherKey, "first_name=Someone")
	e.task(otherKey, someone, "name=Theirs&due_at=2026-04-01")
	theirJournal := e.journal(otherKey, "Theirs")
	e.entryOn(otherKey, theirJournal, "2026-03-01")

	journal := e.journal(key, "Days")
	total := func() listCounts { t.Helper(); return e.listTotals(t, key, b, u.ID, u.AccountID, journal) }
	start := total()
	if start.tasks != 0 || start.entries != 0 {
		t.Fatalf("a new account lists %+v", start)
	}

	ann, ben := e.person(key, "first_name=Ann"), e.person(key, "first_name=Ben")
	call := e.task(key, ann, "name=Call&due_at=2026-03-20")
	e.task(key, ann, "name=Write")
	e.task(key, ben, "name=Visit&due_at=2026-07-01")
	moved := e.task(key, ben, "name=Lend+a+book&due_at=2026-05-01")
	for _, d := range []string{"2026-03-01", "2026-03-02", "2026-03-03"} {
		e.entryOn(key, journal, d)
	}
	if n := total(); n.tasks != 4 || n.entries != 3 || n.logs <= start.logs {
		t.Fatalf("after four tasks and three entries: %+v", n)
	}
	// A task done, then its date taken away, then open again: each moves
	// it from one of the counted kinds to another.
	if r := e.do(req{method: "PUT", path: "/api/tasks/" + call + "/toggle", key: key}); r.code != 200 {
		t.Fatalf("toggle: %d %s", r.code, r.body)
	}
	total()
	if r := e.do(req{method: "PUT", path: "/api/persons/" + ann + "/tasks/" + call + "?name=Call&is_completed=true", key: key}); r.code != 200 {
		t.Fatalf("update: %d %s", r.code, r.body)
	}
	total()
	if r := e.do(req{method: "PUT", path: "/api/tasks/" + call + "/toggle", key: key}); r.code != 200 {
		t.Fatalf("toggle back: %d %s", r.code, r.body)
	}
	total()
	if r := e.do(req{method: "DELETE", path: "/api/persons/" + ann + "/tasks/" + call, key: key}); r.code != 204 {
		t.Fatalf("delete: %d %s", r.code, r.body)
	}
	if n := total(); n.tasks != 3 {
		t.Errorf("%d tasks after a delete", n.tasks)
	}
	// A merge moves Ben's tasks to Ann; deleting Ann takes them all.
	if r := e.merge(key, ann, ben); r.code != 200 {
		t.Fatalf("merge: %d %s", r.code, r.body)
	}
	if n := total(); n.tasks != 3 {
		t.Errorf("%d tasks after a merge", n.tasks)
	}
	if e.count(`SELECT count(*) FROM tasks WHERE id = ?`, moved) != 1 {
		t.Fatal("the merge lost a task")
	}
	if r := e.do(req{method: "DELETE", path: "/api/persons/" + ann, key: key}); r.code != 204 {
		t.Fatalf("delete person: %d %s", r.code, r.body)
	}
	if n := total(); n.tasks != 0 {
		t.Errorf("%d tasks after their person's delete", n.tasks)
	}

	// The Monica import writes tasks and journal entries (into a journal
	// of its own), the JSON import all three.
	e.importMonica(key, monicaFixture(t), "")
	if n := total(); n.tasks == 0 {
		t.Errorf("no task after the Monica import")
	}
	for _, j := range e.journalIDs(key) {
		got := e.apiTotal(t, key, "/api/journals/"+j+"/entries")
		if want := e.count(`SELECT count(*) FROM journal_entries WHERE journal_id = ?`, j); got != want {
			t.Errorf("journal %s: total %d, but it has %d entries", j, got, want)
		}
	}
	doc := b.get("/settings/export.json")
	if r := e.do(req{method: "PUT", path: "/api/administration/prune", key: key}); r.code != 204 {
		t.Fatalf("prune: %d %s", r.code, r.body)
	}
	if n := total(); n.tasks != 0 {
		t.Errorf("%d tasks after a prune", n.tasks)
	}
	cy, cyKey := e.user("cy@example.com")
	cyb := e.signIn(t, "cy@example.com")
	cyb.get("/settings")
	if pg := cyb.upload("/settings/import", "export.json", []byte(doc.body)); pg.code != 200 {
		t.Fatalf("JSON import: %d %.300s", pg.code, pg.body)
	}
	for _, j := range e.journalIDs(cyKey) {
		n := e.listTotals(t, cyKey, cyb, cy.ID, cy.AccountID, j)
		if n.tasks == 0 || n.logs == 0 {
			t.Errorf("after the JSON import: %+v", n)
		}
	}

	// A journal's delete takes its entries and their count.
	if r := e.do(req{method: "DELETE", path: "/api/journals/" + journal, key: key}); r.code != 204 {
		t.Fatalf("delete journal: %d %s", r.code, r.body)
	}
	if n := e.count(`SELECT count(*) FROM entry_counts WHERE journal_id = ?`, journal); n != 0 {
		t.Errorf("the deleted journal keeps %d counts", n)
	}

	// The other account's lists counted only their own, all along.
	if n := e.listTotals(t, otherKey, e.signIn(t, "bob@example.com"), other.ID, other.AccountID, theirJournal); n.tasks != 1 || n.entries != 1 {
		t.Errorf("the other account's lists: %+v", n)
	}
	if _, err := e.st.DeleteUser(context.Background(), "ada@example.com"); err != nil {
		t.Fatal(err)
	}
	for _, q := range []string{`SELECT count(*) FROM task_counts WHERE account_id = ?`, `SELECT count(*) FROM entry_counts WHERE account_id = ?`} {
		if n := e.count(q, u.AccountID); n != 0 {
			t.Errorf("the deleted account keeps %d counts: %s", n, q)
		}
	}
	if n := e.count(`SELECT count(*) FROM log_counts WHERE user_id = ?`, u.ID); n != 0 {
		t.Errorf("the deleted user keeps %d counts of logs", n)
	}
}

// journalIDs are the ids of the account's journals.
func (e *env) journalIDs(key string) []string {
	e.t.Helper()
	r := e.do(req{method: "GET", path: "/api/journals", key: key})
	if r.code != 200 {
		e.t.Fatalf("journals: %d %s", r.code, r.body)
	}
	var out []string
	for _, j := range r.json(e.t)["data"].([]any) {
		out = append(out, fmt.Sprint(j.(map[string]any)["id"]))
	}
	if len(out) == 0 {
		e.t.Fatal("no journal")
	}
	return out
}

// TestEntryTotalsSearch: a search of a journal's entries still counts
// the entries it keeps, not the journal's.
func TestEntryTotalsSearch(t *testing.T) {
	e := newEnv(t)
	_, key := e.user("ada@example.com")
	journal := e.journal(key, "Days")
	for i, body := range []string{"A walk by the river", "Rain all day", "The river again"} {
		r := e.do(req{method: "PUT", path: fmt.Sprintf("/api/journals/%s/entries/2026/03/%02d", journal, i+1), key: key,
			body: fmt.Sprintf(`{"body":%q}`, body), ctype: "application/json"})
		if r.code != 200 && r.code != 201 {
			t.Fatalf("write entry: %d %s", r.code, r.body)
		}
	}
	if n := e.apiTotal(t, key, "/api/journals/"+journal+"/entries?q=river"); n != 2 {
		t.Errorf("a search for river totals %d", n)
	}
	if n := e.apiTotal(t, key, "/api/journals/"+journal+"/entries"); n != 3 {
		t.Errorf("the journal totals %d", n)
	}
	if r := e.do(req{method: "GET", path: "/api/journals/" + journal + "/entries?q=" + strings.Repeat("x", 3), key: key}); !strings.Contains(r.body, `"total":0`) {
		t.Errorf("a search that keeps nothing: %s", r.body)
	}
}
