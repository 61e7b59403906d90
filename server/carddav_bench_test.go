package server

import (
	"context"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"runtime"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/rs/zerolog"

	"kith/store"
)

// BenchmarkCardDAV measures what a phone costs the server on an account of
// 5,000 persons with a few details each: a sync-collection with nothing
// new (a phone's every check), the listing of every card's ETag (a first
// sync, or a client without sync-collection), and a multiget of 100 cards.
func BenchmarkCardDAV(b *testing.B) {
	e := newEnv(b, func(o *Options) { o.Logger = zerolog.New(io.Discard) })
	u, key := e.user("bench@example.com")
	ctx := context.Background()
	const n = 5000
	for start := 0; start < n; start += 500 {
		var ins []store.CardInput
		for i := start; i < start+500; i++ {
			ins = append(ins, store.CardInput{UID: fmt.Sprintf("card-%05d", i), FirstName: fmt.Sprint("Person ", i),
				Details: []store.ContactDetailInput{{Kind: "email", Value: new(fmt.Sprintf("p%d@example.com", i))},
					{Kind: "phone", Value: new("+1 555 0100")}},
				Dates: []store.ImportantDateInput{{Label: "met", Month: 3, Day: 4}}})
		}
		if _, err := e.st.PutCards(ctx, u.AccountID, ins); err != nil {
			b.Fatal(err)
		}
	}
	ts := httptest.NewServer(e.srv)
	defer ts.Close()
	seq, _ := e.st.CardSeq(ctx, u.AccountID)
	book := fmt.Sprintf("/dav/%d/addressbooks/contacts/", u.ID)
	do := func(b *testing.B, method, body, depth string) {
		davRequest(b, ts.URL+book, key, method, body, depth, 207)
	}
	b.Run("sync-collection unchanged", func(b *testing.B) {
		body := fmt.Sprintf(`<sync-collection xmlns="DAV:"><sync-token>urn:kith:sync:%d</sync-token><sync-level>1</sync-level><prop><getetag/></prop></sync-collection>`, seq)
		for b.Loop() {
			do(b, "REPORT", body, "1")
		}
	})
	b.Run("propfind 5000 etags", func(b *testing.B) {
		for b.Loop() {
			do(b, "PROPFIND", `<propfind xmlns="DAV:"><prop><getetag/><getcontenttype/></prop></propfind>`, "1")
		}
	})
	// A client without multiget reads every card in a Depth: 1 PROPFIND.
	// ... and a query without filter is every card too; peak-MB is the
	// most the heap grew meanwhile.
	for _, c := range []struct{ name, method, body string }{
		{"propfind 5000 address-data", "PROPFIND", `<propfind xmlns="DAV:" xmlns:C="urn:ietf:params:xml:ns:carddav"><prop><getetag/><C:address-data/></prop></propfind>`},
		{"addressbook-query 5000 address-data", "REPORT", `<C:addressbook-query xmlns:D="DAV:" xmlns:C="urn:ietf:params:xml:ns:carddav"><D:prop><D:getetag/><C:address-data/></D:prop></C:addressbook-query>`},
	} {
		b.Run(c.name, func(b *testing.B) {
			b.ReportAllocs()
			var peak uint64
			for b.Loop() {
				peak = max(peak, peakHeap(func() { do(b, c.method, c.body, "1") }))
			}
			b.ReportMetric(float64(peak)/(1<<20), "peak-MB")
		})
	}
	b.Run("multiget 100", func(b *testing.B) {
		var hrefs strings.Builder
		for i := range 100 {
			fmt.Fprintf(&hrefs, "<D:href>%scard-%05d.vcf</D:href>", book, i*50)
		}
		body := `<C:addressbook-multiget xmlns:D="DAV:" xmlns:C="urn:ietf:params:xml:ns:carddav"><D:prop><D:getetag/><C:address-data/></D:prop>` + hrefs.String() + `</C:addressbook-multiget>`
		for b.Loop() {
			do(b, "REPORT", body, "1")
		}
	})
}

// davRequest sends one DAV request and reads its answer to the end,
// reporting its size; any other status than want fails.
func davRequest(b *testing.B, url, key, method, body, depth string, want int) {
	req, _ := http.NewRequest(method, url, strings.NewReader(body))
	req.SetBasicAuth("bench@example.com", key)
	req.Header.Set("Content-Type", "application/xml")
	req.Header.Set("Depth", depth)
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		b.Fatal(err)
	}
	n, _ := io.Copy(io.Discard, resp.Body)
	resp.Body.Close()
	if want != 0 && resp.StatusCode != want {
		b.Fatalf("%s: %d, want %d", method, resp.StatusCode, want)
	}
	b.ReportMetric(float64(n), "bytes/op")
}

// BenchmarkCardDAVAttack measures the red team's requests of issue 27
// (H1) on a book of 300 cards: what the server allocates for each, and
// the most its heap held meanwhile (peak-MB). Refused now, they cost
// next to nothing; before the bounds one took hundreds of megabytes.
func BenchmarkCardDAVAttack(b *testing.B) {
	e := newEnv(b, func(o *Options) { o.Logger = zerolog.New(io.Discard) })
	u, key := e.user("bench@example.com")
	ctx := context.Background()
	var ins []store.CardInput
	for i := range 300 {
		ins = append(ins, store.CardInput{UID: fmt.Sprintf("card-%05d", i), FirstName: fmt.Sprint("Person ", i),
			Details: []store.ContactDetailInput{{Kind: "email", Value: new(fmt.Sprintf("p%d@example.com", i))}}})
	}
	if _, err := e.st.PutCards(ctx, u.AccountID, ins); err != nil {
		b.Fatal(err)
	}
	ts := httptest.NewServer(e.srv)
	defer ts.Close()
	book := fmt.Sprintf("%s/dav/%d/addressbooks/contacts/", ts.URL, u.ID)
	names := strings.Repeat("<a/>", (64<<10-200)/4) // a 64 KiB body
	for _, c := range []struct{ name, method, url, body, depth string }{
		{"propfind 64KiB of names", "PROPFIND", book, `<propfind xmlns="DAV:"><prop>` + names + `</prop></propfind>`, "1"},
		{"addressbook-query 64KiB of names", "REPORT", book, `<C:addressbook-query xmlns="DAV:" xmlns:C="urn:ietf:params:xml:ns:carddav"><prop>` + names + `</prop></C:addressbook-query>`, "1"},
		{"propfind infinity allprop", "PROPFIND", fmt.Sprintf("%s/dav/%d/", ts.URL, u.ID), `<propfind xmlns="DAV:"><allprop/></propfind>`, "infinity"},
	} {
		b.Run(c.name, func(b *testing.B) {
			b.ReportAllocs()
			var peak uint64
			for b.Loop() {
				peak = max(peak, peakHeap(func() { davRequest(b, c.url, key, c.method, c.body, c.depth, 0) }))
			}
			b.ReportMetric(float64(peak)/(1<<20), "peak-MB")
		})
	}
}

// peakHeap runs fn and tells how much the heap grew at most meanwhile,
// sampled every millisecond.
func peakHeap(fn func()) uint64 {
	runtime.GC()
	var m runtime.MemStats
	runtime.ReadMemStats(&m)
	base := m.HeapAlloc
	var peak atomic.Uint64
	peak.Store(base)
	done, stopped := make(chan struct{}), make(chan struct{})
	go func() {
		defer close(stopped)
		var m runtime.MemStats
		for {
			runtime.ReadMemStats(&m)
			if m.HeapAlloc > peak.Load() {
				peak.Store(m.HeapAlloc)
			}
			select {
			case <-done:
				return
			case <-time.After(time.Millisecond):
			}
		}
	}()
	fn()
	close(done)
	<-stopped
	return peak.Load() - base
}
