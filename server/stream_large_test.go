package server

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"net/http"
	"net/http/httptest"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"

	"kith/server/ical"
	"kith/server/transfer"
)

// largePeople is the size of the account TestLargeAccount streams: more
// than a CardDAV page of references (refPage, a thousand) and five export
// batches. Its feed outgrows the spool's memory, which the test lowers:
// under -race every person imported costs milliseconds.
const largePeople = 1100

// largeSpool is what the spool keeps in memory in TestLargeAccount, less
// than its feed: the answer is sent from a file.
const largeSpool = 64 << 10

// largeName is a family name long enough that each birthday folds.
var largeName = strings.Repeat("Longfamilyname", 17)

// largeAccount imports n persons, P00000 to P<n-1>, with their UIDs, a
// birthday, an email, and every seventh an important date and a due task.
func (e *env) largeAccount(key string, n int) {
	e.t.Helper()
	var doc strings.Builder
	doc.WriteString(`{"kith_export":1,"persons":[`)
	for i := range n {
		if i > 0 {
			doc.WriteString(",\n")
		}
		fmt.Fprintf(&doc, `{"uid":"p%05d","first_name":"P%05d","last_name":%q,`, i, i, largeName)
		fmt.Fprintf(&doc, `"age":{"age_type":"exact","age_year":%d,"age_month":%d,"age_day":%d,"add_yearly_reminder":true},`,
			1950+i%60, 1+i%12, 1+i%28)
		fmt.Fprintf(&doc, `"contact_details":[{"kind":"email","value":"p%05d@example.com"}]`, i)
		if i%7 == 0 {
			fmt.Fprintf(&doc, `,"important_dates":[{"label":"Met","month":%d,"day":%d,"remind_yearly":true}]`, 1+i%12, 1+i%27)
			fmt.Fprintf(&doc, `,"tasks":[{"name":"Call","due_at":%d}]`, 1_800_000_000+i*3600)
		}
		doc.WriteString("}")
	}
	doc.WriteString("]}")
	if r := e.do(req{method: "POST", path: "/api/import", key: key, body: doc.String()}); r.code != 200 {
		e.t.Fatalf("import: %d %.300s", r.code, r.body)
	}
}

// TestLargeAccount streams one large account in every way it leaves
// Kith: its calendar feed, its CardDAV listings and its export, whole and
// cut short. The account is imported once: its subtests only read it.
func TestLargeAccount(t *testing.T) {
	d, key := newDAVEnv(t, "ada@example.com")
	d.largeAccount(key, largePeople)
	was := spoolMemory
	spoolMemory = largeSpool
	t.Cleanup(func() { spoolMemory = was })
	feed := d.feed(key)
	t.Run("FeedStreams", func(t *testing.T) { largeFeedStreams(d.in(t).env, feed) })
	t.Run("FeedCut", func(t *testing.T) { largeFeedCut(d.in(t).env, feed) })
	t.Run("CardListings", func(t *testing.T) { largeCardListings(d.in(t), key) })
	t.Run("PropfindCut", func(t *testing.T) { largePropfindCut(d.in(t).env, key) })
	t.Run("ExportStreams", func(t *testing.T) { largeExportStreams(d.in(t).env, key) })
}

// in is the env again, with t as the test that fails.
func (d *davEnv) in(t *testing.T) *davEnv {
	e := *d.env
	e.t = t
	c := *d
	c.env = &e
	return &c
}

// largeFeedStreams: the feed of a large account is the calendar that
// its rows make, byte for byte as ical's Append writes it (though it is
// written an event at a time, and spooled through a file), every person's
// birthday once and in order, with its length and its hash as ETag.
func largeFeedStreams(e *env, path string) {
	t := e.t
	r := e.ics(path, nil)
	if r.code != 200 || len(r.body) <= spoolMemory {
		t.Fatalf("%d, %d bytes: want 200 and more than the spool keeps in memory", r.code, len(r.body))
	}
	if got := r.header.Get("Content-Length"); got != strconv.Itoa(len(r.body)) {
		t.Errorf("Content-Length %q for %d bytes", got, len(r.body))
	}
	sum := sha256.Sum256([]byte(r.body))
	if etag := `"` + hex.EncodeToString(sum[:16]) + `"`; r.header.Get("ETag") != etag {
		t.Errorf("ETag %s, want %s", r.header.Get("ETag"), etag)
	}

	d, err := e.st.CalendarFeedData(context.Background(), strings.TrimSuffix(strings.TrimPrefix(path, "/ical/"), ".ics"))
	if err != nil {
		t.Fatal(err)
	}
	var events []ical.Event
	rows := feedRowsTo(func(ev *ical.Event) error { events = append(events, *ev); return nil }, time.UTC, "example.com")
	for i := range d.Birthdays {
		rows.Birthday(&d.Birthdays[i])
	}
	for i := range d.LifeEvents {
		rows.LifeEvent(&d.LifeEvents[i])
	}
	for i := range d.Dates {
		rows.Date(&d.Dates[i])
	}
	for i := range d.Tasks {
		rows.Task(&d.Tasks[i])
	}
	for i := range d.Reminders {
		rows.Reminder(&d.Reminders[i])
	}
	whole := ical.Calendar{ProdID: "-//Kith//Calendar feed//EN", Name: "Kith", Refresh: feedRefresh, Events: events}
	if want := string(whole.Append(nil)); r.body != want {
		t.Errorf("the streamed feed (%d bytes) is not the calendar of its rows (%d bytes)", len(r.body), len(want))
	}

	unfolded := strings.ReplaceAll(r.body, "\r\n ", "")
	birthdays := regexp.MustCompile(`SUMMARY:Birthday of P(\d{5}) `).FindAllStringSubmatch(unfolded, -1)
	if len(birthdays) != largePeople {
		t.Fatalf("%d birthdays, want %d", len(birthdays), largePeople)
	}
	for i, m := range birthdays {
		if m[1] != fmt.Sprintf("%05d", i) {
			t.Fatalf("birthday %d is P%s's", i, m[1])
		}
	}
	if n := strings.Count(r.body, "SUMMARY:Call (P"); n != (largePeople+6)/7 {
		t.Errorf("%d tasks, want %d", n, (largePeople+6)/7)
	}
	if again := e.ics(path, map[string]string{"If-None-Match": r.header.Get("ETag")}); again.code != 304 || again.body != "" {
		t.Errorf("the same feed again: %d, %d bytes", again.code, len(again.body))
	}
}

// failingWriter takes the first write it is given, then fails every
// other, as a connection that breaks.
type failingWriter struct {
	discard
	body strings.Builder
}

func (w *failingWriter) Write(p []byte) (int, error) {
	if w.body.Len() > 0 {
		return 0, errors.New("the connection broke")
	}
	return w.body.Write(p)
}

// largeFeedCut: a feed whose sending fails after it began cuts the
// connection, and the length it announced is more than it sent, so that
// no calendar takes the part for the whole.
func largeFeedCut(e *env, path string) {
	t := e.t
	w := &failingWriter{discard: discard{header: http.Header{}}}
	func() {
		defer func() {
			if p := recover(); p != http.ErrAbortHandler {
				t.Errorf("the feed ended with %v, not net/http's abort", p)
			}
		}()
		e.srv.ServeHTTP(w, httptest.NewRequest("GET", path, nil))
	}()
	length, _ := strconv.Atoi(w.header.Get("Content-Length"))
	if w.code != 200 || w.body.Len() == 0 || length <= w.body.Len() || strings.Contains(w.body.String(), "END:VCALENDAR") {
		t.Errorf("%d, %d of %d bytes sent, whole: %v", w.code, w.body.Len(), length, strings.Contains(w.body.String(), "END:VCALENDAR"))
	}
	if !strings.Contains(e.logs.String(), "the calendar feed stopped after its answer began") {
		t.Errorf("the cut is not logged: %s", e.logs.String())
	}
}

// largeCardListings: a PROPFIND of the address book and a first
// sync-collection list every card once, in order, with its ETag, across
// the pages the references are read in; a multiget answers each card
// asked for once, in the order asked, across the batches it reads.
func largeCardListings(d *davEnv, key string) {
	t := d.t
	u, err := d.st.UserByEmail(context.Background(), "ada@example.com")
	if err != nil {
		t.Fatal(err)
	}
	book := fmt.Sprintf("/dav/%d/addressbooks/contacts/", u.ID)
	xmlHeader := map[string]string{"Content-Type": "application/xml", "Depth": "1"}
	check := func(what, body string) {
		t.Helper()
		hrefs := regexp.MustCompile(`<href xmlns="DAV:">`+regexp.QuoteMeta(book)+`([^<]*)</href>`).FindAllStringSubmatch(body, -1)
		etags := regexp.MustCompile(`<getetag xmlns="DAV:">&#34;(\d+)&#34;</getetag>`).FindAllStringSubmatch(body, -1)
		var cards []string
		for _, h := range hrefs {
			if h[1] != "" {
				cards = append(cards, h[1])
			}
		}
		if len(cards) != largePeople || len(etags) != largePeople || !strings.HasSuffix(body, "</multistatus>") {
			t.Fatalf("%s: %d cards, %d ETags, want %d of each in a whole answer", what, len(cards), len(etags), largePeople)
		}
		for i, c := range cards {
			if c != fmt.Sprintf("p%05d.vcf", i) {
				t.Fatalf("%s: card %d is %s", what, i, c)
			}
		}
	}
	code, _, body := d.raw("PROPFIND", book, "ada@example.com", key,
		`<propfind xmlns="DAV:"><prop><getetag/><getcontenttype/></prop></propfind>`, xmlHeader)
	if code != 207 {
		t.Fatalf("PROPFIND: %d %.300s", code, body)
	}
	check("PROPFIND", body)
	if !strings.Contains(body, `<response xmlns="DAV:"><href xmlns="DAV:">`+book+`p00000.vcf</href><propstat xmlns="DAV:"><prop xmlns="DAV:"><getetag xmlns="DAV:">&#34;`) {
		t.Errorf("the first card's response: %.600s", body)
	}
	code, _, body = d.raw("REPORT", book, "ada@example.com", key,
		`<sync-collection xmlns="DAV:"><sync-token/><sync-level>1</sync-level><prop><getetag/></prop></sync-collection>`, xmlHeader)
	if code != 207 {
		t.Fatalf("sync-collection: %d %.300s", code, body)
	}
	check("sync-collection", body)
	if !strings.Contains(body, "<sync-token>urn:kith:sync:") {
		t.Errorf("no sync token: %.300s", body[len(body)-300:])
	}

	// A multiget of more cards than one read takes, backwards, with a
	// card named twice, one that is not there and one outside the book:
	// each answered once, in the order asked.
	var hrefs strings.Builder
	var want []string
	for i := 250; i >= 0; i-- {
		fmt.Fprintf(&hrefs, "<href>%sp%05d.vcf</href>", book, i)
		want = append(want, fmt.Sprintf("%sp%05d.vcf", book, i))
	}
	fmt.Fprintf(&hrefs, "<href>%sp00007.vcf</href><href>%sgone.vcf</href><href>/dav/0/addressbooks/contacts/p00001.vcf</href>", book, book)
	want = append(want, book+"gone.vcf", "/dav/0/addressbooks/contacts/p00001.vcf")
	code, _, body = d.raw("REPORT", book, "ada@example.com", key, `<addressbook-multiget xmlns="urn:ietf:params:xml:ns:carddav" xmlns:d="DAV:">`+
		`<d:prop><d:getetag/><address-data/></d:prop>`+strings.ReplaceAll(strings.ReplaceAll(hrefs.String(), "<href>", "<d:href>"), "</href>", "</d:href>")+
		`</addressbook-multiget>`, xmlHeader)
	got := regexp.MustCompile(`<href xmlns="DAV:">([^<]*)</href>`).FindAllStringSubmatch(body, -1)
	if code != 207 || len(got) != len(want) || strings.Count(body, "BEGIN:VCARD") != 251 || strings.Count(body, "404 Not Found") != 2 {
		t.Fatalf("multiget: %d, %d answers (want %d), %d cards", code, len(got), len(want), strings.Count(body, "BEGIN:VCARD"))
	}
	for i, g := range got {
		if g[1] != want[i] {
			t.Fatalf("multiget: answer %d is %s, want %s", i, g[1], want[i])
		}
	}
	if !strings.Contains(body, "FN:P00250 "+largeName) {
		t.Errorf("multiget: the first card's content is not there")
	}
}

// cancelWriter keeps what it is sent and, at its first write, runs
// cancel: the client goes away once the answer has begun.
type cancelWriter struct {
	discard
	body   strings.Builder
	cancel func()
}

func (w *cancelWriter) Write(p []byte) (int, error) { w.cancel(); return w.body.Write(p) }

// largePropfindCut: a listing that fails after its answer began
// cuts the connection rather than closing the multistatus.
func largePropfindCut(e *env, key string) {
	t := e.t
	u, err := e.st.UserByEmail(context.Background(), "ada@example.com")
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	r := httptest.NewRequestWithContext(ctx, "PROPFIND", fmt.Sprintf("/dav/%d/addressbooks/contacts/", u.ID),
		strings.NewReader(`<propfind xmlns="DAV:"><prop><getetag/></prop></propfind>`))
	r.SetBasicAuth("ada@example.com", key)
	r.Header.Set("Content-Type", "application/xml")
	r.Header.Set("Depth", "1")
	w := &cancelWriter{discard: discard{header: http.Header{}}, cancel: cancel}
	func() {
		defer func() {
			if p := recover(); p != http.ErrAbortHandler {
				t.Errorf("the listing ended with %v, not net/http's abort", p)
			}
		}()
		e.srv.ServeHTTP(w, r)
	}()
	if got := w.body.String(); w.code != 207 || !strings.Contains(got, "p00000.vcf") || strings.Contains(got, "</multistatus>") {
		t.Errorf("%d, %d bytes, closed: %v", w.code, len(got), strings.Contains(got, "</multistatus>"))
	}
}

// largeExportStreams: every person of a large account is in its
// export once, in order, across the batches it is read in.
func largeExportStreams(e *env, key string) {
	t := e.t
	persons := e.export(key)["persons"].([]any)
	if len(persons) != largePeople {
		t.Fatalf("%d persons, want %d", len(persons), largePeople)
	}
	for i, p := range persons {
		p := p.(map[string]any)
		emails := p["contact_details"].([]any)
		if p["first_name"] != fmt.Sprintf("P%05d", i) || p["uid"] != fmt.Sprintf("p%05d", i) || len(emails) != 1 {
			t.Fatalf("person %d: %v %v %d emails", i, p["first_name"], p["uid"], len(emails))
		}
	}
}

// pausingWriter keeps what it is sent and, at its first flush, says so
// and waits to be let go on.
type pausingWriter struct {
	discard
	body            strings.Builder
	paused, resumed chan struct{}
}

func (w *pausingWriter) Write(p []byte) (int, error) { return w.body.Write(p) }
func (w *pausingWriter) Flush() {
	if w.paused != nil {
		close(w.paused)
		w.paused = nil
		<-w.resumed
	}
}

// TestExportSnapshotBesideWrites: while an export is half sent, its read
// transaction open, a write goes through at once (SQLite's WAL, a
// PostgreSQL snapshot), and the export stays the account as it was when
// it began: the new person is not in it.
func TestExportSnapshotBesideWrites(t *testing.T) {
	e := newEnv(t)
	_, key := e.user("ada@example.com")
	n := 3 * transfer.ExportBatch
	e.largeAccount(key, n)
	paused, resumed, done := make(chan struct{}), make(chan struct{}), make(chan struct{})
	w := &pausingWriter{discard: discard{header: http.Header{}}, paused: paused, resumed: resumed}
	r := httptest.NewRequest("GET", "/api/export", nil)
	r.Header.Set("Authorization", "Bearer "+key)
	go func() {
		defer close(done)
		e.srv.ServeHTTP(w, r)
	}()
	<-paused
	start := time.Now()
	late := e.do(req{method: "POST", path: "/api/persons", key: key, body: `{"first_name":"Late"}`})
	if late.code != 201 || time.Since(start) > 5*time.Second {
		t.Errorf("a write beside the export: %d after %v, %s", late.code, time.Since(start), late.body)
	}
	close(resumed)
	<-done
	body := w.body.String()
	if w.code != 200 || strings.Count(body, `"first_name":"P`) != n || strings.Contains(body, `"Late"`) || !strings.HasSuffix(body, "]}\n") {
		t.Errorf("%d: %d persons, the late one in it: %v", w.code, strings.Count(body, `"first_name":"P`), strings.Contains(body, `"Late"`))
	}
}
