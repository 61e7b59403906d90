package server

import (
	"bytes"
	"encoding/base64"
	"strings"
	"testing"

	"kith/server/photo/phototest"
)

// TestPeopleVCardReadByVobject: what the export writes of a person's
// photo and relationships is what an independent reader (Python's
// vobject) finds there: the stored JPEG in 3.0's PHOTO (a JPEG data URI
// in 4.0's, which vobject reads no further: the photo tests decode it),
// and in 4.0 a RELATED naming the other card's UID with its type.
func TestPeopleVCardReadByVobject(t *testing.T) {
	e := newEnv(t)
	_, key := e.user("ada@example.com")
	jim := e.person(key, "first_name=Jim&last_name=Halpert")
	pam := e.person(key, "first_name=Pam&last_name=Beesly")
	e.setPhoto(key, jim, phototest.JPEG(phototest.Quadrants(64, 48)))
	_, _, stored := e.photoOf(key, jim)
	if r := e.do(req{method: "POST", path: "/api/persons/" + jim + "/relationships?relationship_type_id=2&person_id=" + pam, key: key}); r.code != 201 {
		t.Fatalf("relationship: %d %s", r.code, r.body)
	}
	uids := map[string]string{}
	for _, id := range []string{jim, pam} {
		uids[id] = e.vcardOf(key, id, "4.0").Value("UID")
	}
	type card struct {
		Photo   string     `json:"photo"`
		Related [][]string `json:"related"`
	}
	for _, version := range []string{"4.0", "3.0"} {
		r := e.do(req{method: "GET", path: "/api/export/vcard?version=" + version, key: key})
		if r.code != 200 {
			t.Fatalf("export %s: %d %s", version, r.code, r.body)
		}
		var cards map[string]card
		vobjectRead(t, r.body, `
for c in vobject.readComponents(open(sys.argv[1], encoding="utf-8").read()):
    photo = ""
    for p in c.contents.get("photo", []):
        # vobject reads vCard 3.0: a 4.0 data URI's value ends at its
        # comma there, so only its start is vobject's to check.
        photo = p.value if isinstance(p.value, str) else base64.b64encode(p.value).decode()
    related = [[l.value, ",".join(l.params.get("TYPE", []))] for l in c.contents.get("related", [])]
    out[c.uid.value] = {"photo": photo, "related": related}`, &cards)
		jc, pc := cards[uids[jim]], cards[uids[pam]]
		if version == "3.0" {
			got, err := base64.StdEncoding.DecodeString(jc.Photo)
			if err != nil || !bytes.Equal(got, stored) {
				t.Errorf("3.0: vobject's PHOTO of Jim is %d bytes (%v), want the stored JPEG's %d", len(got), err, len(stored))
			}
		} else if !strings.HasPrefix(jc.Photo, "data:image/jpeg;base64") {
			t.Errorf("4.0: vobject's PHOTO of Jim starts %.40q, want a JPEG data URI", jc.Photo)
		}
		if pc.Photo != "" {
			t.Errorf("%s: Pam, without a photo, has a PHOTO", version)
		}
		switch version {
		case "4.0":
			if len(jc.Related) != 1 || jc.Related[0][0] != "urn:uuid:"+uids[pam] || !strings.EqualFold(jc.Related[0][1], "spouse") {
				t.Errorf("4.0: Jim's RELATED as vobject reads it: %v", jc.Related)
			}
			if len(pc.Related) != 1 || pc.Related[0][0] != "urn:uuid:"+uids[jim] {
				t.Errorf("4.0: Pam's RELATED as vobject reads it: %v", pc.Related)
			}
		case "3.0":
			if len(jc.Related)+len(pc.Related) != 0 {
				t.Errorf("3.0 has RELATED: %v %v", jc.Related, pc.Related)
			}
		}
	}
}
