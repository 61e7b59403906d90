package server

import (
	"context"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"runtime"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/rs/zerolog"

	"kith/store"
)

// BenchmarkWritesDuringDAVAttack is issue 27's H1 as another user meets it:
// four clients of one user send 64 KiB PROPFINDs of property names to a
// 300-card address book without pause, while another user adds persons.
// It reports that user's write latency (median, 99th percentile, worst)
// and the heap's peak during the attack.
func BenchmarkWritesDuringDAVAttack(b *testing.B) {
	e := newEnv(b, func(o *Options) { o.Logger = zerolog.New(io.Discard) })
	u, attackKey := e.user("attacker@example.com")
	_, key := e.user("victim@example.com")
	var ins []store.CardInput
	for i := range 300 {
		v := fmt.Sprintf("p%d@example.com", i)
		ins = append(ins, store.CardInput{UID: fmt.Sprintf("card-%05d", i), FirstName: fmt.Sprint("Person ", i),
			Details: []store.ContactDetailInput{{Kind: "email", Value: &v}}})
	}
	if _, err := e.st.PutCards(context.Background(), u.AccountID, ins); err != nil {
		b.Fatal(err)
	}
	ts := httptest.NewServer(e.srv)
	defer ts.Close()
	book := fmt.Sprintf("%s/dav/%d/addressbooks/contacts/", ts.URL, u.ID)
	body := `<propfind xmlns="DAV:"><prop>` + strings.Repeat("<a/>", (64<<10-200)/4) + `</prop></propfind>`
	stop := make(chan struct{})
	var attacks sync.WaitGroup
	for range 4 {
		attacks.Go(func() {
			for {
				select {
				case <-stop:
					return
				default:
				}
				r, _ := http.NewRequest("PROPFIND", book, strings.NewReader(body))
				r.SetBasicAuth("attacker@example.com", attackKey)
				r.Header.Set("Depth", "1")
				r.Header.Set("Content-Type", "application/xml")
				if res, err := http.DefaultClient.Do(r); err == nil {
					io.Copy(io.Discard, res.Body)
					res.Body.Close()
				}
			}
		})
	}
	var peak atomic.Uint64
	sampled := make(chan struct{})
	go func() {
		defer close(sampled)
		var m runtime.MemStats
		for {
			runtime.ReadMemStats(&m)
			peak.Store(max(peak.Load(), m.HeapAlloc))
			select {
			case <-stop:
				return
			case <-time.After(5 * time.Millisecond):
			}
		}
	}()
	time.Sleep(500 * time.Millisecond) // the attack under way
	var took []time.Duration
	i := 0
	for b.Loop() {
		i++
		r, _ := http.NewRequest("POST", fmt.Sprintf("%s/api/persons?first_name=Person%d", ts.URL, i), nil)
		r.Header.Set("Authorization", "Bearer "+key)
		start := time.Now()
		res, err := http.DefaultClient.Do(r)
		if err != nil {
			b.Fatal(err)
		}
		io.Copy(io.Discard, res.Body)
		res.Body.Close()
		took = append(took, time.Since(start))
		if res.StatusCode != 201 {
			b.Fatalf("the other user's write: %d", res.StatusCode)
		}
	}
	close(stop)
	attacks.Wait()
	<-sampled
	slices.Sort(took)
	ms := func(d time.Duration) float64 { return float64(d) / float64(time.Millisecond) }
	b.ReportMetric(ms(took[len(took)/2]), "write-p50-ms")
	b.ReportMetric(ms(took[len(took)*99/100]), "write-p99-ms")
	b.ReportMetric(ms(took[len(took)-1]), "write-max-ms")
	b.ReportMetric(float64(peak.Load())/(1<<20), "peak-heap-MB")
}
