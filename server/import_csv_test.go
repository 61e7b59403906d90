package server

import (
	"bytes"
	"fmt"
	"mime/multipart"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func csvFixture(t testing.TB, name string) []byte {
	t.Helper()
	b, err := os.ReadFile(filepath.Join("transfer", "testdata", "csv", name))
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// csvForm is a multipart body with the file (none when nil) and fields.
func csvForm(t testing.TB, file []byte, fields map[string]string) (body, ctype string) {
	var buf bytes.Buffer
	w := multipart.NewWriter(&buf)
	for k, v := range fields {
		if err := w.WriteField(k, v); err != nil {
			t.Fatal(err)
		}
	}
	if file != nil {
		fw, err := w.CreateFormFile("file", "contacts.csv")
		if err != nil {
			t.Fatal(err)
		}
		fw.Write(file)
	}
	w.Close()
	return buf.String(), w.FormDataContentType()
}

// importCSV posts the file as the body, and answers the data.
func (e *env) importCSV(key string, file []byte, ctype, query string) map[string]any {
	e.t.Helper()
	r := e.do(req{method: "POST", path: "/api/import/csv" + query, key: key, body: string(file), ctype: ctype})
	if r.code != 200 {
		e.t.Fatalf("import: %d %s", r.code, r.body)
	}
	return r.json(e.t)["data"].(map[string]any)
}

// csvGoogleWant is the answer of google.csv's import into an account whose
// one person, Grace, has the email of the file's Grace.
const csvGoogleWant = `{"object":"csv_import","dry_run":false,"format":"google","rows":7,
"created":5,"updated":1,"unchanged":0,
"skipped":[{"line":7,"name":"","reason":"the row has no name"}],
"counts":{"persons":6,"contact_details":15,"important_dates":4,"notes":1,"tasks":0,"gifts":0,"life_events":0,
 "interactions":0,"work_history":1,"relationships":0,"tags":3,"photos":0,"journal_entries":0},
"ignored_columns":["Phonetic First Name","Phonetic Middle Name","Phonetic Last Name","File As","Organization Department",
 "Photo","Relation 1 - Label","Relation 1 - Value","Custom Field 1 - Label","Custom Field 1 - Value"],
"problems":[
 {"line":6,"name":"Bobby Tables","column":"Birthday","reason":"not a date: 1990-02-30"},
 {"line":8,"name":"Acme Corp","column":"Organization Name","reason":"The job title field is required."},
 {"line":9,"name":"Curie","column":"Event 1 - Value","reason":"not a date: last spring"},
 {"line":9,"name":"Curie","column":"E-mail 1 - Value","reason":"The value field must be a valid email address."},
 {"line":9,"name":"Curie","column":"Website 1 - Value","reason":"The value field must be a valid URL."}]}`

func TestCSVImport(t *testing.T) {
	e := newEnv(t)
	_, key := e.user("owner@example.com")
	grace := e.person(key, "first_name=Grace&last_name=Hopper&nickname=Amazing")
	if r := e.do(req{method: "POST", path: "/api/persons/" + grace + "/contact-details?kind=email&value=Grace@Navy.example", key: key}); r.code != 201 {
		t.Fatalf("%d %s", r.code, r.body)
	}
	// Another account, with the same email and names: never matched.
	_, other := e.user("other@example.com")
	stranger := e.person(other, "first_name=Ada&last_name=Lovelace")
	e.do(req{method: "POST", path: "/api/persons/" + stranger + "/contact-details?kind=email&value=ada@home.example", key: other})
	otherBefore := e.do(req{method: "GET", path: "/api/persons/" + stranger, key: other}).body

	file := csvFixture(t, "google.csv")
	before := e.tableCounts()
	// A dry run, sent as a browser's form: the form's options win over
	// the query's.
	body, ctype := csvForm(t, file, map[string]string{"dry_run": "true", "format": "google"})
	r := e.do(req{method: "POST", path: "/api/import/csv?dry_run=0&format=outlook", key: key, body: body, ctype: ctype})
	if r.code != 200 {
		t.Fatalf("dry run: %d %s", r.code, r.body)
	}
	dry := r.json(t)["data"].(map[string]any)
	e.sameCounts(t, "the dry run", before)

	got := e.importCSV(key, file, "text/csv", "")
	want := jsonValue(t, csvGoogleWant)
	sameJSON(t, "the import's answer", got, want)
	dry["dry_run"] = false
	sameJSON(t, "the dry run's answer", dry, want)
	if n := e.count(`SELECT count(*) FROM logs WHERE action = 'csv_import' AND description = ?`,
		"Imported 5 persons and updated 1 from a CSV file"); n != 1 {
		t.Errorf("%d log entries of the import, want 1", n)
	}

	byName := e.personsByName(key)
	ada := byName["Lady Ada King Lovelace"]
	if ada == nil {
		ada = byName["Ada Lovelace"]
	}
	if ada == nil {
		t.Fatalf("no Ada among %v", mapKeys(anyMap(byName)))
	}
	equalLists(t, "Ada's details", e.detailsOf(key, ada["id"]), []string{
		"email|home|ada@home.example", "email|work|ada@work.example", "email|work|ada.l@work.example",
		"phone|mobile|+44 20 7946 0958", "phone|Grandma's landline|020 7946 0000",
		"address|home|12 St James's Square\nFlat 2\nPO Box 7/London/<nil>/SW1Y 4JH/GB",
		"address|work|1 Engine Way\nCambridge/<nil>/<nil>/<nil>/<nil>",
		"website|Blog|https://ada.example/blog"})
	first := e.list(key, fmt.Sprintf("/api/persons/%v/contact-details?kind=email", ada["id"]))[0]
	if first["value"] != "ada@home.example" {
		t.Errorf("Ada's first email %v: the primary one goes first", first["value"])
	}
	equalLists(t, "Ada's dates", e.datesOf(key, ada["id"]), []string{"birthday|1815-12-10|true",
		"anniversary|1835-07-08|true", "First met|--03-15|false"})
	equalLists(t, "Ada's notes", e.notesOf(key, ada["id"]), []string{"First programmer.\nLoved poetry."})
	wantField(t, ada, "tags", "[Book club Friends]")
	curie := byName["Curie"]
	age := curie["age"].(map[string]any)
	delete(age, "age") // the test clock's
	wantField(t, curie, "age", "map[age_type:exact birth_day:7 birth_month:11 birth_year:1967 yearly_reminder:true]")
	// Grace was there: she gains what she lacked, and keeps the rest.
	equalLists(t, "Grace's details", e.detailsOf(key, grace), []string{"email|<nil>|Grace@Navy.example",
		"phone|work|555-0100", "phone|work|555-0101",
		"address|work|<nil>/Arlington/VA/<nil>/US", "address|work|<nil>/Washington/DC/<nil>/US"})
	equalLists(t, "Grace's dates", e.datesOf(key, grace), []string{"birthday|--12-09|true"})

	// The same file again: every row matched, nothing written but the log.
	afterFirst := e.tableCounts()
	again := e.importCSV(key, file, "application/octet-stream", "")
	wantAgain := jsonValue(t, csvGoogleWant).(map[string]any)
	wantAgain["created"], wantAgain["updated"], wantAgain["unchanged"] = 0.0, 0.0, 6.0
	for k := range wantAgain["counts"].(map[string]any) {
		wantAgain["counts"].(map[string]any)[k] = 0.0
	}
	sameJSON(t, "the second import's answer", again, wantAgain)
	afterFirst["logs"]++
	e.sameCounts(t, "the second import", afterFirst)

	if got := e.do(req{method: "GET", path: "/api/persons/" + stranger, key: other}).body; got != otherBefore {
		t.Errorf("the other account's person changed:\n%s\n%s", otherBefore, got)
	}
}

// TestCSVImportFormats: Outlook's Windows-1252 file, a generic file with
// ; and a mapping in the query, and files with a byte order mark (UTF-8,
// UTF-16), each read as its format says.
func TestCSVImportFormats(t *testing.T) {
	e := newEnv(t)
	_, key := e.user("owner@example.com")
	out := e.importCSV(key, csvFixture(t, "outlook-windows.csv"), "text/plain", "")
	if out["format"] != "outlook" || out["created"] != 3.0 || out["rows"] != 3.0 {
		t.Errorf("Outlook: %v", out)
	}
	jose := e.personsByName(key)["Mr. José Müller Jr."]
	if jose == nil {
		jose = e.personsByName(key)["José Müller"]
	}
	if jose == nil {
		t.Fatalf("no José among %v", mapKeys(anyMap(e.personsByName(key))))
	}
	equalLists(t, "José's notes", e.notesOf(key, jose["id"]), []string{"Likes “flat white” — no sugar…\nOwes me 10 €"})
	wantField(t, jose, "tags", "[Friends Kunden VIP]")

	mapping := `{"Prénom":"first_name","Nom":"last_name","Courriel":"email","Courriel pro":"email","Téléphone":"phone",
		"Rue":"street","Ville":"city","Code postal":"postal_code","Pays":"country","Anniversaire":"birthday",
		"Étiquettes":"tags","Remarques":"notes","Société":"company","Poste":"job_title"}`
	// text/plain: the OpenAPI check would read a text/csv body with commas.
	out = e.importCSV(key, csvFixture(t, "generic-semicolon.csv"), "text/plain", "?mapping="+url.QueryEscape(mapping))
	sameJSON(t, "the generic import's skipped and ignored", []any{out["format"], out["rows"], out["created"], out["skipped"],
		out["ignored_columns"]}, jsonValue(t, `["generic", 4, 3, [{"line":4,"name":"","reason":"the row has no name"}],
		["Inutile","Extra"]]`))
	// A spreadsheet saved as UTF-8 with a byte order mark, and one saved as
	// Excel's "Unicode text" (UTF-16 with its mark): the mark is no part of
	// the first column's name.
	out = e.importCSV(key, []byte("\ufefffirst_name,last_name,email\nBérénice,Bom,berenice@example.org\n"), "text/plain", "")
	if out["format"] != "generic" || out["created"] != 1.0 {
		t.Errorf("a UTF-8 file with a BOM: %v", out)
	}
	utf16 := []byte{0xff, 0xfe}
	for _, r := range "first_name,last_name\nÜlle,Sixteen\n" {
		utf16 = append(utf16, byte(r), byte(r>>8))
	}
	out = e.importCSV(key, utf16, "text/plain", "")
	if out["format"] != "generic" || out["created"] != 1.0 {
		t.Errorf("a UTF-16 file: %v", out)
	}
	if e.personsByName(key)["Bérénice Bom"] == nil || e.personsByName(key)["Ülle Sixteen"] == nil {
		t.Errorf("the BOM and UTF-16 files' people: %v", mapKeys(anyMap(e.personsByName(key))))
	}

	amelie := e.personsByName(key)["Amélie Poulain"]
	equalLists(t, "Amélie's details", e.detailsOf(key, amelie["id"]), []string{"email|<nil>|amelie@example.fr",
		"email|<nil>|amelie@cafe.example", "phone|<nil>|+33 1 42 00 00 00",
		"address|<nil>|15 Rue des Trois Frères/Paris/<nil>/75018/FR"})
}

// TestCSVImportErrors: every refusal of §6 answers its status and words,
// and writes nothing.
func TestCSVImportErrors(t *testing.T) {
	e := newEnv(t)
	_, key := e.user("owner@example.com")
	e.person(key, "first_name=There")
	before := e.tableCounts()
	broken := "first_name,last_name,notes\nA,One,x\nB,Two,x\nC,Three,x\nD,Four,\"two\nlines\"\nE,Five,\"never closed\nF,Six,x\n"
	noFile, noFileType := csvForm(t, nil, map[string]string{"dry_run": "1"})
	emptyFile, emptyFileType := csvForm(t, []byte{}, nil)
	rows := "first_name\n" + strings.Repeat("A\n", 20001)
	for _, c := range []struct {
		name, query, body, ctype, key string
		status                        int
		field, message                string
	}{
		{"no key", "", "first_name\nA\n", "text/csv", "-", 401, "", "Unauthenticated."},
		{"an empty body", "", "", "text/csv", key, 422, "file", "The file field is required."},
		{"a form without a file", "", noFile, noFileType, key, 422, "file", "The file field is required."},
		{"a form with an empty file", "", emptyFile, emptyFileType, key, 422, "file", "The file field is required."},
		{"a quote never closed", "", broken, "text/csv", key, 422, "file", "line 7: a quoted field is not closed."},
		{"too many fields", "", "first_name,last_name\nA,B\nC,D,E\n", "text/csv", key, 422, "file",
			"line 3: the record has 3 fields, more than the header's 2."},
		{"an unknown header", "", "Prénom,Courriel\nA,b@example.com\n", "text/csv", key, 422, "file",
			"The columns were not recognized: send a mapping."},
		{"an unknown format", "?format=excel", "first_name\nA\n", "text/csv", key, 422, "format", "The selected format is invalid."},
		{"a mapping that is no object", "?mapping=%5B%5D", "first_name\nA\n", "text/csv", key, 422, "mapping",
			"The mapping field must be a JSON object."},
		{"a mapping to no field", "?mapping=" + url.QueryEscape(`{"Prénom":"given"}`), "Prénom\nA\n", "text/csv", key, 422,
			"mapping.Prénom", "The mapping.Prénom field is invalid."},
		{"a mapping of no column", "?mapping=" + url.QueryEscape(`{"Nom":"last_name"}`), "Prénom\nA\n", "text/csv", key, 422,
			"mapping.Nom", "The mapping.Nom field names no column."},
		{"a bad dry_run", "?dry_run=maybe", "first_name\nA\n", "text/csv", key, 422, "dry_run",
			"The dry run field must be true or false."},
		{"20,001 rows", "", rows, "text/csv", key, 413, "", "The file has more than 20000 rows."},
	} {
		t.Run(c.name, func(t *testing.T) {
			k := c.key
			if k == "-" {
				k = ""
			}
			r := e.do(req{method: "POST", path: "/api/import/csv" + c.query, key: k, body: c.body, ctype: c.ctype})
			if r.code != c.status {
				t.Fatalf("%d %s, want %d", r.code, r.body, c.status)
			}
			got := r.json(t)
			if c.field == "" {
				if got["message"] != c.message {
					t.Errorf("message %v, want %q", got["message"], c.message)
				}
			} else if errs, _ := got["errors"].(map[string]any)[c.field].([]any); len(errs) == 0 || errs[0] != c.message {
				t.Errorf("errors.%s %v, want %q: %s", c.field, errs, c.message, r.body)
			}
		})
	}
	// Over 20 MiB, by the declared length: refused before it is read.
	big := "first_name,notes\nA," + strings.Repeat("x", 20<<20) + "\n"
	if r := e.do(req{method: "POST", path: "/api/import/csv", key: key, body: big, ctype: "text/csv"}); r.code != 413 ||
		!strings.Contains(r.body, "The request body is too large.") {
		t.Errorf("over 20 MiB: %d %.200s", r.code, r.body)
	}
	e.sameCounts(t, "the refused files", before)
}

// BenchmarkCSVImport5000 imports a Google file of 5,000 contacts (a name,
// an email, a phone and a label each) into an empty account, through
// the route: §1's speed rule.
func BenchmarkCSVImport5000(b *testing.B) {
	var file bytes.Buffer
	file.WriteString("First Name,Last Name,Labels,E-mail 1 - Label,E-mail 1 - Value,Phone 1 - Label,Phone 1 - Value\r\n")
	for i := range 5000 {
		fmt.Fprintf(&file, "Person%d,Number%d,* myContacts ::: Friends,* Home,person%d@example.com,Mobile,+1 555 %07d\r\n", i, i, i, i)
	}
	for b.Loop() {
		b.StopTimer()
		e := newEnv(b)
		_, key := e.user("owner@example.com")
		b.StartTimer()
		out := e.importCSV(key, file.Bytes(), "text/plain", "")
		if out["created"] != 5000.0 {
			b.Fatalf("%v", out["created"])
		}
	}
}
