package server

import (
	"bytes"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"kith/server/photo/phototest"
)

// postFile sends a multipart form as the photo form does: the page's CSRF
// token (unless parts hold one), then parts (see multipartPhoto).
func (b *browser) postFile(path string, parts ...string) page {
	b.t.Helper()
	has := false
	for i := 0; i < len(parts); i += 2 {
		has = has || parts[i] == "csrf"
	}
	if !has {
		parts = append([]string{"csrf", b.csrf}, parts...)
	}
	body, ctype := multipartPhoto(parts...)
	r := httptest.NewRequest(http.MethodPost, path, strings.NewReader(body))
	r.Header.Set("Content-Type", ctype)
	return b.send(r)
}

// TestWebPhoto: a person's page sends a photo by the API's rules, shows it
// beside the name (and the people list beside theirs) from a page route of
// the session's account, and removes it after asking.
func TestWebPhoto(t *testing.T) {
	e := newEnv(t)
	_, key := e.user("ada@example.com")
	e.user("bob@example.com")
	grace := e.person(key, "first_name=Grace&last_name=Hopper")
	base := "/people/" + grace
	b := e.signIn(t, "ada@example.com")

	pg := b.get(base)
	pg.has(t, `<span class="face" aria-hidden="true">GH</span>`, "No photo: their initials stand in.",
		`<form class="stack" method="post" action="`+base+`/photo" enctype="multipart/form-data"`,
		`<label for="photo-photo">Photo</label>`, `<input type="file" id="photo-photo" name="photo"`, "up to 10 MiB")
	pg.lacks(t, `src="`+base+`/photo"`, "Remove photo")
	b.get(base+"/photo").status(t, http.StatusNotFound)

	pg = b.postFile(base+"/photo", "photo@", string(phototest.PNG(phototest.Quadrants(40, 20))))
	pg.redirects(t, base+"#photo")
	pg = b.follow(pg)
	pg.has(t, "Photo saved.", `<div class="who"><img class="face" src="`+base+`/photo" alt=""`,
		`action="`+base+`/photo/delete" data-confirm="Remove the photo of Grace Hopper?"`, "Remove photo")
	pg.lacks(t, `<span class="face"`)
	b.get("/people").has(t, `<li class="person"><img class="face" src="`+base+`/photo" alt=""`)

	// The page's image is the API's, with its ETag.
	_, etag, jpg := e.photoOf(key, grace)
	img := b.get(base + "/photo")
	img.status(t, http.StatusOK)
	if img.header.Get("Content-Type") != "image/jpeg" || img.header.Get("ETag") != etag || img.header.Get("Cache-Control") != "private, no-cache" ||
		img.body != string(jpg) {
		t.Errorf("the page's photo: %v, %d bytes", img.header, len(img.body))
	}
	r := httptest.NewRequest(http.MethodGet, base+"/photo", nil)
	r.Header.Set("If-None-Match", etag)
	if got := b.send(r); got.code != http.StatusNotModified || got.body != "" {
		t.Errorf("If-None-Match: %d, %d bytes", got.code, len(got.body))
	}

	// Refused by the API's rules, in the page's words beside the field; the
	// photo stays.
	truncated := phototest.PNG(phototest.Quadrants(40, 20))
	for name, c := range map[string]struct {
		parts []string
		msg   string
	}{
		"no file":       {[]string{"photo", ""}, "Choose a photo to send."},
		"an empty file": {[]string{"photo@", ""}, "Choose a photo to send."},
		"text":          {[]string{"photo@", "hello, world"}, "Choose a JPEG, PNG, GIF or WebP file."},
		"a broken PNG":  {[]string{"photo@", string(truncated[:len(truncated)/2])}, "That file is not an image Kith can read."},
		"a bomb":        {[]string{"photo@", string(phototest.Bomb(8000, 6000))}, "That image is larger than 40 megapixels."},
	} {
		b.get(base)
		pg := b.postFile(base+"/photo", c.parts...)
		if pg.code != http.StatusUnprocessableEntity {
			t.Errorf("%s: %d", name, pg.code)
			continue
		}
		pg.has(t, `<details open><summary>Change photo</summary>`, `<p class="error" id="photo-photo-err">`+c.msg+`</p>`)
	}
	b.get(base)
	b.post(base+"/photo", form("photo", "not a file")).has(t, `id="photo-photo-err">Choose a photo to send.</p>`)
	if _, now, _ := e.photoOf(key, grace); now != etag {
		t.Errorf("a refused photo changed it")
	}

	// Over the API's limit of 10 MiB: 413, nothing read.
	b.get(base)
	big := append(phototest.PNG(phototest.Quadrants(40, 20)), bytes.Repeat([]byte{0}, 10<<20)...)
	pg = b.postFile(base+"/photo", "photo@", string(big))
	pg.status(t, http.StatusRequestEntityTooLarge)
	pg.has(t, "The request body is too large.")
	// Just under it, a photo.
	b.get(base)
	fits := phototest.JPEG(phototest.Quadrants(60, 30))
	fits = append(fits, bytes.Repeat([]byte{0}, 10<<20-len(fits)-1024)...)
	b.postFile(base+"/photo", "photo@", string(fits)).redirects(t, base+"#photo")
	if m, now, _ := e.photoOf(key, grace); now == etag || sizeOf(m) != "60×30" {
		t.Errorf("a photo of nearly 10 MiB: %s, etag %s", sizeOf(m), now)
	}

	// No token, no photo; another account's person is not found, nor
	// their photo.
	b.get(base)
	b.postFile(base+"/photo", "csrf", "forged", "photo@", string(phototest.GIF(phototest.Quadrants(10, 10)))).status(t, http.StatusForbidden)
	b.postFile(base+"/photo/delete", "csrf", "forged").status(t, http.StatusForbidden)
	bob := e.signIn(t, "bob@example.com")
	bob.get(base+"/photo").status(t, http.StatusNotFound)
	bob.postFile(base+"/photo", "photo@", string(phototest.GIF(phototest.Quadrants(10, 10)))).status(t, http.StatusNotFound)
	bob.post(base+"/photo/delete", nil).status(t, http.StatusNotFound)
	if m, _, _ := e.photoOf(key, grace); sizeOf(m) != "60×30" {
		t.Errorf("refused, the photo is %s", sizeOf(m))
	}
	if pg := e.browser(t).get(base + "/photo"); pg.code == http.StatusOK {
		t.Errorf("without a session, the photo: %d", pg.code)
	}

	// Removed: the initials again.
	b.get(base)
	pg = b.post(base+"/photo/delete", nil)
	pg.redirects(t, base+"#photo")
	b.follow(pg).has(t, "Photo removed.", `<span class="face" aria-hidden="true">GH</span>`, "No photo")
	if r := e.do(req{method: "GET", path: photoPath(grace), key: key}); r.code != http.StatusNotFound {
		t.Errorf("removed, the API's photo: %d", r.code)
	}
	b.get(base+"/photo").status(t, http.StatusNotFound)
	b.post(base+"/photo/delete", nil).has(t, "Photo not found.")
}
