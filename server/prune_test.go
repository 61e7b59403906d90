package server

import (
	"testing"
)

// TestPrune: any user of the account deletes every person of it, the
// protected ones too, with all that is theirs; what is the account's stays,
// and other accounts are untouched.
func TestPrune(t *testing.T) {
	e := newEnv(t)
	ada, key := e.user("ada@example.com")
	_, mate := e.userIn(ada.AccountID, "grace@example.com")
	bobUser, bob := e.user("bob@example.com")
	fill := func(key string) {
		for _, q := range []string{"first_name=Jim&can_be_deleted=1", "first_name=Kept&can_be_deleted=0"} {
			p := e.person(key, q+"&gender_id=")
			if r := e.do(req{method: "PATCH", path: "/api/persons/" + p + "/age?age_type=exact&age_year=1980&age_month=1&age_day=2&add_yearly_reminder=1", key: key}); r.code != 200 {
				t.Fatalf("age: %d %s", r.code, r.body)
			}
			e.task(key, p, "name=Call")
			e.note(key, p, "Likes tea")
			e.gift(key, p, "name=Teapot&status=idea")
			e.lifeEvent(key, p, "description=Wedding&happened_at=2020-06-01&should_be_reminded=1")
			e.workEntry(key, p, "job_title=Salesman&active=1")
			e.importantDate(key, p, "label=met&date=--06-01&remind_yearly=1")
			e.interaction(key, p, "happened_on=2026-03-01&kind=call")
			if r := e.do(req{method: "PUT", path: "/api/persons/" + p + "/stay-in-touch?every_days=7", key: key}); r.code != 200 {
				t.Fatalf("stay in touch: %d %s", r.code, r.body)
			}
		}
		e.journal(key, "Diary")
		e.do(req{method: "POST", path: "/api/administration/task-categories?name=Mine&color=red", key: key})
	}
	fill(key)
	fill(bob)
	perAccount := func(table string, account int64) int {
		return e.count(`SELECT count(*) FROM `+table+` WHERE person_id IN (SELECT id FROM persons WHERE account_id = ?)`, account)
	}
	children := []string{"tasks", "notes", "gifts", "life_events", "work_history", "important_dates", "interactions", "stay_in_touch"}
	for _, table := range children {
		if n := perAccount(table, ada.AccountID); n != 2 {
			t.Fatalf("%s before: %d", table, n)
		}
	}
	bobBefore := e.do(req{method: "GET", path: "/api/persons", key: bob}).body
	kept := map[string]int{}
	for _, table := range []string{"users", "api_keys", "genders", "task_categories", "journals", "logs"} {
		kept[table] = e.count(`SELECT count(*) FROM ` + table)
	}

	e.run(t, []scenario{
		{"unauthenticated", req{method: "PUT", path: "/api/administration/prune"}, 401, errBody(401, "Unauthenticated.")},
		{"another method", req{method: "DELETE", path: "/api/administration/prune", key: key}, 405, errBody(405, "Method not allowed.")},
		{"a teammate prunes the account, parameters ignored", req{method: "PUT", path: "/api/administration/prune?first_name=x", key: mate, body: `{"all":false}`}, 204, nil},
	})
	if n := e.count(`SELECT count(*) FROM persons WHERE account_id = ?`, ada.AccountID); n != 0 {
		t.Errorf("%d persons left, the protected one too", n)
	}
	for _, table := range children {
		if n := e.count(`SELECT count(*) FROM ` + table + ` WHERE person_id NOT IN (SELECT id FROM persons)`); n != 0 {
			t.Errorf("%d %s left without their person", n, table)
		}
	}
	for table, before := range kept {
		want := before
		if table == "logs" {
			want++ // the prune's own
		}
		if n := e.count(`SELECT count(*) FROM ` + table); n != want {
			t.Errorf("%s: %d rows, want %d", table, n, want)
		}
	}
	if after := e.do(req{method: "GET", path: "/api/persons", key: bob}).body; after != bobBefore {
		t.Errorf("Bob's persons changed:\n%s\n%s", bobBefore, after)
	}
	for _, table := range children {
		if n := perAccount(table, bobUser.AccountID); n != 2 {
			t.Errorf("Bob's %s: %d, want 2", table, n)
		}
	}
	logs, _ := e.logsOf(mate)
	if len(logs) != 1 || logs[0]["attributes"].(map[string]any)["action"] != "account_pruning" {
		t.Errorf("the teammate's log: %v", logs)
	}
	if r := e.do(req{method: "GET", path: "/api/persons", key: key}); r.code != 200 || r.json(t)["meta"].(map[string]any)["total"] != float64(0) {
		t.Errorf("Ada's persons after the prune: %s", r.body)
	}
	if r := e.do(req{method: "PUT", path: "/api/administration/prune", key: key}); r.code != 204 {
		t.Errorf("pruning an empty account: %d %s", r.code, r.body)
	}
}
