package server

import (
	"fmt"
	"regexp"
	"sort"
	"strings"
	"testing"
)

// cardText answers the text of the person's card, in version ("" for the default).
func (e *env) cardText(key, person, version string) string {
	e.t.Helper()
	path := "/api/persons/" + person + "/vcard"
	if version != "" {
		path += "?version=" + version
	}
	r := e.do(req{method: "GET", path: path, key: key})
	if r.code != 200 {
		e.t.Fatalf("GET %s: %d %s", path, r.code, r.body)
	}
	return r.body
}

var uidLine = regexp.MustCompile(`(?m)^UID:(.+)\r$`)

// uidOf is the UID of the person's card.
func (e *env) uidOf(key, person string) string {
	e.t.Helper()
	m := uidLine.FindStringSubmatch(e.cardText(key, person, ""))
	if m == nil {
		e.t.Fatalf("no UID in the card of %s", person)
	}
	return m[1]
}

// relatedLines are the card's RELATED lines, sorted.
func relatedLines(card string) []string {
	var out []string
	for _, l := range strings.Split(card, "\r\n") {
		if strings.HasPrefix(l, "RELATED") {
			out = append(out, l)
		}
	}
	sort.Strings(out)
	return out
}

// relate makes a relationship on person with the type and other person.
func (e *env) relate(key, person, typeID, other string) {
	e.t.Helper()
	r := e.do(req{method: "POST", path: "/api/persons/" + person + "/relationships?relationship_type_id=" + typeID + "&person_id=" + other, key: key})
	if r.code != 201 {
		e.t.Fatalf("relate %s to %s: %d %s", person, other, r.code, r.body)
	}
}

// relationType creates a relationship type and answers its id.
func (e *env) relationType(key, body string) string {
	e.t.Helper()
	r := e.do(req{method: "POST", path: "/api/administration/relationship-types", key: key, body: body})
	if r.code != 201 {
		e.t.Fatalf("create type %s: %d %s", body, r.code, r.body)
	}
	return fmt.Sprint(r.json(e.t)["data"].(map[string]any)["id"])
}

// relationsByName is every relationship of the account's persons, each
// as "<person> → <type name> → <other person>", sorted: what an account
// says, ids aside.
func (e *env) relationsByName(t *testing.T, key string) []string {
	t.Helper()
	var out []string
	for name, p := range e.personsByName(key) {
		for _, rel := range e.list(key, fmt.Sprintf("/api/persons/%v/relationships", p["id"])) {
			out = append(out, name+" → "+rel["type"].(map[string]any)["name"].(string)+" → "+rel["person"].(map[string]any)["name"].(string))
		}
	}
	sort.Strings(out)
	return out
}

// TestRelationshipsInVCards: a 4.0 card names each relationship with a
// RELATED of the other card's urn:uuid, a TYPE word of RFC 6350 where one
// fits the name seen from the card's person, else X-KITH-TYPE with the
// name, escaped; 3.0 has none. Exported, then imported into a new account,
// the relationships come back, without doubles when imported again.
func TestRelationshipsInVCards(t *testing.T) {
	e := newEnv(t)
	_, key := e.user("ada@example.com")
	michael := e.person(key, "first_name=Michael&last_name=Scott")
	dwight := e.person(key, "first_name=Dwight&last_name=Schrute")
	jim := e.person(key, "first_name=Jim&last_name=Halpert")
	pam := e.person(key, "first_name=Pam&last_name=Beesly")
	kevin := e.person(key, "first_name=Kevin")
	odd := e.relationType(key, `{"name":"Boss; \"old\", ^ex","name_reverse":"under:ling","group":"work"}`)
	nemesis := e.relationType(key, `{"name":"nemesis"}`)
	e.relate(key, michael, "3", dwight)   // Dwight is Michael's parent
	e.relate(key, michael, "11", jim)     // Jim is Michael's manager
	e.relate(key, jim, "2", pam)          // spouses
	e.relate(key, pam, odd, kevin)        // Kevin is Pam's odd one
	e.relate(key, kevin, "9", michael)    // best friends
	e.relate(key, dwight, nemesis, kevin) // a type the other account lacks
	uid := map[string]string{}
	for _, p := range []string{michael, dwight, jim, pam, kevin} {
		uid[p] = e.uidOf(key, p)
	}
	urn := func(p string) string { return ":urn:uuid:" + uid[p] }

	want := map[string][]string{
		michael: {"RELATED;TYPE=parent" + urn(dwight), "RELATED;X-KITH-TYPE=best friend" + urn(kevin), "RELATED;X-KITH-TYPE=manager" + urn(jim)},
		dwight:  {"RELATED;TYPE=child" + urn(michael), "RELATED;X-KITH-TYPE=nemesis" + urn(kevin)},
		jim:     {"RELATED;TYPE=spouse" + urn(pam), "RELATED;X-KITH-TYPE=report" + urn(michael)},
		pam:     {"RELATED;TYPE=spouse" + urn(jim), `RELATED;X-KITH-TYPE="Boss; ^'old^', ^^ex"` + urn(kevin)},
		kevin:   {"RELATED;X-KITH-TYPE=\"under:ling\"" + urn(pam), "RELATED;X-KITH-TYPE=best friend" + urn(michael), "RELATED;X-KITH-TYPE=nemesis" + urn(dwight)},
	}
	for p, lines := range want {
		sort.Strings(lines)
		wantList(t, "the 4.0 card of "+p, relatedLines(e.cardText(key, p, "")), lines...)
		if got := relatedLines(e.cardText(key, p, "3.0")); len(got) != 0 {
			t.Errorf("the 3.0 card of %s has %q", p, got)
		}
	}
	export := e.do(req{method: "GET", path: "/api/export/vcard", key: key}).body
	if n := strings.Count(export, "\r\nRELATED;"); n != 12 {
		t.Errorf("the 4.0 export has %d RELATED, want 12:\n%s", n, export)
	}
	if e.do(req{method: "GET", path: "/api/export/vcard?version=3.0", key: key}).body == "" ||
		strings.Contains(e.do(req{method: "GET", path: "/api/export/vcard?version=3.0", key: key}).body, "RELATED") {
		t.Errorf("the 3.0 export has RELATED")
	}

	// Into a new account, which has the odd type but not the nemesis one.
	_, bob := e.user("bob@example.com")
	e.relationType(bob, `{"name":"Boss; \"old\", ^ex","name_reverse":"under:ling","group":"work"}`)
	imp := func() {
		t.Helper()
		r := e.do(req{method: "POST", path: "/api/import/vcard", key: bob, body: export, ctype: "text/vcard"})
		if r.code != 200 || !strings.Contains(r.body, `"skipped":[]`) {
			t.Fatalf("import: %d %s", r.code, r.body)
		}
	}
	imp()
	var wantBob []string
	for _, rel := range e.relationsByName(t, key) {
		if !strings.Contains(rel, "nemesis") {
			wantBob = append(wantBob, rel)
		}
	}
	wantList(t, "the relationships imported", e.relationsByName(t, bob), wantBob...)
	if len(wantBob) != 10 {
		t.Errorf("%d relationship sides, want 10: %q", len(wantBob), wantBob)
	}
	bobs := e.personsByName(bob)
	bobDwight, bobKevin := fmt.Sprint(bobs["Dwight Schrute"]["id"]), fmt.Sprint(bobs["Kevin"]["id"])
	// The nemesis RELATED names a person but no type: kept, and written back.
	wantList(t, "Dwight's card in the new account", relatedLines(e.cardText(bob, bobDwight, "")),
		"RELATED;TYPE=child"+urn(michael), "RELATED;X-KITH-TYPE=nemesis"+urn(kevin))
	wantList(t, "Kevin's card in the new account", relatedLines(e.cardText(bob, bobKevin, "")),
		"RELATED;X-KITH-TYPE=\"under:ling\""+urn(pam), "RELATED;X-KITH-TYPE=best friend"+urn(michael), "RELATED;X-KITH-TYPE=nemesis"+urn(dwight))
	if got := relatedLines(e.cardText(bob, bobDwight, "3.0")); len(got) != 1 || !strings.Contains(got[0], "nemesis") {
		t.Errorf("the 3.0 card keeps only the RELATED that is no relationship: %q", got)
	}

	// Again: the same relationships, none doubled, the kept ones once.
	imp()
	wantList(t, "the relationships imported twice", e.relationsByName(t, bob), wantBob...)
	wantList(t, "Dwight's card after the second import", relatedLines(e.cardText(bob, bobDwight, "")),
		"RELATED;TYPE=child"+urn(michael), "RELATED;X-KITH-TYPE=nemesis"+urn(kevin))
	if n := e.count(`SELECT count(*) FROM relationships r JOIN persons p ON p.id = r.person_id WHERE p.first_name = 'Dwight'`); n != 1 {
		t.Errorf("%d relationships made on the Dwights, want 1: the first account's nemesis; the child one is made on Michael", n)
	}
}

// TestVCardImportRelated: a RELATED makes the relationship it names when
// the card it names is in the same file (before or after it) or is a
// person of the account, and a type of the account has the name: a TYPE
// word as a type's name or name_reverse, an X-KITH-TYPE the same. Any
// other RELATED is kept, and written back.
func TestVCardImportRelated(t *testing.T) {
	e := newEnv(t)
	_, key := e.user("ada@example.com")
	angela := e.person(key, "first_name=Angela&last_name=Martin")
	oscar := e.person(key, "first_name=Oscar")
	angelaUID := e.uidOf(key, angela)
	file := strings.Join([]string{
		"BEGIN:VCARD", "VERSION:4.0", "UID:urn:uuid:0b7b1f5e-0000-4000-a000-00000000000a", "FN:Ryan Howard", "N:Howard;Ryan;;;",
		"RELATED;TYPE=CHILD:urn:uuid:0b7b1f5e-0000-4000-a000-00000000000b",  // Kelly, later in the file: made on her
		"RELATED;TYPE=contact,friend:URN:UUID:" + angelaUID,                 // a person of the account, the first word that fits
		"RELATED;TYPE=kin:urn:uuid:" + angelaUID,                            // no type of that name: kept
		"RELATED;TYPE=spouse:urn:uuid:0b7b1f5e-0000-4000-a000-0000000000ff", // nobody: kept
		"RELATED;VALUE=text:Toby",                                           // no card: kept
		"RELATED;X-KITH-TYPE=\"cousin, second\":urn:uuid:0b7b1f5e-0000-4000-a000-00000000000b",
		"END:VCARD",
		"BEGIN:VCARD", "VERSION:4.0", "UID:0b7b1f5e-0000-4000-a000-00000000000b", "FN:Kelly Kapoor", "N:Kapoor;Kelly;;;",
		"RELATED;TYPE=parent:urn:uuid:0b7b1f5e-0000-4000-a000-00000000000a",        // the same as Ryan's CHILD
		"RELATED;X-KITH-TYPE=Report:urn:uuid:0b7b1f5e-0000-4000-a000-00000000000b", // herself: kept
		"END:VCARD", ""}, "\r\n")
	e.relationType(key, `{"name":"cousin, second"}`)
	r := e.do(req{method: "POST", path: "/api/import/vcard", key: key, body: file, ctype: "text/vcard"})
	if r.code != 200 || !strings.Contains(r.body, `"created":2`) {
		t.Fatalf("import: %d %s", r.code, r.body)
	}
	wantList(t, "the account's relationships", e.relationsByName(t, key),
		"Angela Martin → friend → Ryan Howard",
		"Kelly Kapoor → cousin, second → Ryan Howard",
		"Kelly Kapoor → parent → Ryan Howard",
		"Ryan Howard → child → Kelly Kapoor",
		"Ryan Howard → cousin, second → Kelly Kapoor",
		"Ryan Howard → friend → Angela Martin")
	if n := e.count(`SELECT count(*) FROM relationships r JOIN persons p ON p.id = r.person_id WHERE p.first_name = 'Kelly'`); n != 1 {
		t.Errorf("%d relationships made on Kelly, want the parent one", n)
	}
	persons := e.personsByName(key)
	ryan, kelly := fmt.Sprint(persons["Ryan Howard"]["id"]), fmt.Sprint(persons["Kelly Kapoor"]["id"])
	wantList(t, "Ryan's card", relatedLines(e.cardText(key, ryan, "")),
		"RELATED;TYPE=child:urn:uuid:0b7b1f5e-0000-4000-a000-00000000000b",
		"RELATED;TYPE=friend:urn:uuid:"+angelaUID,
		"RELATED;TYPE=kin:urn:uuid:"+angelaUID,
		"RELATED;TYPE=spouse:urn:uuid:0b7b1f5e-0000-4000-a000-0000000000ff",
		"RELATED;VALUE=text:Toby",
		`RELATED;X-KITH-TYPE="cousin, second":urn:uuid:0b7b1f5e-0000-4000-a000-00000000000b`)
	wantList(t, "Kelly's card", relatedLines(e.cardText(key, kelly, "")),
		"RELATED;TYPE=parent:urn:uuid:0b7b1f5e-0000-4000-a000-00000000000a",
		`RELATED;X-KITH-TYPE="cousin, second":urn:uuid:0b7b1f5e-0000-4000-a000-00000000000a`,
		"RELATED;X-KITH-TYPE=Report:urn:uuid:0b7b1f5e-0000-4000-a000-00000000000b")
	if got := e.relationships(t, key, oscar); len(got) != 0 {
		t.Errorf("Oscar has relationships: %q", got)
	}
}

// TestCardDAVPutRelated: a card a client PUTs in 4.0 with a RELATED naming
// a person of the account makes the relationship; the 3.0 card it gets
// back has the RELATED no more (a relationship now), but keeps the one
// that names nobody.
func TestCardDAVPutRelated(t *testing.T) {
	d, key := newDAVEnv(t, "ada@example.com")
	book := d.bookOf(d.client)
	michael := d.person(key, "first_name=Michael&last_name=Scott")
	uid := d.uidOf(key, michael)
	card := strings.Join([]string{"BEGIN:VCARD", "VERSION:4.0", "UID:phone-holly", "FN:Holly Flax", "N:Flax;Holly;;;",
		"RELATED;TYPE=sweetheart:urn:uuid:" + uid, "RELATED;X-KITH-TYPE=partner:urn:uuid:" + uid,
		"RELATED;TYPE=friend:urn:uuid:phone-nobody", "END:VCARD", ""}, "\r\n")
	code, _, body := d.raw("PUT", book+"phone-holly.vcf", "ada@example.com", key, card, map[string]string{"Content-Type": "text/vcard"})
	if code != 201 {
		t.Fatalf("PUT: %d %s", code, body)
	}
	wantList(t, "the account's relationships", d.relationsByName(t, key),
		"Holly Flax → partner → Michael Scott", "Michael Scott → partner → Holly Flax")
	_, _, got := d.raw("GET", book+"phone-holly.vcf", "ada@example.com", key, "", nil)
	wantList(t, "the 3.0 card served", relatedLines(got),
		"RELATED;TYPE=friend:urn:uuid:phone-nobody", "RELATED;TYPE=sweetheart:urn:uuid:"+uid)
}
