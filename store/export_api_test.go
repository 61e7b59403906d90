package store_test

import (
	"database/sql"
	"fmt"
	"strings"
	"testing"

	"kith/store"
	"kith/store/storetest"
)

// TestExportBatchesUsePersonIndexes reads the plans of the statements an
// export reads a batch of persons with, on two accounts of 500 persons
// with a row of every kind each: each reaches the batch's rows through the
// table's index on person_id, never through one that starts with
// account_id, which reads every row of the account for each batch (on
// SQLite, life events and tasks did: the export of 5,000 persons took ten
// times that of 1,000).
func TestExportBatchesUsePersonIndexes(t *testing.T) {
	s, where := newStoreAt(t)
	me, them := twoAccounts(t, s)
	ctx := t.Context()
	for _, u := range []store.User{me, them} {
		persons := make([]store.PersonRecord, 500)
		for i := range persons {
			p := importedPerson(fmt.Sprint("P", i))
			p.ContactDetails = []store.ContactDetail{{Kind: "email", Position: 1, Value: ptr("p@example.com")}}
			p.ImportantDates = []store.ImportantDate{{Label: "met", Month: 1, Day: 1, RemindYearly: true}}
			p.Gifts = []store.Gift{{Name: "Book", Status: "idea"}}
			p.LifeEvents = []store.LifeEvent{{Description: "Moved", HappenedAt: 1, ShouldBeReminded: true}}
			p.WorkHistory = []store.WorkEntry{{JobTitle: "Engineer", Active: true}}
			p.Interactions = []store.Interaction{{HappenedOn: "2026-01-01", Kind: "call"}}
			p.StayInTouch = &store.Cadence{EveryDays: 30, SinceOn: "2026-01-01"}
			p.UID = ptr(fmt.Sprint("u", i))
			p.Tags = []string{"friends", fmt.Sprint("t", i%7)}
			if i > 0 {
				p.Relationships = []store.RelationshipRecord{{Type: store.RelationshipTypeInput{Name: "friend", NameReverse: "friend",
					Group: "friend"}, OtherUID: fmt.Sprint("u", i-1)}}
			}
			persons[i] = p
		}
		if _, err := s.ImportAccount(ctx, u.AccountID, u.ID, importOf(persons...)); err != nil {
			t.Fatal(err)
		}
	}
	driver, explain := "sqlite", "EXPLAIN QUERY PLAN "
	if store.IsPostgres(where) {
		driver, explain = "pgx", "EXPLAIN "
	}
	db, err := sql.Open(driver, where)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	conn, err := db.Conn(ctx)
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	// SQLite plans without statistics, as a Kith database has none;
	// PostgreSQL's autovacuum gathers them, and ANALYZE does here.
	var setup []string
	if store.IsPostgres(where) {
		setup = []string{`ANALYZE`, `SET enable_seqscan = off`}
	}
	for _, q := range setup {
		if _, err := conn.ExecContext(ctx, q); err != nil {
			t.Fatal(err)
		}
	}
	var first int64
	if err := conn.QueryRowContext(ctx, `SELECT min(id) FROM persons WHERE account_id = `+fmt.Sprint(me.AccountID)).Scan(&first); err != nil {
		t.Fatal(err)
	}
	for table, q := range store.BatchQueries {
		if store.IsPostgres(where) {
			q = store.Rebind(q)
		}
		rows, err := conn.QueryContext(ctx, explain+q, me.AccountID, first, first+199)
		if err != nil {
			t.Fatalf("%s: %v", table, err)
		}
		var plan []string
		cols, _ := rows.Columns()
		for rows.Next() {
			vals := make([]any, len(cols))
			ptrs := make([]any, len(cols))
			for i := range vals {
				ptrs[i] = &vals[i]
			}
			if err := rows.Scan(ptrs...); err != nil {
				t.Fatal(err)
			}
			plan = append(plan, fmt.Sprint(vals[len(vals)-1]))
		}
		rows.Close()
		for _, line := range plan {
			if strings.Contains(line, "Seq Scan") || strings.HasPrefix(strings.TrimSpace(line), "SCAN") || strings.Contains(line, "_account") {
				t.Errorf("%s: the batch is not read by person on %s: %s", table, storetest.Engine(), strings.Join(plan, " | "))
				break
			}
		}
	}
}
