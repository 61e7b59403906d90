package server

import (
	"bytes"
	"fmt"
	"net/http/httptest"
	"strings"
	"testing"
)

// BenchmarkImportMonica5000 imports a Monica export of 5,000 contacts
// (a name, an email, a phone, a birthday, a note and a tag each) into a
// new account each time, then again into the same account (every contact
// matched, nothing written), with the heap's peak above where it stood:
//
//	go test ./server -run '^$' -bench ImportMonica5000 -benchmem -count 3
func BenchmarkImportMonica5000(b *testing.B) {
	const n = 5000
	file := monicaContacts(n)
	for _, again := range []bool{false, true} {
		b.Run(fmt.Sprintf("again=%v", again), func(b *testing.B) {
			e := benchEnv(b)
			var peakAll, peakLive float64
			for i := range b.N {
				b.StopTimer()
				_, key := e.user(fmt.Sprintf("bench%d@example.com", i))
				if again {
					monicaBench(b, e, key, file, fmt.Sprintf(`"created":%d,`, n))
				}
				peak := heapPeak()
				b.StartTimer()
				want := fmt.Sprintf(`"created":%d,`, n)
				if again {
					want = fmt.Sprintf(`"created":0,"updated":0,"unchanged":%d,`, n)
				}
				monicaBench(b, e, key, file, want)
				b.StopTimer()
				all, live := peak()
				peakAll, peakLive = max(peakAll, all), max(peakLive, live)
				b.StartTimer()
			}
			b.ReportMetric(peakAll, "peak-heap-MB")
			b.ReportMetric(peakLive, "peak-live-MB")
			b.ReportMetric(float64(len(file))/(1<<20), "file-MB")
		})
	}
}

func monicaBench(b *testing.B, e *env, key string, file []byte, want string) {
	r := httptest.NewRequest("POST", "/api/import/monica", bytes.NewReader(file))
	r.Header.Set("Authorization", "Bearer "+key)
	r.Header.Set("Content-Type", "application/json")
	w := httptest.NewRecorder()
	e.srv.ServeHTTP(w, r)
	if w.Code != 200 || !strings.Contains(w.Body.String(), want) {
		b.Fatalf("import: %d %.300s", w.Code, w.Body)
	}
}
