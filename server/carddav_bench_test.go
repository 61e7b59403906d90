package server

import (
	"context"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

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
		req, _ := http.NewRequest(method, ts.URL+book, strings.NewReader(body))
		req.SetBasicAuth("bench@example.com", key)
		req.Header.Set("Content-Type", "application/xml")
		req.Header.Set("Depth", depth)
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			b.Fatal(err)
		}
		n, _ := io.Copy(io.Discard, resp.Body)
		resp.Body.Close()
		if resp.StatusCode != 207 {
			b.Fatalf("%s: %d", method, resp.StatusCode)
		}
		b.ReportMetric(float64(n), "bytes/op")
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
