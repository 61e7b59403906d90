package server

import (
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/rs/zerolog"
)

// BenchmarkCardDAVPutEmailsBeside is issue 27's H2 as users meet it: a
// phone PUTs a card whose 1,000 EMAIL lines (the most a person may have)
// replace 1,000 others, while a user of another account creates persons
// through the API one after another, with a key. It reports the PUT's
// time, the other user's median and longest request, and how much the
// heap grew at most during the PUT.
func BenchmarkCardDAVPutEmailsBeside(b *testing.B) {
	const emails = 1000
	e := newEnv(b, func(o *Options) { o.Logger = zerolog.New(io.Discard) })
	u, key := e.user("phone@example.com")
	_, otherKey := e.user("other@example.com")
	ts := httptest.NewServer(e.srv)
	defer ts.Close()
	path := fmt.Sprintf("%s/dav/%d/addressbooks/contacts/many.vcf", ts.URL, u.ID)
	cards := [2]string{cardOf("many-1", "Many", emails), strings.ReplaceAll(cardOf("many-1", "Many", emails), "@example.com", "@other.example")}
	put := func(card string) {
		req, _ := http.NewRequest("PUT", path, strings.NewReader(card))
		req.SetBasicAuth("phone@example.com", key)
		req.Header.Set("Content-Type", "text/vcard")
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			b.Fatal(err)
		}
		io.Copy(io.Discard, resp.Body)
		resp.Body.Close()
		if resp.StatusCode != 201 && resp.StatusCode != 204 {
			b.Fatalf("PUT: %d", resp.StatusCode)
		}
	}
	put(cards[0])
	var took, p50, worst time.Duration
	var peak uint64
	i := 0
	for b.Loop() {
		i++
		var wg sync.WaitGroup
		stop := make(chan struct{})
		var lat []time.Duration
		wg.Go(func() {
			for {
				select {
				case <-stop:
					return
				default:
				}
				req, _ := http.NewRequest("POST", ts.URL+"/api/persons?first_name=Other", nil)
				req.Header.Set("Authorization", "Bearer "+otherKey)
				start := time.Now()
				resp, err := http.DefaultClient.Do(req)
				if err != nil {
					b.Error(err)
					return
				}
				io.Copy(io.Discard, resp.Body)
				resp.Body.Close()
				lat = append(lat, time.Since(start))
				if resp.StatusCode != 201 {
					b.Errorf("POST /api/persons: %d", resp.StatusCode)
					return
				}
			}
		})
		time.Sleep(20 * time.Millisecond)
		peak = max(peak, peakHeap(func() {
			start := time.Now()
			put(cards[i%2])
			took += time.Since(start)
		}))
		time.Sleep(20 * time.Millisecond)
		close(stop)
		wg.Wait()
		slices.Sort(lat)
		if len(lat) > 0 {
			p50 += lat[len(lat)/2]
			worst = max(worst, lat[len(lat)-1])
		}
	}
	b.ReportMetric(float64(took.Milliseconds())/float64(i), "put-ms")
	b.ReportMetric(float64(p50.Microseconds())/1000/float64(i), "other-p50-ms")
	b.ReportMetric(float64(worst.Microseconds())/1000, "other-max-ms")
	b.ReportMetric(float64(peak)/(1<<20), "peak-heap-MB")
}
