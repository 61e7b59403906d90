package server

import (
	"fmt"
	"strings"
	"testing"

	"kith/store"
)

// cardOf is a vCard of that UID and name with n EMAIL lines.
func cardOf(uid, name string, n int) string {
	var b strings.Builder
	fmt.Fprintf(&b, "BEGIN:VCARD\r\nVERSION:3.0\r\nUID:%s\r\nFN:%s\r\nN:;%s;;;\r\n", uid, name, name)
	for i := range n {
		fmt.Fprintf(&b, "EMAIL;TYPE=home:%s%d@example.com\r\n", strings.ToLower(name), i)
	}
	b.WriteString("END:VCARD\r\n")
	return b.String()
}

// TestContactDetailsCap: a person has at most store.MaxContactDetails
// contact details, whichever way they come (issue 27, H2: a card of
// 40,000 EMAIL lines held the writer for minutes). A card of that many is
// taken; one more is refused with a 4xx by the API, CardDAV and both
// imports, naming what it refuses, and nothing of it is written.
func TestContactDetailsCap(t *testing.T) {
	d, key := newDAVEnv(t, "ada@example.com")
	book := d.bookOf(d.client)
	vcf := map[string]string{"Content-Type": "text/vcard"}

	// A card of as many emails as a person may have: taken.
	if code, _, body := d.raw("PUT", book+"full.vcf", "ada@example.com", key, cardOf("full-1", "Full", store.MaxContactDetails), vcf); code != 201 {
		t.Fatalf("PUT a card of %d emails: %d %s", store.MaxContactDetails, code, body)
	}
	pid := d.count(`SELECT id FROM persons WHERE uid = 'full-1'`)
	if n := d.count(`SELECT count(*) FROM contact_details WHERE person_id = ?`, pid); n != store.MaxContactDetails {
		t.Fatalf("%d contact details, want %d", n, store.MaxContactDetails)
	}
	path := fmt.Sprintf("/api/persons/%d/contact-details", pid)
	d.run(t, []scenario{
		{"the API refuses one more, naming the field", req{method: "POST", path: path + "?kind=phone&value=555", key: key}, 422,
			[]string{fmt.Sprintf(`"kind":["A person may have at most %d contact details."]`, store.MaxContactDetails)}},
		{"the API still replaces one", req{method: "PUT", path: path + "/" + fmt.Sprint(d.count(`SELECT min(id) FROM contact_details WHERE person_id = ?`, pid)) + "?kind=phone&value=555", key: key}, 200,
			[]string{`"value":"555"`}},
	})
	if n := d.count(`SELECT count(*) FROM contact_details WHERE person_id = ?`, pid); n != store.MaxContactDetails {
		t.Errorf("%d contact details after the refusal, want %d", n, store.MaxContactDetails)
	}

	// CardDAV: a card of one more is refused, new or over the full one.
	over := store.MaxContactDetails + 1
	for name, card := range map[string]string{
		"new.vcf":  cardOf("over-1", "Over", over),
		"full.vcf": cardOf("full-1", "Full", over),
	} {
		code, _, body := d.raw("PUT", book+name, "ada@example.com", key, card, vcf)
		if code != 422 || !strings.Contains(body, "at most 1000 contact details") {
			t.Errorf("PUT %s of %d emails: %d %q, want 422 naming the cap", name, over, code, body)
		}
	}
	if n := d.count(`SELECT count(*) FROM persons WHERE uid = 'over-1'`); n != 0 {
		t.Errorf("the refused card made a person")
	}
	if n := d.count(`SELECT count(*) FROM contact_details WHERE person_id = ?`, pid); n != store.MaxContactDetails {
		t.Errorf("%d contact details after the refused PUT, want %d", n, store.MaxContactDetails)
	}

	// The vCard import skips the card, named, and takes the others.
	r := d.do(req{method: "POST", path: "/api/import/vcard", key: key, ctype: "text/vcard",
		body: cardOf("ok-1", "Okay", 2) + cardOf("over-2", "Toomany", over)})
	if r.code != 200 || !strings.Contains(r.body, `"created":1`) ||
		!strings.Contains(r.body, `{"card":2,"name":"Toomany","reason":"more than 1000 contact details (1001)"}`) {
		t.Errorf("vCard import: %d %s", r.code, r.body)
	}

	// The JSON import refuses the document, naming the person.
	_, empty := d.user("empty@example.com")
	var doc strings.Builder
	doc.WriteString(`{"kith_export":1,"persons":[{"first_name":"Ok"},{"first_name":"Many","contact_details":[`)
	for i := range over {
		if i > 0 {
			doc.WriteString(",")
		}
		fmt.Fprintf(&doc, `{"kind":"email","value":"many%d@example.com"}`, i)
	}
	doc.WriteString(`]}]}`)
	d.run(t, []scenario{
		{"the JSON import refuses a person of too many, by place", req{method: "POST", path: "/api/import", key: empty, body: doc.String()}, 422,
			[]string{`"persons.1.contact_details":["persons.1: A person may have at most 1000 contact details."]`}},
	})
	if n := d.count(`SELECT count(*) FROM persons WHERE first_name IN ('Ok', 'Many')`); n != 0 {
		t.Errorf("the refused import wrote %d persons", n)
	}
}
