package server

import (
	"bytes"
	"encoding/binary"
	"fmt"
	"image"
	"image/color"
	"mime/multipart"
	"net/http/httptest"
	"regexp"
	"runtime"
	"strings"
	"testing"

	"kith/server/input"
	"kith/server/photo"
	"kith/server/photo/phototest"
)

// photoPath is the path of a person's photo.
func photoPath(person string) string { return "/api/persons/" + person + "/photo" }

// setPhoto sends raw as the person's photo, as the whole body, and fails
// the test unless it is taken; it answers the person.
func (e *env) setPhoto(key, person string, raw []byte) map[string]any {
	e.t.Helper()
	r := e.do(req{method: "PUT", path: photoPath(person), key: key, body: string(raw), ctype: "application/octet-stream"})
	if r.code != 200 {
		e.t.Fatalf("PUT %s: %d %s", photoPath(person), r.code, r.body)
	}
	return r.json(e.t)["data"].(map[string]any)
}

// photoOf fetches the person's photo, failing the test unless it is a JPEG
// answered as the contract says: image/jpeg, a strong ETag, private,
// no-cache, and no metadata in the JPEG.
func (e *env) photoOf(key, person string) (image.Image, string, []byte) {
	e.t.Helper()
	r := e.do(req{method: "GET", path: photoPath(person), key: key})
	if r.code != 200 {
		e.t.Fatalf("GET %s: %d %s", photoPath(person), r.code, r.body)
	}
	if ct, cc := r.header.Get("Content-Type"), r.header.Get("Cache-Control"); ct != "image/jpeg" || cc != "private, no-cache" {
		e.t.Errorf("Content-Type %q, Cache-Control %q", ct, cc)
	}
	etag := r.header.Get("ETag")
	if !strongETag.MatchString(etag) {
		e.t.Errorf("ETag %q is not a strong, quoted validator", etag)
	}
	jpg := []byte(r.body)
	checkNoMetadata(e.t, jpg)
	m, err := phototest.Decode(jpg)
	if err != nil {
		e.t.Fatalf("the photo does not decode: %v", err)
	}
	return m, etag, jpg
}

var strongETag = regexp.MustCompile(`^"[0-9a-f]{64}"$`)

// checkNoMetadata walks the JPEG's segments up to its image data: a
// baseline SOF0, and no APP1–APP15 or COM segment (a JFIF APP0 would do).
func checkNoMetadata(t testing.TB, jpg []byte) {
	t.Helper()
	markers, err := phototest.Markers(jpg)
	if err != nil {
		t.Fatalf("%v: %x", err, markers)
	}
	baseline := false
	for _, m := range markers {
		switch {
		case m >= 0xe1 && m <= 0xef || m == 0xfe:
			t.Errorf("the stored JPEG has a metadata segment %x: %x", m, markers)
		case m == 0xc0:
			baseline = true
		case m > 0xc0 && m <= 0xcf && m != 0xc4 && m != 0xc8 && m != 0xcc:
			t.Errorf("the stored JPEG is not baseline (SOF %x)", m)
		}
	}
	if !baseline {
		t.Errorf("no baseline SOF0: %x", markers)
	}
}

func sizeOf(m image.Image) string { return fmt.Sprintf("%d×%d", m.Bounds().Dx(), m.Bounds().Dy()) }

// wantColours fails unless each point of m is about its colour.
func wantColours(t *testing.T, m image.Image, points map[[2]int]color.NRGBA) {
	t.Helper()
	for p, want := range points {
		if got := m.At(p[0], p[1]); !phototest.Near(got, want) {
			t.Errorf("(%d, %d) is %v, want about %v", p[0], p[1], got, want)
		}
	}
}

// multipartPhoto is a multipart form body with the parts given, name then
// content; a name ending in @ is a file part (photo@ is the file photo).
func multipartPhoto(parts ...string) (body, ctype string) {
	var b bytes.Buffer
	w := multipart.NewWriter(&b)
	for i := 0; i < len(parts); i += 2 {
		if name, file := strings.CutSuffix(parts[i], "@"); file {
			fw, _ := w.CreateFormFile(name, "me.jpg")
			fw.Write([]byte(parts[i+1]))
		} else {
			w.WriteField(parts[i], parts[i+1])
		}
	}
	w.Close()
	return b.String(), w.FormDataContentType()
}

func TestPhotoFormats(t *testing.T) {
	e := newEnv(t)
	_, key := e.user("ada@example.com")
	alpha := phototest.Image(40, 20, func(x, y int) color.NRGBA {
		if x < 20 {
			return phototest.Clear
		}
		return phototest.Green
	})
	quads := map[[2]int]color.NRGBA{{5, 5}: phototest.Red, {5, 15}: phototest.Green, {35, 10}: phototest.Blue}
	for _, c := range []struct {
		name, ctype string
		raw         []byte
		size        string
		colours     map[[2]int]color.NRGBA
	}{
		// Orientation 6 turns 40×20 a quarter clockwise: the left column,
		// green below red, becomes the top row, green left of red.
		{"a JPEG with EXIF orientation 6 and a GPS position", "image/jpeg",
			phototest.WithExif(phototest.JPEG(phototest.Quadrants(40, 20)), 6, binary.LittleEndian), "20×40",
			map[[2]int]color.NRGBA{{3, 5}: phototest.Green, {16, 5}: phototest.Red, {10, 35}: phototest.Blue}},
		{"a PNG with transparency, laid on white", "image/png", phototest.PNG(alpha), "40×20",
			map[[2]int]color.NRGBA{{5, 10}: phototest.White, {35, 10}: phototest.Green}},
		{"a GIF", "image/gif", phototest.GIF(phototest.Quadrants(40, 20)), "40×20", quads},
		{"a lossless WebP with transparency", "image/webp", phototest.WebP, "16×16",
			map[[2]int]color.NRGBA{{2, 8}: phototest.Red, {13, 8}: phototest.White}},
		{"a PNG sent as image/jpeg: the bytes decide", "image/jpeg", phototest.PNG(phototest.Quadrants(40, 20)), "40×20", quads},
		{"a body with no Content-Type", "", phototest.GIF(phototest.Quadrants(40, 20)), "40×20", quads},
		{"the photo part of a multipart form", "multipart", phototest.PNG(phototest.Quadrants(40, 20)), "40×20", quads},
	} {
		t.Run(c.name, func(t *testing.T) {
			old := e.t
			e.t = t
			defer func() { e.t = old }()
			person := e.person(key, "first_name=Jim")
			r := req{method: "PUT", path: photoPath(person), key: key, body: string(c.raw), ctype: c.ctype}
			if c.ctype == "multipart" {
				r.body, r.ctype = multipartPhoto("name", "x", "photo@", string(c.raw), "other@", "ignored")
			}
			got := e.do(r)
			if got.code != 200 {
				t.Fatalf("%d %s", got.code, got.body)
			}
			data := got.json(t)["data"].(map[string]any)
			if data["object"] != "person" || fmt.Sprint(data["id"]) != person || data["has_photo"] != true {
				t.Errorf("answer %s", got.body)
			}
			m, _, jpg := e.photoOf(key, person)
			if sizeOf(m) != c.size {
				t.Errorf("stored %s, want %s", sizeOf(m), c.size)
			}
			wantColours(t, m, c.colours)
			if bytes.Contains(jpg, []byte("Exif")) || bytes.Equal(jpg, c.raw) {
				t.Error("the stored JPEG is (or holds) the bytes sent")
			}
		})
	}
}

func TestPhotoScaledDownNeverUp(t *testing.T) {
	e := newEnv(t)
	_, key := e.user("ada@example.com")
	for _, c := range []struct {
		w, h int
		want string
	}{{1024, 300, "512×150"}, {300, 1024, "150×512"}, {2000, 2000, "512×512"}, {100, 50, "100×50"}} {
		person := e.person(key, "first_name=Jim")
		e.setPhoto(key, person, phototest.PNG(phototest.Quadrants(c.w, c.h)))
		if m, _, _ := e.photoOf(key, person); sizeOf(m) != c.want {
			t.Errorf("%d×%d stored as %s, want %s", c.w, c.h, sizeOf(m), c.want)
		}
	}
}

// TestPhotoRefusals: every way a PUT can fail, each with the contract's
// words, and none changes the photo there was.
func TestPhotoRefusals(t *testing.T) {
	e := newEnv(t)
	_, key := e.user("ada@example.com")
	person := e.person(key, "first_name=Jim")
	e.setPhoto(key, person, phototest.GIF(phototest.Quadrants(8, 8)))
	_, etag, _ := e.photoOf(key, person)
	logs := e.count(`SELECT count(*) FROM logs`)
	put := func(body, ctype string) req {
		return req{method: "PUT", path: photoPath(person), key: key, body: body, ctype: ctype}
	}
	invalid := func(msg string) []string {
		return append(errBody(422, msg), `"errors":{"photo":["`+msg+`"]}`)
	}
	png := phototest.PNG(phototest.Quadrants(40, 20))
	noPart, noPartType := multipartPhoto("name", "Jim")
	emptyPart, emptyPartType := multipartPhoto("photo@", "")
	textPart, textPartType := multipartPhoto("photo", "hello")
	e.run(t, []scenario{
		{"a JSON body is no image", put(`{"photo":"`+string(png[:8])+`"}`, "application/json"), 422, invalid(input.MsgPhotoRequired)},
		{"a form body is no image", put("photo=abc", "application/x-www-form-urlencoded"), 422, invalid(input.MsgPhotoRequired)},
		{"an empty body", put("", "image/png"), 422, invalid(input.MsgPhotoRequired)},
		{"a multipart form without a photo part", put(noPart, noPartType), 422, invalid(input.MsgPhotoRequired)},
		{"a multipart form with an empty photo file", put(emptyPart, emptyPartType), 422, invalid(input.MsgPhotoRequired)},
		{"a multipart form that does not parse", put("--x\r\nnonsense", "multipart/form-data"), 400, errBody(400, "The request body is not a valid form.")},
		{"text", put("hello, world", "image/jpeg"), 422, invalid(input.MsgPhotoType)},
		{"text in the photo part", put(textPart, textPartType), 422, invalid(input.MsgPhotoType)},
		{"a BMP", put("BM"+strings.Repeat("\x00", 60), "image/bmp"), 422, invalid(input.MsgPhotoType)},
		{"an SVG", put(`<svg xmlns="http://www.w3.org/2000/svg"/>`, "image/svg+xml"), 422, invalid(input.MsgPhotoType)},
		{"a truncated PNG", put(string(png[:len(png)/2]), "image/png"), 422, invalid(input.MsgPhotoImage)},
		{"a JPEG cut after its header", put(string(phototest.JPEG(phototest.Quadrants(8, 8))[:200]), "image/jpeg"), 422, invalid(input.MsgPhotoImage)},
		{"a WebP cut short", put(string(phototest.WebP[:40]), "image/webp"), 422, invalid(input.MsgPhotoImage)},
		{"a PNG declaring 50000×50000", put(string(phototest.Bomb(50000, 50000)), "image/png"), 422, invalid(input.MsgPhotoPixels)},
		{"a PNG declaring 40,000,001 pixels", put(string(phototest.Bomb(8000, 5001)), "image/png"), 422, invalid(input.MsgPhotoPixels)},
	})
	if _, after, _ := e.photoOf(key, person); after != etag {
		t.Errorf("a refused PUT changed the photo: %s then %s", etag, after)
	}
	if n := e.count(`SELECT count(*) FROM logs`); n != logs {
		t.Errorf("refused PUTs logged %d entries", n-logs)
	}
}

// TestPhotoBombCostsNothing: a PNG of a few dozen bytes that declares
// 50000×50000 pixels (10 GB decoded) is refused from its header: the heap
// does not grow by the hundreds of megabytes decoding it would take.
func TestPhotoBombCostsNothing(t *testing.T) {
	e := newEnv(t)
	_, key := e.user("ada@example.com")
	person := e.person(key, "first_name=Jim")
	bomb := phototest.Bomb(50000, 50000)
	var before, after runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&before)
	r := e.do(req{method: "PUT", path: photoPath(person), key: key, body: string(bomb), ctype: "image/png"})
	runtime.ReadMemStats(&after)
	if r.code != 422 || !strings.Contains(r.body, input.MsgPhotoPixels) {
		t.Fatalf("%d %s", r.code, r.body)
	}
	if grown := int64(after.TotalAlloc - before.TotalAlloc); grown > 32<<20 {
		t.Errorf("refusing the bomb allocated %d MB", grown>>20)
	}
	if peak := int64(after.HeapInuse) - int64(before.HeapInuse); peak > 32<<20 {
		t.Errorf("the heap grew by %d MB", peak>>20)
	}
}

// TestPhotoBodyLimit: this route alone takes bodies up to 10 MiB; one
// byte more is 413, and the photo there was stays.
func TestPhotoBodyLimit(t *testing.T) {
	e := newEnv(t)
	_, key := e.user("ada@example.com")
	person := e.person(key, "first_name=Jim")
	// A JPEG padded after its end to exactly 10 MiB: a decoder stops at
	// its EOI, so the padding is no harm.
	jpg := phototest.JPEG(phototest.Quadrants(40, 20))
	exact := append(jpg, make([]byte, photo.MaxBytes-len(jpg))...)
	if len(exact) != 10485760 {
		t.Fatalf("%d bytes", len(exact))
	}
	e.setPhoto(key, person, exact)
	_, etag, _ := e.photoOf(key, person)

	over := string(append(exact, 0))
	overPart, overPartType := multipartPhoto("photo@", string(exact))
	tooLarge := errBody(413, "The request body is too large.")
	e.run(t, []scenario{
		{"10 MiB + 1", req{method: "PUT", path: photoPath(person), key: key, body: over, ctype: "image/jpeg"}, 413, tooLarge},
		{"a multipart form over 10 MiB", req{method: "PUT", path: photoPath(person), key: key, body: overPart, ctype: overPartType}, 413, tooLarge},
		{"other routes keep 1 MiB", req{method: "PUT", path: "/api/persons/" + person, key: key,
			body: `{"first_name":"` + strings.Repeat("x", 1<<20) + `"}`}, 413, tooLarge},
	})
	// Without a Content-Length (chunked), the limit stops the reading.
	hr := httptest.NewRequest("PUT", photoPath(person), strings.NewReader(over))
	hr.ContentLength = -1
	hr.Header.Set("Content-Type", "image/jpeg")
	hr.Header.Set("Authorization", "Bearer "+key)
	rec := httptest.NewRecorder()
	e.srv.ServeHTTP(rec, hr)
	if rec.Code != 413 || !strings.Contains(rec.Body.String(), "The request body is too large.") {
		t.Errorf("chunked 10 MiB + 1: %d %s", rec.Code, rec.Body.String())
	}
	if _, after, _ := e.photoOf(key, person); after != etag {
		t.Error("a body over the limit changed the photo")
	}
}

func TestPhotoETag(t *testing.T) {
	e := newEnv(t)
	_, key := e.user("ada@example.com")
	person := e.person(key, "first_name=Jim")
	e.setPhoto(key, person, phototest.PNG(phototest.Quadrants(40, 20)))
	_, etag, jpg := e.photoOf(key, person)
	get := func(method, match string) resp {
		return e.do(req{method: method, path: photoPath(person), key: key, header: map[string]string{"If-None-Match": match}})
	}
	for _, match := range []string{etag, "*", "W/" + etag, `"other", ` + etag} {
		for _, method := range []string{"GET", "HEAD"} {
			r := get(method, match)
			if r.code != 304 || r.body != "" || r.header.Get("ETag") != etag || r.header.Get("Cache-Control") != "private, no-cache" {
				t.Errorf("%s If-None-Match %s: %d %q %v", method, match, r.code, r.body, r.header)
			}
		}
	}
	if r := get("GET", `"other"`); r.code != 200 || r.body != string(jpg) {
		t.Errorf("another ETag: %d", r.code)
	}
	head := e.do(req{method: "HEAD", path: photoPath(person), key: key})
	if head.code != 200 || head.body != "" || head.header.Get("ETag") != etag || head.header.Get("Content-Type") != "image/jpeg" ||
		head.header.Get("Content-Length") != fmt.Sprint(len(jpg)) {
		t.Errorf("HEAD: %d %v", head.code, head.header)
	}
	// The same image again makes the same JPEG: the same ETag.
	e.setPhoto(key, person, phototest.PNG(phototest.Quadrants(40, 20)))
	if _, again, _ := e.photoOf(key, person); again != etag {
		t.Errorf("the same image, another ETag: %s, %s", etag, again)
	}
	// Another photo: another ETag, and the old one no longer matches.
	e.setPhoto(key, person, phototest.PNG(phototest.Quadrants(20, 40)))
	if _, changed, _ := e.photoOf(key, person); changed == etag {
		t.Error("a new photo kept the ETag")
	}
	if r := get("GET", etag); r.code != 200 {
		t.Errorf("the old ETag: %d", r.code)
	}
}

func TestPhotoDelete(t *testing.T) {
	e := newEnv(t)
	_, key := e.user("ada@example.com")
	person := e.person(key, "first_name=Jim&last_name=Halpert")
	e.setPhoto(key, person, phototest.GIF(phototest.Quadrants(8, 8)))
	noPhoto := errBody(404, "Photo not found.")
	e.run(t, []scenario{
		{"deleted", req{method: "DELETE", path: photoPath(person), key: key}, 204, nil},
		{"then none to show", req{method: "GET", path: photoPath(person), key: key}, 404, noPhoto},
		{"nor to delete", req{method: "DELETE", path: photoPath(person), key: key}, 404, noPhoto},
		{"the person says so", req{method: "GET", path: "/api/persons/" + person, key: key}, 200, []string{`"has_photo":false`}},
	})
	if r := e.do(req{method: "HEAD", path: photoPath(person), key: key}); r.code != 404 || r.body != "" {
		t.Errorf("HEAD without a photo: %d %q", r.code, r.body)
	}
	r := e.do(req{method: "GET", path: "/api/administration/logs", key: key})
	for _, want := range []string{`"action":"photo_update","description":"Updated the photo of Jim Halpert"`,
		`"action":"photo_deletion","description":"Deleted the photo of Jim Halpert"`} {
		if !strings.Contains(r.body, want) {
			t.Errorf("logs lack %s: %s", want, r.body)
		}
	}
}

// TestPhotoNotFound: a person that is not there, or is another account's,
// is 404 "Person not found." on every method, before the image is looked
// at, and the owner's photo stays.
func TestPhotoNotFound(t *testing.T) {
	e := newEnv(t)
	_, ada := e.user("ada@example.com")
	_, bob := e.user("bob@example.com")
	jim := e.person(ada, "first_name=Jim")
	e.setPhoto(ada, jim, phototest.PNG(phototest.Quadrants(40, 20)))
	_, etag, _ := e.photoOf(ada, jim)
	png := string(phototest.PNG(phototest.Quadrants(8, 8)))
	noPerson := errBody(404, "Person not found.")
	var scenarios []scenario
	for _, c := range []struct{ who, key, person string }{
		{"another account's person", bob, jim}, {"no such person", ada, "999999"}, {"no id", ada, "abc"}, {"id 0", ada, "0"},
	} {
		scenarios = append(scenarios,
			scenario{"GET of " + c.who, req{method: "GET", path: photoPath(c.person), key: c.key}, 404, noPerson},
			scenario{"PUT of " + c.who, req{method: "PUT", path: photoPath(c.person), key: c.key, body: png, ctype: "image/png"}, 404, noPerson},
			scenario{"a bad PUT of " + c.who, req{method: "PUT", path: photoPath(c.person), key: c.key, body: "hello", ctype: "image/png"}, 404, noPerson},
			scenario{"DELETE of " + c.who, req{method: "DELETE", path: photoPath(c.person), key: c.key}, 404, noPerson},
		)
	}
	scenarios = append(scenarios,
		scenario{"without a key", req{method: "GET", path: photoPath(jim)}, 401, errBody(401, "Unauthenticated.")},
		scenario{"another method", req{method: "POST", path: photoPath(jim), key: ada}, 405, errBody(405, "Method not allowed.")},
		scenario{"a path past the route", req{method: "GET", path: photoPath(jim) + "/x", key: ada}, 404, errBody(404, "Not found.")},
	)
	e.run(t, scenarios)
	if _, after, _ := e.photoOf(ada, jim); after != etag {
		t.Error("an intruder changed the photo")
	}
}

func TestPhotoInThePersonJSON(t *testing.T) {
	e := newEnv(t)
	_, key := e.user("ada@example.com")
	jim := e.person(key, "first_name=Jim")
	pam := e.person(key, "first_name=Pam")
	if data := e.setPhoto(key, jim, phototest.GIF(phototest.Quadrants(8, 8))); data["has_photo"] != true {
		t.Errorf("PUT's answer: %v", data)
	}
	list := e.list(key, "/api/persons")
	if len(list) != 2 || list[0]["has_photo"] != true || list[1]["has_photo"] != false {
		t.Errorf("list: %v", list)
	}
	for path, want := range map[string]string{
		"/api/persons/" + jim: `"has_photo":true`, "/api/persons/" + pam: `"has_photo":false`,
		"/api/persons?q=Jim": `"has_photo":true`,
	} {
		if r := e.do(req{method: "GET", path: path, key: key}); !strings.Contains(r.body, want) {
			t.Errorf("%s lacks %s: %s", path, want, r.body)
		}
	}
	if r := e.do(req{method: "PUT", path: "/api/persons/" + jim + "?first_name=James", key: key}); !strings.Contains(r.body, `"has_photo":true`) {
		t.Errorf("an update's answer: %s", r.body)
	}
	// Deleting the person deletes the photo.
	if n := e.count(`SELECT count(*) FROM photos`); n != 1 {
		t.Fatalf("%d photos", n)
	}
	e.do(req{method: "DELETE", path: "/api/persons/" + jim, key: key})
	if n := e.count(`SELECT count(*) FROM photos`); n != 0 {
		t.Errorf("%d photos left after the person went", n)
	}
}

// TestPhotoMerge: merging gives the kept person the other's photo when it
// has none, and keeps its own otherwise; the other's goes with it.
func TestPhotoMerge(t *testing.T) {
	e := newEnv(t)
	_, key := e.user("ada@example.com")
	pam, pamela := e.person(key, "first_name=Pam"), e.person(key, "first_name=Pamela")
	e.setPhoto(key, pamela, phototest.PNG(phototest.Quadrants(40, 20)))
	_, pamelas, _ := e.photoOf(key, pamela)
	r := e.do(req{method: "POST", path: "/api/persons/" + pam + "/merge?person_id=" + pamela, key: key})
	if r.code != 200 || !strings.Contains(r.body, `"has_photo":true`) {
		t.Fatalf("merge: %d %s", r.code, r.body)
	}
	if _, got, _ := e.photoOf(key, pam); got != pamelas {
		t.Errorf("the kept person's photo is %s, want the other's %s", got, pamelas)
	}

	jim, james := e.person(key, "first_name=Jim"), e.person(key, "first_name=James")
	e.setPhoto(key, jim, phototest.GIF(phototest.Quadrants(8, 8)))
	e.setPhoto(key, james, phototest.GIF(phototest.Quadrants(16, 8)))
	_, jims, _ := e.photoOf(key, jim)
	if r := e.do(req{method: "POST", path: "/api/persons/" + jim + "/merge?person_id=" + james, key: key}); r.code != 200 {
		t.Fatalf("merge: %d %s", r.code, r.body)
	}
	if _, got, _ := e.photoOf(key, jim); got != jims {
		t.Errorf("the kept person's own photo gave way: %s, want %s", got, jims)
	}
	if n := e.count(`SELECT count(*) FROM photos`); n != 2 {
		t.Errorf("%d photos, want Pam's and Jim's", n)
	}
}
