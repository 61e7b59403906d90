package server

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"mime/multipart"
	"net/http/httptest"
	"reflect"
	"sort"
	"strconv"
	"strings"
	"testing"
)

// monicaForm is a multipart body with the file (none when nil) and the
// fields given.
func monicaForm(t testing.TB, file []byte, fields map[string]string) (body, ctype string) {
	var buf bytes.Buffer
	w := multipart.NewWriter(&buf)
	for k, v := range fields {
		if err := w.WriteField(k, v); err != nil {
			t.Fatal(err)
		}
	}
	if file != nil {
		fw, err := w.CreateFormFile("file", "monica.json")
		if err != nil {
			t.Fatal(err)
		}
		fw.Write(file)
	}
	w.Close()
	return buf.String(), w.FormDataContentType()
}

// importMonica posts the file as the body, and answers the data.
func (e *env) importMonica(key string, file []byte, query string) map[string]any {
	e.t.Helper()
	r := e.do(req{method: "POST", path: "/api/import/monica" + query, key: key, body: string(file), ctype: "application/json"})
	if r.code != 200 {
		e.t.Fatalf("import: %d %s", r.code, r.body)
	}
	return r.json(e.t)["data"].(map[string]any)
}

// importTables are every table an import may write, and the logs.
var importTables = []string{"persons", "contact_details", "important_dates", "notes", "tasks", "gifts", "life_events",
	"interactions", "work_history", "relationships", "relationship_types", "tags", "person_tags", "photos", "genders",
	"journals", "journal_entries", "stay_in_touch", "logs", "deleted_cards"}

// tableCounts counts the rows of importTables, and the accounts' card
// counters, in the whole database.
func (e *env) tableCounts() map[string]int {
	e.t.Helper()
	n := map[string]int{}
	for _, t := range importTables {
		n[t] = e.count(`SELECT count(*) FROM ` + t)
	}
	n["card_seq"] = e.count(`SELECT sum(card_seq) FROM accounts`)
	n["persons.updated_at"] = e.count(`SELECT sum(updated_at) FROM persons`)
	return n
}

// writes is a number that every write of an import makes grow: its rows
// (an import deletes none) and the card counters (which every update of a
// person moves). One query, for the tests that ask often.
func (e *env) writes() int {
	e.t.Helper()
	q := `SELECT (SELECT sum(card_seq) FROM accounts)`
	for _, t := range importTables {
		q += ` + (SELECT count(*) FROM ` + t + `)`
	}
	return e.count(q)
}

func (e *env) sameCounts(t *testing.T, what string, before map[string]int) {
	t.Helper()
	if after := e.tableCounts(); !reflect.DeepEqual(before, after) {
		t.Errorf("%s wrote: before %v\n after %v", what, before, after)
	}
}

// monicaWant is the answer of the fixture's import into an account whose
// one person, Grace, has the email of contact c15.
const monicaWant = `{"object":"monica_import","dry_run":false,"created":30,"updated":1,"unchanged":0,
"skipped":[
 {"item":"account.data.1.values.4","uuid":"c05","name":"","reason":"the contact has no name"},
 {"item":"account.data.1.values.30","uuid":"c30","name":"Twin Two","reason":"another contact of the file has its uuid"}],
"counts":{"persons":31,"contact_details":12,"important_dates":5,"notes":9,"tasks":3,"gifts":1,"life_events":2,
 "interactions":5,"work_history":1,"relationships":11,"tags":3,"photos":1,"journal_entries":2},
"dropped":{"reminders":3,"documents":1,"photos":2},
"problems":[
 {"item":"account.data.1.values.10.data.0.values.0","uuid":"cf-11","name":"Bad Email","field":"email","reason":"The value field must be a valid email address."},
 {"item":"account.data.1.values.11.data.0.values.0","uuid":"cf-13","name":"Bad Website","field":"website","reason":"The value field must be a valid URL."},
 {"item":"account.data.1.values.11.data.0.values.1","uuid":"cf-14","name":"Bad Website","field":"contact_field","reason":"the contact field type cft-unknown is not in the file"},
 {"item":"account.data.1.values.13","uuid":"c14","name":"Long Tag","field":"tags","reason":"The tags.0 field must not be greater than 50 characters."},
 {"item":"account.data.1.values.24.data.0.values.0","uuid":"call-25","name":"Future Caller","field":"interaction","reason":"The happened on field must be a date before or equal to tomorrow."},
 {"item":"account.data.1.values.25.properties.avatar","uuid":"c26","name":"Broken Avatar","field":"photo","reason":"The photo field must be a file of type: jpeg, png, gif, webp."},
 {"item":"account.data.1.values.26.properties.avatar","uuid":"c27","name":"Missing Avatar","field":"photo","reason":"the photo p-gone is not in the file"},
 {"item":"account.data.1.values.27","uuid":"c28","name":"Company Only","field":"work_history","reason":"The job title field is required."},
 {"item":"account.data.1.values.28","uuid":"c29","name":"Often Seen","field":"gender","reason":"the gender g-missing is not in the file"},
 {"item":"account.data.1.values.28","uuid":"c29","name":"Often Seen","field":"stay_in_touch_frequency","reason":"The every days field must be between 1 and 3650."},
 {"item":"account.data.1.values.32","uuid":"c32","name":"Zed","field":"first_met_through","reason":"the contact c05 was skipped"},
 {"item":"account.data.2.values.3","uuid":"r-4","name":"Has Stranger","field":"relationship","reason":"the contact c99 is not in the file"},
 {"item":"account.data.2.values.4","uuid":"r-5","name":"Knows Skipped","field":"relationship","reason":"the contact c05 was skipped"}]}`

func jsonValue(t testing.TB, s string) any {
	t.Helper()
	var v any
	if err := json.Unmarshal([]byte(s), &v); err != nil {
		t.Fatal(err)
	}
	return v
}

// sameJSON fails unless got is want.
func sameJSON(t *testing.T, what string, got, want any) {
	t.Helper()
	if !reflect.DeepEqual(got, want) {
		g, _ := json.Marshal(got)
		w, _ := json.Marshal(want)
		t.Errorf("%s:\n got %s\nwant %s", what, g, w)
	}
}

// rowsOf is a person's rows of one kind, each as its fields given, sorted.
func (e *env) rowsOf(key string, id any, kind string, fields ...string) []string {
	parent := "persons"
	if kind == "entries" {
		parent = "journals"
	}
	e.t.Helper()
	var out []string
	for _, row := range e.list(key, fmt.Sprintf("/api/%s/%v/%s", parent, id, kind)) {
		var parts []string
		for _, f := range fields {
			v := row[f]
			switch x := v.(type) {
			case map[string]any:
				v = x["name"]
			case float64:
				v = strconv.FormatFloat(x, 'f', -1, 64)
			}
			parts = append(parts, fmt.Sprint(v))
		}
		out = append(out, strings.Join(parts, "|"))
	}
	sort.Strings(out)
	return out
}

func TestMonicaImport(t *testing.T) {
	e := newEnv(t)
	_, key := e.user("owner@example.com")
	grace := e.person(key, "first_name=Grace&how_we_met=At+work")
	for _, p := range []string{"/contact-details?kind=email&value=grace@example.com", "/notes?content=Old+note"} {
		if r := e.do(req{method: "POST", path: "/api/persons/" + grace + p, key: key}); r.code != 201 {
			t.Fatalf("%s: %d %s", p, r.code, r.body)
		}
	}
	// Another account, with the same emails and names: never matched.
	_, other := e.user("other@example.com")
	stranger := e.person(other, "first_name=Ada&last_name=Byron")
	e.do(req{method: "POST", path: "/api/persons/" + stranger + "/contact-details?kind=email&value=ada@example.com", key: other})
	e.person(other, "first_name=Grace")
	// and a card whose UID is a contact's uuid, as Monica's vCard export
	// writes it.
	if r := e.do(req{method: "POST", path: "/api/import/vcard", key: other, ctype: "text/vcard",
		body: "BEGIN:VCARD\r\nVERSION:3.0\r\nUID:c02\r\nFN:Charles B\r\nN:B;Charles;;;\r\nEND:VCARD\r\n"}); r.code != 200 {
		t.Fatalf("vCard: %d %s", r.code, r.body)
	}
	charlesB := e.personsByName(other)["Charles B"]["id"]
	otherBefore := e.do(req{method: "GET", path: "/api/persons/" + stranger, key: other}).body

	file := monicaFixture(t)
	before := e.tableCounts()
	// A dry run, sent as a browser's form: dry_run in the form wins over
	// the query's.
	body, ctype := monicaForm(t, file, map[string]string{"dry_run": "1"})
	r := e.do(req{method: "POST", path: "/api/import/monica?dry_run=0", key: key, body: body, ctype: ctype})
	if r.code != 200 {
		t.Fatalf("dry run: %d %s", r.code, r.body)
	}
	dry := r.json(t)["data"].(map[string]any)
	e.sameCounts(t, "the dry run", before)

	got := e.importMonica(key, file, "")
	want := jsonValue(t, monicaWant)
	sameJSON(t, "the import's answer", got, want)
	dry["dry_run"] = false
	sameJSON(t, "the dry run's answer", dry, want)
	if n := e.count(`SELECT count(*) FROM logs WHERE action = 'monica_import' AND description = ?`,
		"Imported 30 persons and updated 1 from Monica"); n != 1 {
		t.Errorf("%d log entries of the import, want 1", n)
	}

	t.Run("persons", func(t *testing.T) { checkMonicaPersons(t, e, key, grace) })

	// The same file again: everything matched by its uid, nothing written
	// but the log entry.
	afterFirst := e.tableCounts()
	again := e.importMonica(key, file, "")
	wantAgain := jsonValue(t, monicaWant).(map[string]any)
	wantAgain["created"], wantAgain["updated"], wantAgain["unchanged"] = 0.0, 0.0, 31.0
	for k := range wantAgain["counts"].(map[string]any) {
		wantAgain["counts"].(map[string]any)[k] = 0.0
	}
	sameJSON(t, "the second import's answer", again, wantAgain)
	afterFirst["logs"]++
	e.sameCounts(t, "the second import", afterFirst)

	if got := e.do(req{method: "GET", path: "/api/persons/" + stranger, key: other}).body; got != otherBefore {
		t.Errorf("the other account's person changed:\n%s\n%s", otherBefore, got)
	}
	if n := e.count(`SELECT count(*) FROM persons p JOIN users u ON u.account_id = p.account_id WHERE u.email = 'other@example.com'`); n != 3 {
		t.Errorf("the other account has %d persons, want 3", n)
	}

	// Into the other account, the same file finds Charles by his card's
	// UID and Ada by her email (ignoring case), and makes the others.
	theirs := e.importMonica(other, file, "")
	if theirs["created"] != 29.0 || theirs["updated"] != 2.0 || theirs["unchanged"] != 0.0 {
		t.Errorf("into the other account: %v created, %v updated, %v unchanged", theirs["created"], theirs["updated"], theirs["unchanged"])
	}
	byName := e.personsByName(other)
	if _, ok := byName["Charles Babbage"]; ok {
		t.Errorf("Charles was made again: %v", byName["Charles Babbage"])
	}
	wantField(t, byName["Charles B"], "id", charlesB)
	wantField(t, byName["Ada Byron"], "id", stranger)
}

// checkMonicaPersons checks what the fixture made, through the API.
func checkMonicaPersons(t *testing.T, e *env, key string, graceID string) {
	byName := e.personsByName(key)
	if len(byName) != 31 {
		t.Errorf("%d persons, want 31", len(byName))
	}
	get := func(name string) map[string]any {
		p, ok := byName[name]
		if !ok {
			t.Fatalf("no person %q", name)
		}
		return p
	}
	ada := get("Ada Byron")
	for k, v := range map[string]any{"middle_name": "Augusta", "nickname": "Ada L.", "how_we_met": "Met through Charles Babbage",
		"has_photo": true, "is_listed": true, "tags": "[Book club, Reading family]", "gender": "map[id:2 name:Woman]",
		"age": "map[age:40 age_type:exact birth_day:10 birth_month:12 birth_year:1985 yearly_reminder:true]"} {
		wantField(t, ada, k, v)
	}
	equalLists(t, "Ada's details", e.detailsOf(key, ada["id"]), []string{
		"email|<nil>|Ada@Example.com", "phone|<nil>|+44 20 7946 0958", "social|<nil>|twitter:@ada",
		"website|<nil>|https://ada.example", "social|<nil>|linkedin:ada-lovelace", "social|<nil>|mastodon:@ada@mastodon.example",
		"address|home|12 St James's Square/London/<nil>/SW1Y 4JH/GB"})
	equalLists(t, "Ada's dates", e.datesOf(key, ada["id"]), []string{"met|1833-06-05|false", "Wedding anniversary|2012-07-08|true"})
	equalLists(t, "Ada's notes", e.rowsOf(key, ada["id"], "notes", "content", "created_at"), []string{
		"Wrote the first program.|1773576000", "Food preferences: No fish|1773576000", "Loves poetry.\nAnd numbers.|1714816800",
		"Owes you 25 GBP|1714816800", "You owe 12.50 EUR (settled)|1714816800", "Pet: Puff (cat)|1714816800", "Pet: Rex|1714816800"})
	equalLists(t, "Ada's tasks", e.rowsOf(key, ada["id"], "tasks", "name", "is_completed", "due_at", "completed_at"), []string{
		"Send the notes|false|<nil>|<nil>", "Read Menabrea|true|<nil>|1706950800", "Return the book|false|1777593600|<nil>"})
	equalLists(t, "Ada's gifts", e.rowsOf(key, ada["id"], "gifts", "name", "status", "url", "gifted_at"), []string{
		"A slide rule|idea|https://shop.example/rule|1766534400"})
	equalLists(t, "Ada's life events", e.rowsOf(key, ada["id"], "life-events", "description", "comment", "happened_at", "should_be_reminded"),
		[]string{"New job|At the Engines Ltd|1725148800|false", "Ran a marathon|<nil>|1727740800|false"})
	equalLists(t, "Ada's work", e.rowsOf(key, ada["id"], "work-history", "job_title", "company_name", "active"),
		[]string{"Analyst|Analytical Engines Ltd|true"})
	equalLists(t, "Ada's interactions", e.rowsOf(key, ada["id"], "interactions", "kind", "happened_on", "note"), []string{
		"call|2025-01-10|About the engine", "meeting|2025-02-01|Dinner\nAt the club",
		"message|2025-02-02|Me: Did you see the engine?\nAda: Yes!"})
	equalLists(t, "Ada's relationships", e.rowsOf(key, ada["id"], "relationships", "type", "person"), []string{
		"child|Child Byron", "parent|Annabella Milbanke", "best friend|Grace Hopper"})
	if r := e.do(req{method: "GET", path: fmt.Sprintf("/api/persons/%v/stay-in-touch", ada["id"]), key: key}); !strings.Contains(r.body, `"every_days":30`) {
		t.Errorf("Ada's stay in touch: %s", r.body)
	}
	if r := e.do(req{method: "GET", path: fmt.Sprintf("/api/persons/%v/photo", ada["id"]), key: key}); r.code != 200 ||
		r.header.Get("Content-Type") != "image/jpeg" {
		t.Errorf("Ada's photo: %d %s", r.code, r.header.Get("Content-Type"))
	}

	charles := get("Charles Babbage")
	wantField(t, charles, "gender", "map[id:1 name:Man]")
	wantField(t, charles, "age", "map[age:60 age_type:estimated estimated_at:1.7723232e+09]")
	equalLists(t, "Charles's details", e.detailsOf(key, charles["id"]), []string{"email|<nil>|charles@example.com",
		"address|work|1 Dorset St/Berlin/Berlin/10115/DE", "address|Summer house|<nil>/Poseidonis/Sea, Atlantis/<nil>/<nil>"})
	equalLists(t, "Charles's relationships", e.rowsOf(key, charles["id"], "relationships", "type", "person"), []string{
		"godfather|Child Byron", "mentee|Grace Hopper"})

	wantField(t, get("Lovey"), "nickname", "Lovey")
	wantField(t, get("Menabrea"), "last_name", "<nil>")
	wantField(t, get("Annabella Milbanke"), "is_listed", false)
	wantField(t, get("Archie Ved"), "is_listed", false)
	wantField(t, get("Sam Other")["gender"].(map[string]any), "name", "Non-binary")
	equalLists(t, "a deceased contact's dates", e.datesOf(key, get("Gone Early")["id"]),
		[]string{"birthday|--04-03|false", "deceased|1852-11-27|true"})
	wantField(t, get("Gone Quietly"), "age", "map[age:76 age_type:exact birth_day:1 birth_month:2 birth_year:1950 yearly_reminder:false]")
	equalLists(t, "a death without a date", e.notesOf(key, get("Gone Quietly")["id"]), []string{"Deceased"})
	equalLists(t, "a birthday without a year", e.datesOf(key, get("Yearless Birthday")["id"]), []string{"birthday|--08-15|true"})
	equalLists(t, "a bad email left out", e.detailsOf(key, get("Bad Email")["id"]), []string{"phone|<nil>|555 0100"})
	wantField(t, get("Long Tag"), "tags", "[ok]")
	equalLists(t, "a long call cut at 2000 characters", e.rowsOf(key, get("Future Caller")["id"], "interactions", "happened_on"),
		[]string{"2025-03-01"})
	equalLists(t, "love", e.rowsOf(key, get("Love Bird")["id"], "relationships", "type", "person"), []string{
		"in love with|Zed", "ex-husband|Lone Friend"})
	equalLists(t, "partners", e.rowsOf(key, get("Pat Partner")["id"], "relationships", "type", "person"), []string{"partner|Quinn Partner"})
	equalLists(t, "a lone friend", e.rowsOf(key, get("Other Friend")["id"], "relationships", "type", "person"), []string{"friend|Lone Friend"})
	equalLists(t, "a boss", e.rowsOf(key, get("Sub Ordinate")["id"], "relationships", "type", "person"), []string{"manager|Boss Person"})
	equalLists(t, "a new type", e.rowsOf(key, get("Long Tag")["id"], "relationships", "type", "person"), []string{"neighbor|Sam Other"})

	// Grace was there: she gains what she lacked, and keeps the rest.
	grace := get("Grace Hopper")
	wantField(t, grace, "id", graceID)
	wantField(t, grace, "how_we_met", "At work")
	equalLists(t, "Grace's details", e.detailsOf(key, graceID), []string{"email|<nil>|grace@example.com", "phone|<nil>|(555) 010-0200"})
	equalLists(t, "Grace's notes", e.rowsOf(key, graceID, "notes", "content"), []string{"Old note", "New from Monica"})

	var monica any
	for _, j := range e.list(key, "/api/journals") {
		if j["name"] == "Monica" {
			monica = j["id"]
		}
	}
	if monica == nil {
		t.Fatal("no journal Monica")
	}
	equalLists(t, "the journal's entries", e.rowsOf(key, monica, "entries", "year", "month", "day", "body"), []string{
		"2025|5|1|A good day\n\nWe met.\n\nLater\n\nTea.", "2025|6|2|Only a post."})
}

func TestMonicaImportRefusals(t *testing.T) {
	e := newEnv(t)
	_, key := e.user("owner@example.com")
	e.person(key, "first_name=Already")
	good := string(monicaFixture(t))
	post := func(body string) req {
		return req{method: "POST", path: "/api/import/monica", key: key, body: body, ctype: "application/json"}
	}
	form := func(file []byte, fields map[string]string) req {
		body, ctype := monicaForm(t, file, fields)
		return req{method: "POST", path: "/api/import/monica", key: key, body: body, ctype: ctype}
	}
	fileErr := func(msgs ...string) []string {
		b, _ := json.Marshal(map[string]any{"file": msgs})
		return []string{string(b)}
	}
	contact := func(props string) string {
		return `{"version":"1.0-preview.1","account":{"data":[{"count":1,"type":"contact","values":[{"uuid":"c1","properties":` +
			props + `}]}]}}`
	}
	before := e.tableCounts()
	e.run(t, []scenario{
		{"without a key", req{method: "POST", path: "/api/import/monica", body: good}, 401, errBody(401, "Unauthenticated.")},
		{"a form without a file", form(nil, map[string]string{"dry_run": "1"}), 422, errBody(422, "The file field is required.")},
		{"an empty file", form([]byte{}, nil), 422, errBody(422, "The file field is required.")},
		{"an empty body", post(""), 422, errBody(422, "The file field is required.")},
		{"a file that is not JSON, by line and column", form([]byte("{\n  \"version\": 1.0-preview\n}"), nil), 422,
			fileErr("The file is not valid JSON: line 2, column 17: invalid character '-' after object key:value pair")},
		{"a file cut short", form([]byte(`{"account": {"data": [`), nil), 422,
			fileErr("The file is not valid JSON: line 1, column 23: unexpected end of JSON input")},
		{"a body that is not JSON", post("BEGIN:VCARD\r\nVERSION:3.0\r\nEND:VCARD\r\n"), 400, errBody(400, "The request body is not valid JSON.")},
		{"data after the object", post(`{"account":{"data":[]}} {}`), 400, errBody(400, "The request body is not valid JSON.")},
		{"no account", post(`{"version":"1.0"}`), 422, fileErr("The file is not a Monica JSON export.")},
		{"an array", post(`[{"account":{"data":[]}}]`), 422, fileErr("The file is not a Monica JSON export.")},
		{"account not an object", post(`{"account":[]}`), 422, fileErr("The file is not a Monica JSON export.")},
		{"data not an array", post(`{"account":{"data":{}}}`), 422, fileErr("The file is not a Monica JSON export.")},
		{"a Kith export", post(`{"kith_export":1,"persons":[{"first_name":"Ada"}]}`), 422, fileErr("The file is not a Monica JSON export.")},
		{"a later version", post(`{"version":"2.0","account":{"data":[]}}`), 422,
			fileErr("The file is a Monica export of version 2.0, which Kith does not read.")},
		{"a name that is no string", post(contact(`{"first_name":12}`)), 422,
			fileErr("account.data.0.values.0.properties.first_name: a string was expected.")},
		{"several wrong types, each by its path", post(contact(`{"first_name":"A","tags":"x","is_dead":"yes",` +
			`"birthdate":{"date":"last spring"}}`)), 422,
			fileErr("account.data.0.values.0.properties.tags: an array was expected.",
				"account.data.0.values.0.properties.is_dead: a boolean was expected.",
				"account.data.0.values.0.properties.birthdate.date: a date was expected.")},
		{"a contact without a uuid", post(`{"account":{"data":[{"type":"contact","values":[{"properties":{}}]}]}}`), 422,
			fileErr("account.data.0.values.0.uuid: a string was expected.")},
		{"a collection without a type", post(`{"account":{"data":[{"values":[]}]}}`), 422,
			fileErr("account.data.0.type: a string was expected.")},
		{"values not an array", post(`{"account":{"data":[{"type":"contact","values":{}}]}}`), 422,
			fileErr("account.data.0.values: an array was expected.")},
		{"a bad date in a note's collection", post(`{"account":{"data":[{"type":"contact","values":[{"uuid":"c","properties":` +
			`{"first_name":"A"},"data":[{"type":"call","values":[{"uuid":"k","properties":{"called_at":"soon"}}]}]}]}]}}`), 422,
			fileErr("account.data.0.values.0.data.0.values.0.properties.called_at: a date was expected.")},
		{"a dry run that is no boolean", req{method: "POST", path: "/api/import/monica?dry_run=maybe", key: key, body: good,
			ctype: "application/json"}, 422, errBody(422, "The dry run field must be true or false.")},
	})
	e.sameCounts(t, "a refused file", before)
}

// A body over 64 MiB is refused before it is read whole: by its length,
// or, sent in chunks, as soon as reading passes the limit.
func TestMonicaImportTooLarge(t *testing.T) {
	e := newEnv(t)
	_, key := e.user("owner@example.com")
	before := e.tableCounts()
	hr := httptest.NewRequest("POST", "/api/import/monica", strings.NewReader("{}"))
	hr.ContentLength = 64<<20 + 1
	hr.Header.Set("Content-Type", "application/json")
	hr.Header.Set("Authorization", "Bearer "+key)
	rec := httptest.NewRecorder()
	e.srv.ServeHTTP(rec, hr)
	if rec.Code != 413 || !strings.Contains(rec.Body.String(), "The request body is too large.") {
		t.Errorf("by Content-Length: %d %s", rec.Code, rec.Body)
	}
	for _, multipartBody := range []bool{false, true} {
		// A valid export's start, then padding without end.
		var body io.Reader = io.MultiReader(strings.NewReader(`{"account":{"data":[],"pad":"`), neverEnding('x'))
		hr = httptest.NewRequest("POST", "/api/import/monica", io.LimitReader(body, 65<<20))
		ctype := "application/json"
		if multipartBody {
			pr, pw := io.Pipe()
			w := multipart.NewWriter(pw)
			go func() {
				fw, _ := w.CreateFormFile("file", "monica.json")
				_, err := io.Copy(fw, io.LimitReader(body, 65<<20))
				pw.CloseWithError(err)
			}()
			hr = httptest.NewRequest("POST", "/api/import/monica", pr)
			ctype = w.FormDataContentType()
		}
		hr.ContentLength = -1
		hr.Header.Set("Content-Type", ctype)
		hr.Header.Set("Authorization", "Bearer "+key)
		rec = httptest.NewRecorder()
		e.srv.ServeHTTP(rec, hr)
		if rec.Code != 413 || !strings.Contains(rec.Body.String(), "The request body is too large.") {
			t.Errorf("chunked (multipart %v): %d %s", multipartBody, rec.Code, rec.Body)
		}
	}
	e.sameCounts(t, "a refused body", before)
}

type neverEnding byte

func (b neverEnding) Read(p []byte) (int, error) {
	for i := range p {
		p[i] = byte(b)
	}
	return len(p), nil
}

// Malformed files of every sort get a 4xx or a 200, never a 5xx (which
// e.do fails on), and a refused one writes nothing.
func TestMonicaImportGarbage(t *testing.T) {
	e := newEnv(t)
	_, key := e.user("owner@example.com")
	bodies := monicaGarbage(string(monicaFixture(t)))
	before := e.writes()
	for i, b := range bodies {
		for _, asForm := range []bool{false, true} {
			r := post(e, key, b, asForm)
			if r.code != 200 && (r.code < 400 || r.code > 499) {
				t.Errorf("body %d (form %v): %d %s", i, asForm, r.code, r.body)
			}
			after := e.writes()
			if r.code != 200 && after != before {
				t.Errorf("body %d (form %v) was refused (%d) and wrote", i, asForm, r.code)
			}
			before = after
		}
	}
}

func post(e *env, key, body string, asForm bool) resp {
	if !asForm {
		return e.do(req{method: "POST", path: "/api/import/monica", key: key, body: body, ctype: "application/json"})
	}
	b, ctype := monicaForm(e.t, []byte(body), nil)
	return e.do(req{method: "POST", path: "/api/import/monica", key: key, body: b, ctype: ctype})
}

// monicaGarbage are malformed files of many sorts, around good, a whole
// export.
func monicaGarbage(good string) []string {
	wrap := func(s string) string { return `{"account":{"data":[` + s + `]}}` }
	contact := func(s string) string { return wrap(`{"type":"contact","values":[` + s + `]}`) }
	return []string{
		"\x00\x01\x02", "\xff\xfe{\x00}\x00", "null", "true", "12", `"account"`, "{", "}", "[", `{"account":null}`,
		`{"account":{"data":null}}`, `{"account":{"data":[null]}}`, `{"account":{"data":[1,"x",[]]}}`,
		wrap(`{"type":7,"values":[]}`), wrap(`{"type":"contact","values":[null,1,"x",[]]}`),
		contact(`{"uuid":null}`), contact(`{"uuid":"a","properties":[]}`), contact(`{"uuid":"a","properties":{"first_name":"A"},"data":7}`),
		contact(`{"uuid":"a","properties":{"first_name":"A"},"data":[{"type":"note","values":[{"properties":{"body":7}}]}]}`),
		contact(`{"uuid":"a","properties":{"first_name":"A","birthdate":{"date":"2020-02-30T00:00:00Z"}}}`),
		contact(`{"uuid":"a","properties":{"first_name":"A","birthdate":"1980-01-01"}}`),
		contact(`{"uuid":"a","properties":{"first_name":"A","stay_in_touch_frequency":"often"}}`),
		contact(`{"uuid":"a","properties":{"first_name":"A","stay_in_touch_frequency":1e400}}`),
		contact(`{"uuid":"a","properties":{"first_name":"A","avatar":{"avatar_source":"photo","avatar_photo":7}}}`),
		contact(`{"uuid":"a","properties":{"first_name":"` + strings.Repeat("é", 300) + `"}}`),
		contact(`{"uuid":"a","properties":{"first_name":"A","tags":[null,1,{}]}}`),
		contact(`{"uuid":"a","properties":{"first_name":"A"},"data":[{"type":"activity","values":[7,null]}]}`),
		contact(`{"uuid":"a","properties":{"first_name":"A"},"data":[{"type":"conversation","values":[{"properties":{"messages":[1]}}]}]}`),
		contact(`{"uuid":"a","properties":{"first_name":"A"},"data":[{"type":"debt","values":[{"properties":{"amount":{}}}]}]}`),
		contact(`{"uuid":"a","properties":{"first_name":"A"},"data":[{"type":"reminder","values":[{"properties":{"initial_date":"x"}}]}]}`),
		wrap(`{"type":"relationship","values":[{"properties":{"type":1,"contact_is":[],"of_contact":null}}]}`),
		wrap(`{"type":"photo","values":[{"uuid":"p","properties":{"dataUrl":"data:image/png;base64,!!!"}}]}`),
		`{"account":{"data":[],"properties":{"journal_entries":[{"properties":{"type":"entry","date":"nope"}}]}}}`,
		`{"account":{"data":[],"instance":{"genders":7,"contact_field_types":[1],"life_event_types":[{"properties":[]}]}}}`,
		`{"account":{"data":[]},"export_date":"yesterday"}`, `{"account":{"data":[]},"version":3}`,
		good[:len(good)/2], strings.Replace(good, `"properties"`, `"properties" "x"`, 1), strings.Repeat("[", 100000),
	}
}

// FuzzMonicaImport: whatever the file, a 200 or a 4xx, never a 5xx; a dry
// run answers what the import then does; and a second import of a file
// that imported makes and changes nothing.
//
//	go test ./server -run '^$' -fuzz FuzzMonicaImport -fuzztime 1m
func FuzzMonicaImport(f *testing.F) {
	e := newEnv(f)
	for _, b := range monicaGarbage(string(monicaFixture(f))) {
		f.Add([]byte(b))
	}
	f.Add([]byte(`{"account":{"data":[{"type":"contact","values":[{"uuid":"a","properties":{"first_name":"A"}}]}]}}`))
	accounts := 0
	f.Fuzz(func(t *testing.T, file []byte) {
		e.t = t
		accounts++
		_, key := e.user(fmt.Sprintf("fuzz%d@example.com", accounts))
		r := e.do(req{method: "POST", path: "/api/import/monica?dry_run=true", key: key, body: string(file), ctype: "application/json"})
		if r.code != 200 { // a 5xx fails in e.do
			return
		}
		first := post(e, key, string(file), false)
		if first.code != 200 || strings.Replace(r.body, `"dry_run":true`, `"dry_run":false`, 1) != first.body {
			t.Fatalf("dry run %s\nimport %d %s", r.body, first.code, first.body)
		}
		again := post(e, key, string(file), false)
		if !strings.Contains(again.body, `"created":0,"updated":0,`) {
			t.Fatalf("again: %s", again.body)
		}
	})
}
