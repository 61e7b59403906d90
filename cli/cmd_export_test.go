package cli

import (
	"cmp"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"testing"

	"kith/server/photo"
	"kith/server/photo/phototest"
)

// sampleExport is a document with a row of every kind, as another Kith
// might have written it.
const sampleExport = `{"kith_export":1,"exported_at":1767225600,
"settings":{"timezone":"America/New_York","reminders":{"send_at":"06:45","days":3}},
"task_categories":[{"id":11,"name":"Call","color":"bg-pink-100","created_at":1700000000,"updated_at":1700000100},
	{"id":12,"name":"Coffee","color":"bg-amber-100","created_at":1700000000,"updated_at":1700000000}],
"genders":[{"id":21,"name":"Woman","position":2,"created_at":1700000000,"updated_at":null},
	{"id":22,"name":"Nonbinary","position":4,"created_at":1700000000,"updated_at":1700000000}],
"relationship_types":[{"name":"parent","name_reverse":"child","group":"family","created_at":1700000000,"updated_at":1700000000},
	{"name":"pal","name_reverse":"pal","group":"friend","created_at":1700000000,"updated_at":1700000300}],
"tags":[{"name":"Work","created_at":1700000000,"updated_at":1700000000},{"name":"Unused, for now","created_at":1700000000,"updated_at":1700000500}],
"journals":[{"name":"Travels","created_at":1700000000,"updated_at":1700000000,"entries":[{"year":2025,"month":7,"day":14,"body":"Lisbon.\nTram 28.","created_at":1700000000,"updated_at":1700000000}]}],
"persons":[
{"uid":"urn:uuid:1","first_name":"Ada","last_name":"Lovelace","gender_id":22,"can_be_deleted":false,"tags":["work","Chess"],
 "age":{"age_type":"exact","age_year":1985,"age_month":12,"age_day":10,"add_yearly_reminder":true},
 "physical_appearance":{"height":"170 cm"},"vcard_extra":"X-A:b\r\n","created_at":1700000000,"updated_at":1700000500,
 "stay_in_touch":{"every_days":30,"since_on":"2025-01-01","created_at":1700000000,"updated_at":1700000000},
 "contact_details":[{"kind":"email","label":"work","value":"ada@example.org","created_at":1700000000,"updated_at":1700000000}],
 "important_dates":[{"label":"met","year":2010,"month":3,"day":1,"remind_yearly":true,"created_at":1700000000,"updated_at":1700000000}],
 "notes":[{"content":"Line one\nLine two","created_at":1700000000,"updated_at":1700000000}],
 "gifts":[{"name":"Book","status":"idea","date":1765324800,"created_at":1700000000,"updated_at":1700000000}],
 "life_events":[{"description":"Moved","happened_at":1588291200,"should_be_reminded":true,"created_at":1700000000,"updated_at":1700000000}],
 "work_history":[{"job_title":"Analyst","active":true,"created_at":1700000000,"updated_at":1700000000}],
 "tasks":[{"name":"Buy coffee","task_category_id":12,"due_at":1775001600,"created_at":1700000000,"updated_at":1700000000},
	{"name":"Call back","task_category_id":11,"is_completed":true,"completed_at":1700000200,"created_at":1700000000,"updated_at":1700000200}],
 "interactions":[{"happened_on":"2025-03-01","kind":"call","note":"Long","created_at":1700000000,"updated_at":1700000000}],
 "relationships":[{"id":9,"type":"pal","type_reverse":"pal","group":"friend","person_uid":"urn:uuid:2","created_at":1700000400,"updated_at":1700000400}]},
{"uid":"urn:uuid:2","first_name":"Grace","gender_id":21,
 "relationships":[{"id":3,"type":"parent","type_reverse":"child","group":"family","person_uid":"urn:uuid:1","created_at":1700000000,"updated_at":1700000000}],"age":{"age_type":"estimated","estimated_age":40,"estimated_at":1700000000,"add_yearly_reminder":false}}
]}`

func TestExportImportCommands(t *testing.T) {
	dir := t.TempDir()
	db := filepath.Join(dir, "kith.db")
	kith := func(args ...string) (int, string, string) { return runKith(append(args, "--db", db)...) }
	for _, email := range []string{"ada@example.com", "bob@example.com"} {
		if code, _, errOut := kith("user", "create", "--email", email, "--first-name", "A", "--last-name", "B"); code != 0 {
			t.Fatal(errOut)
		}
	}
	sample := filepath.Join(dir, "sample.json")
	jpg, err := photo.Process(phototest.PNG(phototest.Quadrants(30, 20)))
	if err != nil {
		t.Fatal(err)
	}
	withPhoto := `"photo":"` + base64.StdEncoding.EncodeToString(jpg) + `"`
	os.WriteFile(sample, []byte(strings.Replace(sampleExport, `"first_name":"Grace",`, `"first_name":"Grace",`+withPhoto+`,`, 1)), 0o600)
	code, out, errOut := kith("import", "--email", "ADA@example.com", "--from", sample)
	if code != 0 || !strings.Contains(out, "imported into account 1 of ada@example.com:") || !strings.Contains(out, "persons             2") ||
		!strings.Contains(out, "relationship types  2") || !strings.Contains(out, "relationships       2") || !strings.Contains(out, "tags                3") ||
		!strings.Contains(out, "photos              1") || !strings.Contains(out, "merged by name      2") {
		t.Fatalf("import: %d %q %q", code, out, errOut)
	}

	first := filepath.Join(dir, "first.json")
	code, out, errOut = kith("export", "--email", "ada@example.com", "--out", first)
	if code != 0 || !strings.Contains(out, "account 1 of ada@example.com exported to "+first+": 2 persons, ") {
		t.Fatalf("export: %d %q %q", code, out, errOut)
	}
	if fi, err := os.Stat(first); err != nil || fi.Mode().Perm() != 0o600 {
		t.Errorf("the export's mode: %v %v", fi.Mode(), err)
	}
	if code, _, errOut = kith("import", "--email", "bob@example.com", "--from", first); code != 0 {
		t.Fatalf("import of the export: %s", errOut)
	}
	code, second, errOut := kith("export", "--email", "bob@example.com", "--out", "-")
	if code != 0 {
		t.Fatalf("export to stdout: %s", errOut)
	}
	a, _ := os.ReadFile(first)
	if x, y := normalizedDoc(t, string(a)), normalizedDoc(t, second); !reflect.DeepEqual(x, y) {
		t.Errorf("the export of the import differs:\n%s\n%s", a, second)
	}
	// The sample's own rows came through as written.
	for _, frag := range []string{`"uid":"urn:uuid:1"`, `"vcard_extra":"X-A:b\r\n"`, `"created_at":1700000000,"updated_at":1700000500`,
		`"estimated_at":1700000000`, `"since_on":"2025-01-01"`, `"timezone":"America/New_York"`, `"send_at":"06:45","days":3`,
		`"relationship_types":[{"name":"parent","name_reverse":"child","group":"family","created_at":1700000000,"updated_at":1700000000},{"name":"pal",`,
		`"type":"pal","type_reverse":"pal","group":"friend","person_uid":"urn:uuid:2","created_at":1700000400,"updated_at":1700000400}`,
		`"body":"Lisbon.\nTram 28."`, `"tags":["Chess","Work"]`,
		`{"name":"Unused, for now","created_at":1700000000,"updated_at":1700000500}`, withPhoto} {
		if !strings.Contains(second, frag) {
			t.Errorf("the export lacks %s", frag)
		}
	}

	bad := filepath.Join(dir, "bad.json")
	os.WriteFile(bad, []byte(`{"kith_export":1,"persons":[{"last_name":"Nameless"},{"first_name":"X","gifts":[{"name":"G"}]}]}`), 0o600)
	notJSON := filepath.Join(dir, "not.json")
	os.WriteFile(notJSON, []byte(`{"kith_export":1,`), 0o600)
	newer := filepath.Join(dir, "newer.json")
	os.WriteFile(newer, []byte(`{"kith_export":2}`), 0o600)
	if code, _, errOut := kith("user", "create", "--email", "carol@example.com", "--first-name", "C", "--last-name", "D"); code != 0 {
		t.Fatal(errOut)
	}
	for _, f := range []struct {
		args []string
		code int
		want string
	}{
		{[]string{"export", "--out", filepath.Join(dir, "x.json")}, 1, "export needs --email EMAIL and --out FILE"},
		{[]string{"export", "--email", "ada@example.com"}, 1, "export needs --email EMAIL and --out FILE"},
		{[]string{"export", "--email", "nobody@example.com", "--out", filepath.Join(dir, "x.json")}, 1, "no user has the email nobody@example.com"},
		{[]string{"export", "--email", "ada@example.com", "--out", first}, 1, "already exists"},
		{[]string{"import", "--email", "ada@example.com"}, 1, "import needs --email EMAIL and --from FILE"},
		{[]string{"import", "--email", "ada@example.com", "--from", filepath.Join(dir, "none.json")}, 1, "no such file"},
		{[]string{"import", "--email", "Nobody@example.com", "--from", first}, 1, "no user has the email nobody@example.com"},
		{[]string{"import", "--email", "ada@example.com", "--from", first}, 1, "the account of ada@example.com has persons already"},
		{[]string{"import", "--email", "carol@example.com", "--from", notJSON}, 1, notJSON + " is not valid JSON"},
		{[]string{"import", "--email", "carol@example.com", "--from", newer}, 1, "This export is of format 2, newer than this Kith reads"},
		{[]string{"import", "--email", "carol@example.com", "--from", bad}, 1,
			"was not imported, nothing was written:\n  persons.0: The first name field is required.\n  persons.1.gifts.0: The status field is required."},
	} {
		code, _, errOut := kith(f.args...)
		if code != f.code || !strings.Contains(errOut, f.want) {
			t.Errorf("%v: exit %d (want %d), stderr %q (want %q)", f.args, code, f.code, errOut, f.want)
		}
	}
	if _, err := os.Stat(filepath.Join(dir, "x.json")); !os.IsNotExist(err) {
		t.Errorf("a failed export left its file: %v", err)
	}
}

// normalizedDoc is an export without what differs between two accounts of
// the same data: when it was made, and the ids that tie it together,
// which become the names they stand for.
func normalizedDoc(t *testing.T, doc string) map[string]any {
	t.Helper()
	var d map[string]any
	if err := json.Unmarshal([]byte(doc), &d); err != nil {
		t.Fatalf("not JSON: %v: %.200s", err, doc)
	}
	delete(d, "exported_at")
	names := func(section string) map[string]any {
		m := map[string]any{}
		for _, v := range d[section].([]any) {
			row := v.(map[string]any)
			m[fmt.Sprint(row["id"])] = row["name"]
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
			if task := tv.(map[string]any); task["task_category_id"] != nil {
				task["task_category_id"] = categories[fmt.Sprint(task["task_category_id"])]
			}
		}
		for _, rv := range p["relationships"].([]any) {
			relationships = append(relationships, rv.(map[string]any))
		}
	}
	// A relationship's id is its rank: the order the import keeps.
	slices.SortFunc(relationships, func(a, b map[string]any) int { return cmp.Compare(a["id"].(float64), b["id"].(float64)) })
	for i, rel := range relationships {
		rel["id"] = i + 1
	}
	return d
}
