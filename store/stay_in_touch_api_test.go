package store_test

import (
	"database/sql"
	"fmt"
	"reflect"
	"strings"
	"testing"
	"time"

	"kith/store"
	"kith/store/storetest"
)

func TestInteractions(t *testing.T) {
	s := newStore(t)
	me := newUser(t, s)
	jim := newPerson(t, s, me.AccountID, "Jim")
	pam := newPerson(t, s, me.AccountID, "Pam")
	ctx := t.Context()
	add := func(on, kind string) store.Interaction {
		t.Helper()
		in, err := s.CreateInteraction(ctx, me.AccountID, jim.ID, store.InteractionInput{HappenedOn: on, Kind: kind})
		if err != nil {
			t.Fatal(err)
		}
		return in
	}
	first, err := s.CreateInteraction(ctx, me.AccountID, jim.ID, store.InteractionInput{HappenedOn: "2026-03-01", Kind: "call", Note: ptr("about the wedding")})
	if err != nil {
		t.Fatal(err)
	}
	want := store.Interaction{ID: first.ID, PersonID: jim.ID, HappenedOn: "2026-03-01", Kind: "call", Note: ptr("about the wedding"),
		CreatedAt: nowUnix(s), UpdatedAt: nowUnix(s)}
	if !reflect.DeepEqual(first, want) {
		t.Fatalf("created %+v\nwant %+v", first, want)
	}
	older := add("2025-12-31", "email")
	sameDay := add("2026-03-01", "meeting") // same date: the higher id is newer
	newest := add("2026-03-10", "message")

	t.Run("pages newest first by date, then id", func(t *testing.T) {
		page, total, err := s.Interactions(ctx, me.AccountID, jim.ID, 3, 0)
		if err != nil || total != 4 || len(page) != 3 || page[0].ID != newest.ID || page[1].ID != sameDay.ID || page[2].ID != first.ID {
			t.Errorf("first page %+v, %d, %v", page, total, err)
		}
		page, total, err = s.Interactions(ctx, me.AccountID, jim.ID, 3, 3)
		if err != nil || total != 4 || len(page) != 1 || page[0].ID != older.ID {
			t.Errorf("second page %+v, %d, %v", page, total, err)
		}
		page, total, err = s.Interactions(ctx, me.AccountID, pam.ID, 3, 0)
		if err != nil || total != 0 || page == nil || len(page) != 0 {
			t.Errorf("none: %+v, %d, %v", page, total, err)
		}
	})
	t.Run("update replaces every field", func(t *testing.T) {
		advance(s, time.Hour)
		got, err := s.UpdateInteraction(ctx, me.AccountID, jim.ID, first.ID, store.InteractionInput{HappenedOn: "2026-02-28", Kind: "other"})
		want := store.Interaction{ID: first.ID, PersonID: jim.ID, HappenedOn: "2026-02-28", Kind: "other", CreatedAt: first.CreatedAt, UpdatedAt: nowUnix(s)}
		if err != nil || !reflect.DeepEqual(got, want) {
			t.Errorf("updated %+v, %v\nwant %+v", got, err, want)
		}
	})
	t.Run("delete", func(t *testing.T) {
		wantErr(t, s.DeleteInteraction(ctx, me.AccountID, jim.ID, newest.ID), nil)
		wantErr(t, s.DeleteInteraction(ctx, me.AccountID, jim.ID, newest.ID), store.ErrInteractionNotFound)
	})
}

func TestStayInTouch(t *testing.T) {
	s := newStore(t)
	me, _ := twoAccounts(t, s)
	jim := newPerson(t, s, me.AccountID, "Jim")
	ctx := t.Context()
	check := func(what string, got store.Contact, err error, every int64, since string, last *string, dueOn string) {
		t.Helper()
		want := store.Contact{PersonID: jim.ID, Name: "Jim", EveryDays: every, SinceOn: since, LastOn: last}
		if err != nil || !reflect.DeepEqual(got, want) {
			t.Errorf("%s: %+v, %v\nwant %+v", what, got, err, want)
		}
		if d, ok := got.DueOn(); d != dueOn || ok != (dueOn != "") {
			t.Errorf("%s: due on %q %v, want %q", what, d, ok, dueOn)
		}
	}
	c, err := s.StayInTouch(ctx, me.AccountID, jim.ID)
	check("no cadence", c, err, 0, "", nil, "")
	c, err = s.SetStayInTouch(ctx, me.AccountID, jim.ID, nil, "2026-03-15")
	check("clearing no cadence", c, err, 0, "", nil, "")
	c, err = s.SetStayInTouch(ctx, me.AccountID, jim.ID, ptr(int64(10)), "2026-03-15")
	check("set: counts from the day it was set", c, err, 10, "2026-03-15", nil, "2026-03-25")
	c, err = s.SetStayInTouch(ctx, me.AccountID, jim.ID, ptr(int64(30)), "2026-03-20")
	check("changed: still from the day it was set", c, err, 30, "2026-03-15", nil, "2026-04-14")
	in, err := s.CreateInteraction(ctx, me.AccountID, jim.ID, store.InteractionInput{HappenedOn: "2026-03-18", Kind: "call"})
	if err != nil {
		t.Fatal(err)
	}
	c, err = s.StayInTouch(ctx, me.AccountID, jim.ID)
	check("an interaction resets it", c, err, 30, "2026-03-15", ptr("2026-03-18"), "2026-04-17")
	wantErr(t, s.DeleteInteraction(ctx, me.AccountID, jim.ID, in.ID), nil)
	c, err = s.SetStayInTouch(ctx, me.AccountID, jim.ID, nil, "2026-03-20")
	check("cleared", c, err, 0, "", nil, "")
	c, err = s.SetStayInTouch(ctx, me.AccountID, jim.ID, ptr(int64(7)), "2026-03-20")
	check("set again: from the new day", c, err, 7, "2026-03-20", nil, "2026-03-27")
}

func TestContactDue(t *testing.T) {
	for _, c := range []struct {
		name    string
		contact store.Contact
		today   string
		due     bool
	}{
		{"the day before", store.Contact{EveryDays: 10, SinceOn: "2026-03-15"}, "2026-03-24", false},
		{"on the day", store.Contact{EveryDays: 10, SinceOn: "2026-03-15"}, "2026-03-25", true},
		{"after it", store.Contact{EveryDays: 10, SinceOn: "2026-03-15"}, "2027-01-01", true},
		{"from the last interaction, not the day it was set", store.Contact{EveryDays: 10, SinceOn: "2026-03-15", LastOn: ptr("2026-03-20")}, "2026-03-25", false},
		{"an interaction before the cadence counts too", store.Contact{EveryDays: 10, SinceOn: "2026-03-15", LastOn: ptr("2020-01-01")}, "2026-03-15", true},
		{"across a leap day", store.Contact{EveryDays: 1, SinceOn: "2028-02-28"}, "2028-02-29", true},
		{"no cadence is never due", store.Contact{SinceOn: "2026-03-15"}, "2030-01-01", false},
		{"a date that is no date", store.Contact{EveryDays: 1, SinceOn: "2026-03-15"}, "tomorrow", false},
		{"past year 9999, compared as dates, not text", store.Contact{EveryDays: 3650, SinceOn: "9999-06-01"}, "9999-12-31", false},
	} {
		t.Run(c.name, func(t *testing.T) {
			if got := c.contact.Due(c.today); got != c.due {
				t.Errorf("Due(%s) = %v, want %v", c.today, got, c.due)
			}
		})
	}
}

func TestDueContacts(t *testing.T) {
	s := newStore(t)
	me, them := twoAccounts(t, s)
	ctx := t.Context()
	person := func(accountID int64, first string) store.Person {
		t.Helper()
		return newPerson(t, s, accountID, first)
	}
	jim, pam, dwight := person(me.AccountID, "Jim"), person(me.AccountID, "Pam"), person(me.AccountID, "Dwight")
	theirs := person(them.AccountID, "Theirs")
	set := func(accountID, personID, every int64, today string) {
		t.Helper()
		if _, err := s.SetStayInTouch(ctx, accountID, personID, &every, today); err != nil {
			t.Fatal(err)
		}
	}
	talk := func(accountID, personID int64, on string) {
		t.Helper()
		if _, err := s.CreateInteraction(ctx, accountID, personID, store.InteractionInput{HappenedOn: on, Kind: "call"}); err != nil {
			t.Fatal(err)
		}
	}
	if list, err := s.DueContacts(ctx, me.AccountID, "2100-01-01"); err != nil || list == nil || len(list) != 0 {
		t.Fatalf("no cadence yet: %+v, %v", list, err)
	}
	set(me.AccountID, jim.ID, 7, "2026-03-01")
	talk(me.AccountID, jim.ID, "2026-03-05")
	talk(me.AccountID, jim.ID, "2026-03-10")
	talk(me.AccountID, jim.ID, "2026-02-01")
	set(me.AccountID, pam.ID, 30, "2026-03-02")
	talk(me.AccountID, dwight.ID, "2026-03-03") // no cadence: not listed
	set(them.AccountID, theirs.ID, 1, "2026-03-01")
	talk(them.AccountID, theirs.ID, "2026-03-14")

	list, err := s.DueContacts(ctx, me.AccountID, "2026-04-01")
	want := []store.Contact{
		{PersonID: jim.ID, Name: "Jim", EveryDays: 7, SinceOn: "2026-03-01", LastOn: ptr("2026-03-10")},
		{PersonID: pam.ID, Name: "Pam", EveryDays: 30, SinceOn: "2026-03-02"},
	}
	if err != nil || !reflect.DeepEqual(list, want) {
		t.Fatalf("due contacts %+v, %v\nwant %+v", list, err, want)
	}
	for _, c := range []struct {
		today    string
		jim, pam bool
	}{{"2026-03-16", false, false}, {"2026-03-17", true, false}, {"2026-04-01", true, true}} {
		if list[0].Due(c.today) != c.jim || list[1].Due(c.today) != c.pam {
			t.Errorf("on %s: Jim due %v, Pam due %v; want %v, %v", c.today, list[0].Due(c.today), list[1].Due(c.today), c.jim, c.pam)
		}
	}
	if list, err := s.DueContacts(ctx, them.AccountID, "2026-03-15"); err != nil || len(list) != 1 || list[0].Name != "Theirs" || *list[0].LastOn != "2026-03-14" {
		t.Errorf("the other account's: %+v, %v", list, err)
	}
	// Only those due by the day asked are read, whatever moves the day
	// one is due: an interaction, its deletion, a new number of days.
	dueBy := func(through, want string) {
		t.Helper()
		list, err := s.DueContacts(ctx, me.AccountID, through)
		var got []string
		for _, c := range list {
			if !c.Due(through) {
				t.Errorf("through %s: %s is listed, due %v", through, c.Name, c)
			}
			got = append(got, c.Name)
		}
		if err != nil || strings.Join(got, " ") != want {
			t.Errorf("due through %s: %q, %v; want %q", through, strings.Join(got, " "), err, want)
		}
	}
	dueBy("2026-03-16", "")
	dueBy("2026-03-17", "Jim")
	dueBy("2026-03-31", "Jim")
	dueBy("2026-04-01", "Jim Pam")
	talk(me.AccountID, pam.ID, "2026-03-20")
	dueBy("2026-04-18", "Jim")
	dueBy("2026-04-19", "Jim Pam")
	set(me.AccountID, pam.ID, 10, "2026-03-25")
	dueBy("2026-03-29", "Jim")
	dueBy("2026-03-30", "Jim Pam")
	ints, _, err := s.Interactions(ctx, me.AccountID, pam.ID, 10, 0)
	if err != nil || len(ints) != 1 {
		t.Fatalf("Pam's interactions: %+v, %v", ints, err)
	}
	wantErr(t, s.DeleteInteraction(ctx, me.AccountID, pam.ID, ints[0].ID), nil)
	dueBy("2026-03-11", "")
	dueBy("2026-03-12", "Pam") // ten days after the cadence was first set
	if _, err := s.DueContacts(ctx, me.AccountID, "15 March"); err == nil {
		t.Error("a day that is no date was read")
	}
	// A person deleted takes their cadence and interactions along.
	wantErr(t, s.DeletePerson(ctx, me.AccountID, jim.ID), nil)
	if list, err := s.DueContacts(ctx, me.AccountID, "2026-04-01"); err != nil || len(list) != 1 || list[0].PersonID != pam.ID {
		t.Errorf("after deleting Jim: %+v, %v", list, err)
	}
}

// TestReminderQueriesUseIndexes reads the plans of the statements the
// reminders run daily for each account, on two accounts of a thousand
// persons each: each reaches its account's rows through the index made for
// it, and no table is read whole. PostgreSQL's planner is told to avoid
// sequential scans, which it still uses where no index serves; SQLite's
// plan says SCAN for a whole table or index, SEARCH for a range of one.
func TestReminderQueriesUseIndexes(t *testing.T) {
	s, where := newStoreAt(t)
	me, them := twoAccounts(t, s)
	ctx := t.Context()
	for _, account := range []int64{me.AccountID, them.AccountID} {
		for i := range 1000 {
			p := newPerson(t, s, account, fmt.Sprint("P", i))
			if i%10 != 0 {
				continue
			}
			if _, err := s.CreateImportantDate(ctx, account, p.ID, store.ImportantDateInput{Label: "met", Month: int64(i%12 + 1), Day: 1, RemindYearly: i%20 == 0}); err != nil {
				t.Fatal(err)
			}
			if _, err := s.SetStayInTouch(ctx, account, p.ID, ptr(int64(30)), "2026-03-01"); err != nil {
				t.Fatal(err)
			}
			if _, err := s.CreateInteraction(ctx, account, p.ID, store.InteractionInput{HappenedOn: "2026-03-02", Kind: "call"}); err != nil {
				t.Fatal(err)
			}
			at := int64(1_700_000_000 + i*86_400)
			if _, err := s.CreateLifeEvent(ctx, account, p.ID, store.LifeEventInput{Description: "moved", HappenedAt: at, ShouldBeReminded: i%20 == 0}); err != nil {
				t.Fatal(err)
			}
			if _, err := s.CreateTask(ctx, account, p.ID, store.TaskInput{Name: "call", DueAt: &at, IsCompleted: ptr(i%30 != 0)}); err != nil {
				t.Fatal(err)
			}
			freq := store.Frequencies[i/10%len(store.Frequencies)]
			if _, err := s.CreateReminder(ctx, account, p.ID, store.ReminderInput{Label: "ring", StartsOn: fmt.Sprintf("2026-%02d-15", i%12+1), Frequency: freq, Every: 1}); err != nil {
				t.Fatal(err)
			}
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
	conn, err := db.Conn(ctx) // one connection: the SET below holds for it
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	if store.IsPostgres(where) {
		for _, q := range []string{`ANALYZE`, `SET enable_seqscan = off`} {
			if _, err := conn.ExecContext(ctx, q); err != nil {
				t.Fatal(err)
			}
		}
	} else if _, err := conn.ExecContext(ctx, `ANALYZE`); err != nil {
		t.Fatal(err)
	}
	// A month's days across New Year, as the upcoming list asks for them.
	spans := []store.DaySpan{{Month: 12, From: 20, To: 31}, {Month: 1, From: 1, To: 19}}
	upcoming := store.UpcomingQueries(me.AccountID, spans)
	for _, c := range []struct {
		name, query string
		args        []any
		indexes     []string
	}{
		{"YearlyDates", store.YearlyDatesQuery, []any{me.AccountID}, []string{"important_dates_yearly"}},
		{"DueContacts", store.DueContactsQuery, []any{me.AccountID, 20_600}, []string{"stay_in_touch_due", "interactions_person"}},
		{"due tasks", store.DueTasksQuery, []any{me.AccountID, int64(1_800_000_000)}, []string{"tasks_open_due"}},
		{"birthdays", upcoming["birthdays"].Query, upcoming["birthdays"].Args, []string{"persons_birthday"}},
		{"life events", upcoming["life events"].Query, upcoming["life events"].Args, []string{"life_events_yearly"}},
		{"important dates", upcoming["important dates"].Query, upcoming["important dates"].Args, []string{"important_dates_yearly"}},
		{"reminders", upcoming["reminders"].Query, upcoming["reminders"].Args, []string{"reminders_upcoming"}},
	} {
		q := c.query
		if store.IsPostgres(where) {
			q = store.Rebind(q)
		}
		rows, err := conn.QueryContext(ctx, explain+q, c.args...)
		if err != nil {
			t.Fatalf("%s: %v", c.name, err)
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
			plan = append(plan, fmt.Sprint(vals[len(vals)-1])) // SQLite's detail, PostgreSQL's only column
		}
		rows.Close()
		text := strings.Join(plan, "\n")
		for _, line := range plan {
			if strings.Contains(line, "Seq Scan") || strings.HasPrefix(strings.TrimSpace(line), "SCAN") {
				t.Errorf("%s reads a table whole on %s: %s", c.name, storetest.Engine(), line)
			}
		}
		for _, index := range c.indexes {
			if !strings.Contains(text, index) {
				t.Errorf("%s does not use %s on %s", c.name, index, storetest.Engine())
			}
		}
		t.Logf("%s on %s:\n%s", c.name, storetest.Engine(), text)
	}
}
