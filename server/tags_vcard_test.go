package server

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/emersion/go-webdav/carddav"
)

// categoriesLines are the card file's CATEGORIES lines, unfolded, each as
// written.
func categoriesLines(file string) []string {
	var out []string
	for _, l := range strings.Split(strings.ReplaceAll(file, "\r\n ", ""), "\r\n") {
		if strings.HasPrefix(strings.ToUpper(l), "CATEGORIES:") {
			out = append(out, l)
		}
	}
	return out
}

// splitList reads a CATEGORIES value as RFC 6350 §3.4 says, apart from
// the code under test: a backslash escapes the character after it, and
// a comma it does not escape ends a name.
func splitList(value string) []string {
	names := []string{""}
	escaped := false
	for _, r := range value {
		switch {
		case escaped && (r == 'n' || r == 'N'):
			names[len(names)-1] += "\n"
		case escaped:
			names[len(names)-1] += string(r)
		case r == '\\':
			escaped = true
			continue
		case r == ',':
			names = append(names, "")
		default:
			names[len(names)-1] += string(r)
		}
		escaped = false
	}
	return names
}

// vobjectCategories reads every card of the file with Python's vobject, a
// reader of its own, and answers each card's categories by UID.
func vobjectCategories(t *testing.T, file string) map[string][]string {
	t.Helper()
	var cats map[string][]string
	vobjectRead(t, file, `
for card in vobject.readComponents(open(sys.argv[1], encoding="utf-8").read()):
    names = []
    for line in card.contents.get("categories", []):
        names += line.value
    out[card.uid.value] = names`, &cats)
	return cats
}

// vobjectRead runs script with Python's vobject on the file (sys.argv[1])
// and decodes what it leaves in out, a dict printed as JSON, into v. It
// skips the test without vobject, or fails it when CI=true.
func vobjectRead(t *testing.T, file, script string, v any) {
	t.Helper()
	py := ""
	for _, c := range []string{"python3", "/usr/bin/python3"} {
		if exec.Command(c, "-c", "import vobject").Run() == nil {
			py = c
			break
		}
	}
	if py == "" {
		if os.Getenv("CI") == "true" {
			t.Fatal("CI=true but Python's vobject is not installed (apt-get install python3-vobject)")
		}
		t.Skip("Python's vobject is not installed (apt-get install python3-vobject): the cards are read by Go alone")
	}
	path := filepath.Join(t.TempDir(), "cards.vcf")
	if err := os.WriteFile(path, []byte(file), 0o600); err != nil {
		t.Fatal(err)
	}
	out, err := exec.Command(py, "-c", "import base64, json, sys, vobject\nout = {}\n"+script+"\nprint(json.dumps(out))", path).CombinedOutput()
	if err != nil {
		t.Fatalf("vobject: %v\n%s", err, out)
	}
	if err := json.Unmarshal(out, v); err != nil {
		t.Fatalf("vobject's answer: %v\n%s", err, out)
	}
}

// tricky are tags whose names hold what a list must escape.
var tricky = []string{"Smith, Jones & Co", "Book club", `back\slash`, "semi;colon"}

// trickyLine is their CATEGORIES line: sorted ignoring case, escaped.
const trickyLine = `CATEGORIES:back\\slash,Book club,semi\;colon,Smith\, Jones & Co`

func TestTagsVCardExport(t *testing.T) {
	e := newEnv(t)
	_, key := e.user("ada@example.com")
	jim := e.person(key, "first_name=Jim")
	e.putTags(key, jim, tricky...)
	e.person(key, "first_name=Pam") // no tags: no CATEGORIES
	sorted := []string{`back\slash`, "Book club", "semi;colon", "Smith, Jones & Co"}
	for _, path := range []string{"/api/persons/" + jim + "/vcard", "/api/persons/" + jim + "/vcard?version=3.0",
		"/api/export/vcard", "/api/export/vcard?version=3.0"} {
		t.Run(path, func(t *testing.T) {
			e.t = t
			r := e.do(req{method: "GET", path: path, key: key})
			if r.code != 200 {
				t.Fatalf("%d %s", r.code, r.body)
			}
			lines := categoriesLines(r.body)
			if len(lines) != 1 || lines[0] != trickyLine {
				t.Fatalf("CATEGORIES lines %q, want one, %q:\n%s", lines, trickyLine, r.body)
			}
			if got := splitList(strings.TrimPrefix(lines[0], "CATEGORIES:")); !slices.Equal(got, sorted) {
				t.Errorf("read back %q, want %q", got, sorted)
			}
			t.Run("vobject reads the same", func(t *testing.T) {
				read := 0
				for uid, names := range vobjectCategories(t, r.body) {
					if len(names) == 0 {
						continue // Pam's
					}
					read++
					if !slices.Equal(names, sorted) {
						t.Errorf("card %s: vobject reads %q, want %q", uid, names, sorted)
					}
				}
				if read != 1 {
					t.Errorf("vobject read %d cards with categories, want Jim's", read)
				}
			})
		})
	}
}

// TestTagsVCardImport: a card's CATEGORIES, every one, become its person's
// tags by the rules of PUT …/tags; a card without leaves them; none is
// kept among the card's other properties.
func TestTagsVCardImport(t *testing.T) {
	e := newEnv(t)
	_, key := e.user("ada@example.com")
	e.putTags(key, e.person(key, "first_name=Jim"), "work")
	card := func(lines ...string) string {
		return "BEGIN:VCARD\r\nVERSION:3.0\r\nUID:imp-1\r\nFN:Jan Levinson\r\nN:Levinson;Jan;;;\r\n" +
			strings.Join(lines, "\r\n") + "\r\nX-OTHER:kept\r\nEND:VCARD\r\n"
	}
	post := func(file string) string {
		t.Helper()
		r := e.do(req{method: "POST", path: "/api/import/vcard", key: key, body: file, ctype: "text/vcard"})
		if r.code != 200 {
			t.Fatalf("import: %d %s", r.code, r.body)
		}
		return e.personTags(key, e.personsByNameID(key, "Jan Levinson"))
	}
	for _, c := range []struct {
		name, file, want string
	}{
		{"every CATEGORIES, split at unescaped commas, trimmed, empty and long names skipped, the account's spelling kept",
			card(`CATEGORIES:Work, chess ,,`, `item1.CATEGORIES:Smith\, Jones & Co,back\\slash,semi\;colon`,
				`categories;X-NOTE="a:b":`+strings.Repeat("x", 51)+`,Zebra`),
			`["back\\slash","chess","semi;colon","Smith, Jones \u0026 Co","work","Zebra"]`},
		{"a card without CATEGORIES leaves them", card(`NOTE:hello`),
			`["back\\slash","chess","semi;colon","Smith, Jones \u0026 Co","work","Zebra"]`},
		{"a folded line, and a fold inside an escape", card("CATEGORIES:Lo\r\n ng,a\\\r\n ,b"), `["a,b","Long"]`},
		{"a CATEGORIES that names none takes them off", card(`CATEGORIES:`), `[]`},
	} {
		if got := post(c.file); got != c.want {
			t.Errorf("%s: tags %s, want %s", c.name, got, c.want)
		}
	}
	if n := e.count(`SELECT count(*) FROM tags WHERE name LIKE 'xxx%'`); n != 0 {
		t.Errorf("a tag over 50 characters was made")
	}
	e.putTags(key, e.personsByNameID(key, "Jan Levinson"), "Chess")
	r := e.do(req{method: "GET", path: "/api/export/vcard", key: key})
	if lines := categoriesLines(r.body); !slices.Equal(lines, []string{"CATEGORIES:work", "CATEGORIES:chess"}) {
		t.Errorf("exported CATEGORIES %q, want one a card:\n%s", lines, r.body)
	}
	if !strings.Contains(r.body, "X-OTHER:kept") || strings.Contains(strings.ToUpper(r.body), "ITEM1.CATEGORIES") {
		t.Errorf("the other properties: %s", r.body)
	}
}

// personsByNameID is the id of the account's person of that full name.
func (e *env) personsByNameID(key, name string) string {
	e.t.Helper()
	p := e.personsByName(key)[name]
	if p == nil {
		e.t.Fatalf("no person %q", name)
	}
	b, _ := json.Marshal(p["id"])
	return string(b)
}

// TestTagsVCardRoundTrip: an export imported into a new account gives the
// same tags, a name with a comma too; Google's two categories are two
// tags, written back as two.
func TestTagsVCardRoundTrip(t *testing.T) {
	e := newEnv(t)
	_, key := e.user("ada@example.com")
	e.importVCard(key, "google.vcf")
	if got := e.personTags(key, e.personsByNameID(key, "Pam Beesly")); got != `["myContacts","Office"]` {
		t.Fatalf("Google's card's CATEGORIES:myContacts,Office: %s", got)
	}
	e.putTags(key, e.person(key, "first_name=Jim"), tricky...)
	e.putTags(key, e.person(key, "first_name=Angela"), "Book club", "Étude")
	e.person(key, "first_name=Dwight")
	first := e.do(req{method: "GET", path: "/api/export/vcard", key: key})
	if lines := categoriesLines(first.body); !slices.Contains(lines, "CATEGORIES:myContacts,Office") || len(lines) != 3 {
		t.Errorf("CATEGORIES %q", lines)
	}
	wantTags := e.tagList(key)
	wantPersons := map[string]string{}
	for name := range e.personsByName(key) {
		wantPersons[name] = e.personTags(key, e.personsByNameID(key, name))
	}
	for _, version := range []string{"4.0", "3.0"} {
		t.Run(version, func(t *testing.T) {
			e.t = t
			file := e.do(req{method: "GET", path: "/api/export/vcard?version=" + version, key: key}).body
			_, other := e.user("bob" + version + "@example.com")
			if r := e.do(req{method: "POST", path: "/api/import/vcard", key: other, body: file, ctype: "text/vcard"}); r.code != 200 {
				t.Fatalf("import: %d %s", r.code, r.body)
			}
			if got := e.tagList(other); got != wantTags {
				t.Errorf("tags %s, want %s", got, wantTags)
			}
			for name, want := range wantPersons {
				if got := e.personTags(other, e.personsByNameID(other, name)); got != want {
					t.Errorf("%s's tags %s, want %s", name, got, want)
				}
			}
		})
	}
}

// TestTagsVCardLegacyCategories: a CATEGORIES kept among a card's other
// properties before tags were read from cards is not written: the tags
// are the card's categories, one CATEGORIES at most.
func TestTagsVCardLegacyCategories(t *testing.T) {
	e := newEnv(t)
	_, key := e.user("ada@example.com")
	doc := `{"kith_export":1,"persons":[{"first_name":"Old","uid":"old-1",` +
		`"vcard_extra":"BEGIN:VCARD\r\nVERSION:4.0\r\nCATEGORIES:myContacts\\,Office\r\nX-A:b\r\nEND:VCARD\r\n"}]}`
	if r := e.do(req{method: "POST", path: "/api/import", key: key, body: doc}); r.code != 200 {
		t.Fatalf("import: %d %s", r.code, r.body)
	}
	old := e.personsByNameID(key, "Old")
	card := e.do(req{method: "GET", path: "/api/persons/" + old + "/vcard", key: key}).body
	if lines := categoriesLines(card); len(lines) != 0 || !strings.Contains(card, "X-A:b") {
		t.Errorf("without tags: CATEGORIES %q\n%s", lines, card)
	}
	e.putTags(key, old, "New")
	card = e.do(req{method: "GET", path: "/api/persons/" + old + "/vcard", key: key}).body
	if lines := categoriesLines(card); !slices.Equal(lines, []string{"CATEGORIES:New"}) {
		t.Errorf("with a tag: CATEGORIES %q\n%s", lines, card)
	}
}

// TestTagsCardDAV: a phone's card gives its person tags, the phone gets
// them back as one CATEGORIES, and a change of tags in Kith is a change of
// the card: a new ETag, and the card in the next sync-collection.
func TestTagsCardDAV(t *testing.T) {
	d, key := newDAVEnv(t, "ada@example.com")
	ctx := context.Background()
	book := d.bookOf(d.client)
	path := book + "phone-1.vcf"
	card := "BEGIN:VCARD\r\nVERSION:3.0\r\nUID:phone-1\r\nFN:Jim Halpert\r\nN:Halpert;Jim;;;\r\n" +
		"CATEGORIES:Book club,Smith\\, Jones & Co\r\nEND:VCARD\r\n"
	vh := map[string]string{"Content-Type": "text/vcard"}
	if code, _, body := d.raw("PUT", path, "ada@example.com", key, card, vh); code != 201 {
		t.Fatalf("PUT: %d %s", code, body)
	}
	jim := d.personsByNameID(key, "Jim Halpert")
	if got := d.personTags(key, jim); got != `["Book club","Smith, Jones \u0026 Co"]` {
		t.Errorf("Jim's tags from the phone: %s", got)
	}
	get := func() (etag string, lines []string) {
		t.Helper()
		code, h, body := d.raw("GET", path, "ada@example.com", key, "", nil)
		if code != 200 || h.Get("Content-Type") != "text/vcard" || h.Get("Content-Length") != fmt.Sprint(len(body)) {
			t.Fatalf("GET: %d %v %s", code, h, body)
		}
		if code, hh, hb := d.raw("HEAD", path, "ada@example.com", key, "", nil); code != 200 || hb != "" ||
			hh.Get("ETag") != h.Get("ETag") || hh.Get("Content-Length") != h.Get("Content-Length") {
			t.Errorf("HEAD: %d %v %q", code, hh, hb)
		}
		return h.Get("ETag"), categoriesLines(body)
	}
	etag, lines := get()
	if !slices.Equal(lines, []string{`CATEGORIES:Book club,Smith\, Jones & Co`}) {
		t.Errorf("the phone gets %q", lines)
	}
	seen := func(step func()) string {
		t.Helper()
		before, err := d.client.SyncCollection(ctx, book, &carddav.SyncQuery{})
		if err != nil {
			t.Fatal(err)
		}
		step()
		delta, err := d.client.SyncCollection(ctx, book, &carddav.SyncQuery{SyncToken: before.SyncToken})
		if err != nil || len(delta.Updated) != 1 || delta.Updated[0].Path != path {
			t.Errorf("sync after the change: %+v %v", delta, err)
		}
		now, _ := get()
		if now == etag {
			t.Errorf("the ETag stayed %s", etag)
		}
		etag = now
		return now
	}
	seen(func() { d.putTags(key, jim, "Book club", "Smith, Jones & Co", "Chess") })
	tags := map[string]string{}
	for _, tg := range d.list(key, "/api/tags") {
		b, _ := json.Marshal(tg["id"])
		tags[tg["name"].(string)] = string(b)
	}
	seen(func() { d.do(req{method: "PUT", path: "/api/tags/" + tags["Chess"] + "?name=Darts", key: key}) })
	seen(func() { d.do(req{method: "PUT", path: "/api/tags/" + tags["Chess"] + "?name=book+CLUB", key: key}) })
	seen(func() { d.do(req{method: "DELETE", path: "/api/tags/" + tags["Book club"], key: key}) })
	if _, lines := get(); !slices.Equal(lines, []string{`CATEGORIES:Smith\, Jones & Co`}) {
		t.Errorf("after the changes: %q", lines)
	}
	// A card from the phone without CATEGORIES leaves the tags.
	noTags := strings.Replace(card, "CATEGORIES:Book club,Smith\\, Jones & Co\r\n", "NOTE:x\r\n", 1)
	if code, _, body := d.raw("PUT", path, "ada@example.com", key, noTags, vh); code != 204 {
		t.Fatalf("PUT: %d %s", code, body)
	}
	if got := d.personTags(key, jim); got != `["Smith, Jones \u0026 Co"]` {
		t.Errorf("after a card without CATEGORIES: %s", got)
	}
}
