package server

import (
	"encoding/base64"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/rs/zerolog"
)

// The vCard benchmarks import a file of 5,000 cards as an iPhone writes
// them, and export accounts of 1,000 and 5,000 persons, through the real
// router:
//
//	go test ./server -run '^$' -bench VCard -benchmem -count 3
//
// Besides ns/op and B/op, each reports the largest HeapInuse seen while a
// request ran (peak-inuse-MiB, sampled every millisecond), the largest heap
// a collection found live meanwhile (peak-live-MiB) and the live heap just
// before (base-live-MiB), and the size of the file (in-MiB, out-MiB). An
// export that pages holds one page: its peak-live-MiB less base-live-MiB
// stays flat as the account grows, whatever the size of its output.

var (
	benchFirst = []string{"José", "Zoë", "Łukasz", "Søren", "Αλέξανδρος", "美咲", "Дмитрий", "François",
		"Ömer", "Siobhán", "Pam", "Jim", "Dwight", "Angela", "Oscar", "Nguyễn"}
	benchLast = []string{"Núñez", "Müller", "Kowalski", "Ødegaard", "Παπαδόπουλος", "山田", "Иванов",
		"Lefèvre", "Yılmaz", "O'Brien", "Beesly", "Halpert", "Schrute", "Martin", "Martinez", "Trần"}
	benchCountries = []string{"USA", "France", "Deutschland", "UK", "Japan", "Poland", "Atlantis"}
)

// benchPhoto is a small JPEG-sized photo, as base64 folded at 75 octets.
var benchPhoto = func() string {
	raw := make([]byte, 1500)
	for i := range raw {
		raw[i] = byte(i * 7)
	}
	return fold("PHOTO;ENCODING=b;TYPE=JPEG:" + base64.StdEncoding.EncodeToString(raw))
}()

// fold folds a content line at 75 octets, as address books write them.
func fold(line string) string {
	var b strings.Builder
	for len(line) > 75 {
		b.WriteString(line[:75] + "\r\n ")
		line = line[75:]
	}
	b.WriteString(line + "\r\n")
	return b.String()
}

// benchVCards is a file of n cards: a name (many of them not ASCII), two
// emails, two phones (one with Apple's label), an address, a birthday, a
// note, a labelled X-ABDATE, and for one card in ten a photo.
func benchVCards(n int) string {
	var b strings.Builder
	for i := 0; i < n; i++ {
		first, last := benchFirst[i%len(benchFirst)], benchLast[(i/len(benchFirst))%len(benchLast)]
		fmt.Fprintf(&b, "BEGIN:VCARD\r\nVERSION:3.0\r\nPRODID:-//Apple Inc.//iPhone OS 17.5//EN\r\n")
		fmt.Fprintf(&b, "N:%s;%s;;;\r\nFN:%s %s\r\n", last, first, first, last)
		fmt.Fprintf(&b, "item1.EMAIL;type=INTERNET;type=HOME;type=pref:person%d@example.com\r\n", i)
		fmt.Fprintf(&b, "EMAIL;type=INTERNET;type=WORK:p%d@work.example\r\n", i)
		fmt.Fprintf(&b, "TEL;type=CELL;type=VOICE;type=pref:+1 (570) 555-%04d\r\n", i%10000)
		fmt.Fprintf(&b, "item2.TEL:+44 20 7946 %04d\r\nitem2.X-ABLabel:_$!<Mobile>!$_\r\n", (i*7)%10000)
		fmt.Fprintf(&b, "item3.ADR;type=HOME;type=pref:;;%d Elm Street\\nApt %d;Springfield;;%05d;%s\r\n",
			i+1, i%40, 10000+i, benchCountries[i%len(benchCountries)])
		fmt.Fprintf(&b, "BDAY:%04d-%02d-%02d\r\n", 1950+i%55, 1+i%12, 1+i%28)
		b.WriteString(fold(fmt.Sprintf("NOTE:Met at the conference in %d. Likes tea\\, not coffee\\; ask about the kids (%s).",
			2000+i%25, first)))
		fmt.Fprintf(&b, "item4.X-ABDATE;type=pref:%04d-%02d-%02d\r\nitem4.X-ABLabel:_$!<Anniversary>!$_\r\n",
			1990+i%30, 1+(i+5)%12, 1+(i+3)%28)
		if i%10 == 0 {
			b.WriteString(benchPhoto)
		}
		fmt.Fprintf(&b, "UID:BENCH-%08d-0000-4000-8000-000000000000\r\nEND:VCARD\r\n", i)
	}
	return b.String()
}

// benchEnv is a server that logs nothing.
func benchEnv(b *testing.B) *env {
	return newEnv(b, func(o *Options) { o.Logger = zerolog.New(io.Discard) })
}

// importBench posts file into the account of key and fails unless every
// card made a person.
func importBench(b *testing.B, e *env, key, file string, cards int) {
	r := httptest.NewRequest("POST", "/api/import/vcard", strings.NewReader(file))
	r.Header.Set("Authorization", "Bearer "+key)
	r.Header.Set("Content-Type", "text/vcard")
	w := httptest.NewRecorder()
	e.srv.ServeHTTP(w, r)
	var out struct {
		Data vcardImportJSON `json:"data"`
	}
	if w.Code != 200 || json.Unmarshal(w.Body.Bytes(), &out) != nil {
		b.Fatalf("import: %d %s", w.Code, w.Body.String())
	}
	if out.Data.Created != cards || len(out.Data.Skipped) != 0 {
		b.Fatalf("import: %d created, want %d; skipped %v", out.Data.Created, cards, out.Data.Skipped)
	}
}

// BenchmarkVCardImport imports 5,000 cards into a new account each time,
// with the heap's peak above where it stood (heapPeak, as the export's
// benchmarks report it).
func BenchmarkVCardImport(b *testing.B) {
	const n = 5000
	benchImportFile(b, benchVCards(n), n)
}

// benchImportFile imports file, of n cards, into a new account each time
// and reports the heap's peak above where it stood, and the rate.
func benchImportFile(b *testing.B, file string, n int) {
	e := benchEnv(b)
	var all, live float64
	i := 0
	for b.Loop() {
		b.StopTimer()
		i++
		_, key := e.user(fmt.Sprintf("bench%d@example.com", i))
		stop := heapPeak()
		b.StartTimer()
		importBench(b, e, key, file, n)
		a, l := stop()
		all, live = max(all, a), max(live, l)
	}
	b.ReportMetric(float64(n)*float64(b.N)/b.Elapsed().Seconds(), "cards/s")
	b.ReportMetric(all, "peak-heap-MB")
	b.ReportMetric(live, "peak-live-MB")
	b.ReportMetric(float64(len(file))/(1<<20), "in-MB")
}

// BenchmarkVCardExport exports accounts of 1,000 and 5,000 persons, made
// by an import of the cards above: the live peak stays flat.
func BenchmarkVCardExport(b *testing.B) {
	for _, n := range []int{1000, 5000} {
		b.Run(fmt.Sprintf("persons=%d", n), func(b *testing.B) {
			e := benchEnv(b)
			_, key := e.user("bench@example.com")
			importBench(b, e, key, benchVCards(n), n)
			e.srv.ServeHTTP(httptest.NewRecorder(), httptest.NewRequest("GET", "/api/health", nil)) // lets go of the file
			size := 0
			peak := heapPeak()
			for b.Loop() {
				r := httptest.NewRequest("GET", "/api/export/vcard", nil)
				r.Header.Set("Authorization", "Bearer "+key)
				w := &discard{header: http.Header{}}
				e.srv.ServeHTTP(w, r)
				if w.code != 200 {
					b.Fatalf("export: %d", w.code)
				}
				size = w.n
			}
			all, live := peak()
			b.ReportMetric(all, "peak-heap-MB")
			b.ReportMetric(live, "peak-live-MB")
			b.ReportMetric(float64(size)/(1<<20), "out-MB")
		})
	}
}
