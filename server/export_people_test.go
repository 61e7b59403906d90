package server

import (
	"bytes"
	"encoding/base64"
	"encoding/binary"
	"fmt"
	"net/url"
	"reflect"
	"strings"
	"testing"

	"kith/server/photo"
	"kith/server/photo/phototest"
	"kith/store"
)

// fillPeople gives the account of key what contract-people adds, for the
// round trip of an export: a relationship type of its own and a default
// renamed, relationships made on either of their persons (the first made
// on the later person, so that the import must keep their order), tags
// (one renamed, one that no person has any more, one with a comma),
// photos (one from a PNG, one from a JPEG with Exif), and text in a
// journal entry.
func (e *env) fillPeople(key, ada, grace, alan, journal string) {
	e.t.Helper()
	godparent := fmt.Sprint(e.send(key, "POST", "/api/administration/relationship-types",
		`{"name":"godparent","name_reverse":"godchild","group":"family"}`)["id"])
	types := e.do(req{method: "GET", path: "/api/administration/relationship-types", key: key}).json(e.t)["data"].([]any)
	typeID := func(name string) string {
		for _, v := range types {
			if t := v.(map[string]any); t["name"] == name {
				return fmt.Sprint(t["id"])
			}
		}
		e.t.Fatalf("no relationship type %s", name)
		return ""
	}
	friend, partner := typeID("friend"), typeID("partner")
	e.send(key, "PUT", "/api/administration/relationship-types/"+friend, `{"name":"pal","group":"friend"}`)
	relate := func(on, typ, other string) {
		e.send(key, "POST", "/api/persons/"+on+"/relationships", `{"relationship_type_id":`+typ+`,"person_id":`+other+`}`)
	}
	relate(alan, friend, ada)
	relate(ada, godparent, grace)
	relate(grace, partner, alan)
	e.send(key, "PUT", "/api/journals/"+journal+"/entries/2025/7/14", `{"body":"Lisbon: the wedding of Σοφία.\nTram 28 after."}`)

	e.send(key, "PUT", "/api/persons/"+ada+"/tags", `{"tags":["Work","Smith, Jones & Co","chess"]}`)
	e.send(key, "PUT", "/api/persons/"+grace+"/tags", `{"tags":["WORK","Ünïcode"]}`)
	e.send(key, "PUT", "/api/persons/"+ada+"/tags", `{"tags":["Work","Smith, Jones & Co"]}`) // chess stays, with no one
	for _, v := range e.do(req{method: "GET", path: "/api/tags", key: key}).json(e.t)["data"].([]any) {
		if tag := v.(map[string]any); tag["name"] == "Ünïcode" {
			e.send(key, "PUT", fmt.Sprint("/api/tags/", tag["id"]), `{"name":"Book club"}`)
		}
	}

	e.send(key, "PUT", "/api/persons/"+ada+"/photo", string(phototest.PNG(phototest.Quadrants(700, 300))))
	exif := phototest.WithExif(phototest.JPEG(phototest.Quadrants(40, 20)), 6, binary.LittleEndian)
	e.do(req{method: "PUT", path: "/api/persons/" + alan + "/photo", key: key, ctype: "image/jpeg", body: string(exif)})
}

// samePeopleAnswers compares what the routes of contract-people answer
// to two accounts of the same data, ids aside: the relationship types,
// each person's relationships, and the journals' entries, with their text
// and as q finds them.
func (e *env) samePeopleAnswers(t *testing.T, a, b string) {
	t.Helper()
	get := func(key, path string) any {
		r := e.do(req{method: "GET", path: path, key: key})
		if r.code != 200 {
			t.Fatalf("GET %s: %d %s", path, r.code, r.body)
		}
		return withoutIDs(r.json(t)["data"])
	}
	ids := func(key, path string) []string {
		var out []string
		for _, v := range e.do(req{method: "GET", path: path, key: key}).json(t)["data"].([]any) {
			out = append(out, fmt.Sprint(v.(map[string]any)["id"]))
		}
		return out
	}
	// same compares the answers to each path of a with the path of b made
	// of the same ids.
	same := func(path func(ids string) string, idsA, idsB []string) {
		t.Helper()
		if len(idsA) != len(idsB) {
			t.Fatalf("%s: %d rows, then %d", path("…"), len(idsA), len(idsB))
		}
		for i := range idsA {
			x, y := get(a, path(idsA[i])), get(b, path(idsB[i]))
			if !reflect.DeepEqual(x, y) {
				t.Errorf("GET %s differs:\n first %s\nsecond %s", path(idsA[i]), mustJSON(t, x), mustJSON(t, y))
			}
		}
	}
	one := []string{""}
	same(func(string) string { return "/api/administration/relationship-types" }, one, one)
	persons := func(key string) []string { return ids(key, "/api/persons?per_page=100") }
	same(func(id string) string { return "/api/persons/" + id }, persons(a), persons(b))
	same(func(id string) string { return "/api/persons/" + id + "/relationships" }, persons(a), persons(b))
	photos := 0
	for i, idA := range persons(a) {
		idB := persons(b)[i]
		x := e.do(req{method: "GET", path: "/api/persons/" + idA + "/photo", key: a})
		y := e.do(req{method: "GET", path: "/api/persons/" + idB + "/photo", key: b})
		if x.code != y.code || x.body != y.body || x.header.Get("ETag") != y.header.Get("ETag") {
			t.Errorf("person %d's photo: %d %s (%d bytes), then %d %s (%d bytes)", i, x.code, x.header.Get("ETag"), len(x.body),
				y.code, y.header.Get("ETag"), len(y.body))
		}
		if x.code == 200 {
			photos++
		}
	}
	if photos != 2 {
		t.Errorf("%d photos, want 2", photos)
	}
	tags := func(key string) []string { return ids(key, "/api/tags") }
	if n := len(tags(a)); n != 4 {
		t.Errorf("%d tags, want 4", n)
	}
	same(func(string) string { return "/api/tags" }, one, one)
	same(func(id string) string { return "/api/tags/" + id }, tags(a), tags(b))
	for _, name := range []string{"work", "Smith, Jones & Co", "book CLUB", "chess"} {
		same(func(string) string { return "/api/persons?tag=" + url.QueryEscape(name) }, one, one)
	}
	journals := func(key string) []string { return ids(key, "/api/journals") }
	for _, q := range []string{"", "?q=" + url.QueryEscape("ΣΟΦΊΑ"), "?q=tram"} {
		same(func(id string) string { return "/api/journals/" + id + "/entries" + q }, journals(a), journals(b))
	}
	// Each side found something: the import wrote the text's folded form.
	for _, key := range []string{a, b} {
		found := 0
		for _, j := range journals(key) {
			found += len(get(key, "/api/journals/"+j+"/entries?q="+url.QueryEscape("σοφία")).([]any))
		}
		if found != 1 {
			t.Errorf("q finds %d entries, want 1", found)
		}
	}
}

// withoutIDs is v without the ids that differ between two accounts of the
// same data: every id and every field that ends in _id.
func withoutIDs(v any) any {
	switch v := v.(type) {
	case map[string]any:
		out := map[string]any{}
		for k, x := range v {
			if k != "id" && !strings.HasSuffix(k, "_id") {
				out[k] = withoutIDs(x)
			}
		}
		return out
	case []any:
		out := make([]any, len(v))
		for i, x := range v {
			out[i] = withoutIDs(x)
		}
		return out
	}
	return v
}

// TestImportRelationshipRefusals: every relationship of a document names
// a type the import has and a person of the document other than its own,
// once a pair and type, or the document is refused whole, each problem at
// its place.
func TestImportRelationshipRefusals(t *testing.T) {
	e := newEnv(t)
	_, key := e.user("ada@example.com")
	imp := func(body string) req { return req{method: "POST", path: "/api/import", key: key, body: body} }
	// doc is a document of two persons, a and b, a's relationships rels.
	doc := func(head, rels string) string {
		return `{"kith_export":1,` + head + `"persons":[{"first_name":"A","uid":"a","relationships":[` + rels + `]},{"first_name":"B","uid":"b"}]}`
	}
	rel := `persons.0.relationships.`
	e.run(t, []scenario{
		{"a person the document lacks", imp(doc(``, `{"type":"friend","person_uid":"nobody"}`)), 422,
			[]string{`"` + rel + `0.person_uid":["` + rel + `0: The selected person uid is invalid."]`}},
		{"a type the account lacks", imp(doc(``, `{"type":"enemy","person_uid":"b"}`)), 422,
			[]string{`"` + rel + `0.type":["` + rel + `0: The selected type is invalid."]`}},
		{"a type of the account with another reverse", imp(doc(``, `{"type":"parent","type_reverse":"parent","group":"family","person_uid":"b"}`)), 422,
			[]string{`"` + rel + `0.type":["` + rel + `0: The selected type is invalid."]`}},
		{"a type of the account that the document's types replace", imp(doc(`"relationship_types":[{"name":"pal"}],`,
			`{"type":"friend","group":"friend","person_uid":"b"}`)), 422,
			[]string{`"` + rel + `0.type":["` + rel + `0: The selected type is invalid."]`}},
		{"the person itself", imp(doc(``, `{"type":"friend","group":"friend","person_uid":"a"}`)), 422,
			[]string{`"` + rel + `0.person_uid":["` + rel + `0: The person uid field and person must be different."]`}},
		{"twice the same way", imp(doc(``, `{"type":"friend","group":"friend","person_uid":"b"},{"type":"friend","group":"friend","person_uid":"b"}`)), 422,
			[]string{`"` + rel + `1.person_uid":["` + rel + `1: The relationship already exists."]`}},
		{"twice, once each way", imp(`{"kith_export":1,"persons":[{"first_name":"A","uid":"a","relationships":[{"type":"friend","group":"friend","person_uid":"b"}]},
			{"first_name":"B","uid":"b","relationships":[{"type":"friend","group":"friend","person_uid":"a"}]}]}`), 422,
			[]string{`"persons.1.relationships.0.person_uid":["persons.1.relationships.0: The relationship already exists."]`}},
		{"fields missing or wrong", imp(doc(``, `{"group":"foe","id":0}`)), 422,
			[]string{`"` + rel + `0.type":["` + rel + `0: The type field is required."]`,
				`"` + rel + `0.group":["` + rel + `0: The selected group is invalid."]`,
				`"` + rel + `0.person_uid":["` + rel + `0: The person uid field is required."]`,
				`"` + rel + `0.id":["` + rel + `0: The id field must be at least 1."]`}},
		{"two relationships with one id", imp(doc(``, `{"id":4,"type":"friend","group":"friend","person_uid":"b"},{"id":4,"type":"partner","group":"love","person_uid":"b"}`)), 422,
			[]string{`"` + rel + `1.id":["` + rel + `1: The id has already been taken."]`}},
		{"a relationship type without a name", imp(doc(`"relationship_types":[{"name_reverse":"x","group":"kin"}],`, ``)), 422,
			[]string{`"relationship_types.0.name":["relationship_types.0: The name field is required."]`,
				`"relationship_types.0.group":["relationship_types.0: The selected group is invalid."]`}},
		{"relationships not an array", imp(`{"kith_export":1,"persons":[{"first_name":"A"},{"first_name":"C","relationships":{"type":"friend"}}]}`), 422,
			[]string{`"persons.1.relationships":["persons.1.relationships: must be an array."]`}},
	})
	if n := e.count(`SELECT count(*) FROM persons`); n != 0 {
		t.Errorf("%d persons after refusals", n)
	}
	if types := e.do(req{method: "GET", path: "/api/administration/relationship-types", key: key}).json(t)["data"].([]any); len(types) != 12 {
		t.Errorf("%d relationship types after refusals, want the 12 defaults", len(types))
	}
}

// TestImportRelationshipTypes: a document's relationship types take the
// place of the account's, in their order; a document without them keeps
// the account's, which its relationships then name, forward or back.
func TestImportRelationshipTypes(t *testing.T) {
	e := newEnv(t)
	names := func(key string) string {
		var out []string
		for _, v := range e.do(req{method: "GET", path: "/api/administration/relationship-types", key: key}).json(t)["data"].([]any) {
			ty := v.(map[string]any)
			out = append(out, fmt.Sprint(ty["name"], "/", ty["name_reverse"], "/", ty["group"], "/", int64(ty["created_at"].(float64))))
		}
		return strings.Join(out, ", ")
	}
	relationships := func(key string) string {
		persons := e.do(req{method: "GET", path: "/api/persons", key: key}).json(t)["data"].([]any)
		var out []string
		for _, p := range persons {
			p := p.(map[string]any)
			for _, r := range e.do(req{method: "GET", path: fmt.Sprint("/api/persons/", p["id"], "/relationships"), key: key}).json(t)["data"].([]any) {
				r := r.(map[string]any)
				out = append(out, fmt.Sprint(p["first_name"], ": ", r["type"].(map[string]any)["name"], " ", r["person"].(map[string]any)["name"]))
			}
		}
		return strings.Join(out, ", ")
	}

	_, old := e.user("old@example.com")
	r := e.do(req{method: "POST", path: "/api/import", key: old, body: `{"kith_export":1,"persons":[
		{"first_name":"Ann","uid":"ann","relationships":[{"type":"parent","type_reverse":"child","group":"family","person_uid":"ben"}]},
		{"first_name":"Ben","uid":"ben","relationships":[{"type":"friend","group":"friend","person_uid":"ann"}]}]}`})
	if r.code != 200 || !strings.Contains(r.body, `"relationship_types":0,"relationships":2`) {
		t.Fatalf("an old document: %d %s", r.code, r.body)
	}
	if got := names(old); !strings.HasPrefix(got, "partner/partner/love/") || strings.Count(got, ",") != 11 {
		t.Errorf("an old document's account keeps its twelve types: %s", got)
	}
	if got, want := relationships(old), "Ann: parent Ben, Ann: friend Ben, Ben: child Ann, Ben: friend Ann"; got != want {
		t.Errorf("relationships %q, want %q", got, want)
	}

	_, own := e.user("own@example.com")
	r = e.do(req{method: "POST", path: "/api/import", key: own, body: `{"kith_export":1,
		"relationship_types":[{"name":"  mentor ","name_reverse":"","created_at":1700000000,"updated_at":1700000100},
			{"name":"sibling","group":"family","created_at":"2024-01-02"}],
		"persons":[{"first_name":"Ann","uid":"ann","relationships":[{"type":"mentor","group":"other","person_uid":"ben","created_at":1700000200,"updated_at":1700000300}]},
		{"first_name":"Ben","uid":"ben"}]}`})
	if r.code != 200 || !strings.Contains(r.body, `"relationship_types":2,"relationships":1`) {
		t.Fatalf("a document with types: %d %s", r.code, r.body)
	}
	if got, want := names(own), "mentor/mentor/other/1700000000, sibling/sibling/family/1704153600"; got != want {
		t.Errorf("types %q, want %q", got, want)
	}
	rel := e.do(req{method: "GET", path: "/api/persons?q=Ann", key: own}).json(t)["data"].([]any)[0].(map[string]any)["id"]
	if got := e.do(req{method: "GET", path: fmt.Sprint("/api/persons/", rel, "/relationships"), key: own}).body; !strings.Contains(got,
		`"created_at":1700000200,"updated_at":1700000300`) {
		t.Errorf("the relationship's times: %s", got)
	}

	_, none := e.user("none@example.com")
	e.send(none, "POST", "/api/import", `{"kith_export":1,"relationship_types":[]}`)
	if got := names(none); got != "" {
		t.Errorf("an empty list of types leaves %q", got)
	}
}

// TestImportEntryBody: an entry's text is read as PUT …/entries takes it.
func TestImportEntryBody(t *testing.T) {
	e := newEnv(t)
	_, key := e.user("ada@example.com")
	long := strings.Repeat("x", 100001)
	e.run(t, []scenario{
		{"a body over 100,000 characters", req{method: "POST", path: "/api/import", key: key,
			body: `{"kith_export":1,"journals":[{"name":"J","entries":[{"year":2025,"month":1,"day":1,"body":"` + long + `"}]}]}`}, 422,
			[]string{`"journals.0.entries.0.body":["journals.0.entries.0: The body field must not be greater than 100000 characters."]`}},
		{"a body trimmed, its line breaks kept", req{method: "POST", path: "/api/import", key: key,
			body: `{"kith_export":1,"journals":[{"name":"J","entries":[{"year":2025,"month":1,"day":1,"body":"  Ünïcode\nline two  "},{"year":2025,"month":1,"day":2}]}]}`}, 200,
			[]string{`"journal_entries":2`}},
	})
	j := e.do(req{method: "GET", path: "/api/journals", key: key}).json(t)["data"].([]any)
	var id any
	for _, v := range j {
		if v.(map[string]any)["name"] == "J" {
			id = v.(map[string]any)["id"]
		}
	}
	r := e.do(req{method: "GET", path: fmt.Sprint("/api/journals/", id, "/entries?q=", url.QueryEscape("üNÏ")), key: key})
	if !strings.Contains(r.body, `"body":"Ünïcode\nline two"`) || !strings.Contains(r.body, `"total":1`) {
		t.Errorf("q over the imported text: %s", r.body)
	}
}

// TestImportTags: the document's tags are read as a rename takes a tag's
// name, a person's as a PUT of their tags takes them (any number of
// them); names equal ignoring case are one tag, the first; a tag that a
// prune left merges with the document's of its name.
func TestImportTags(t *testing.T) {
	e := newEnv(t)
	_, key := e.user("ada@example.com")
	imp := func(body string) req { return req{method: "POST", path: "/api/import", key: key, body: body} }
	long := strings.Repeat("é", 51)
	e.run(t, []scenario{
		{"a person's tag over 50 characters", imp(`{"kith_export":1,"persons":[{"first_name":"A","tags":["ok","` + long + `"]}]}`), 422,
			[]string{`"persons.0.tags.1":["persons.0: The tags.1 field must not be greater than 50 characters."]`}},
		{"a tag of the account over 50 characters", imp(`{"kith_export":1,"tags":[{"name":"` + long + `"}]}`), 422,
			[]string{`"tags.0.name":["tags.0: The name field must not be greater than 50 characters."]`}},
		{"a tag without a name", imp(`{"kith_export":1,"tags":[{"name":"  "}]}`), 422,
			[]string{`"tags.0.name":["tags.0: The name field is required."]`}},
		{"a person's tags not an array", imp(`{"kith_export":1,"persons":[{"first_name":"A","tags":"Work"}]}`), 422,
			[]string{`"persons.0.tags":["persons.0: The tags field must be an array."]`}},
		{"a person's tag not a string", imp(`{"kith_export":1,"persons":[{"first_name":"A","tags":[7]}]}`), 422,
			[]string{`"persons.0.tags.0":["persons.0: The tags.0 field must be a string."]`}},
	})
	if n := e.count(`SELECT count(*) FROM tags`); n != 0 {
		t.Errorf("%d tags after refusals", n)
	}

	// A tag that its person's deletion left, as a prune does.
	left := e.person(key, "first_name=Gone")
	e.send(key, "PUT", "/api/persons/"+left+"/tags", `{"tags":["book club"]}`)
	e.send(key, "DELETE", "/api/persons/"+left, "")
	many := make([]string, 120)
	for i := range many {
		many[i] = fmt.Sprintf("%q", fmt.Sprint("t", i))
	}
	r := e.do(imp(`{"kith_export":1,"tags":[{"name":"Work","created_at":1700000000,"updated_at":1700000100},{"name":"work","created_at":1600000000},
		{"name":"Book Club","created_at":1700000200,"updated_at":1700000300}],
		"persons":[{"first_name":"A","tags":["WORK"," Chess ","","chess"]},{"first_name":"B","tags":[` + strings.Join(many, ",") + `]}]}`))
	if r.code != 200 || !strings.Contains(r.body, `"tags":122,`) || !strings.Contains(r.body, `"merged":1}`) {
		t.Fatalf("%d %s", r.code, r.body)
	}
	tags := map[string]string{}
	for _, v := range e.do(req{method: "GET", path: "/api/tags", key: key}).json(t)["data"].([]any) {
		tag := v.(map[string]any)
		tags[tag["name"].(string)] = fmt.Sprintf("%.0f %.0f %.0f", tag["persons_count"], tag["created_at"], tag["updated_at"])
	}
	if len(tags) != 123 || tags["Work"] != "1 1700000000 1700000100" || tags["Book Club"] != "0 1700000200 1700000300" ||
		!strings.HasPrefix(tags["Chess"], "1 ") || tags["t119"] == "" {
		t.Errorf("tags: %d, Work %q, Book Club %q, Chess %q", len(tags), tags["Work"], tags["Book Club"], tags["Chess"])
	}
	a := e.do(req{method: "GET", path: "/api/persons?tag=work", key: key})
	if !strings.Contains(a.body, `"tags":["Chess","Work"]`) || !strings.Contains(a.body, `"total":1`) {
		t.Errorf("A's tags: %s", a.body)
	}
}

// TestImportPhotos: a person's photo is the JPEG Kith made, in base64,
// kept byte for byte; anything else is refused at its place, and nothing
// is written.
func TestImportPhotos(t *testing.T) {
	e := newEnv(t)
	_, key := e.user("ada@example.com")
	made, err := photo.Process(phototest.PNG(phototest.Quadrants(600, 300)))
	if err != nil {
		t.Fatal(err)
	}
	doc := func(photo string) req {
		return req{method: "POST", path: "/api/import", key: key,
			body: `{"kith_export":1,"persons":[{"first_name":"A"},{"first_name":"B","photo":` + photo + `}]}`}
	}
	b64 := func(b []byte) string { return `"` + base64.StdEncoding.EncodeToString(b) + `"` }
	refused := func(msg string) []string {
		return []string{`"persons.1.photo":["persons.1: ` + msg + `"]`}
	}
	e.run(t, []scenario{
		{"not base64", doc(`"not base64!"`), 422, refused("The photo field must be a base64 string.")},
		{"not a string", doc(`{"jpeg":"x"}`), 422, refused("The photo field must be a string.")},
		{"not a JPEG", doc(b64(phototest.PNG(phototest.Quadrants(10, 10)))), 422, refused("The photo field must be a file of type: jpeg.")},
		{"a JPEG cut short", doc(b64(made[:len(made)/2])), 422, refused("The photo field must be an image.")},
		{"too large in pixels", doc(b64(phototest.JPEG(phototest.Quadrants(20, 513)))), 422,
			refused("The photo field must not be larger than 512 × 512 pixels.")},
		{"with Exif", doc(b64(phototest.WithExif(made, 1, binary.BigEndian))), 422,
			refused("The photo field must be a baseline JPEG without metadata, as Kith exports it.")},
		{"over 10 MiB", doc(b64(append(bytes.Clone(made), make([]byte, photo.MaxBytes)...))), 422,
			refused("The photo field must not be greater than 10240 kilobytes.")},
	})
	if n := e.count(`SELECT count(*) FROM persons`) + e.count(`SELECT count(*) FROM photos`); n != 0 {
		t.Errorf("%d persons and photos after refusals", n)
	}

	e.run(t, []scenario{
		{"a photo Kith made", doc(b64(made)), 200, []string{`"persons":2`, `"photos":1`}},
	})
	persons := e.do(req{method: "GET", path: "/api/persons", key: key}).json(t)["data"].([]any)
	for i, want := range []bool{false, true} {
		if got := persons[i].(map[string]any)["has_photo"]; got != want {
			t.Errorf("person %d: has_photo %v", i, got)
		}
	}
	r := e.do(req{method: "GET", path: fmt.Sprint("/api/persons/", persons[1].(map[string]any)["id"], "/photo"), key: key})
	if r.code != 200 || r.body != string(made) || r.header.Get("ETag") != `"`+store.PhotoSum(made)+`"` {
		t.Errorf("the photo: %d, %d bytes, ETag %s", r.code, len(r.body), r.header.Get("ETag"))
	}
}

// TestImportPhotoEmpty: an empty photo is none, as an empty parameter is
// absent.
func TestImportPhotoEmpty(t *testing.T) {
	e := newEnv(t)
	_, key := e.user("ada@example.com")
	e.run(t, []scenario{
		{"an empty photo", req{method: "POST", path: "/api/import", key: key,
			body: `{"kith_export":1,"persons":[{"first_name":"A","photo":""},{"first_name":"B","photo":null}]}`}, 200,
			[]string{`"persons":2`, `"photos":0`}},
	})
}
