package server

import (
	"fmt"
	"net/http/httptest"
	"strings"
	"testing"

	"kith/server/transfer"
)

func TestImportRefusals(t *testing.T) {
	e := newEnv(t)
	_, full := e.user("full@example.com")
	e.person(full, "first_name=Jim")
	_, key := e.user("empty@example.com")
	imp := func(body string) req { return req{method: "POST", path: "/api/import", key: key, body: body} }
	person := func(fields string) string {
		return `{"kith_export":1,"persons":[{"first_name":"Ok"},{` + fields + `}]}`
	}
	e.run(t, []scenario{
		{"without a key", req{method: "POST", path: "/api/import", body: `{"kith_export":1}`}, 401, errBody(401, "Unauthenticated.")},
		{"into an account with persons", req{method: "POST", path: "/api/import", key: full, body: `{"kith_export":1,"persons":[]}`}, 409,
			errBody(409, "This account has persons already: an import restores an export into an account that has none.")},
		{"into an account with persons, refused before its body is read", req{method: "POST", path: "/api/import", key: full,
			body: "not JSON at all " + strings.Repeat("x", 1<<20)}, 409,
			errBody(409, "This account has persons already: an import restores an export into an account that has none.")},
		{"not JSON", imp(`{"kith_export":1,"persons":[`), 400, errBody(400, "The request body is not valid JSON.")},
		{"data after the document", imp(`{"kith_export":1} {}`), 400, errBody(400, "The request body is not valid JSON.")},
		{"not UTF-8", imp("{\"kith_export\":1,\"persons\":[{\"first_name\":\"\xff\"}]}"), 400, errBody(400, "The request body is not valid JSON.")},
		{"an array", imp(`[{"kith_export":1}]`), 400, errBody(400, "The request body must be a JSON object.")},
		{"no version: not an export", imp(`{"persons":[]}`), 422,
			[]string{`"kith_export":["The kith export field is required: the document is not a Kith export."]`}},
		{"an empty body", imp(``), 422, []string{`"kith_export":`}},
		{"a version that is no number", imp(`{"kith_export":"one"}`), 422, errBody(422, "The kith export field must be an integer.")},
		{"a newer version, whatever its rows", imp(`{"kith_export":2,"persons":[{"nonsense":true}]}`), 422,
			errBody(422, "This export is of format 2, newer than this Kith reads (1 and older): import it into a newer Kith.")},
		{"a person without a first name, named by place", imp(person(`"last_name":"Nameless"`)), 422,
			[]string{`"message":"persons.1: The first name field is required."`, `"persons.1.first_name":["persons.1: The first name field is required."]`}},
		{"every problem, by place", imp(`{"kith_export":1,"persons":[{"first_name":"A","marital_status":"maybe",
			"gifts":[{"name":"Book","status":"stolen"}],"age":{"age_type":"exact","age_year":1800},
			"contact_details":[{"kind":"email","value":"not an email"}],"notes":["not an object"]}]}`), 422,
			[]string{`"message":"persons.0: The selected marital status is invalid. (and 4 more errors)"`,
				`"persons.0.gifts.0.status":["persons.0.gifts.0: The selected status is invalid."]`,
				`"persons.0.age.age_year":["persons.0.age: The age year field must be between 1900 and 2026."]`,
				`"persons.0.contact_details.0.value":["persons.0.contact_details.0: The value field must be a valid email address."]`,
				`"persons.0.notes.0":["persons.0.notes.0: must be an object."]`}},
		{"a gender the document lacks", imp(`{"kith_export":1,"genders":[{"id":7,"name":"Man"}],"persons":[{"first_name":"A","gender_id":8}]}`), 422,
			[]string{`"persons.0.gender_id":["persons.0: The selected gender id is invalid."]`}},
		{"a task category the document lacks", imp(person(`"first_name":"B","tasks":[{"name":"Call","task_category_id":3}]`)), 422,
			[]string{`"persons.1.tasks.0.task_category_id":["persons.1.tasks.0: The selected task category id is invalid."]`}},
		{"two ids alike", imp(`{"kith_export":1,"genders":[{"id":1,"name":"Man"},{"id":1,"name":"Woman"}]}`), 422,
			[]string{`"genders.1.id":["genders.1: The id has already been taken."]`}},
		{"two persons with one UID", imp(`{"kith_export":1,"persons":[{"first_name":"A","uid":"u1"},{"first_name":"B","uid":"u1"}]}`), 422,
			[]string{`"persons.1.uid":["persons.1: The uid has already been taken."]`}},
		{"two active jobs", imp(person(`"first_name":"B","work_history":[{"job_title":"A","active":true},{"job_title":"B","active":true}]`)), 422,
			[]string{`"persons.1.work_history.1.active":["persons.1.work_history.1: Only one job of a person may be active."]`}},
		{"persons not an array", imp(`{"kith_export":1,"persons":{"first_name":"A"}}`), 422,
			[]string{`"persons":["The persons field must be an array."]`}},
		{"a journal entry on a day that does not exist", imp(`{"kith_export":1,"journals":[{"name":"J","entries":[{"year":2025,"month":2,"day":29}]}]}`), 422,
			[]string{`"journals.0.entries.0.day":["journals.0.entries.0: The day field must be a valid day of the month."]`}},
		{"a time zone that is none", imp(`{"kith_export":1,"settings":{"timezone":"Mars/Olympus","reminders":{"send_at":"25:00"}}}`), 422,
			[]string{`"settings.timezone":["settings: The timezone field must be a valid timezone."]`,
				`"settings.reminders.send_at":["settings.reminders: The send at field must match the format H:i."]`}},
		{"a category without a colour", imp(`{"kith_export":1,"task_categories":[{"id":1,"name":"Call"}]}`), 422,
			[]string{`"task_categories.0.color":["task_categories.0: The color field is required."]`}},
	})
	// Nothing of a refused document was written.
	for _, q := range []string{
		`SELECT count(*) FROM persons p JOIN users u ON u.account_id = p.account_id WHERE u.email = 'empty@example.com'`,
		`SELECT count(*) FROM genders g JOIN users u ON u.account_id = g.account_id WHERE u.email = 'empty@example.com'`,
	} {
		if n := e.count(q); n != map[bool]int{true: 0, false: 3}[strings.Contains(q, "persons")] {
			t.Errorf("%s: %d after refusals", q, n)
		}
	}

	// A hundred problems are listed, no more.
	var many strings.Builder
	many.WriteString(`{"kith_export":1,"persons":[`)
	for i := range 150 {
		if i > 0 {
			many.WriteString(",")
		}
		many.WriteString(`{"last_name":"Nameless"}`)
	}
	many.WriteString("]}")
	r := e.do(imp(many.String()))
	if r.code != 422 || !strings.Contains(r.body, "(and 99 more errors)") || strings.Contains(r.body, "persons.100.") {
		t.Errorf("150 bad persons: %d %.300s", r.code, r.body)
	}
}

func TestImportBodyLimit(t *testing.T) {
	e := newEnv(t)
	_, key := e.user("ada@example.com")
	// Over the API's 1 MiB, under the import's 50 MiB: three persons with a
	// photo each, under a card's own 1 MiB.
	photo := `"vcard_extra":"PHOTO;ENCODING=b:` + strings.Repeat("A", 1000<<10) + `\r\n"`
	big := `{"kith_export":1,"persons":[{"first_name":"One",` + photo + `},{"first_name":"Two",` + photo + `},{"first_name":"Three",` + photo + `}]}`
	e.run(t, []scenario{
		{"3 MiB is read", req{method: "POST", path: "/api/import", key: key, body: big}, 200, []string{`"persons":3`}},
	})
	hr := httptest.NewRequest("POST", "/api/import", strings.NewReader(`{"kith_export":1}`))
	hr.ContentLength = 50<<20 + 1
	hr.Header.Set("Authorization", "Bearer "+key)
	rec := httptest.NewRecorder()
	e.srv.ServeHTTP(rec, hr)
	if rec.Code != 413 || !strings.Contains(rec.Body.String(), "The request body is too large.") {
		t.Errorf("a body over 50 MiB: %d %s", rec.Code, rec.Body)
	}
	// The other routes keep their 1 MiB.
	r := e.do(req{method: "POST", path: "/api/persons", key: key, body: `{"first_name":"` + strings.Repeat("x", 1<<20) + `"}`})
	if r.code != 413 {
		t.Errorf("a 1 MiB person: %d", r.code)
	}
}

// TestImportAnyContentType reads the body as JSON whatever it is said to
// be: curl's --data-binary @export.json says it is a form.
func TestImportAnyContentType(t *testing.T) {
	e := newEnv(t)
	_, key := e.user("ada@example.com")
	r := e.do(req{method: "POST", path: "/api/import", key: key, ctype: "application/x-www-form-urlencoded",
		body: `{"kith_export":1,"persons":[{"first_name":"Form"}]}`})
	if r.code != 200 || !strings.Contains(r.body, `"persons":1`) {
		t.Errorf("%d %s", r.code, r.body)
	}
}

// TestExportIsTheAccountsOwn interleaves two accounts' persons, so that
// the other's fall between the first and the last id of a batch.
func TestExportIsTheAccountsOwn(t *testing.T) {
	e := newEnv(t)
	_, ada := e.user("ada@example.com")
	_, bob := e.user("bob@example.com")
	for i := range 3 {
		a := e.person(ada, fmt.Sprintf("first_name=Ada%d", i))
		e.note(ada, a, fmt.Sprintf("ada's note %d", i))
		b := e.person(bob, fmt.Sprintf("first_name=Bobs%d", i))
		e.note(bob, b, "bob's secret")
		e.task(bob, b, "name=bob's+task")
		e.contactDetail(bob, b, "kind=email&value=bob@example.com")
		e.send(bob, "PUT", "/api/persons/"+b+"/stay-in-touch", `{"every_days":7}`)
	}
	e.send(bob, "POST", "/api/administration/genders", `{"name":"Bob's gender"}`)
	e.journal(bob, "Bob's journal")
	e.send(bob, "PUT", "/api/me/timezone", `{"timezone":"Asia/Tokyo"}`)
	r := e.do(req{method: "GET", path: "/api/export", key: ada})
	if r.code != 200 {
		t.Fatalf("%d %s", r.code, r.body)
	}
	for _, leak := range []string{"Bob", "bob", "Tokyo"} {
		if strings.Contains(r.body, leak) {
			t.Errorf("ada's export holds %q: %s", leak, r.body)
		}
	}
	persons := r.json(t)["persons"].([]any)
	if len(persons) != 3 {
		t.Fatalf("%d persons, want 3", len(persons))
	}
	for i, p := range persons {
		p := p.(map[string]any)
		notes := p["notes"].([]any)
		if p["first_name"] != fmt.Sprintf("Ada%d", i) || len(notes) != 1 || notes[0].(map[string]any)["content"] != fmt.Sprintf("ada's note %d", i) ||
			p["stay_in_touch"] != nil || len(p["tasks"].([]any)) != 0 {
			t.Errorf("person %d: %v", i, p)
		}
	}
}

// TestExportInBatches crosses batch boundaries: every person keeps their
// own rows, in order.
func TestExportInBatches(t *testing.T) {
	e := newEnv(t)
	_, key := e.user("ada@example.com")
	const n = 2*transfer.ExportBatch + 51
	var doc strings.Builder
	doc.WriteString(`{"kith_export":1,"persons":[`)
	for i := range n {
		if i > 0 {
			doc.WriteString(",")
		}
		fmt.Fprintf(&doc, `{"first_name":"P%d","notes":[{"content":"n%d"}],"important_dates":[{"label":"d%d","month":1,"day":%d}]}`, i, i, i, 1+i%28)
	}
	doc.WriteString("]}")
	e.send(key, "POST", "/api/import", doc.String())
	persons := e.export(key)["persons"].([]any)
	if len(persons) != n {
		t.Fatalf("%d persons, want %d", len(persons), n)
	}
	for i, p := range persons {
		p := p.(map[string]any)
		note := p["notes"].([]any)[0].(map[string]any)["content"]
		label := p["important_dates"].([]any)[0].(map[string]any)["label"]
		if p["first_name"] != fmt.Sprint("P", i) || note != fmt.Sprint("n", i) || label != fmt.Sprint("d", i) {
			t.Fatalf("person %d: %v %v %v", i, p["first_name"], note, label)
		}
	}
}

// TestImportDefaultsNotDoubled imports a document that names the
// defaults of a new account and a few of its own, twice in a row into
// two accounts: each has the defaults once.
func TestImportDefaultsNotDoubled(t *testing.T) {
	e := newEnv(t)
	_, key := e.user("ada@example.com")
	r := e.do(req{method: "POST", path: "/api/import", key: key, body: `{"kith_export":1,
		"task_categories":[{"id":1,"name":"Birthday","color":"bg-black"},{"id":2,"name":"Birthday","color":"bg-white"}],
		"genders":[{"id":1,"name":"Woman","position":1},{"id":2,"name":"Man","position":2}],
		"journals":[{"name":"My first journal","entries":[{"year":2025,"month":1,"day":1}]}],
		"persons":[{"first_name":"Ann","gender_id":1,"tasks":[{"name":"Cake","task_category_id":2}]}]}`})
	if r.code != 200 || !strings.Contains(r.body, `"merged":4`) || !strings.Contains(r.body, `"task_categories":1`) {
		t.Fatalf("%d %s", r.code, r.body)
	}
	cats := e.do(req{method: "GET", path: "/api/administration/task-categories", key: key}).json(t)["data"].([]any)
	genders := e.do(req{method: "GET", path: "/api/administration/genders", key: key}).json(t)["data"].([]any)
	journals := e.do(req{method: "GET", path: "/api/journals", key: key}).json(t)["data"].([]any)
	if len(cats) != 7 || len(genders) != 3 || len(journals) != 1 {
		t.Errorf("%d categories (want 6 and a second Birthday), %d genders, %d journals", len(cats), len(genders), len(journals))
	}
	doc := e.export(key)
	ann := doc["persons"].([]any)[0].(map[string]any)
	task := ann["tasks"].([]any)[0].(map[string]any)
	byID := func(section string, id any) map[string]any {
		for _, v := range doc[section].([]any) {
			if row := v.(map[string]any); row["id"] == id {
				return row
			}
		}
		return nil
	}
	if g := byID("genders", ann["gender_id"]); g == nil || g["name"] != "Woman" || g["position"] != 1.0 {
		t.Errorf("Ann's gender: %v", g)
	}
	if c := byID("task_categories", task["task_category_id"]); c == nil || c["color"] != "bg-white" {
		t.Errorf("the cake's category: %v", c)
	}
}

// TestCardSizeOnEveryWayIn: a card keeps at most 1 MiB of properties Kith
// has no field for, as a CardDAV PUT can send, through the JSON import's
// vcard_extra and the vCard import alike: a larger one, sent whole on every
// sync, is refused (422 naming the place) or skipped with the reason.
func TestCardSizeOnEveryWayIn(t *testing.T) {
	e := newEnv(t)
	_, key := e.user("ada@example.com")
	huge := strings.Repeat("A", 1<<20)
	doc := `{"kith_export":1,"persons":[{"first_name":"Photo","vcard_extra":"PHOTO;ENCODING=b:` + huge + `\r\n"}]}`
	e.run(t, []scenario{
		{"a JSON import's card over 1 MiB", req{method: "POST", path: "/api/import", key: key, body: doc}, 422,
			[]string{`"persons.0.vcard_extra":["persons.0: The vcard extra field must not be greater than 1048576 characters."]`}},
		{"a vCard import's card over 1 MiB", req{method: "POST", path: "/api/import/vcard", key: key, ctype: "text/vcard",
			body: "BEGIN:VCARD\r\nVERSION:3.0\r\nFN:Photo\r\nX-SOUND;ENCODING=b:" + huge + "\r\nEND:VCARD\r\n"}, 200,
			[]string{`"created":0`, `"reason":"the card's other properties are larger than 1 MiB"`}},
	})
	if r := e.do(req{method: "GET", path: "/api/persons", key: key}); !strings.Contains(r.body, `"total":0`) {
		t.Errorf("a card over the limit was kept: %.200s", r.body)
	}
}
