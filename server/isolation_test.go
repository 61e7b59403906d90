package server

import (
	"fmt"
	"strings"
	"testing"

	"kith/server/photo/phototest"
)

// everything is a query string that passes the validation of every write
// route, so that an answer other than 404 cannot come from bad input.
const everything = "name=x&color=y&first_name=x&label=x&age_type=bracket&age_bracket=1-2&add_yearly_reminder=1&height=1&description=x&happened_at=2020-01-01&job_title=x&active=1&position=1&kind=email&value=x@example.com&date=2020-01-01&remind_yearly=1&every_days=7&happened_on=2020-01-01&kind=call&tags[]=x"

// isolationMatrix lists every route that takes an id, by "METHOD path".
// Each names the intruders it is tried with: "account" is a user of another
// account, "user" another user of the same account (for what belongs to
// each user), "person" the owner addressing a task under another of the
// account's persons. A route missing here fails the test: a new route gets
// its row, and so its isolation check, or the suite stays red.
var isolationMatrix = map[string][]string{
	"GET /api/persons/:person":                       {"account"},
	"HEAD /api/persons/:person":                      {"account"},
	"PUT /api/persons/:person":                       {"account"},
	"DELETE /api/persons/:person":                    {"account"},
	"POST /api/persons/:person/merge":                {"account"},
	"PATCH /api/persons/:person/physical-appearance": {"account"},
	"PATCH /api/persons/:person/age":                 {"account"},
	"GET /api/persons/:person/photo":                 {"account"},
	"HEAD /api/persons/:person/photo":                {"account"},
	"PUT /api/persons/:person/photo":                 {"account"},
	"DELETE /api/persons/:person/photo":              {"account"},
	"GET /api/persons/:person/vcard":                 {"account"},
	"HEAD /api/persons/:person/vcard":                {"account"},
	"PUT /api/persons/:person/tags":                  {"account"},
	"GET /api/tags/:tag":                             {"account"},
	"HEAD /api/tags/:tag":                            {"account"},
	"PUT /api/tags/:tag":                             {"account"},
	"DELETE /api/tags/:tag":                          {"account"},
	"GET /api/persons/:person/tasks":                 {"account"},
	"HEAD /api/persons/:person/tasks":                {"account"},
	"POST /api/persons/:person/tasks":                {"account"},
	"GET /api/persons/:person/tasks/:task":           {"account", "person"},
	"HEAD /api/persons/:person/tasks/:task":          {"account", "person"},
	"PUT /api/persons/:person/tasks/:task":           {"account", "person"},
	"DELETE /api/persons/:person/tasks/:task":        {"account", "person"},
	"PUT /api/tasks/:task/toggle":                    {"account"},
	"GET /api/administration/task-categories/:id":    {"account"},
	"HEAD /api/administration/task-categories/:id":   {"account"},
	"PUT /api/administration/task-categories/:id":    {"account"},
	"DELETE /api/administration/task-categories/:id": {"account"},
	"GET /api/administration/api/:id":                {"account", "user"},
	"HEAD /api/administration/api/:id":               {"account", "user"},
	"DELETE /api/administration/api/:id":             {"account", "user"},

	"GET /api/persons/:person/life-events":           {"account"},
	"HEAD /api/persons/:person/life-events":          {"account"},
	"POST /api/persons/:person/life-events":          {"account"},
	"GET /api/persons/:person/life-events/:event":    {"account", "person"},
	"HEAD /api/persons/:person/life-events/:event":   {"account", "person"},
	"PUT /api/persons/:person/life-events/:event":    {"account", "person"},
	"DELETE /api/persons/:person/life-events/:event": {"account", "person"},

	"GET /api/persons/:person/work-history":           {"account"},
	"HEAD /api/persons/:person/work-history":          {"account"},
	"POST /api/persons/:person/work-history":          {"account"},
	"GET /api/persons/:person/work-history/:entry":    {"account", "person"},
	"HEAD /api/persons/:person/work-history/:entry":   {"account", "person"},
	"PUT /api/persons/:person/work-history/:entry":    {"account", "person"},
	"DELETE /api/persons/:person/work-history/:entry": {"account", "person"},
	"GET /api/administration/genders/:gender":         {"account"},
	"HEAD /api/administration/genders/:gender":        {"account"},
	"PUT /api/administration/genders/:gender":         {"account"},
	"DELETE /api/administration/genders/:gender":      {"account"},
	"GET /api/persons/:person/notes":                  {"account"},
	"HEAD /api/persons/:person/notes":                 {"account"},
	"POST /api/persons/:person/notes":                 {"account"},
	"GET /api/persons/:person/notes/:note":            {"account", "person"},
	"HEAD /api/persons/:person/notes/:note":           {"account", "person"},
	"PUT /api/persons/:person/notes/:note":            {"account", "person"},
	"DELETE /api/persons/:person/notes/:note":         {"account", "person"},
	"GET /api/persons/:person/gifts":                  {"account"},
	"HEAD /api/persons/:person/gifts":                 {"account"},
	"POST /api/persons/:person/gifts":                 {"account"},
	"GET /api/persons/:person/gifts/:gift":            {"account", "person"},
	"HEAD /api/persons/:person/gifts/:gift":           {"account", "person"},
	"PUT /api/persons/:person/gifts/:gift":            {"account", "person"},
	"DELETE /api/persons/:person/gifts/:gift":         {"account", "person"},

	"GET /api/persons/:person/contact-details":            {"account"},
	"HEAD /api/persons/:person/contact-details":           {"account"},
	"POST /api/persons/:person/contact-details":           {"account"},
	"GET /api/persons/:person/contact-details/:detail":    {"account", "person"},
	"HEAD /api/persons/:person/contact-details/:detail":   {"account", "person"},
	"PUT /api/persons/:person/contact-details/:detail":    {"account", "person"},
	"DELETE /api/persons/:person/contact-details/:detail": {"account", "person"},
	// Important dates; stay in touch and interactions.
	"GET /api/persons/:person/important-dates":              {"account"},
	"HEAD /api/persons/:person/important-dates":             {"account"},
	"POST /api/persons/:person/important-dates":             {"account"},
	"GET /api/persons/:person/important-dates/:date":        {"account", "person"},
	"HEAD /api/persons/:person/important-dates/:date":       {"account", "person"},
	"PUT /api/persons/:person/important-dates/:date":        {"account", "person"},
	"DELETE /api/persons/:person/important-dates/:date":     {"account", "person"},
	"GET /api/persons/:person/reminders":                    {"account"},
	"HEAD /api/persons/:person/reminders":                   {"account"},
	"POST /api/persons/:person/reminders":                   {"account"},
	"GET /api/persons/:person/reminders/:reminder":          {"account", "person"},
	"HEAD /api/persons/:person/reminders/:reminder":         {"account", "person"},
	"PUT /api/persons/:person/reminders/:reminder":          {"account", "person"},
	"DELETE /api/persons/:person/reminders/:reminder":       {"account", "person"},
	"GET /api/persons/:person/stay-in-touch":                {"account"},
	"HEAD /api/persons/:person/stay-in-touch":               {"account"},
	"PUT /api/persons/:person/stay-in-touch":                {"account"},
	"GET /api/persons/:person/interactions":                 {"account"},
	"HEAD /api/persons/:person/interactions":                {"account"},
	"POST /api/persons/:person/interactions":                {"account"},
	"GET /api/persons/:person/interactions/:interaction":    {"account", "person"},
	"HEAD /api/persons/:person/interactions/:interaction":   {"account", "person"},
	"PUT /api/persons/:person/interactions/:interaction":    {"account", "person"},
	"DELETE /api/persons/:person/interactions/:interaction": {"account", "person"},
	// Relationship types; relationships, whose "person" intruder names one
	// of the account's relationships under a person it does not involve.
	"GET /api/administration/relationship-types/:type":        {"account"},
	"HEAD /api/administration/relationship-types/:type":       {"account"},
	"PUT /api/administration/relationship-types/:type":        {"account"},
	"DELETE /api/administration/relationship-types/:type":     {"account"},
	"GET /api/persons/:person/relationships":                  {"account"},
	"HEAD /api/persons/:person/relationships":                 {"account"},
	"POST /api/persons/:person/relationships":                 {"account"},
	"DELETE /api/persons/:person/relationships/:relationship": {"account", "person"},
	// Journals, and their entries by date (year, month, day: 2026/3/15).
	"GET /api/journals/:journal":                           {"account"},
	"HEAD /api/journals/:journal":                          {"account"},
	"PUT /api/journals/:journal":                           {"account"},
	"DELETE /api/journals/:journal":                        {"account"},
	"GET /api/journals/:journal/:year/:month/:day":         {"account"},
	"GET /api/journals/:journal/entries/:year/:month/:day": {"account"},
	"PUT /api/journals/:journal/entries/:year/:month/:day": {"account"},
	"GET /api/journals/:journal/entries":                   {"account"},
	"HEAD /api/journals/:journal/entries":                  {"account"},
	// Logs: each user's own.
	"GET /api/administration/logs/:log":  {"account", "user"},
	"HEAD /api/administration/logs/:log": {"account", "user"},
	// Invitations: any user of the account may resend one, no outsider.
	"PUT /api/administration/users/:user/invite": {"account"},
	// Reminder channels: each user's own.
	"GET /api/me/channels/:channel":       {"account", "user"},
	"HEAD /api/me/channels/:channel":      {"account", "user"},
	"PUT /api/me/channels/:channel":       {"account", "user"},
	"DELETE /api/me/channels/:channel":    {"account", "user"},
	"POST /api/me/channels/:channel/test": {"account", "user"},
	// Passkeys: each user's own.
	"DELETE /api/me/passkeys/:passkey": {"account", "user"},
	// A calendar feed is named by its secret, which is its only key: an
	// intruder has at best a secret the owner has replaced ("voided").
	"GET /ical/:feed":  {"voided"},
	"HEAD /ical/:feed": {"voided"},
}

// TestIsolationMatrix calls every route that takes an id, with every method
// the router has for it, as each intruder of its row. Each call must answer
// 404 and leave the owner's data byte for byte as it was.
func TestIsolationMatrix(t *testing.T) {
	e := newEnv(t)
	ada, adaKey := e.user("ada@example.com")
	_, teammate := e.userIn(ada.AccountID, "grace@example.com") // same account, other user
	_, bob := e.user("bob@example.com")                         // other account

	person := e.person(adaKey, "first_name=Jim&can_be_deleted=1")
	other := e.person(adaKey, "first_name=Pam&can_be_deleted=1") // same account, other person
	task := e.task(adaKey, person, "name=Call&task_category_id=2")
	category := fmt.Sprint(e.do(req{method: "POST", path: "/api/administration/task-categories?name=Mine&color=c", key: adaKey}).json(t)["data"].(map[string]any)["id"])
	keyID := strings.Split(adaKey, "|")[0]
	event := e.lifeEvent(adaKey, person, "description=Wedding&happened_at=2020-06-01")
	entry := e.workEntry(adaKey, person, "job_title=Salesman&active=1")
	gender := fmt.Sprint(e.do(req{method: "POST", path: "/api/administration/genders?name=Mine", key: adaKey}).json(t)["data"].(map[string]any)["id"])
	// The intruders have rows of their own, with ids of their own.
	e.task(bob, e.person(bob, "first_name=Bob's"), "name=Bob's")
	e.do(req{method: "POST", path: "/api/administration/api?label=Grace's", key: teammate})
	e.lifeEvent(bob, e.person(bob, "first_name=Bob's"), "description=Bob's&happened_at=2020-06-01")
	e.workEntry(bob, e.person(bob, "first_name=Bob's"), "job_title=Bob's&active=1")
	note := e.note(adaKey, person, "Likes tea")
	e.note(bob, e.person(bob, "first_name=Bob2"), "Bob's")
	gift := e.gift(adaKey, person, "name=Teapot&status=idea")
	e.gift(bob, e.person(bob, "first_name=Bob3"), "name=Bob's&status=idea")
	detail := e.contactDetail(adaKey, person, "kind=phone&value=555-0100")
	e.contactDetail(bob, e.person(bob, "first_name=Bob4"), "kind=phone&value=Bob's+555")
	date := e.importantDate(adaKey, person, "label=met&date=2019-05-04")
	e.importantDate(bob, e.person(bob, "first_name=Bob4"), "label=Bob's&date=--05-04")
	reminder := e.reminder(adaKey, person, "label=Call&starts_on=2026-03-01&frequency=monthly")
	e.reminder(bob, e.person(bob, "first_name=Bob7"), "label=Bob's&starts_on=2026-03-01&frequency=daily")
	interaction := e.interaction(adaKey, person, "happened_on=2026-03-01&kind=call")
	e.interaction(bob, e.person(bob, "first_name=Bob5"), "happened_on=2026-03-01&kind=email")
	if r := e.do(req{method: "PUT", path: "/api/persons/" + person + "/stay-in-touch?every_days=30", key: adaKey}); r.code != 200 {
		t.Fatalf("stay in touch: %d %s", r.code, r.body)
	}
	relType := fmt.Sprint(e.do(req{method: "POST", path: "/api/administration/relationship-types?name=Mine", key: adaKey}).json(t)["data"].(map[string]any)["id"])
	third := e.person(adaKey, "first_name=Kevin")
	relationship := fmt.Sprint(e.do(req{method: "POST", path: "/api/persons/" + person + "/relationships?relationship_type_id=" + relType + "&person_id=" + third,
		key: adaKey}).json(t)["data"].(map[string]any)["id"])
	e.do(req{method: "POST", path: "/api/administration/relationship-types?name=Bob's", key: bob})
	e.setPhoto(adaKey, person, phototest.PNG(phototest.Quadrants(40, 20))) // for DELETE to find, and PUT to leave
	e.setPhoto(bob, e.person(bob, "first_name=Bob6"), phototest.GIF(phototest.Quadrants(8, 8)))
	journal := e.journal(adaKey, "Ada's")
	logID := fmt.Sprint(e.count(`SELECT max(id) FROM logs`)) // Ada's, of the journal's creation
	e.journal(bob, "Bob's")
	journalBefore := e.do(req{method: "GET", path: "/api/journals", key: adaKey}).body
	invited := fmt.Sprint(e.do(req{method: "POST", path: "/api/administration/users?email=new@example.com&first_name=N&last_name=C", key: adaKey}).json(t)["id"])
	invitationsBefore := e.count(`SELECT sum(id) + count(*) FROM invitations`)
	channel := fmt.Sprint(e.do(req{method: "POST", path: "/api/me/channels?kind=ntfy&url=http://127.0.0.1:9/ada", key: adaKey}).json(t)["data"].(map[string]any)["id"])
	voided := strings.TrimPrefix(e.feed(adaKey), "/ical/")
	feed := e.feed(adaKey) // voids the first
	feedBefore := e.ics(feed, nil).body
	tag := e.tagOf(adaKey, person, "Chess")
	passkey := e.keysPasskey(t, adaKey)
	e.tagOf(bob, e.person(bob, "first_name=Bob6"), "Bob's")

	snapshot := func() string {
		var b strings.Builder
		for _, path := range []string{
			"/api/persons", "/api/persons/" + person, "/api/persons/" + other,
			"/api/persons/" + person + "/tasks", "/api/persons/" + other + "/tasks",
			"/api/administration/task-categories", "/api/administration/api", "/api/me",
			"/api/persons/" + person + "/life-events", "/api/persons/" + other + "/life-events",
			"/api/persons/" + person + "/work-history", "/api/persons/" + other + "/work-history",
			"/api/administration/genders",
			"/api/persons/" + person + "/notes", "/api/persons/" + other + "/notes",
			"/api/persons/" + person + "/gifts", "/api/persons/" + other + "/gifts",
			"/api/persons/" + person + "/contact-details", "/api/persons/" + other + "/contact-details",
			"/api/administration/logs", "/api/me/channels",
			"/api/persons/" + person + "/important-dates", "/api/persons/" + other + "/important-dates",
			"/api/persons/" + person + "/reminders", "/api/persons/" + other + "/reminders",
			"/api/persons/" + person + "/interactions", "/api/persons/" + other + "/interactions",
			"/api/persons/" + person + "/stay-in-touch", "/api/persons/" + other + "/stay-in-touch",
			"/api/administration/relationship-types", "/api/persons/" + person + "/relationships",
			"/api/persons/" + third + "/relationships",
			"/api/tags",
			"/api/persons/" + person + "/photo",
			"/api/me/passkeys",
		} {
			r := e.do(req{method: "GET", path: path, key: adaKey})
			b.WriteString(r.body)
		}
		return b.String()
	}
	before := snapshot()

	seen := map[string]bool{}
	tried := 0
	for _, rt := range e.srv.Routes() {
		if !strings.Contains(rt.Path, ":") || webPath(rt.Path) {
			continue // the web app's: TestWebIsolation
		}
		route := rt.Method + " " + rt.Path
		intruders, ok := isolationMatrix[route]
		if !ok {
			t.Errorf("route %s takes an id but has no row in isolationMatrix: add one", route)
			continue
		}
		seen[route] = true
		for _, who := range intruders {
			key, personID := bob, person
			switch who {
			case "user":
				key = teammate
			case "person":
				key, personID = adaKey, other
			}
			path := strings.NewReplacer(":person", personID, ":task", task, ":id", keyID, ":gender", gender).Replace(rt.Path)
			path = strings.NewReplacer(":event", event, ":entry", entry).Replace(path)
			path = strings.NewReplacer(":note", note).Replace(path)
			path = strings.NewReplacer(":gift", gift, ":detail", detail).Replace(path)
			path = strings.NewReplacer(":date", date, ":interaction", interaction).Replace(path)
			path = strings.NewReplacer(":type", relType, ":relationship", relationship).Replace(path)
			if strings.Contains(rt.Path, "task-categories/:id") {
				path = strings.Replace(rt.Path, ":id", category, 1)
			}
			path = strings.NewReplacer(":journal", journal, ":year", "2026", ":month", "3", ":day", "15").Replace(path)
			path = strings.NewReplacer(":log", logID, ":user", invited, ":channel", channel, ":feed", voided).Replace(path)
			path = strings.NewReplacer(":tag", tag, ":reminder", reminder, ":passkey", passkey).Replace(path)
			r := e.do(req{method: rt.Method, path: path + "?" + everything, key: key})
			if r.code != 404 || rt.Method != "HEAD" && !strings.HasSuffix(r.json(t)["message"].(string), "not found.") {
				t.Errorf("%s as %s intruder: %d %s, want 404", route, who, r.code, r.body)
			}
			tried++
		}
	}
	for route := range isolationMatrix {
		if !seen[route] {
			t.Errorf("isolationMatrix has %s, which the router does not serve", route)
		}
	}
	if tried < 21 {
		t.Errorf("only %d calls tried", tried)
	}
	if after := snapshot(); after != before {
		t.Errorf("Ada's data changed:\nbefore %s\nafter  %s", before, after)
	}
	if after := e.do(req{method: "GET", path: "/api/journals", key: adaKey}).body; after != journalBefore {
		t.Errorf("Ada's journals changed:\nbefore %s\nafter  %s", journalBefore, after)
	}
	if journals := e.do(req{method: "GET", path: "/api/journals", key: bob}).body; strings.Contains(journals, "Ada's") {
		t.Errorf("Bob's journals show Ada's: %s", journals)
	}
	if after := e.ics(feed, nil).body; after != feedBefore {
		t.Errorf("Ada's feed changed:\nbefore %s\nafter  %s", feedBefore, after)
	}
	if n := e.count(`SELECT sum(id) + count(*) FROM invitations`); n != invitationsBefore {
		t.Errorf("intruders changed Ada's invitations")
	}
	if n := e.count(`SELECT count(*) FROM journal_entries`); n != 0 {
		t.Errorf("intruders made %d entries in Ada's journal", n)
	}

	// Lists show only the caller's own rows; a teammate shares the account's.
	persons := e.do(req{method: "GET", path: "/api/persons", key: bob}).body
	cats := e.do(req{method: "GET", path: "/api/administration/task-categories", key: bob}).body
	if strings.Contains(persons, "Jim") || strings.Contains(cats, "Mine") || strings.Count(cats, `"type":"task_category"`) != 6 {
		t.Errorf("Bob's lists show Ada's rows:\n%s\n%s", persons, cats)
	}
	if r := e.do(req{method: "GET", path: "/api/persons/" + person + "/tasks/" + task, key: teammate}); r.code != 200 {
		t.Errorf("a teammate cannot see the account's task: %d", r.code)
	}
	if keys := e.do(req{method: "GET", path: "/api/administration/api", key: teammate}).body; strings.Contains(keys, `"id":"`+keyID+`"`) || !strings.Contains(keys, "Grace's") {
		t.Errorf("a teammate sees Ada's keys: %s", keys)
	}
	// A person cannot be given another account's gender either.
	r := e.do(req{method: "POST", path: "/api/persons?first_name=B&gender_id=" + gender, key: bob})
	if r.code != 422 {
		t.Errorf("Bob used Ada's gender: %d", r.code)
	}
	// A task cannot be given another account's category either.
	r = e.do(req{method: "POST", path: "/api/persons/" + e.person(bob, "first_name=B") + "/tasks?name=x&task_category_id=" + category, key: bob})
	if r.code != 422 {
		t.Errorf("Bob used Ada's category: %d", r.code)
	}
}
