package server

import (
	"fmt"
	"strings"
	"testing"
)

// logsOf returns the user's first page of log entries and their total.
func (e *env) logsOf(key string) ([]map[string]any, int) {
	e.t.Helper()
	r := e.do(req{method: "GET", path: "/api/administration/logs", key: key})
	if r.code != 200 {
		e.t.Fatalf("list logs: %d %s", r.code, r.body)
	}
	body := r.json(e.t)
	var out []map[string]any
	for _, d := range body["data"].([]any) {
		out = append(out, d.(map[string]any))
	}
	return out, int(body["meta"].(map[string]any)["total"].(float64))
}

// TestLogsRecordEachAction performs every logged write through HTTP and
// checks that it, and only it, added the newest entry, worded as in
// contract-more §11; failed requests, reads, login and logout add none.
func TestLogsRecordEachAction(t *testing.T) {
	e := newEnv(t)
	_, key := e.user("ada@example.com")
	count := 0
	// step sends r, wants status, and then the newest entry to be
	// action/description (none added when action is empty).
	step := func(r req, status int, action, description string) map[string]any {
		t.Helper()
		r.key = key
		got := e.do(r)
		if got.code != status {
			t.Fatalf("%s %s: %d, want %d: %s", r.method, r.path, got.code, status, got.body)
		}
		logs, total := e.logsOf(key)
		if action != "" {
			count++
		}
		if total != count {
			t.Fatalf("%s %s: %d entries, want %d", r.method, r.path, total, count)
		}
		if action != "" {
			attrs := logs[0]["attributes"].(map[string]any)
			if attrs["action"] != action || attrs["description"] != description {
				t.Errorf("%s %s: logged %v %q, want %s %q", r.method, r.path, attrs["action"], attrs["description"], action, description)
			}
		}
		if got.body == "" || got.code == 204 {
			return nil
		}
		return got.json(t)
	}
	id := func(m map[string]any) string { return fmt.Sprint(m["data"].(map[string]any)["id"]) }

	p := id(step(req{method: "POST", path: "/api/persons?first_name=Jim&last_name=Halpert&can_be_deleted=1"}, 201, "person_creation", "Created the person called Jim Halpert"))
	step(req{method: "POST", path: "/api/persons"}, 422, "", "")
	step(req{method: "GET", path: "/api/persons/" + p}, 200, "", "")
	step(req{method: "PUT", path: "/api/persons/" + p + "?first_name=James&last_name=Halpert"}, 200, "person_update", "Updated the person called James Halpert")
	step(req{method: "PUT", path: "/api/persons/999?first_name=X"}, 404, "", "")
	step(req{method: "PATCH", path: "/api/persons/" + p + "/age?age_type=bracket&age_bracket=1-2&add_yearly_reminder=0"}, 200, "age_update", "Updated the age of James Halpert")
	step(req{method: "PATCH", path: "/api/persons/" + p + "/age?age_type=nope"}, 422, "", "")
	step(req{method: "PATCH", path: "/api/persons/" + p + "/physical-appearance?height=180"}, 200, "person_physical_appearance_update", "Updated physical appearance for James Halpert")

	task := id(step(req{method: "POST", path: "/api/persons/" + p + "/tasks?name=Call"}, 201, "task_creation", "Created the task called Call"))
	step(req{method: "POST", path: "/api/persons/" + p + "/tasks"}, 422, "", "")
	step(req{method: "PUT", path: "/api/persons/" + p + "/tasks/" + task + "?name=Write"}, 200, "task_update", "Updated the task called Write")
	step(req{method: "PUT", path: "/api/tasks/" + task + "/toggle"}, 200, "task_toggle", "Toggled a task called Write")
	step(req{method: "PUT", path: "/api/tasks/999/toggle"}, 404, "", "")
	// Refused by the store inside the transaction: rolled back with it.
	step(req{method: "PUT", path: "/api/persons/" + p + "/tasks/" + task + "?name=Write&task_category_id=999"}, 422, "", "")
	step(req{method: "DELETE", path: "/api/persons/" + p + "/tasks/" + task}, 204, "task_deletion", "Deleted a task called Write")
	step(req{method: "DELETE", path: "/api/persons/" + p + "/tasks/" + task}, 404, "", "")

	cat := id(step(req{method: "POST", path: "/api/administration/task-categories?name=Work&color=red"}, 201, "task_category_creation", "Created the task category called Work"))
	step(req{method: "PUT", path: "/api/administration/task-categories/" + cat + "?name=Home&color=blue"}, 200, "task_category_update", "Updated the task category called Home")
	step(req{method: "DELETE", path: "/api/administration/task-categories/" + cat}, 204, "task_category_deletion", "Deleted the task category called Home")
	step(req{method: "DELETE", path: "/api/administration/task-categories/" + cat}, 404, "", "")

	g := id(step(req{method: "POST", path: "/api/administration/genders?name=Fluid"}, 201, "gender_creation", "Created the gender called Fluid"))
	step(req{method: "PUT", path: "/api/administration/genders/" + g + "?name=Other&position=1"}, 200, "gender_update", "Updated the gender called Other")
	step(req{method: "DELETE", path: "/api/administration/genders/" + g}, 204, "gender_deletion", "Deleted the gender called Other")
	step(req{method: "DELETE", path: "/api/administration/genders/" + g}, 404, "", "")

	step(req{method: "PUT", path: "/api/me?first_name=Augusta&last_name=King&email=ada@example.com"}, 200, "personal_profile_update", "Updated their personal profile")
	step(req{method: "PUT", path: "/api/me?first_name=Augusta"}, 422, "", "")
	step(req{method: "PUT", path: "/api/me/timezone?timezone=Europe/Paris"}, 200, "timezone_update", "Updated their timezone")
	step(req{method: "PUT", path: "/api/me/timezone?timezone=Nowhere/Else"}, 422, "", "")

	k := id(step(req{method: "POST", path: "/api/administration/api?label=Mine"}, 201, "api_key_creation", "Created an API key"))
	step(req{method: "DELETE", path: "/api/administration/api/" + k}, 204, "api_key_deletion", "Deleted an API key")
	step(req{method: "DELETE", path: "/api/administration/api/" + k}, 404, "", "")

	step(req{method: "POST", path: "/api/me/calendar-feed"}, 201, "calendar_feed_creation", "Created a calendar feed URL")
	step(req{method: "POST", path: "/api/me/calendar-feed"}, 201, "calendar_feed_rotation", "Replaced the calendar feed URL")
	step(req{method: "GET", path: "/api/me/calendar-feed"}, 200, "", "")
	step(req{method: "DELETE", path: "/api/me/calendar-feed"}, 204, "calendar_feed_deletion", "Revoked the calendar feed URL")
	step(req{method: "DELETE", path: "/api/me/calendar-feed"}, 404, "", "")

	note := id(step(req{method: "POST", path: "/api/persons/" + p + "/notes?content=Tea"}, 201, "note_creation", "Created a note for James Halpert"))
	step(req{method: "PUT", path: "/api/persons/" + p + "/notes/" + note + "?content=Coffee"}, 200, "note_update", "Updated the note for James Halpert")
	step(req{method: "DELETE", path: "/api/persons/" + p + "/notes/" + note}, 204, "note_deletion", "Deleted a note for James Halpert")
	step(req{method: "DELETE", path: "/api/persons/" + p + "/notes/" + note}, 404, "", "")

	gift := id(step(req{method: "POST", path: "/api/persons/" + p + "/gifts?name=Teapot&status=idea"}, 201, "gift_creation", "Logged a gift for James Halpert"))
	step(req{method: "PUT", path: "/api/persons/" + p + "/gifts/" + gift + "?name=Kettle&status=given"}, 200, "gift_update", "Updated a gift for James Halpert")
	step(req{method: "DELETE", path: "/api/persons/" + p + "/gifts/" + gift}, 204, "gift_deletion", "Deleted a gift for James Halpert")

	ev := id(step(req{method: "POST", path: "/api/persons/" + p + "/life-events?description=Wedding&happened_at=2020-06-01"}, 201, "life_event_creation", "Logged a life event for James Halpert"))
	step(req{method: "PUT", path: "/api/persons/" + p + "/life-events/" + ev + "?description=Party&happened_at=2020-06-02"}, 200, "life_event_update", "Updated a life event for James Halpert")
	step(req{method: "DELETE", path: "/api/persons/" + p + "/life-events/" + ev}, 204, "life_event_deletion", "Deleted a life event for James Halpert")

	w := id(step(req{method: "POST", path: "/api/persons/" + p + "/work-history?job_title=Salesman&active=1"}, 201, "work_history_creation", "Created a work history entry for James Halpert"))
	step(req{method: "PUT", path: "/api/persons/" + p + "/work-history/" + w + "?job_title=Manager&active=1"}, 200, "work_history_update", "Updated the work history entry for James Halpert")
	step(req{method: "DELETE", path: "/api/persons/" + p + "/work-history/" + w}, 204, "work_history_deletion", "Deleted a work history entry for James Halpert")

	d := id(step(req{method: "POST", path: "/api/persons/" + p + "/important-dates?label=met&date=2010-06-12"}, 201, "important_date_creation", "Added an important date for James Halpert"))
	step(req{method: "POST", path: "/api/persons/" + p + "/important-dates?label=met&date=2023-02-29"}, 422, "", "")
	step(req{method: "PUT", path: "/api/persons/" + p + "/important-dates/" + d + "?label=met&date=--06-12"}, 200, "important_date_update", "Updated an important date for James Halpert")
	step(req{method: "DELETE", path: "/api/persons/" + p + "/important-dates/" + d}, 204, "important_date_deletion", "Deleted an important date for James Halpert")
	step(req{method: "DELETE", path: "/api/persons/" + p + "/important-dates/" + d}, 404, "", "")

	step(req{method: "PUT", path: "/api/persons/" + p + "/stay-in-touch?every_days=7"}, 200, "stay_in_touch_update", "Set to stay in touch every 7 days with James Halpert")
	step(req{method: "PUT", path: "/api/persons/" + p + "/stay-in-touch?every_days=0"}, 422, "", "")
	step(req{method: "GET", path: "/api/persons/" + p + "/stay-in-touch"}, 200, "", "")
	step(req{method: "PUT", path: "/api/persons/" + p + "/stay-in-touch?every_days="}, 200, "stay_in_touch_deletion", "Stopped the reminder to stay in touch with James Halpert")
	step(req{method: "PUT", path: "/api/persons/" + p + "/stay-in-touch?every_days="}, 200, "", "") // nothing left to clear
	in := id(step(req{method: "POST", path: "/api/persons/" + p + "/interactions?happened_on=2026-03-14&kind=call"}, 201, "interaction_creation", "Logged an interaction with James Halpert"))
	step(req{method: "POST", path: "/api/persons/" + p + "/interactions?happened_on=2026-03-14&kind=fax"}, 422, "", "")
	step(req{method: "PUT", path: "/api/persons/" + p + "/interactions/" + in + "?happened_on=2026-03-13&kind=email"}, 200, "interaction_update", "Updated an interaction with James Halpert")
	step(req{method: "DELETE", path: "/api/persons/" + p + "/interactions/" + in}, 204, "interaction_deletion", "Deleted an interaction with James Halpert")
	step(req{method: "DELETE", path: "/api/persons/" + p + "/interactions/" + in}, 404, "", "")

	j := id(step(req{method: "POST", path: "/api/journals?name=Diary"}, 201, "journal_creation", "Created the journal called Diary"))
	step(req{method: "PUT", path: "/api/journals/" + j + "?name=Notebook"}, 200, "journal_update", "Updated the journal called Notebook")
	step(req{method: "GET", path: "/api/journals/" + j + "/2026/3/15"}, 201, "entry_creation", "Created the entry for the journal called Notebook")
	step(req{method: "GET", path: "/api/journals/" + j + "/entries/2026/3/15"}, 200, "", "") // found, not made
	step(req{method: "GET", path: "/api/journals/" + j + "/2026/2/30"}, 404, "", "")
	step(req{method: "DELETE", path: "/api/journals/" + j}, 204, "journal_deletion", "Deleted the journal called Notebook")

	step(req{method: "DELETE", path: "/api/persons/" + p}, 204, "person_deletion", "Deleted the person called James Halpert")
	step(req{method: "DELETE", path: "/api/persons/" + p}, 404, "", "")
	kept := id(step(req{method: "POST", path: "/api/persons?first_name=Kept&can_be_deleted=0"}, 201, "person_creation", "Created the person called Kept"))
	step(req{method: "DELETE", path: "/api/persons/" + kept}, 403, "", "")
	step(req{method: "PUT", path: "/api/administration/prune"}, 204, "account_pruning", "Deleted all persons and related data from your account")

	invited := fmt.Sprint(step(req{method: "POST", path: "/api/administration/users?email=Pam@example.com&first_name=Pam&last_name=Beesly"}, 201,
		"user_invitation", "Invited pam@example.com to the account")["id"])
	step(req{method: "POST", path: "/api/administration/users?email=pam@example.com&first_name=Pam&last_name=Beesly"}, 422, "", "")
	step(req{method: "PUT", path: "/api/administration/users/" + invited + "/invite"}, 200, "user_invitation_resend", "Resent invitation to pam@example.com")
	step(req{method: "POST", path: pathOf(e.loggedLink()) + "&password=new+password"}, 200, "", "") // accepting: no entry
	step(req{method: "PUT", path: "/api/administration/users/" + invited + "/invite"}, 409, "", "")
	step(req{method: "DELETE", path: "/api/persons/" + kept}, 404, "", "")

	// Login and logout, even with a key in the header, write none.
	step(req{method: "POST", path: "/api/login?email=ada@example.com&password=correct%20horse"}, 200, "", "")
	login := e.do(req{method: "POST", path: "/api/login?email=ada@example.com&password=correct%20horse"})
	token := login.json(t)["data"].(map[string]any)["token"].(string)
	if r := e.do(req{method: "DELETE", path: "/api/logout", key: token}); r.code != 200 {
		t.Fatalf("logout: %d %s", r.code, r.body)
	}
	if _, total := e.logsOf(key); total != count {
		t.Errorf("login and logout logged: %d entries, want %d", total, count)
	}

	// The name is the user's name now, the entry's shape the contract's.
	logs, _ := e.logsOf(key)
	newest := logs[0]
	keysOf(t, newest, "type", "id", "attributes", "links")
	attrs := keysOf(t, newest["attributes"], "name", "action", "description", "created_at", "updated_at")
	if newest["type"] != "log" || attrs["name"] != "Augusta King" {
		t.Errorf("newest entry %v", newest)
	}
	self := newest["links"].(map[string]any)["self"].(string)
	if !strings.HasSuffix(self, "/api/administration/logs/"+newest["id"].(string)) {
		t.Errorf("self link %s", self)
	}
	r := e.do(req{method: "GET", path: "/api/administration/logs/" + newest["id"].(string), key: key})
	if r.code != 200 || r.json(t)["data"].(map[string]any)["id"] != newest["id"] {
		t.Errorf("show: %d %s", r.code, r.body)
	}
}

// TestLogsAreEachUsers: a teammate of the same account sees none of the
// user's entries, and one of them by id is 404.
func TestLogsAreEachUsers(t *testing.T) {
	e := newEnv(t)
	ada, key := e.user("ada@example.com")
	_, mate := e.userIn(ada.AccountID, "grace@example.com")
	_, bob := e.user("bob@example.com")
	e.person(key, "first_name=Jim")
	logs, total := e.logsOf(key)
	if total != 1 {
		t.Fatalf("%d entries, want 1", total)
	}
	id := logs[0]["id"].(string)
	for _, k := range []string{mate, bob} {
		if _, total := e.logsOf(k); total != 0 {
			t.Errorf("another user sees %d entries", total)
		}
	}
	e.run(t, []scenario{
		{"a teammate's", req{method: "GET", path: "/api/administration/logs/" + id, key: mate}, 404, errBody(404, "Log not found.")},
		{"another account's", req{method: "GET", path: "/api/administration/logs/" + id, key: bob}, 404, errBody(404, "Log not found.")},
		{"a missing one", req{method: "GET", path: "/api/administration/logs/999", key: key}, 404, errBody(404, "Log not found.")},
		{"not an id", req{method: "GET", path: "/api/administration/logs/x", key: key}, 404, errBody(404, "Log not found.")},
		{"unauthenticated", req{method: "GET", path: "/api/administration/logs"}, 401, nil},
		{"a bad page", req{method: "GET", path: "/api/administration/logs?page=0", key: key}, 422, []string{"The page field must be at least 1."}},
		{"an ill-typed page", req{method: "GET", path: "/api/administration/logs?page=x", key: key}, 422, nil},
	})
}

// TestLogsPagination: 10 a page always, newest first, per_page ignored.
func TestLogsPagination(t *testing.T) {
	e := newEnv(t)
	_, key := e.user("ada@example.com")
	for i := range 23 {
		e.person(key, fmt.Sprintf("first_name=P%d", i))
	}
	for _, sc := range []struct {
		query string
		n     int
		first string
	}{
		{"", 10, "P22"}, {"?per_page=50", 10, "P22"}, {"?page=2&per_page=5", 10, "P12"}, {"?page=3", 3, "P2"}, {"?page=4", 0, ""},
	} {
		r := e.do(req{method: "GET", path: "/api/administration/logs" + sc.query, key: key})
		body := r.json(t)
		data := body["data"].([]any)
		meta := body["meta"].(map[string]any)
		if r.code != 200 || len(data) != sc.n || meta["per_page"] != float64(10) || meta["total"] != float64(23) || meta["last_page"] != float64(3) {
			t.Errorf("%s: %d, %d entries, meta %v", sc.query, r.code, len(data), meta)
			continue
		}
		if strings.Contains(body["links"].(map[string]any)["first"].(string), "per_page") {
			t.Errorf("%s: links keep per_page: %v", sc.query, body["links"])
		}
		if sc.n > 0 {
			if d := data[0].(map[string]any)["attributes"].(map[string]any)["description"]; d != "Created the person called "+sc.first {
				t.Errorf("%s: first entry %v, want %s", sc.query, d, sc.first)
			}
		}
	}
}
