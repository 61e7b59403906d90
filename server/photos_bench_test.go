package server

import (
	"bytes"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"image"
	"image/color"
	"image/jpeg"
	"io"
	"net/http/httptest"
	"strings"
	"testing"
	"time"
)

// benchJPEG is a 1024×768 photo-like image (gradients with a little
// noise, which JPEG cannot squeeze away) in a JPEG of about 100 KiB, as a
// phone's contact photo may be.
func benchJPEG() []byte {
	const w, h = 1024, 768
	m := image.NewRGBA(image.Rect(0, 0, w, h))
	seed := uint32(1)
	for y := range h {
		for x := range w {
			seed = seed*1664525 + 1013904223
			n := uint8(seed >> 24 % 8)
			m.SetRGBA(x, y, color.RGBA{uint8(x*255/w) + n, uint8(y*255/h) + n, uint8((x+y)%256)/2 + n, 255})
		}
	}
	var b bytes.Buffer
	if err := jpeg.Encode(&b, m, &jpeg.Options{Quality: 85}); err != nil {
		panic(err)
	}
	return b.Bytes()
}

// photoCards streams n cards, from the card numbered first, each with
// the photo line given (the same string each time, so that the client's
// side holds one copy and the server's memory is what the benchmark
// sees), and tells their size, which a client sends as Content-Length.
func photoCards(first, n int, photo string) (io.Reader, int64) {
	parts := make([]io.Reader, 0, 3*n)
	var size int64
	for i := first; i < first+n; i++ {
		head := fmt.Sprintf("BEGIN:VCARD\r\nVERSION:3.0\r\nN:Person;Photo%d;;;\r\nFN:Photo%d Person\r\n", i, i)
		tail := fmt.Sprintf("UID:PHOTO-BENCH-%08d\r\nEND:VCARD\r\n", i)
		parts = append(parts, strings.NewReader(head), strings.NewReader(photo), strings.NewReader(tail))
		size += int64(len(head) + len(photo) + len(tail))
	}
	return io.MultiReader(parts...), size
}

// BenchmarkVCardImportPhotos imports 1,000 cards, each with a photo of
// 1024×768 in a JPEG of about 100 KiB (137 KiB of base64), through POST
// /api/import/vcard, into a new account each time: ten files of 100
// cards, since a file is at most 20 MiB and 1,000 such cards are 134 MiB.
// Every photo is decoded, scaled to 512×384 and written anew as Kith's
// JPEG. The import holds one file and one page of cards, each with its
// small JPEG, never every photo:
//
//	go test ./server -run '^$' -bench VCardImportPhotos -benchtime 3x
//
// Besides ns/op (for the 1,000), it reports photos a second
// (photos/s), the largest heap seen above where it stood before the
// import, sampled every millisecond (peak-heap-MB), the largest live heap
// meanwhile (peak-live-MB), and the input's size (in-MB).
func BenchmarkVCardImportPhotos(b *testing.B) {
	const files, perFile = 10, 100
	e := benchEnv(b)
	raw := benchJPEG()
	photo := fold("PHOTO;ENCODING=b;TYPE=JPEG:" + base64.StdEncoding.EncodeToString(raw))
	var all, live float64
	var took time.Duration
	i := 0
	for b.Loop() {
		b.StopTimer()
		i++
		_, key := e.user(fmt.Sprintf("photos%d@example.com", i))
		stop := heapPeak()
		start := time.Now()
		b.StartTimer()
		for f := range files {
			body, size := photoCards(f*perFile, perFile, photo)
			r := httptest.NewRequest("POST", "/api/import/vcard", body)
			r.ContentLength = size
			r.Header.Set("Authorization", "Bearer "+key)
			r.Header.Set("Content-Type", "text/vcard")
			w := httptest.NewRecorder()
			e.srv.ServeHTTP(w, r)
			var out struct {
				Data vcardImportJSON `json:"data"`
			}
			if w.Code != 200 || json.Unmarshal(w.Body.Bytes(), &out) != nil || out.Data.Created != perFile {
				b.Fatalf("import: %d %s", w.Code, w.Body.String())
			}
		}
		b.StopTimer()
		took += time.Since(start)
		a, l := stop()
		all, live = max(all, a), max(live, l)
		if n := e.count(`SELECT count(*) FROM photos p JOIN persons s ON s.id = p.person_id WHERE s.uid LIKE 'PHOTO-BENCH-%'`); n != i*files*perFile {
			b.Fatalf("%d photos stored, want %d", n, i*files*perFile)
		}
		b.StartTimer()
	}
	b.ReportMetric(float64(i*files*perFile)/took.Seconds(), "photos/s")
	b.ReportMetric(all, "peak-heap-MB")
	b.ReportMetric(live, "peak-live-MB")
	b.ReportMetric(float64(files*perFile*len(photo))/(1<<20), "in-MB")
	b.ReportMetric(float64(len(raw))/(1<<10), "photo-KiB")
}
