package server

import (
	"bytes"
	"encoding/base64"
	"fmt"
	"mime/multipart"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strings"
	"testing"

	"github.com/emersion/go-vcard"

	"kith/server/transfer"
)

// importVCard posts a file of testdata/vcard as a text/vcard body.
func (e *env) importVCard(key, file string) map[string]any {
	e.t.Helper()
	raw, err := os.ReadFile(filepath.Join("testdata", "vcard", file))
	if err != nil {
		e.t.Fatal(err)
	}
	r := e.do(req{method: "POST", path: "/api/import/vcard", key: key, body: string(raw), ctype: "text/vcard"})
	if r.code != 200 {
		e.t.Fatalf("import %s: %d %s", file, r.code, r.body)
	}
	return r.json(e.t)["data"].(map[string]any)
}

// personsByName lists the account's persons by their full name.
func (e *env) personsByName(key string) map[string]map[string]any {
	e.t.Helper()
	r := e.do(req{method: "GET", path: "/api/persons?per_page=100", key: key})
	out := map[string]map[string]any{}
	for _, p := range r.json(e.t)["data"].([]any) {
		m := p.(map[string]any)
		out[m["name"].(string)] = m
	}
	return out
}

// list answers the data list of a GET.
func (e *env) list(key, path string) []map[string]any {
	e.t.Helper()
	r := e.do(req{method: "GET", path: path, key: key})
	if r.code != 200 {
		e.t.Fatalf("GET %s: %d %s", path, r.code, r.body)
	}
	var out []map[string]any
	for _, v := range r.json(e.t)["data"].([]any) {
		out = append(out, v.(map[string]any))
	}
	return out
}

// detailsOf is the person's contact details, each as kind|label|value
// (or the address's parts).
func (e *env) detailsOf(key string, id any) []string {
	e.t.Helper()
	var out []string
	for _, d := range e.list(key, fmt.Sprintf("/api/persons/%v/contact-details", id)) {
		s := fmt.Sprintf("%v|%v|", d["kind"], d["label"])
		if d["kind"] == "address" {
			s += fmt.Sprintf("%v/%v/%v/%v/%v", d["street"], d["city"], d["region"], d["postal_code"], d["country"])
		} else if d["kind"] == "social" {
			s += fmt.Sprintf("%v:%v", d["network"], d["value"])
		} else {
			s += fmt.Sprint(d["value"])
		}
		out = append(out, s)
	}
	sort.Strings(out)
	return out
}

// datesOf is the person's important dates, each as label|date|remind.
func (e *env) datesOf(key string, id any) []string {
	e.t.Helper()
	var out []string
	for _, d := range e.list(key, fmt.Sprintf("/api/persons/%v/important-dates", id)) {
		out = append(out, fmt.Sprintf("%v|%v|%v", d["label"], d["date"], d["remind_yearly"]))
	}
	sort.Strings(out)
	return out
}

func (e *env) notesOf(key string, id any) []string {
	e.t.Helper()
	var out []string
	for _, n := range e.list(key, fmt.Sprintf("/api/persons/%v/notes", id)) {
		out = append(out, n["content"].(string))
	}
	return out
}

func equalLists(t *testing.T, what string, got, want []string) {
	t.Helper()
	sort.Strings(want)
	if !slices.Equal(got, want) {
		t.Errorf("%s:\n got  %q\n want %q", what, got, want)
	}
}

func wantField(t *testing.T, m map[string]any, key string, want any) {
	t.Helper()
	if got := fmt.Sprint(m[key]); got != fmt.Sprint(want) {
		t.Errorf("%s = %s, want %v", key, got, want)
	}
}

func TestVCardImportGoogle(t *testing.T) {
	e := newEnv(t)
	_, key := e.user("ada@example.com")
	sum := e.importVCard(key, "google.vcf")
	wantField(t, sum, "created", 2)
	wantField(t, sum, "updated", 0)
	wantField(t, sum, "skipped", "[]")
	people := e.personsByName(key)
	pam := people["Pam Beesly"]
	if pam == nil {
		t.Fatalf("no Pam Beesly among %v", mapKeys(anyMap(people)))
	}
	wantField(t, pam, "middle_name", "Morgan")
	wantField(t, pam, "nickname", "Pammy")
	age := pam["age"].(map[string]any)
	wantField(t, age, "age_type", "exact")
	wantField(t, age, "birth_year", 1979)
	wantField(t, age, "birth_month", 3)
	wantField(t, age, "birth_day", 25)
	equalLists(t, "Pam's details", e.detailsOf(key, pam["id"]), []string{
		"email|home|pam.beesly@example.com", "email|work|pam@dundermifflin.example",
		"phone|mobile|+1 570-555-0142", "phone|work|(570) 555-0100", "phone|Grandma's landline|+1 570 555 0199",
		"address|home|1725 Slough Avenue/Scranton/PA/18505/US", "website|Portfolio|https://pambeesly.art",
	})
	equalLists(t, "Pam's dates", e.datesOf(key, pam["id"]), []string{"Wedding|2007-05-12|false"})
	equalLists(t, "Pam's notes", e.notesOf(key, pam["id"]), []string{"Loves watercolours.\nAsk about the art show."})
	work := e.list(key, fmt.Sprintf("/api/persons/%v/work-history", pam["id"]))
	if len(work) != 1 || work[0]["job_title"] != "Receptionist" || work[0]["company_name"] != "Dunder Mifflin" || work[0]["active"] != true {
		t.Errorf("Pam's work: %v", work)
	}

	jose := people["José Núñez"]
	if jose == nil {
		t.Fatal("no José Núñez")
	}
	wantField(t, jose["age"].(map[string]any), "age_type", nil)
	equalLists(t, "José's dates", e.datesOf(key, jose["id"]), []string{"birthday|--04-15|true"})
	equalLists(t, "José's details", e.detailsOf(key, jose["id"]), []string{
		"email|<nil>|jose@example.es", "address|work|Calle Mayor 1/Madrid/<nil>/28013/ES"})

	// Google's file has no UIDs: the same file again finds the same persons.
	again := e.importVCard(key, "google.vcf")
	wantField(t, again, "created", 0)
	wantField(t, again, "updated", 2)
	if n := len(e.personsByName(key)); n != 2 {
		t.Errorf("%d persons after importing twice, want 2", n)
	}
	equalLists(t, "Pam's notes after a second import", e.notesOf(key, pam["id"]), []string{"Loves watercolours.\nAsk about the art show."})

	// What Kith has no field for comes back on export.
	card := e.vcardOf(key, pam["id"], "")
	if got := card.Value(vcard.FieldCategories); got != "myContacts,Office" {
		t.Errorf("CATEGORIES = %q, kept from the import", got)
	}
	// The department, which Kith has no field for, stays with the company.
	if got := card.Value(vcard.FieldOrganization); got != "Dunder Mifflin;Sales" {
		t.Errorf("ORG = %q", got)
	}
	// Until the company changes in Kith.
	work = e.list(key, fmt.Sprintf("/api/persons/%v/work-history", pam["id"]))
	e.do(req{method: "PUT", path: fmt.Sprintf("/api/persons/%v/work-history/%v?job_title=Artist&company_name=Pratt&active=1", pam["id"], work[0]["id"]), key: key})
	if got := e.vcardOf(key, pam["id"], "").Value(vcard.FieldOrganization); got != "Pratt" {
		t.Errorf("ORG after a new company = %q", got)
	}
}

// anyMap turns a map of persons into one mapKeys takes.
func anyMap(m map[string]map[string]any) map[string]any {
	out := map[string]any{}
	for k, v := range m {
		out[k] = v
	}
	return out
}

// vcardOf fetches a person's card and parses it with go-vcard.
func (e *env) vcardOf(key string, id any, version string) vcard.Card {
	e.t.Helper()
	path := fmt.Sprintf("/api/persons/%v/vcard", id)
	if version != "" {
		path += "?version=" + version
	}
	r := e.do(req{method: "GET", path: path, key: key})
	if r.code != 200 {
		e.t.Fatalf("GET %s: %d %s", path, r.code, r.body)
	}
	if ct := r.header.Get("Content-Type"); ct != "text/vcard; charset=utf-8" {
		e.t.Errorf("Content-Type %q", ct)
	}
	card, err := vcard.NewDecoder(strings.NewReader(r.body)).Decode()
	if err != nil {
		e.t.Fatalf("parse %s: %v\n%s", path, err, r.body)
	}
	return card
}

func TestVCardImportICloud(t *testing.T) {
	e := newEnv(t)
	_, key := e.user("ada@example.com")
	sum := e.importVCard(key, "icloud.vcf")
	wantField(t, sum, "created", 1)
	jim := e.personsByName(key)["Jim Halpert"]
	if jim == nil {
		t.Fatal("no Jim Halpert")
	}
	equalLists(t, "Jim's details", e.detailsOf(key, jim["id"]), []string{
		"email|other|jim@example.com", "phone|mobile|+1 (570) 555-0177", "phone|mobile|+1 555 0000",
		"address|home|42 Elm Street\nApt 3/Philadelphia/PA/19103/US", "social|<nil>|twitter:http://twitter.com/jimh",
	})
	// Apple's year 1604 is "no year"; its anniversary label is Kith's.
	equalLists(t, "Jim's dates", e.datesOf(key, jim["id"]), []string{"anniversary|2009-10-10|true", "birthday|--10-01|true"})

	// Apple's own properties come back; the photo (a PNG Apple calls a
	// JPEG) is Jim's photo, the JPEG Kith made of it, as 4.0 writes one.
	card := e.vcardOf(key, jim["id"], "")
	if uid := card.Value(vcard.FieldUID); uid != "5A1B2C3D-0000-4000-8000-ICLOUD000001" {
		t.Errorf("UID %q", uid)
	}
	_, _, stored := e.photoOf(key, fmt.Sprint(jim["id"]))
	if photo := card.Value(vcard.FieldPhoto); jim["has_photo"] != true || photo != "data:image/jpeg;base64,"+base64.StdEncoding.EncodeToString(stored) {
		t.Errorf("PHOTO %q", photo)
	}
	if card.Value(vcard.FieldBirthday) != "--1001" {
		t.Errorf("BDAY %q, want --1001", card.Value(vcard.FieldBirthday))
	}
	if card.Value(vcard.FieldAnniversary) != "20091010" {
		t.Errorf("ANNIVERSARY %q", card.Value(vcard.FieldAnniversary))
	}
	// In 3.0, the photo is base64 again.
	card3 := e.vcardOf(key, jim["id"], "3.0")
	if f := card3.Get(vcard.FieldPhoto); f == nil || f.Params.Get("ENCODING") != "b" || f.Params.Get("TYPE") != "JPEG" ||
		f.Value != base64.StdEncoding.EncodeToString(stored) {
		t.Errorf("3.0 PHOTO %+v", f)
	}
	if card3.Value(vcard.FieldBirthday) != "--10-01" || card3.Value("X-ANNIVERSARY") != "2009-10-10" {
		t.Errorf("3.0 BDAY %q, X-ANNIVERSARY %q", card3.Value(vcard.FieldBirthday), card3.Value("X-ANNIVERSARY"))
	}
}

func TestVCardImportAndroid(t *testing.T) {
	e := newEnv(t)
	_, key := e.user("ada@example.com")
	sum := e.importVCard(key, "android.vcf")
	wantField(t, sum, "created", 2)
	skipped := sum["skipped"].([]any)
	if len(skipped) != 1 {
		t.Fatalf("skipped %v, want the card without a name", skipped)
	}
	skip := skipped[0].(map[string]any)
	wantField(t, skip, "card", 2)
	wantField(t, skip, "reason", "the card has no name (neither FN nor N)")
	people := e.personsByName(key)
	dwight := people["Dwight Schrute"]
	if dwight == nil {
		t.Fatalf("no Dwight among %v", mapKeys(anyMap(people)))
	}
	wantField(t, dwight, "middle_name", "Kurt")
	equalLists(t, "Dwight's details", e.detailsOf(key, dwight["id"]), []string{
		"phone|mobile|570-555-0111", "phone|home|570-555-0112", "email|home|dwight@schrutefarms.example",
		"address|home|Schrute Farms, Route 6/Honesdale/PA/18431/US", "website|<nil>|http://www.schrutefarms.example",
	})
	// Kevin's email is no address: it is kept with the card, not lost.
	kevin := people["Кевин Малоун"]
	if kevin == nil {
		t.Fatal("no Кевин Малоун")
	}
	equalLists(t, "Kevin's details", e.detailsOf(key, kevin["id"]), []string{"phone|work|+7 495 555-01-02"})
	if got := e.vcardOf(key, kevin["id"], "").Value(vcard.FieldEmail); got != "not an email" {
		t.Errorf("Kevin's kept EMAIL %q", got)
	}
	if got := e.vcardOf(key, dwight["id"], "").Value("X-ANDROID-CUSTOM"); !strings.Contains(got, "Mose's cousin") {
		t.Errorf("X-ANDROID-CUSTOM %q", got)
	}
}

func TestVCardImportMonica(t *testing.T) {
	e := newEnv(t)
	_, key := e.user("ada@example.com")
	wantField(t, e.importVCard(key, "monica.vcf"), "created", 2)
	people := e.personsByName(key)
	michael := people["Michael Scott"]
	if michael == nil {
		t.Fatalf("no Michael among %v", mapKeys(anyMap(people)))
	}
	wantField(t, michael, "nickname", "Mike")
	wantField(t, michael["gender"].(map[string]any), "name", "Man")
	age := michael["age"].(map[string]any)
	wantField(t, age, "birth_year", 1964)
	equalLists(t, "Michael's dates", e.datesOf(key, michael["id"]), []string{"anniversary|--02-14|true"})
	equalLists(t, "Michael's details", e.detailsOf(key, michael["id"]), []string{
		"email|work|michael.scott@dundermifflin.example", "phone|mobile|+1 570 555 0101",
		"address|work|1725 Slough Avenue/Scranton/Pennsylvania/18505/US",
		"social|<nil>|linkedin:https://www.linkedin.com/in/michaelscott",
	})
	notes := e.notesOf(key, michael["id"])
	if len(notes) != 1 || !strings.HasSuffix(notes[0], "as every vCard writer folds at 75 octets.") || strings.Contains(notes[0], "\n") {
		t.Errorf("Michael's note, unfolded: %q", notes)
	}
	holly := people["Holly Flax"]
	if holly == nil {
		t.Fatal("no Holly")
	}
	wantField(t, holly["gender"].(map[string]any), "name", "Woman")
	equalLists(t, "Holly's dates", e.datesOf(key, holly["id"]), []string{"birthday|--02-29|true"})
	hollyCard := e.vcardOf(key, holly["id"], "")
	if uid := hollyCard.Value(vcard.FieldUID); uid != "urn:uuid:0b0a0c0d-1111-4222-8333-944455556666" {
		t.Errorf("UID %q", uid)
	}
	// An FN that says more than the names is given back as it was.
	if fn := hollyCard.Value(vcard.FieldFormattedName); fn != "Holly Flax 🌸" {
		t.Errorf("FN %q", fn)
	}
}

// TestVCardRoundTrip exports an account's cards, imports them into
// another account and exports again: the same cards, but for REV.
func TestVCardRoundTrip(t *testing.T) {
	e := newEnv(t)
	_, key := e.user("ada@example.com")
	for _, f := range []string{"google.vcf", "icloud.vcf", "android.vcf", "monica.vcf"} {
		e.importVCard(key, f)
	}
	pid := e.person(key, "first_name=Creed&last_name=Bratton")
	e.contactDetail(key, pid, "kind=address&label=Hideout&street=Somewhere%3B+far&country=ca")
	e.do(req{method: "PATCH", path: "/api/persons/" + pid + "/age?age_type=exact&age_year=1943&add_yearly_reminder=1", key: key})
	for _, version := range []string{"4.0", "3.0"} {
		t.Run(version, func(t *testing.T) {
			e.t = t
			first := e.do(req{method: "GET", path: "/api/export/vcard?version=" + version, key: key})
			if first.code != 200 || !strings.Contains(first.header.Get("Content-Disposition"), "kith-contacts.vcf") {
				t.Fatalf("export: %d %v", first.code, first.header)
			}
			_, other := e.user("bob" + version + "@example.com")
			r := e.do(req{method: "POST", path: "/api/import/vcard", key: other, body: first.body, ctype: "text/vcard"})
			if r.code != 200 {
				t.Fatalf("import: %d %s", r.code, r.body)
			}
			wantField(t, r.json(t)["data"].(map[string]any), "created", 8)
			second := e.do(req{method: "GET", path: "/api/export/vcard?version=" + version, key: other})
			a, b := cardsByUID(t, first.body), cardsByUID(t, second.body)
			if len(a) != 8 || len(b) != 8 {
				t.Fatalf("%d and %d cards, want 8", len(a), len(b))
			}
			for uid, ca := range a {
				if ca != b[uid] {
					t.Errorf("card %s changed in the round trip:\n%s\nthen\n%s", uid, ca, b[uid])
				}
			}
		})
	}
}

// cardsByUID splits an export into its cards, each without REV, by UID.
func cardsByUID(t *testing.T, file string) map[string]string {
	t.Helper()
	out := map[string]string{}
	dec := vcard.NewDecoder(strings.NewReader(file))
	for {
		c, err := dec.Decode()
		if err != nil {
			break
		}
		delete(c, vcard.FieldRevision)
		var buf bytes.Buffer
		if err := vcard.NewEncoder(&buf).Encode(c); err != nil {
			t.Fatal(err)
		}
		out[c.Value(vcard.FieldUID)] = buf.String()
	}
	return out
}

func TestVCardErrors(t *testing.T) {
	e := newEnv(t)
	_, key := e.user("ada@example.com")
	_, bob := e.user("bob@example.com")
	pid := e.person(key, "first_name=Jim")
	notCSV, _ := os.ReadFile("testdata/vcard/not-a-vcard.txt")
	var form bytes.Buffer
	mw := multipart.NewWriter(&form)
	fw, _ := mw.CreateFormFile("file", "contacts.vcf")
	fw.Write([]byte("BEGIN:VCARD\r\nVERSION:3.0\r\nFN:Toby Flenderson\r\nEND:VCARD\r\n"))
	mw.Close()
	var empty bytes.Buffer
	mw2 := multipart.NewWriter(&empty)
	mw2.WriteField("other", "x")
	mw2.Close()
	notVCard := errBody(422, "The file must be a vCard file (BEGIN:VCARD … END:VCARD).")
	e.run(t, []scenario{
		{"a file that is not vCard", req{method: "POST", path: "/api/import/vcard", key: key, body: string(notCSV), ctype: "text/csv"}, 422, notVCard},
		{"an empty body", req{method: "POST", path: "/api/import/vcard", key: key, ctype: "text/vcard"}, 422, notVCard},
		{"a card cut short is skipped", req{method: "POST", path: "/api/import/vcard", key: key, ctype: "text/vcard",
			body: "BEGIN:VCARD\nVERSION:4.0\nFN:Ryan Howard\nEND:VCARD\nBEGIN:VCARD\nVERSION:4.0\nFN:Kelly Kapoor\n"}, 200,
			[]string{`"created":1`, `"card":2`, `"name":"Kelly Kapoor"`, `"reason":"no END field found"`}},
		{"a name of 256 characters is skipped", req{method: "POST", path: "/api/import/vcard", key: key, ctype: "text/vcard",
			body: "BEGIN:VCARD\nVERSION:4.0\nFN:" + strings.Repeat("é", 256) + "\nEND:VCARD\n"}, 200,
			[]string{`"created":0`, `"reason":"a name of the card is longer than 255 characters"`}},
		{"a multipart upload", req{method: "POST", path: "/api/import/vcard", key: key, body: form.String(), ctype: mw.FormDataContentType()}, 200,
			[]string{`"object":"vcard_import"`, `"created":1`}},
		{"a multipart form without the file", req{method: "POST", path: "/api/import/vcard", key: key, body: empty.String(), ctype: mw2.FormDataContentType()}, 422,
			errBody(422, "The file field is required.")},
		{"a file of 21 MiB", req{method: "POST", path: "/api/import/vcard", key: key, ctype: "text/vcard",
			body: strings.Repeat("BEGIN:VCARD\nVERSION:4.0\nFN:X\nEND:VCARD\n", 21<<20/38)}, 413, errBody(413, "The request body is too large.")},
		{"an unknown version", req{method: "GET", path: "/api/persons/" + pid + "/vcard?version=2.1", key: key}, 422,
			errBody(422, "The selected version is invalid.")},
		{"an unknown version of the export", req{method: "GET", path: "/api/export/vcard?version=5", key: key}, 422,
			errBody(422, "The selected version is invalid.")},
		{"another account's person", req{method: "GET", path: "/api/persons/" + pid + "/vcard", key: bob}, 404, nil},
		{"another account's person with a bad version", req{method: "GET", path: "/api/persons/" + pid + "/vcard?version=9", key: bob}, 404, nil},
		{"a person that is no number", req{method: "GET", path: "/api/persons/x/vcard", key: key}, 404, nil},
		{"no key", req{method: "GET", path: "/api/export/vcard"}, 401, nil},
		{"no key to import", req{method: "POST", path: "/api/import/vcard", body: "BEGIN:VCARD\nEND:VCARD\n", ctype: "text/vcard"}, 401, nil},
	})
	// Nothing of Ada's went to Bob, and Bob's export is empty.
	r := e.do(req{method: "GET", path: "/api/export/vcard", key: bob})
	if r.code != 200 || r.body != "" {
		t.Errorf("Bob's export: %d %q", r.code, r.body)
	}
}

// TestVCardEncodings imports files as Outlook and old address books save
// them: UTF-16 with a byte order mark, UTF-8 with one, and Latin-1.
func TestVCardEncodings(t *testing.T) {
	e := newEnv(t)
	_, key := e.user("ada@example.com")
	card := "BEGIN:VCARD\r\nVERSION:3.0\r\nFN:Renée Zoë\r\nN:Zoë;Renée;;;\r\nEND:VCARD\r\n"
	utf16le := []byte{0xFF, 0xFE}
	for _, r := range card {
		utf16le = append(utf16le, byte(r), byte(r>>8))
	}
	latin1 := []byte{}
	for _, r := range strings.ReplaceAll(card, "Renée Zoë", "Renée Zoë") {
		latin1 = append(latin1, byte(r))
	}
	for name, body := range map[string][]byte{
		"utf-16": utf16le, "utf-8 with a BOM": append([]byte("\xEF\xBB\xBF"), card...), "latin-1": latin1,
	} {
		t.Run(name, func(t *testing.T) {
			e.t = t
			r := e.do(req{method: "POST", path: "/api/import/vcard", key: key, body: string(body), ctype: "text/vcard"})
			if r.code != 200 {
				t.Fatalf("%d %s", r.code, r.body)
			}
			if e.personsByName(key)["Renée Zoë"] == nil {
				t.Errorf("no Renée Zoë among %v", mapKeys(anyMap(e.personsByName(key))))
			}
		})
	}
}

// TestVCardImportPages imports a file of more than two pages (vcardPage)
// of cards, which go in a page at a time: every card is counted once, and
// a skipped card keeps its place in the file.
func TestVCardImportPages(t *testing.T) {
	e := newEnv(t)
	_, key := e.user("ada@example.com")
	cards := strings.SplitAfter(benchVCards(2*transfer.VCardPage+50), "END:VCARD\r\n")
	nameless := "BEGIN:VCARD\r\nVERSION:3.0\r\nEMAIL:x@example.com\r\nEND:VCARD\r\n"
	file := strings.Join(cards[:transfer.VCardPage+10], "") + nameless + strings.Join(cards[transfer.VCardPage+10:], "")
	r := e.do(req{method: "POST", path: "/api/import/vcard", key: key, body: file, ctype: "text/vcard"})
	if r.code != 200 {
		t.Fatalf("import: %d %s", r.code, r.body)
	}
	sum := r.json(t)["data"].(map[string]any)
	wantField(t, sum, "created", 2*transfer.VCardPage+50)
	wantField(t, sum, "updated", 0)
	skipped := sum["skipped"].([]any)
	if len(skipped) != 1 {
		t.Fatalf("skipped %v, want the card without a name", skipped)
	}
	wantField(t, skipped[0].(map[string]any), "card", transfer.VCardPage+11)
	if n := e.count(`SELECT count(*) FROM persons`); n != 2*transfer.VCardPage+50 {
		t.Errorf("%d persons, want %d", n, 2*transfer.VCardPage+50)
	}
}

// TestVCardEscapedUID: a UID with an escaped semicolon is read as the UID
// it means, so that the card it is exported as imports as the same person.
func TestVCardEscapedUID(t *testing.T) {
	e := newEnv(t)
	_, key := e.user("ada@example.com")
	post := func(body string) map[string]any {
		r := e.do(req{method: "POST", path: "/api/import/vcard", key: key, body: body, ctype: "text/vcard"})
		if r.code != 200 {
			t.Fatalf("%d %s", r.code, r.body)
		}
		return r.json(t)["data"].(map[string]any)
	}
	wantField(t, post("BEGIN:VCARD\r\nVERSION:3.0\r\nUID:a\\;b\r\nFN:Toby Flenderson\r\nEND:VCARD\r\n"), "created", 1)
	export := e.do(req{method: "GET", path: "/api/export/vcard", key: key}).body
	if uid := cardsByUID(t, export); len(uid) != 1 || uid["a;b"] == "" {
		t.Fatalf("exported UIDs %v", uid)
	}
	wantField(t, post(export), "updated", 1)
}
