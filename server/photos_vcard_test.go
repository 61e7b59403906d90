package server

import (
	"context"
	"encoding/base64"
	"encoding/binary"
	"fmt"
	"image/color"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/emersion/go-webdav/carddav"

	"kith/server/photo/phototest"
)

// card is a vCard of the version given with the lines given.
func card(version string, lines ...string) string {
	return "BEGIN:VCARD\r\nVERSION:" + version + "\r\n" + strings.Join(lines, "\r\n") + "\r\nEND:VCARD\r\n"
}

// vcardText answers the raw text of a GET that answers vCards.
func (e *env) vcardText(key, path string) string {
	e.t.Helper()
	r := e.do(req{method: "GET", path: path, key: key})
	if r.code != 200 {
		e.t.Fatalf("GET %s: %d %s", path, r.code, r.body)
	}
	return r.body
}

func b64(b []byte) string { return base64.StdEncoding.EncodeToString(b) }

func TestPhotoVCardExport(t *testing.T) {
	e := newEnv(t)
	_, key := e.user("ada@example.com")
	jim := e.person(key, "first_name=Jim")
	e.person(key, "first_name=Pam")
	e.clock.Advance(time.Hour)
	e.setPhoto(key, jim, phototest.PNG(phototest.Quadrants(40, 20)))
	_, _, stored := e.photoOf(key, jim)
	line4 := "\r\nPHOTO:data:image/jpeg;base64," + b64(stored) + "\r\n"
	line3 := "\r\nPHOTO;ENCODING=b;TYPE=JPEG:" + b64(stored) + "\r\n"
	for path, line := range map[string]string{
		"/api/persons/" + jim + "/vcard": line4, "/api/persons/" + jim + "/vcard?version=3.0": line3,
		"/api/export/vcard": line4, "/api/export/vcard?version=3.0": line3,
	} {
		text := e.vcardText(key, path)
		if !strings.Contains(text, line) || strings.Count(text, "PHOTO") != 1 {
			t.Errorf("%s: want one PHOTO, %q…: %.300s", path, line[:40], text)
		}
		if strings.Contains(path, "/persons/") && !strings.Contains(text, "REV:"+e.clock.Now().UTC().Format("20060102T150405Z")) &&
			!strings.Contains(text, "REV:"+e.clock.Now().UTC().Format("2006-01-02T15:04:05Z")) {
			t.Errorf("%s: REV is not the photo's time: %.300s", path, text)
		}
	}
	if text := e.vcardText(key, "/api/persons/"+e.person(key, "first_name=Kevin")+"/vcard"); strings.Contains(text, "PHOTO") {
		t.Errorf("a person without a photo has a PHOTO: %s", text)
	}
}

// TestPhotoVCardRoundTrip: an export imported into another account gives
// its persons their photos, in 4.0 and 3.0; imported into the same
// account, it leaves each photo as it was, not made again.
func TestPhotoVCardRoundTrip(t *testing.T) {
	for _, version := range []string{"4.0", "3.0"} {
		t.Run(version, func(t *testing.T) {
			e := newEnv(t)
			_, ada := e.user("ada@example.com")
			_, bob := e.user("bob@example.com")
			jim := e.person(ada, "first_name=Jim")
			e.setPhoto(ada, jim, phototest.WithExif(phototest.JPEG(phototest.Quadrants(40, 20)), 6, binary.BigEndian))
			_, etag, _ := e.photoOf(ada, jim)
			file := e.vcardText(ada, "/api/export/vcard?version="+version)

			r := e.do(req{method: "POST", path: "/api/import/vcard", key: bob, body: file, ctype: "text/vcard"})
			if r.code != 200 || !strings.Contains(r.body, `"created":1`) {
				t.Fatalf("import: %d %s", r.code, r.body)
			}
			bobs := e.personsByName(bob)["Jim"]
			if bobs == nil || bobs["has_photo"] != true {
				t.Fatalf("Bob's Jim: %v", bobs)
			}
			m, _, _ := e.photoOf(bob, fmt.Sprint(bobs["id"]))
			if sizeOf(m) != "20×40" {
				t.Errorf("Bob's Jim's photo is %s", sizeOf(m))
			}
			wantColours(t, m, map[[2]int]color.NRGBA{{3, 5}: phototest.Green, {16, 5}: phototest.Red, {10, 35}: phototest.Blue})

			r = e.do(req{method: "POST", path: "/api/import/vcard", key: ada, body: file, ctype: "text/vcard"})
			if r.code != 200 || !strings.Contains(r.body, `"updated":1`) {
				t.Fatalf("import again: %d %s", r.code, r.body)
			}
			if _, again, _ := e.photoOf(ada, jim); again != etag {
				t.Errorf("importing Kith's own photo made it again: %s then %s", etag, again)
			}
		})
	}
}

func TestPhotoVCardImport(t *testing.T) {
	e := newEnv(t)
	_, key := e.user("ada@example.com")
	var fetched atomic.Int32
	ts := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) {
		fetched.Add(1)
		w.Header().Set("Content-Type", "image/png")
		w.Write(phototest.PNG(phototest.Quadrants(8, 8)))
	}))
	defer ts.Close()
	png, gif := b64(phototest.PNG(phototest.Quadrants(40, 20))), b64(phototest.GIF(phototest.Quadrants(40, 20)))
	folded := gif[:60] + "\r\n " + gif[60:] // a 3.0 line folded as RFC 2426 allows
	file := card("4.0", "UID:data-uri", "FN:Data Uri", "PHOTO:data:image/png;base64,"+png) +
		card("3.0", "UID:base64", "FN:Base Sixtyfour", "PHOTO;ENCODING=BASE64;TYPE=GIF:"+folded) +
		card("3.0", "UID:b-png", "FN:B Png", "PHOTO;TYPE=PNG;ENCODING=b:"+png) +
		card("4.0", "UID:url4", "FN:Url Four", "PHOTO:"+ts.URL+"/a.jpg") +
		card("4.0", "UID:url4m", "FN:Url Mediatype", "PHOTO;MEDIATYPE=image/png:"+ts.URL+"/b.png") +
		card("3.0", "UID:url3", "FN:Url Three", "PHOTO;VALUE=uri:"+ts.URL+"/c.jpg") +
		card("3.0", "UID:text", "FN:Not Image", "PHOTO;ENCODING=b;TYPE=JPEG:"+b64([]byte("hello, world"))) +
		card("4.0", "UID:bomb", "FN:Bomb Photo", "PHOTO:data:image/png;base64,"+b64(phototest.Bomb(50000, 50000))) +
		card("4.0", "UID:broken", "FN:Broken Base", "PHOTO:data:image/png;base64,!!!notbase64") +
		card("4.0", "UID:two", "FN:Two Photos", "PHOTO:"+ts.URL+"/d.jpg", "PHOTO:data:image/gif;base64,"+gif)
	r := e.do(req{method: "POST", path: "/api/import/vcard", key: key, body: file, ctype: "text/vcard"})
	if r.code != 200 || !strings.Contains(r.body, `"created":10,"updated":0,"skipped":[]`) {
		t.Fatalf("import: %d %s", r.code, r.body)
	}
	persons := e.personsByName(key)
	for name, want := range map[string]bool{
		"Data Uri": true, "Base Sixtyfour": true, "B Png": true, "Two Photos": true,
		"Url Four": false, "Url Mediatype": false, "Url Three": false, "Not Image": false, "Bomb Photo": false, "Broken Base": false,
	} {
		p := persons[name]
		if p == nil || p["has_photo"] != want {
			t.Errorf("%s: has_photo %v, want %v", name, p["has_photo"], want)
			continue
		}
		if want {
			if m, _, _ := e.photoOf(key, fmt.Sprint(p["id"])); sizeOf(m) != "40×20" {
				t.Errorf("%s: photo %s", name, sizeOf(m))
			}
		}
	}
	if n := fetched.Load(); n != 0 {
		t.Errorf("Kith fetched a PHOTO's URL %d times", n)
	}
	// Nothing of a PHOTO is kept beside the person's photo.
	all := e.vcardText(key, "/api/export/vcard")
	if strings.Count(all, "PHOTO") != 4 || strings.Contains(all, ts.URL) || strings.Contains(all, b64([]byte("hello, world"))) {
		t.Errorf("the export keeps PHOTOs it should not:\n%s", all)
	}

	// An existing person's photo stays unless a card brings another.
	id := fmt.Sprint(persons["Data Uri"]["id"])
	_, etag, _ := e.photoOf(key, id)
	for name, lines := range map[string][]string{
		"no PHOTO":        {"UID:data-uri", "FN:Data Uri"},
		"a URL":           {"UID:data-uri", "FN:Data Uri", "PHOTO:" + ts.URL + "/e.jpg"},
		"a PHOTO of text": {"UID:data-uri", "FN:Data Uri", "PHOTO:data:image/png;base64," + b64([]byte("text"))},
	} {
		e.do(req{method: "POST", path: "/api/import/vcard", key: key, body: card("4.0", lines...), ctype: "text/vcard"})
		if _, after, _ := e.photoOf(key, id); after != etag {
			t.Errorf("a card with %s changed the photo", name)
		}
	}
	e.do(req{method: "POST", path: "/api/import/vcard", key: key, body: card("4.0", "UID:data-uri", "FN:Data Uri",
		"PHOTO:data:image/gif;base64,"+b64(phototest.GIF(phototest.Quadrants(10, 30)))), ctype: "text/vcard"})
	if m, after, _ := e.photoOf(key, id); after == etag || sizeOf(m) != "10×30" {
		t.Errorf("a card with another photo: %s, %s", after, sizeOf(m))
	}
	if n := fetched.Load(); n != 0 {
		t.Errorf("Kith fetched a PHOTO's URL %d times", n)
	}
}

// TestPhotoVCardOldExtra: a PHOTO that an older Kith kept among a card's
// other properties is not written beside the person's photo, nor without
// one.
func TestPhotoVCardOldExtra(t *testing.T) {
	e := newEnv(t)
	_, key := e.user("ada@example.com")
	extra := strings.ReplaceAll(card("3.0", "PHOTO;ENCODING=b;TYPE=JPEG:"+b64([]byte("old")), "X-KEPT:yes"), "\r\n", `\r\n`)
	doc := `{"kith_export":1,"persons":[{"first_name":"Old","uid":"old-1","vcard_extra":"` + extra + `"}]}`
	if r := e.do(req{method: "POST", path: "/api/import", key: key, body: doc}); r.code != 200 {
		t.Fatalf("import: %d %s", r.code, r.body)
	}
	id := fmt.Sprint(e.personsByName(key)["Old"]["id"])
	if text := e.vcardText(key, "/api/persons/"+id+"/vcard"); strings.Contains(text, "PHOTO") || !strings.Contains(text, "X-KEPT:yes") {
		t.Errorf("without a photo: %s", text)
	}
	e.setPhoto(key, id, phototest.GIF(phototest.Quadrants(8, 8)))
	if text := e.vcardText(key, "/api/persons/"+id+"/vcard?version=3.0"); strings.Count(text, "PHOTO") != 1 || strings.Contains(text, b64([]byte("old"))) {
		t.Errorf("with a photo: %s", text)
	}
}

// TestPhotoCardDAV: a phone's card brings its photo, the card a phone
// reads carries it, and a photo's change is a change of the card: a new
// ETag, and the card in the next sync-collection.
func TestPhotoCardDAV(t *testing.T) {
	d, key := newDAVEnv(t, "ada@example.com")
	ctx := context.Background()
	book := d.bookOf(d.client)
	path := book + "phone-1.vcf"
	vh := map[string]string{"Content-Type": "text/vcard"}
	gif := b64(phototest.GIF(phototest.Quadrants(40, 20)))
	code, _, body := d.raw("PUT", path, "ada@example.com", key, card("3.0", "UID:phone-1", "FN:Holly Flax", "N:Flax;Holly;;;",
		"PHOTO;ENCODING=b;TYPE=GIF:"+gif), vh)
	if code != 201 {
		t.Fatalf("PUT: %d %s", code, body)
	}
	holly := d.personNamed(key, "Holly Flax")
	_, photoETag, stored := d.photoOf(key, holly)
	getCard := func() (string, string) {
		t.Helper()
		code, h, body := d.raw("GET", path, "ada@example.com", key, "", nil)
		if code != 200 {
			t.Fatalf("GET: %d", code)
		}
		return h.Get("ETag"), body
	}
	etag, text := getCard()
	if !strings.Contains(text, "\r\nPHOTO;ENCODING=b;TYPE=JPEG:"+b64(stored)+"\r\n") || strings.Count(text, "PHOTO") != 1 {
		t.Errorf("the card lacks its photo: %.400s", text)
	}

	// The phone saves the contact, edited, with the photo it was given:
	// the photo is not made again.
	edited := strings.Replace(text, "FN:Holly Flax", "FN:Holly Flax 🌸", 1)
	if code, _, body := d.raw("PUT", path, "ada@example.com", key, edited, map[string]string{"Content-Type": "text/vcard", "If-Match": etag}); code != 204 {
		t.Fatalf("PUT back: %d %s", code, body)
	}
	if _, after, _ := d.photoOf(key, holly); after != photoETag {
		t.Error("the photo was made again from Kith's own")
	}

	sync, err := d.client.SyncCollection(ctx, book, &carddav.SyncQuery{})
	if err != nil {
		t.Fatal(err)
	}
	for _, change := range []struct {
		name  string
		write func()
		photo bool
	}{
		{"a new photo", func() { d.setPhoto(key, holly, phototest.PNG(phototest.Quadrants(20, 20))) }, true},
		{"no photo", func() { d.do(req{method: "DELETE", path: photoPath(holly), key: key}) }, false},
	} {
		before, _ := getCard()
		change.write()
		after, text := getCard()
		if after == before || strings.Contains(text, "\r\nPHOTO;") != change.photo {
			t.Errorf("after %s: ETag %s then %s, the card: %.300s", change.name, before, after, text)
		}
		delta, err := d.client.SyncCollection(ctx, book, &carddav.SyncQuery{SyncToken: sync.SyncToken})
		if err != nil || len(delta.Updated) != 1 || !strings.HasSuffix(delta.Updated[0].Path, "phone-1.vcf") {
			t.Errorf("sync after %s: %+v %v", change.name, delta, err)
		}
		sync = delta
	}
}

// personNamed is the id of the account's person of that name.
func (e *env) personNamed(key, name string) string {
	e.t.Helper()
	p := e.personsByName(key)[name]
	if p == nil {
		e.t.Fatalf("no %s", name)
	}
	return fmt.Sprint(p["id"])
}
