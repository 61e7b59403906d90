package server

import (
	"bytes"
	"encoding/json"
	"mime/multipart"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strings"
	"testing"
	"time"
)

// webMonicaFile is a small Monica export: Ada with an email, an address
// that is none (a problem), a note, a task and a weekly reminder (dropped);
// Charles with a phone; a contact without a name (skipped); a document
// (dropped).
func webMonicaFile(t testing.TB) []byte {
	t.Helper()
	types := []any{
		mobj{"uuid": "t-email", "properties": mobj{"name": "Email", "protocol": "mailto:", "type": "email"}},
		mobj{"uuid": "t-phone", "properties": mobj{"name": "Phone", "protocol": "tel:", "type": "phone"}},
	}
	doc := mobj{"version": "1.0-preview.1", "app_version": "4.1.2", "export_date": "2026-03-01T10:00:00.000000Z",
		"url": "https://monica.example", "exported_by": "u-1",
		"account": mobj{"uuid": "acc-1", "created_at": monicaStamp, "updated_at": monicaStamp,
			"data": []any{
				coll("contact",
					mo("w-ada", person("Ada", "Lovelace", nil),
						coll("contact_field", field("wf-1", "t-email", "ada@example.com"), field("wf-2", "t-email", "not an email")),
						coll("note", mo("wn-1", mobj{"body": "Loves poetry.", "is_favorite": false})),
						coll("task", mo("wt-1", mobj{"title": "Send the notes", "completed": false})),
						coll("reminder", reminder("wr-1", "Water plants", "2024-01-01", "week", 2, true, false))),
					mo("w-charles", person("Charles", "Babbage", nil),
						coll("contact_field", field("wf-3", "t-phone", "+44 20 7946 0000"))),
					mo("w-nobody", person("", "", nil))),
				coll("document", mo("wd-1", mobj{"original_filename": "letter.pdf"})),
			},
			"properties": mobj{"journal_entries": []any{}},
			"instance":   mobj{"genders": []any{}, "contact_field_types": types}}}
	b, err := json.Marshal(doc)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// importToken is the check page's token in a redirect to it.
func importToken(t testing.TB, pg page, kind string) string {
	t.Helper()
	prefix := "/settings/import/" + kind + "/"
	loc := pg.header.Get("Location")
	if pg.code != http.StatusSeeOther || !strings.HasPrefix(loc, prefix) {
		t.Fatalf("a checked file: %d %q\n%.600s", pg.code, loc, pg.body)
	}
	return strings.TrimPrefix(loc, prefix)
}

// signInKey signs in as the user of key.
func (e *env) signInKey(t testing.TB, key string) *browser {
	t.Helper()
	var me struct {
		Data struct {
			Attributes struct{ Email string }
		}
	}
	if err := json.Unmarshal([]byte(e.do(req{method: "GET", path: "/api/me", key: key}).body), &me); err != nil {
		t.Fatal(err)
	}
	return e.signIn(t, me.Data.Attributes.Email)
}

// monicaToken signs in as the user of key, checks webMonicaFile on the
// Data page and answers the check's token, for the routes that take one.
func (e *env) monicaToken(t testing.TB, key string) string {
	t.Helper()
	b := e.signInKey(t, key)
	b.get("/settings/data")
	return importToken(t, b.upload("/settings/import/monica", "monica.json", webMonicaFile(t)), "monica")
}

// csvToken is monicaToken's for a spreadsheet whose columns are mapped.
func (e *env) csvToken(t testing.TB, key string) string {
	t.Helper()
	b := e.signInKey(t, key)
	b.get("/settings/data")
	token := strings.TrimSuffix(importToken(t, b.uploadCSV("Name,Mail\nGrace,grace@example.com\n", ""), "csv"), "/columns")
	b.get("/settings/import/csv/" + token + "/columns")
	b.post("/settings/import/csv/"+token+"/columns", url.Values{"c0": {"first_name"}, "c1": {"email"}}).
		redirects(t, "/settings/import/csv/"+token)
	return token
}

// personNames are the first names of the account's persons, as the API
// lists them.
func (e *env) personNames(t testing.TB, key string) string {
	t.Helper()
	var list struct {
		Data []struct {
			FirstName string `json:"first_name"`
		} `json:"data"`
	}
	if err := json.Unmarshal([]byte(e.do(req{method: "GET", path: "/api/persons?limit=100", key: key}).body), &list); err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, p := range list.Data {
		names = append(names, p.FirstName)
	}
	return strings.Join(names, ",")
}

// TestWebImportMonica: Settings → Data checks a Monica export by a dry run,
// says what the import would do, and imports it when asked, once.
func TestWebImportMonica(t *testing.T) {
	e := newEnv(t)
	adaUser, key := e.user("ada@example.com")
	b := e.signIn(t, "ada@example.com")
	pg := b.get("/settings/data")
	pg.has(t, `<h3 id="monica">Import from Monica</h3>`, `action="/settings/import/monica" enctype="multipart/form-data"`,
		`<label for="monica-file">Monica export (JSON)`, `<button type="submit">Check file</button>`)

	// A form without its token is refused, and nothing kept.
	pg = b.upload("/settings/import/monica", "monica.json", webMonicaFile(t), "forged")
	if pg.code != http.StatusForbidden {
		t.Errorf("a forged token: %d", pg.code)
	}

	// Files Kith refuses: beside the field, with the API's words.
	for name, c := range map[string]struct {
		file, want string
	}{
		"not JSON":  {"{nope", `id="monica-file-err">The file is not valid JSON: line 1, column 2`},
		"no Monica": {`{"persons":[]}`, `id="monica-file-err">The file is not a Monica JSON export.`},
		"empty":     {"", `id="monica-file-err">The file field is required.`},
	} {
		b.get("/settings/data")
		pg = b.upload("/settings/import/monica", "monica.json", []byte(c.file))
		if pg.code != http.StatusUnprocessableEntity {
			t.Errorf("%s: %d %.300s", name, pg.code, pg.body)
			continue
		}
		pg.has(t, c.want, "<h1>Data</h1>")
	}
	b.get("/settings/data")
	b.upload("/settings/import/monica", "", nil).has(t, `id="monica-file-err">The file field is required.`)

	// Over 64 MiB: 413, answered before the file is read.
	b.get("/settings/data")
	pg = b.upload("/settings/import/monica", "monica.json", bytes.Repeat([]byte(" "), 64<<20+1))
	pg.status(t, http.StatusRequestEntityTooLarge)
	pg.has(t, `id="monica-file-err">The request body is too large.`, "<h1>Data</h1>")
	if got := e.personNames(t, key); got != "" {
		t.Fatalf("refused files wrote persons: %s", got)
	}

	// The check: a page of what the import would do, nothing written.
	b.get("/settings/data")
	token := importToken(t, b.upload("/settings/import/monica", "monica.json", webMonicaFile(t)), "monica")
	check := "/settings/import/monica/" + token
	pg = b.get(check)
	pg.status(t, http.StatusOK)
	pg.has(t, "<h1>Import from Monica</h1>", "<dt>New people</dt><dd>2</dd>", "<dt>People updated</dt><dd>0</dd>",
		"<dt>Unchanged</dt><dd>0</dd>", "<dt>Skipped</dt><dd>1</dd>", "<strong>No name</strong>", "the contact has no name",
		"<dt>Notes</dt><dd>1</dd>", "<dt>Tasks</dt><dd>1</dd>", "<dt>Contact details</dt><dd>2</dd>",
		"<dt>Reminders</dt><dd>1</dd>", "<dt>Documents</dt><dd>1</dd>",
		"<strong>Ada Lovelace</strong> <span class=\"small muted\">· email</span>", "must be a valid email address",
		`action="`+check+`"`, `<button type="submit" class="">Import</button>`,
		`action="`+check+`/cancel"`, `>Cancel</button>`)
	if got := e.personNames(t, key); got != "" {
		t.Fatalf("the check wrote persons: %s", got)
	}

	// Another account's user, and another user of this account, find no
	// such check, and cannot import or cancel it.
	e.user("bob@example.com")
	bob := e.signIn(t, "bob@example.com")
	e.userIn(adaUser.AccountID, "cy@example.com")
	cy := e.signIn(t, "cy@example.com")
	for _, other := range []*browser{bob, cy} {
		other.get(check).status(t, http.StatusNotFound)
		other.get("/settings/data")
		other.post(check, nil).status(t, http.StatusNotFound)
		other.get("/settings/data")
		other.post(check+"/cancel", nil).status(t, http.StatusNotFound)
	}
	b.get(check).status(t, http.StatusOK)
	// Import and Cancel without the session's token do nothing.
	b.post(check, url.Values{"csrf": {"forged"}}).status(t, http.StatusForbidden)
	b.post(check+"/cancel", url.Values{"csrf": {"forged"}}).status(t, http.StatusForbidden)
	if got := e.personNames(t, key); got != "" {
		t.Fatalf("a forged Import wrote persons: %s", got)
	}
	b.get(check).status(t, http.StatusOK)

	// Import: the people, a flash, the check gone.
	pg = b.post(check, nil)
	pg.redirects(t, "/people")
	b.follow(pg).has(t, "Imported 2 people; updated 0.", "Ada Lovelace", "Charles Babbage")
	if got := e.personNames(t, key); got != "Ada,Charles" {
		t.Fatalf("after the import: %q", got)
	}
	// Pressed twice (a second tab, a reload): the file is gone.
	b.get("/settings/data")
	pg = b.post(check, nil)
	pg.status(t, http.StatusGone)
	pg.has(t, `id="monica-file-err">This import has expired: choose the file again.`, "<h1>Data</h1>")
	b.get(check).status(t, http.StatusGone)
	if got := e.personNames(t, key); got != "Ada,Charles" {
		t.Fatalf("after a second Import: %q", got)
	}

	// The same file again: nobody new, two unchanged.
	b.get("/settings/data")
	again := "/settings/import/monica/" + importToken(t, b.upload("/settings/import/monica", "monica.json", webMonicaFile(t)), "monica")
	b.get(again).has(t, "<dt>New people</dt><dd>0</dd>", "<dt>Unchanged</dt><dd>2</dd>")
	// Cancel deletes it.
	pg = b.post(again+"/cancel", nil)
	pg.redirects(t, "/settings/data")
	b.follow(pg).has(t, "Import cancelled: nothing was imported.")
	b.get(again).status(t, http.StatusGone)
	b.get("/settings/data")
	b.post(again, nil).status(t, http.StatusGone)

	// An hour later, a check has expired.
	b.get("/settings/data")
	late := "/settings/import/monica/" + importToken(t, b.upload("/settings/import/monica", "monica.json", webMonicaFile(t)), "monica")
	e.clock.Advance(59 * time.Minute)
	b.get(late).status(t, http.StatusOK)
	e.clock.Advance(2 * time.Minute)
	pg = b.get(late)
	pg.status(t, http.StatusGone)
	pg.has(t, "This import has expired: choose the file again.")
	b.get("/settings/data")
	b.post(late, nil).status(t, http.StatusGone)
	if got := e.personNames(t, key); got != "Ada,Charles" {
		t.Fatalf("at the end: %q", got)
	}
	// A token that never was.
	b.get("/settings/import/monica/"+url.PathEscape("nothing-here")).status(t, http.StatusGone)
}

// uploadCSV posts the Data page's CSV form: a file and a format.
func (b *browser) uploadCSV(content, format string) page {
	b.t.Helper()
	var body bytes.Buffer
	w := multipart.NewWriter(&body)
	w.WriteField("csrf", b.csrf)
	w.WriteField("format", format)
	f, err := w.CreateFormFile("file", "contacts.csv")
	if err != nil {
		b.t.Fatal(err)
	}
	f.Write([]byte(content))
	w.Close()
	r := httptest.NewRequest(http.MethodPost, "/settings/import/csv", &body)
	r.Header.Set("Content-Type", w.FormDataContentType())
	return b.send(r)
}

// TestWebImportCSV: Settings → Data checks a CSV file; Google's is
// checked at once, another spreadsheet's columns are mapped first, each
// by a select prefilled from its name; then Import, once.
func TestWebImportCSV(t *testing.T) {
	e := newEnv(t)
	_, key := e.user("ada@example.com")
	e.user("bob@example.com")
	b := e.signIn(t, "ada@example.com")
	pg := b.get("/settings/data")
	pg.has(t, `<h3 id="csv">Import a CSV file</h3>`, `action="/settings/import/csv" enctype="multipart/form-data"`,
		`<label for="csv-file">CSV file`, `<label for="csv-format">Format</label>`, `<option value="" selected>Detect</option>`,
		`<option value="google">Google Contacts</option>`, `<option value="outlook">Outlook</option>`,
		`<option value="generic">Another spreadsheet</option>`)

	// Refusals, beside their fields, the format kept.
	pg = b.uploadCSV("First Name\nGrace\n", "bogus")
	pg.status(t, http.StatusUnprocessableEntity)
	pg.has(t, `id="csv-format-err">The selected format is invalid.`)
	b.get("/settings/data")
	pg = b.uploadCSV("Name,Email\n\"Grace,grace@example.com\n", "generic")
	pg.status(t, http.StatusUnprocessableEntity)
	pg.has(t, `id="csv-file-err">line 2: `, `<option value="generic" selected>Another spreadsheet</option>`)
	b.get("/settings/data")
	pg = b.uploadCSV("", "")
	pg.has(t, `id="csv-file-err">The file field is required.`)

	// Google's export: checked at once.
	b.get("/settings/data")
	google := "First Name,Last Name,E-mail 1 - Label,E-mail 1 - Value,Photo\nGrace,Hopper,* Work,grace@navy.example,https://x.example/p.jpg\n,,,,\n"
	check := "/settings/import/csv/" + importToken(t, b.uploadCSV(google, ""), "csv")
	pg = b.get(check)
	pg.has(t, "<h1>Import a CSV file</h1>", "It has 1 row (Google Contacts).", "<dt>New people</dt><dd>1</dd>",
		"<dt>Contact details</dt><dd>1</dd>", "Columns not read", "Photo")
	pg.lacks(t, "Change what the columns hold")
	b.follow(b.post(check, nil)).has(t, "Imported 1 person; updated 0.", "Grace Hopper")

	// Another spreadsheet: its columns first.
	b.get("/settings/data")
	sheet := "Prénom;Nom;Courriel;Notes;Couleur\nAda;Lovelace;ada@example.com;Loves poetry;blue\nCharles;Babbage;not an email;;green\n"
	pg = b.uploadCSV(sheet, "")
	token := importToken(t, pg, "csv")
	check = "/settings/import/csv/" + strings.TrimSuffix(token, "/columns")
	if !strings.HasSuffix(token, "/columns") {
		t.Fatalf("a spreadsheet goes to %s", pg.header.Get("Location"))
	}
	b.get(check).redirects(t, check+"/columns")
	b.post(check, nil).redirects(t, check+"/columns")
	pg = b.get(check + "/columns")
	pg.status(t, http.StatusOK)
	pg.has(t, "<h1>Import a CSV file</h1>", `<label for="columns-c0">Prénom</label>`, `<label for="columns-c2">Courriel</label>`,
		`<select id="columns-c3" name="c3"><option value="first_name">First name</option>`,
		`<option value="notes" selected>Notes</option>`, `<option value="ignore" selected>Ignore</option>`,
		`<option value="postal_code">Postal code</option>`, ">Check file</button>", ">Cancel</button>")

	// Bob, of another account, finds none of it.
	bob := e.signIn(t, "bob@example.com")
	bob.get(check+"/columns").status(t, http.StatusNotFound)
	bob.get("/settings/data")
	bob.post(check+"/columns", url.Values{"c0": {"first_name"}}).status(t, http.StatusNotFound)

	b.get(check + "/columns")
	b.post(check+"/columns", url.Values{"csrf": {"forged"}, "c0": {"first_name"}}).status(t, http.StatusForbidden)
	b.get(check).redirects(t, check+"/columns")
	b.get(check + "/columns")
	columns := url.Values{"c0": {"first_name"}, "c1": {"last_name"}, "c2": {"email"}, "c3": {"notes"}, "c4": {"colour"}}
	pg = b.post(check+"/columns", columns)
	pg.status(t, http.StatusUnprocessableEntity)
	pg.has(t, `id="columns-c4-err">The selected field is invalid.`, `<option value="email" selected>Email</option>`)
	columns.Set("c4", "ignore")
	b.post(check+"/columns", columns).redirects(t, check)
	pg = b.get(check)
	pg.has(t, "It has 2 rows (a spreadsheet).", "<dt>New people</dt><dd>2</dd>", "<dt>Notes</dt><dd>1</dd>",
		"<strong>Line 3: Charles Babbage</strong> <span class=\"small muted\">· Courriel</span>", "Couleur",
		`href="`+check+`/columns">Change what the columns hold`)
	if got := e.personNames(t, key); got != "Grace" {
		t.Fatalf("the check wrote persons: %q", got)
	}
	// The columns again show what was chosen.
	b.get(check+"/columns").has(t, `<option value="email" selected>Email</option>`)
	b.get(check)
	pg = b.post(check, nil)
	pg.redirects(t, "/people")
	b.follow(pg).has(t, "Imported 2 people; updated 0.")
	if got := e.personNames(t, key); got != "Grace,Ada,Charles" {
		t.Errorf("imported: %q", got)
	}
	if body := e.do(req{method: "GET", path: "/api/persons?limit=100&q=ada@example.com", key: key}).body; !strings.Contains(body, "Lovelace") {
		t.Errorf("no Ada by her email: %s", body)
	}
	b.get(check+"/columns").status(t, http.StatusGone)
	b.get("/settings/data")
	b.post(check, nil).status(t, http.StatusGone)
}
