package server

import (
	"bytes"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"runtime"
	"runtime/metrics"
	"strings"
	"testing"
	"time"

	"github.com/rs/zerolog"
)

// The export and import of a large account, through the router, on a
// real database:
//
//	go test ./server -run '^$' -bench 'Export|Import' -benchmem -benchtime 5x
//
// Besides ns/op and B/op (all that was allocated, which grows with the
// rows however they flow), each reports doc-MB, the document's size, and
// how far the heap grew above where it stood before: peak-heap-MB with
// the garbage not yet collected, peak-live-MB what a collection found
// live. An export's live peak stays flat from 1,000 to 5,000 persons: it
// holds a batch, never the document. An import holds the document it was
// sent, as bytes, and a person at a time besides.

// benchPerson is a person with a few details: 2 contact details, an
// important date, a note, 2 tasks, an interaction, a job and an age.
const benchPerson = `{"first_name":"Person %[1]d","last_name":"Benchmark","gender_id":2,
"age":{"age_type":"exact","age_year":1980,"age_month":5,"age_day":17,"add_yearly_reminder":true},
"physical_appearance":{"height":"180 cm","eye_color":"brown"},
"contact_details":[{"kind":"email","label":"home","value":"person%[1]d@example.com"},{"kind":"phone","label":"mobile","value":"+44 20 7946 %04[1]d"}],
"important_dates":[{"label":"anniversary","month":6,"day":15,"remind_yearly":true}],
"notes":[{"content":"Met at the conference in 2019. Likes climbing, jazz and long walks; ask about the new job."}],
"tasks":[{"name":"Call back about the birthday present","task_category_id":1,"due_at":1775001600},{"name":"Send the photos"}],
"interactions":[{"happened_on":"2026-01-10","kind":"call","note":"Talked for an hour."}],
"work_history":[{"job_title":"Engineer","company_name":"Example Ltd","active":true}]}`

// benchDoc is an export document of n such persons.
func benchDoc(n int) []byte {
	var b bytes.Buffer
	b.WriteString(`{"kith_export":1,"task_categories":[{"id":1,"name":"Call","color":"bg-blue-100"}],` +
		`"genders":[{"id":2,"name":"Woman","position":2}],"persons":[`)
	for i := range n {
		if i > 0 {
			b.WriteString(",\n")
		}
		fmt.Fprintf(&b, benchPerson, i)
	}
	b.WriteString("]}")
	return b.Bytes()
}

// heapPeak samples the heap until stop is called, which returns the most
// it held above where it stood at the start, in MB: all of it (live and
// garbage not yet collected, which the collector's pacing lets grow with
// the work), and what the last collection found live.
func heapPeak() (stop func() (all, live float64)) {
	runtime.GC()
	sample := []metrics.Sample{{Name: "/memory/classes/heap/objects:bytes"}, {Name: "/gc/heap/live:bytes"}}
	metrics.Read(sample)
	base := [2]uint64{sample[0].Value.Uint64(), sample[1].Value.Uint64()}
	var peak [2]uint64
	done, finished := make(chan struct{}), make(chan struct{})
	go func() {
		defer close(finished)
		tick := time.NewTicker(time.Millisecond)
		defer tick.Stop()
		for {
			metrics.Read(sample)
			for i := range peak {
				peak[i] = max(peak[i], sample[i].Value.Uint64())
			}
			select {
			case <-done:
				return
			case <-tick.C:
			}
		}
	}()
	return func() (float64, float64) {
		close(done)
		<-finished
		mb := func(i int) float64 { return float64(peak[i]-min(base[i], peak[i])) / (1 << 20) }
		return mb(0), mb(1)
	}
}

// discard is a response writer that keeps nothing of the body, as a
// client reading it off the wire.
type discard struct {
	header http.Header
	code   int
	n      int
}

func (d *discard) Header() http.Header         { return d.header }
func (d *discard) WriteHeader(code int)        { d.code = code }
func (d *discard) Write(p []byte) (int, error) { d.n += len(p); return len(p), nil }
func (d *discard) Flush()                      {}

func BenchmarkExport(b *testing.B) {
	for _, n := range []int{1000, 5000} {
		b.Run(fmt.Sprintf("persons=%d", n), func(b *testing.B) {
			e := newEnv(b, func(o *Options) { o.Logger = zerolog.New(io.Discard) })
			_, key := e.user("bench@example.com")
			benchImport(b, e, key, benchDoc(n), n) // in a call of its own: the document is garbage once it returns
			// echo keeps the last request's context for the next: one more
			// request lets go of the document that the import was sent.
			e.srv.ServeHTTP(httptest.NewRecorder(), httptest.NewRequest("GET", "/api/health", nil))
			var size int
			peak := heapPeak()
			for b.Loop() {
				r := httptest.NewRequest("GET", "/api/export", nil)
				r.Header.Set("Authorization", "Bearer "+key)
				d := &discard{header: http.Header{}}
				e.srv.ServeHTTP(d, r)
				if d.code != 200 || d.n < n*500 {
					b.Fatalf("export: %d, %d bytes", d.code, d.n)
				}
				size = d.n
			}
			all, live := peak()
			b.ReportMetric(all, "peak-heap-MB")
			b.ReportMetric(live, "peak-live-MB")
			b.ReportMetric(float64(size)/(1<<20), "doc-MB")
		})
	}
}

func BenchmarkImport(b *testing.B) {
	for _, n := range []int{1000, 5000} {
		b.Run(fmt.Sprintf("persons=%d", n), func(b *testing.B) {
			e := newEnv(b, func(o *Options) { o.Logger = zerolog.New(io.Discard) })
			doc := benchDoc(n)
			var peakAll, peakLive float64
			for i := range b.N {
				b.StopTimer()
				_, key := e.user(fmt.Sprintf("bench%d@example.com", i)) // an account without persons
				peak := heapPeak()
				b.StartTimer()
				benchImport(b, e, key, doc, n)
				b.StopTimer()
				all, live := peak()
				peakAll, peakLive = max(peakAll, all), max(peakLive, live)
				b.StartTimer()
			}
			b.ReportMetric(peakAll, "peak-heap-MB")
			b.ReportMetric(peakLive, "peak-live-MB")
			b.ReportMetric(float64(len(doc))/(1<<20), "doc-MB")
		})
	}
}

// benchImport posts the document to the account of key.
func benchImport(b *testing.B, e *env, key string, doc []byte, n int) {
	r := httptest.NewRequest("POST", "/api/import", bytes.NewReader(doc))
	r.Header.Set("Authorization", "Bearer "+key)
	w := httptest.NewRecorder()
	e.srv.ServeHTTP(w, r)
	if w.Code != 200 || !strings.Contains(w.Body.String(), fmt.Sprintf(`"persons":%d`, n)) {
		b.Fatalf("import: %d %s", w.Code, w.Body)
	}
}
