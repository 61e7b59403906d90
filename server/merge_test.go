package server

import (
	"context"
	"fmt"
	"sort"
	"strings"
	"testing"

	"github.com/emersion/go-webdav/carddav"
)

// merge posts a merge of other into kept.
func (e *env) merge(key, kept, other string) resp {
	e.t.Helper()
	return e.do(req{method: "POST", path: "/api/persons/" + kept + "/merge?person_id=" + other, key: key})
}

// idsOf is the ids of a person's records of one kind, in the list's order.
func (e *env) idsOf(key, path string) []string {
	e.t.Helper()
	var ids []string
	for _, r := range e.list(key, path) {
		ids = append(ids, fmt.Sprint(r["id"]))
	}
	return ids
}

// TestMergeMovesEveryRecord: every kind of record of the merged-away
// person ends up on the kept one, under its own id, with nothing doubled:
// contact details and important dates the kept person has already stay
// once, the moved ones after the kept person's of their kind.
func TestMergeMovesEveryRecord(t *testing.T) {
	e := newEnv(t)
	_, key := e.user("ada@example.com")
	kept := e.person(key, "first_name=Pam&last_name=Beesly")
	other := e.person(key, "first_name=Pam&nickname=Pammy&how_we_met=Reception&marital_status=couple")

	e.contactDetail(key, kept, "kind=email&value=pam@dunder.example&label=work")
	e.contactDetail(key, kept, "kind=phone&value=555-0100")
	e.contactDetail(key, other, "kind=email&value=PAM@Dunder.example&label=home") // the same, in other case
	otherMail := e.contactDetail(key, other, "kind=email&value=pam@art.example")
	otherPhone := e.contactDetail(key, other, "kind=phone&value=555-0199")
	e.importantDate(key, kept, "label=met&date=2005-03-24")
	e.importantDate(key, other, "label=met&date=2005-03-24") // the same
	otherDate := e.importantDate(key, other, "label=wedding&date=2009-10-08")
	task := e.task(key, other, "name=Send+the+watercolour")
	note := e.note(key, other, "Paints")
	gift := e.gift(key, other, "name=Easel&status=idea")
	event := e.lifeEvent(key, other, "description=Art+school&happened_at=2007-09-01")
	call := e.interaction(key, other, "happened_on=2026-03-01&kind=call")
	keptJob := e.workEntry(key, kept, "job_title=Receptionist&active=1")
	otherJob := e.workEntry(key, other, "job_title=Saleswoman&active=1")
	if r := e.do(req{method: "PUT", path: "/api/persons/" + other + "/stay-in-touch?every_days=30", key: key}); r.code != 200 {
		t.Fatal(r.body)
	}

	r := e.merge(key, kept, other)
	if r.code != 200 {
		t.Fatalf("merge: %d %s", r.code, r.body)
	}
	p := r.json(t)["data"].(map[string]any)
	if fmt.Sprint(p["id"]) != kept || p["name"] != "Pam Beesly" || p["nickname"] != "Pammy" ||
		p["how_we_met"] != "Reception" || p["marital_status"] != "couple" {
		t.Errorf("the merged person: %v", p)
	}
	if r := e.do(req{method: "GET", path: "/api/persons/" + other, key: key}); r.code != 404 {
		t.Errorf("the merged-away person: %d %s", r.code, r.body)
	}

	base := "/api/persons/" + kept
	equalLists(t, "contact details", e.detailsOf(key, kept), []string{
		"email|<nil>|pam@art.example", "email|work|pam@dunder.example", "phone|<nil>|555-0100", "phone|<nil>|555-0199"})
	emails := e.list(key, base+"/contact-details")
	var order []string
	for _, d := range emails {
		order = append(order, fmt.Sprint(d["value"]))
	}
	if got := strings.Join(order, ","); got != "pam@dunder.example,pam@art.example,555-0100,555-0199" {
		t.Errorf("contact details in order: %s: the moved ones go after the kept person's of their kind", got)
	}
	for _, id := range []string{otherMail, otherPhone} {
		if r := e.do(req{method: "GET", path: base + "/contact-details/" + id, key: key}); r.code != 200 {
			t.Errorf("moved contact detail %s under the kept person: %d", id, r.code)
		}
	}
	equalLists(t, "important dates", e.datesOf(key, kept), []string{"met|2005-03-24|false", "wedding|2009-10-08|false"})
	for path, id := range map[string]string{
		"/tasks/": task, "/notes/": note, "/gifts/": gift, "/life-events/": event, "/interactions/": call,
		"/work-history/": otherJob, "/important-dates/": otherDate,
	} {
		if r := e.do(req{method: "GET", path: base + path + id, key: key}); r.code != 200 {
			t.Errorf("%s%s under the kept person: %d %s", path, id, r.code, r.body)
		}
	}
	if got := e.activeWork(key, kept); got != keptJob {
		t.Errorf("the active job after the merge is %s, want the kept person's %s", got, keptJob)
	}
	if r := e.do(req{method: "GET", path: base + "/stay-in-touch", key: key}); !strings.Contains(r.body, `"every_days":30`) {
		t.Errorf("the other's cadence did not move to a kept person without one: %s", r.body)
	}
	for table, want := range map[string]int{"contact_details": 4, "important_dates": 2, "tasks": 1, "notes": 1,
		"gifts": 1, "life_events": 1, "interactions": 1, "work_history": 2, "stay_in_touch": 1, "persons": 1} {
		if n := e.count(`SELECT count(*) FROM ` + table); n != want {
			t.Errorf("%s: %d rows after the merge, want %d", table, n, want)
		}
	}
	logs, _ := e.logsOf(key)
	if logs[0]["attributes"].(map[string]any)["action"] != "person_merge" ||
		logs[0]["attributes"].(map[string]any)["description"] != "Merged Pam into Pam Beesly" ||
		logs[1]["attributes"].(map[string]any)["action"] == "person_deletion" {
		t.Errorf("the merge's log: %v, then %v", logs[0], logs[1])
	}
	// The search finds the kept person by a moved email.
	if got := e.list(key, "/api/persons?q=art.example"); len(got) != 1 || fmt.Sprint(got[0]["id"]) != kept {
		t.Errorf("search by a moved email: %v", got)
	}
}

// TestMergeFillsOnlyEmptyFields: the kept person's own values stay; what
// it lacks comes from the other: names, appearance, gender, age.
func TestMergeFillsOnlyEmptyFields(t *testing.T) {
	e := newEnv(t)
	_, key := e.user("ada@example.com")
	kept := e.person(key, "first_name=Jim&nickname=Big+Tuna&kids_status=has_kids")
	other := e.person(key, "first_name=James&last_name=Halpert&nickname=Jimmy&kids_status=no_kids&gender_id=1")
	e.do(req{method: "PATCH", path: "/api/persons/" + other + "/physical-appearance?height=191cm&voice=dry", key: key})
	e.do(req{method: "PATCH", path: "/api/persons/" + kept + "/physical-appearance?voice=deadpan", key: key})
	if r := e.do(req{method: "PATCH", path: "/api/persons/" + other + "/age?age_type=exact&age_year=1978&age_month=10&age_day=1&add_yearly_reminder=1", key: key}); r.code != 200 {
		t.Fatal(r.body)
	}
	r := e.merge(key, kept, other)
	if r.code != 200 {
		t.Fatalf("merge: %d %s", r.code, r.body)
	}
	p := r.json(t)["data"].(map[string]any)
	look := p["physical_appearance"].(map[string]any)
	age := p["age"].(map[string]any)
	if p["first_name"] != "Jim" || p["last_name"] != "Halpert" || p["nickname"] != "Big Tuna" ||
		p["kids_status"] != "has_kids" || p["gender"] == nil || look["height"] != "191cm" || look["voice"] != "deadpan" ||
		age["age_type"] != "exact" {
		t.Errorf("merged fields: %v", p)
	}
	if n := e.count(`SELECT count(*) FROM persons WHERE yearly_reminder`); n != 1 {
		t.Errorf("the age's yearly reminder did not come with it: %d", n)
	}
}

// TestMergeRefusals: the order of checks, and a refused merge changes
// nothing.
func TestMergeRefusals(t *testing.T) {
	e := newEnv(t)
	_, key := e.user("ada@example.com")
	_, bob := e.user("bob@example.com")
	kept := e.person(key, "first_name=Jim")
	other := e.person(key, "first_name=Dwight")
	e.note(key, other, "Beets")
	protected := e.person(key, "first_name=Michael&can_be_deleted=0")
	bobs := e.person(bob, "first_name=Bob")
	invalid := errBody(422, "The selected person id is invalid.")
	e.run(t, []scenario{
		{"no person_id", req{method: "POST", path: "/api/persons/" + kept + "/merge", key: key}, 422, errBody(422, "The person id field is required.")},
		{"not an integer", req{method: "POST", path: "/api/persons/" + kept + "/merge?person_id=two", key: key}, 422, errBody(422, "The person id field must be an integer.")},
		{"an unknown person", req{method: "POST", path: "/api/persons/" + kept + "/merge?person_id=999", key: key}, 422, invalid},
		{"another account's person", req{method: "POST", path: "/api/persons/" + kept + "/merge?person_id=" + bobs, key: key}, 422, invalid},
		{"the person itself", req{method: "POST", path: "/api/persons/" + kept + "/merge?person_id=" + kept, key: key}, 422, errBody(422, "The person id field and person must be different.")},
		{"a missing person first", req{method: "POST", path: "/api/persons/999/merge", key: key}, 404, errBody(404, "Person not found.")},
		{"into another account's person", req{method: "POST", path: "/api/persons/" + bobs + "/merge?person_id=" + other, key: key}, 404, errBody(404, "Person not found.")},
		{"a protected person", req{method: "POST", path: "/api/persons/" + kept + "/merge?person_id=" + protected, key: key}, 403, errBody(403, "This person cannot be deleted.")},
		{"no key", req{method: "POST", path: "/api/persons/" + kept + "/merge?person_id=" + other}, 401, nil},
		{"GET is not a route", req{method: "GET", path: "/api/persons/" + kept + "/merge", key: key}, 405, nil},
	})
	if n := e.count(`SELECT count(*) FROM persons`); n != 4 {
		t.Errorf("%d persons after refused merges, want 4", n)
	}
	if got := e.notesOf(key, other); len(got) != 1 {
		t.Errorf("the other's notes after refused merges: %v", got)
	}
}

// TestMergeCardGoesFromThePhone: over CardDAV, the merged-away card is a
// deletion in the next sync and a 404, and the kept card is changed.
func TestMergeCardGoesFromThePhone(t *testing.T) {
	d, key := newDAVEnv(t, "ada@example.com")
	ctx := context.Background()
	book := d.bookOf(d.client)
	kept := d.person(key, "first_name=Pam")
	other := d.person(key, "first_name=Pamela&last_name=Beesly")
	first, err := d.client.SyncCollection(ctx, book, &carddav.SyncQuery{})
	if err != nil || len(first.Updated) != 2 {
		t.Fatalf("first sync %+v %v", first, err)
	}
	if r := d.merge(key, kept, other); r.code != 200 {
		t.Fatalf("merge: %d %s", r.code, r.body)
	}
	delta, err := d.client.SyncCollection(ctx, book, &carddav.SyncQuery{SyncToken: first.SyncToken})
	if err != nil || len(delta.Updated) != 1 || len(delta.Deleted) != 1 {
		t.Fatalf("the sync after a merge: %+v %v, want one card changed and one deleted", delta, err)
	}
	if code, _, _ := d.raw("GET", delta.Deleted[0], "ada@example.com", key, "", nil); code != 404 {
		t.Errorf("GET of the merged-away card: %d", code)
	}
	if code, _, body := d.raw("GET", delta.Updated[0].Path, "ada@example.com", key, "", nil); code != 200 || !strings.Contains(body, "Beesly") {
		t.Errorf("GET of the kept card: %d %s", code, body)
	}
}

// TestMergeMovesRelationships: the other's relationships with third
// persons become the kept person's, from the same side, but for one the
// kept person has already; one between the two merged persons goes.
func TestMergeMovesRelationships(t *testing.T) {
	e := newEnv(t)
	_, key := e.user("ada@example.com")
	kept := e.person(key, "first_name=Pam")
	other := e.person(key, "first_name=Pamela")
	third := e.person(key, "first_name=Helene")
	fourth := e.person(key, "first_name=Penny")
	relate := func(on, typeID, with string) {
		t.Helper()
		r := e.do(req{method: "POST", path: "/api/persons/" + on + "/relationships?relationship_type_id=" + typeID + "&person_id=" + with, key: key})
		if r.code != 201 {
			t.Fatalf("relationship: %d %s", r.code, r.body)
		}
	}
	relate(other, "3", third)  // Helene is Pamela's parent
	relate(kept, "8", third)   // Helene is Pam's friend…
	relate(third, "8", other)  // …and Pamela's, seen from Helene
	relate(kept, "10", other)  // the two merged are colleagues
	relate(fourth, "4", other) // Pamela is Penny's sibling
	if r := e.merge(key, kept, other); r.code != 200 {
		t.Fatalf("merge: %d %s", r.code, r.body)
	}
	var got []string
	for _, r := range e.relationships(t, key, kept) {
		got = append(got, r[strings.Index(r, " ")+1:])
	}
	equalLists(t, "the kept person's relationships", sorted(got), []string{
		"3 parent → " + third + " Helene", "4 sibling → " + fourth + " Penny", "8 friend → " + third + " Helene"})
	if got := e.relationships(t, key, fourth); len(got) != 1 || !strings.HasSuffix(got[0], "sibling → "+kept+" Pam") {
		t.Errorf("Penny's relationships after the merge: %v", got)
	}
	if n := e.count(`SELECT count(*) FROM relationships`); n != 3 {
		t.Errorf("%d relationships after the merge, want 3", n)
	}
}

func sorted(s []string) []string {
	out := append([]string(nil), s...)
	sort.Strings(out)
	return out
}
