package server

import (
	"cmp"
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"reflect"
	"slices"
	"strings"
	"testing"
	"time"

	"kith/server/transfer"
)

// send makes a request that must succeed and returns its data.
func (e *env) send(key, method, path, body string) map[string]any {
	e.t.Helper()
	r := e.do(req{method: method, path: path, key: key, body: body})
	if r.code >= 300 {
		e.t.Fatalf("%s %s: %d %s", method, path, r.code, r.body)
	}
	if r.code == 204 {
		return nil
	}
	data, _ := r.json(e.t)["data"].(map[string]any)
	return data
}

// export returns the caller's export, decoded.
func (e *env) export(key string) map[string]any {
	e.t.Helper()
	r := e.do(req{method: "GET", path: "/api/export", key: key})
	if r.code != 200 {
		e.t.Fatalf("export: %d %s", r.code, r.body)
	}
	if r.header.Get("Content-Type") != "application/json" || !strings.HasPrefix(r.header.Get("Content-Disposition"), `attachment; filename="kith-export-`) {
		e.t.Errorf("export headers: %v", r.header)
	}
	return r.json(e.t)
}

// fillAccount gives the account of key every kind of data Kith keeps,
// through the API but for a card's UID and extra vCard properties, which
// only an import (or, later, a vCard) brings.
func (e *env) fillAccount(key string) {
	e.t.Helper()
	e.send(key, "POST", "/api/import", `{"kith_export":1,"persons":[{"first_name":"Carded","uid":"urn:uuid:6f1c1f0e-0000-4000-8000-000000000001",
		"vcard_extra":"X-PHONETIC-FIRST-NAME:Kardid\r\nPHOTO;ENCODING=b;TYPE=JPEG:/9j/4AAQSkZJRg==\r\n"}]}`)
	e.send(key, "PUT", "/api/me/timezone", `{"timezone":"Europe/Paris"}`)
	e.send(key, "PUT", "/api/me/reminders", `{"send_at":"07:30","days":14}`)
	coffee := fmt.Sprint(e.send(key, "POST", "/api/administration/task-categories", `{"name":"Coffee","color":"bg-amber-100"}`)["id"])
	e.send(key, "PUT", "/api/administration/task-categories/2", `{"name":"Call","color":"bg-pink-100"}`)
	nonbinary := e.send(key, "POST", "/api/administration/genders", `{"name":"Nonbinary"}`)["id"].(string)
	woman := fmt.Sprint(e.do(req{method: "GET", path: "/api/administration/genders", key: key}).json(e.t)["data"].([]any)[1].(map[string]any)["id"])
	e.send(key, "PUT", "/api/administration/genders/"+woman, `{"name":"Woman","position":7}`)
	travels := e.journal(key, "Travels")
	e.send(key, "GET", "/api/journals/"+travels+"/2025/7/14", "")
	e.send(key, "GET", "/api/journals/"+travels+"/2024/2/29", "")

	ada := e.person(key, "first_name=Ada&last_name=Lovelace&middle_name=King&nickname=Adie&maiden_name=Byron&prefix=Lady"+
		"&suffix=II&marital_status=couple&kids_status=has_kids&can_be_deleted=0&is_listed=false&gender_id="+nonbinary)
	base := "/api/persons/" + ada
	e.send(key, "PUT", base, `{"first_name":"Ada","last_name":"Lovelace","middle_name":"King","nickname":"Adie","maiden_name":"Byron",
		"prefix":"Lady","suffix":"II","how_we_met":"At Babbage's salon.\nThen by letter.","marital_status":"couple",
		"kids_status":"has_kids","can_be_deleted":false,"is_listed":false,"gender_id":`+nonbinary+`}`)
	e.send(key, "PATCH", base+"/age", `{"age_type":"exact","age_year":1985,"age_month":12,"age_day":10,"add_yearly_reminder":true}`)
	e.send(key, "PATCH", base+"/physical-appearance", `{"height":"170 cm","eye_color":"green","voice":"low"}`)
	e.contactDetail(key, ada, "kind=email&label=work&value=ada@example.org")
	e.contactDetail(key, ada, "kind=phone&value=%2B44+20+7946+0958")
	e.send(key, "POST", base+"/contact-details", `{"kind":"address","label":"home","street":"12 St James's Square\nFlat 2","city":"London","country":"gb"}`)
	e.contactDetail(key, ada, "kind=website&value=https://example.org/ada")
	e.contactDetail(key, ada, "kind=social&network=mastodon&value=@ada@example.social")
	e.send(key, "POST", base+"/important-dates", `{"label":"anniversary","date":"--06-15","remind_yearly":true}`)
	e.send(key, "POST", base+"/important-dates", `{"label":"met","year":2010,"month":3,"day":1}`)
	e.note(key, ada, "First note")
	e.send(key, "POST", base+"/notes", `{"content":"Café ☕ & <b>bold</b>\n\nSecond paragraph."}`)
	e.send(key, "POST", base+"/gifts", `{"name":"Book","status":"idea","url":"https://example.com/b?x=1&y=2","occasion":"birthday","date":"2025-12-10"}`)
	e.send(key, "POST", base+"/gifts", `{"name":"Scarf","status":"given"}`)
	e.send(key, "POST", base+"/life-events", `{"description":"Moved to Paris","happened_at":"2020-05-01","should_be_reminded":true,
		"comment":"With the cat","icon":"house","bg_color":"#fff","text_color":"#000"}`)
	e.send(key, "POST", base+"/work-history", `{"job_title":"Analyst","company_name":"Engines Ltd","estimated_salary":"£100","duration":"2y","active":false}`)
	e.send(key, "POST", base+"/work-history", `{"job_title":"Programmer","active":true}`)
	e.task(key, ada, "name=Buy+coffee&due_at=2026-04-01&task_category_id="+coffee)
	done := e.task(key, ada, "name=Call+back&task_category_id=2")
	e.send(key, "PUT", "/api/tasks/"+done+"/toggle", "")
	e.task(key, ada, "name=No+category")
	e.send(key, "POST", base+"/interactions", `{"happened_on":"2026-03-01","kind":"call","note":"Long call.\nAbout engines."}`)
	e.send(key, "POST", base+"/interactions", `{"happened_on":"2026-02-01","kind":"meeting"}`)
	e.send(key, "PUT", base+"/stay-in-touch", `{"every_days":30}`)

	e.clock.Advance(48 * time.Hour) // so that each row's times differ from the next's
	grace := e.person(key, "first_name=Grace&gender_id=1")
	e.send(key, "PATCH", "/api/persons/"+grace+"/age", `{"age_type":"estimated","estimated_age":40,"add_yearly_reminder":false}`)
	alan := e.person(key, "first_name=Alan&gender_id="+woman)
	e.send(key, "PATCH", "/api/persons/"+alan+"/age", `{"age_type":"bracket","age_bracket":"20-30","add_yearly_reminder":false}`)
	e.person(key, "first_name=Plain")
	e.fillPeople(key, ada, grace, alan, travels)
}

// normalized is an export with what may differ between two accounts of
// the same data taken out: when it was made, and the ids that tie it
// together, which become the names they stand for.
func normalized(t *testing.T, doc map[string]any) map[string]any {
	t.Helper()
	b, _ := json.Marshal(doc)
	var d map[string]any
	json.Unmarshal(b, &d)
	delete(d, "exported_at")
	names := func(section string) map[string]string {
		m := map[string]string{}
		for _, v := range d[section].([]any) {
			row := v.(map[string]any)
			m[fmt.Sprint(row["id"])] = row["name"].(string)
			delete(row, "id")
		}
		return m
	}
	genders, categories := names("genders"), names("task_categories")
	var relationships []map[string]any
	for _, v := range d["persons"].([]any) {
		p := v.(map[string]any)
		if id := p["gender_id"]; id != nil {
			p["gender_id"] = genders[fmt.Sprint(id)]
		}
		for _, tv := range p["tasks"].([]any) {
			task := tv.(map[string]any)
			if id := task["task_category_id"]; id != nil {
				task["task_category_id"] = categories[fmt.Sprint(id)]
			}
		}
		for _, rv := range p["relationships"].([]any) {
			relationships = append(relationships, rv.(map[string]any))
		}
	}
	rankIDs(relationships)
	return d
}

// rankIDs puts in the place of each row's id its rank among the rows' ids,
// which is what a relationship's id means in an export: their order.
func rankIDs(rows []map[string]any) {
	sorted := slices.Clone(rows)
	slices.SortFunc(sorted, func(a, b map[string]any) int { return cmp.Compare(a["id"].(float64), b["id"].(float64)) })
	for i, row := range sorted {
		row["id"] = i + 1
	}
}

func TestExportImportRoundTrip(t *testing.T) {
	e := newEnv(t)
	_, ada := e.user("ada@example.com")
	e.fillAccount(ada)
	first := e.export(ada)

	e.clock.Advance(30 * 24 * time.Hour)
	bob, bobKey := e.user("bob@example.com")
	r := e.do(req{method: "POST", path: "/api/import", key: bobKey, body: mustJSON(t, first)})
	if r.code != 200 {
		t.Fatalf("import: %d %s", r.code, r.body)
	}
	for _, frag := range []string{`"object":"import"`, `"persons":5`, `"contact_details":5`, `"important_dates":2`, `"notes":2`,
		`"gifts":2`, `"life_events":1`, `"work_history":2`, `"tasks":3`, `"interactions":2`, `"stay_in_touch":1`,
		`"task_categories":1`, `"genders":1`, `"journals":1`, `"journal_entries":2`, `"merged":10`,
		`"relationship_types":13`, `"relationships":3`, `"tags":4`, `"photos":2`} {
		if !strings.Contains(r.body, frag) {
			t.Errorf("import answer lacks %s: %s", frag, r.body)
		}
	}
	second := e.export(bobKey)
	if a, b := normalized(t, first), normalized(t, second); !reflect.DeepEqual(a, b) {
		t.Errorf("the export of the import differs:\n first %s\nsecond %s", mustJSON(t, a), mustJSON(t, b))
	}

	// What the API shows of the import, beyond the document: the same
	// ages, a new account's defaults not doubled, the importer's logs.
	for _, path := range []string{"/api/persons?per_page=10", "/api/administration/task-categories", "/api/administration/genders", "/api/journals"} {
		a := e.do(req{method: "GET", path: path, key: ada}).json(t)["data"].([]any)
		b := e.do(req{method: "GET", path: path, key: bobKey}).json(t)["data"].([]any)
		if len(a) != len(b) {
			t.Errorf("%s: %d rows, then %d", path, len(a), len(b))
		}
	}
	ages := func(key string) string {
		var out []string
		for _, p := range e.do(req{method: "GET", path: "/api/persons", key: key}).json(t)["data"].([]any) {
			out = append(out, fmt.Sprint(p.(map[string]any)["age"]))
		}
		return strings.Join(out, "; ")
	}
	if a, b := ages(ada), ages(bobKey); a != b {
		t.Errorf("ages differ: %s, then %s", a, b)
	}
	e.samePeopleAnswers(t, ada, bobKey)
	if n := e.count(`SELECT count(*) FROM logs WHERE user_id = ? AND action = 'account_import'`, bob.ID); n != 1 {
		t.Errorf("%d import logs, want 1", n)
	}
	if tz := e.do(req{method: "GET", path: "/api/me/timezone", key: bobKey}); !strings.Contains(tz.body, "Europe/Paris") {
		t.Errorf("the importer's time zone: %s", tz.body)
	}
}

func mustJSON(t *testing.T, v any) string {
	t.Helper()
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// cutWriter keeps what it is sent and, at its first flush, runs cut.
type cutWriter struct {
	discard
	body strings.Builder
	cut  func()
}

func (w *cutWriter) Write(p []byte) (int, error) { w.body.Write(p); return len(p), nil }
func (w *cutWriter) Flush() {
	if w.cut != nil {
		w.cut()
		w.cut = nil
	}
}

// TestExportCutShort: an export that fails once its answer began cuts
// the connection (net/http's ErrAbortHandler), so that no client takes
// the part it got for a whole document.
func TestExportCutShort(t *testing.T) {
	e := newEnv(t)
	_, key := e.user("ada@example.com")
	var doc strings.Builder
	doc.WriteString(`{"kith_export":1,"persons":[`)
	for i := range transfer.ExportBatch + 10 {
		if i > 0 {
			doc.WriteString(",")
		}
		fmt.Fprintf(&doc, `{"first_name":"P%d"}`, i)
	}
	doc.WriteString("]}")
	e.send(key, "POST", "/api/import", doc.String())

	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	r := httptest.NewRequestWithContext(ctx, "GET", "/api/export", nil)
	r.Header.Set("Authorization", "Bearer "+key)
	w := &cutWriter{discard: discard{header: http.Header{}}, cut: cancel} // the client goes after the first batch
	func() {
		defer func() {
			if p := recover(); p != http.ErrAbortHandler {
				t.Errorf("the export ended with %v, not net/http's abort", p)
			}
		}()
		e.srv.ServeHTTP(w, r)
	}()
	if got := w.body.String(); !strings.Contains(got, `"first_name":"P199"`) || strings.HasSuffix(got, "]}\n") {
		t.Errorf("the first batch is not there, or the document was closed: %d bytes", len(got))
	}
	if !strings.Contains(e.logs.String(), "the export stopped after its answer began") {
		t.Errorf("the cut is not logged: %s", e.logs.String())
	}
}
