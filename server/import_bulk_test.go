package server

import (
	"bytes"
	"context"
	"fmt"
	"strings"
	"testing"

	"github.com/emersion/go-webdav/carddav"
)

// bulkCards is a vCard file of n cards, each with a nickname, two emails
// and a phone; tag names the run, so that two files' cards differ.
func bulkCards(n int, tag string) string {
	var b strings.Builder
	for i := range n {
		fmt.Fprintf(&b, "BEGIN:VCARD\r\nVERSION:3.0\r\nUID:bulk-%d\r\nN:Family%04d;Given%04d;;;\r\nFN:Given%04d Family%04d\r\n"+
			"NICKNAME:%sNick%04d\r\nEMAIL;TYPE=HOME:given%04d@example.com\r\nEMAIL;TYPE=WORK:g%04d@work.example\r\n"+
			"TEL;TYPE=CELL:+1 555 %07d\r\nBDAY:1980-%02d-%02d\r\nEND:VCARD\r\n",
			i, i, i, i, i, tag, i, i, i, i, 1+i%12, 1+i%28)
	}
	return b.String()
}

// searchTotal is how many persons GET /api/persons?q= finds.
func (e *env) searchTotal(key, q string) int {
	e.t.Helper()
	r := e.do(req{method: "GET", path: "/api/persons?per_page=1&q=" + q, key: key})
	if r.code != 200 {
		e.t.Fatalf("search %q: %d %s", q, r.code, r.body)
	}
	total, _ := r.json(e.t)["meta"].(map[string]any)["total"].(float64)
	return int(total)
}

// TestBulkImportVCards: a file of 600 cards, written in batches (of 500
// persons, their details inserted 100 rows a statement), into an
// account that has a person already: every card is a person that search
// finds by name, nickname and either email, a phone that synced before
// sees every card and nothing else, and the writes after it count and
// index as before. The same file again updates every card.
func TestBulkImportVCards(t *testing.T) {
	const n = 600
	d, key := newDAVEnv(t, "ada@example.com")
	ctx := context.Background()
	book := d.bookOf(d.client)
	d.person(key, "first_name=Jim")
	before, err := d.client.SyncCollection(ctx, book, &carddav.SyncQuery{})
	if err != nil || len(before.Updated) != 1 {
		t.Fatalf("first sync %+v %v", before, err)
	}
	imp := func(file string) map[string]any {
		r := d.do(req{method: "POST", path: "/api/import/vcard", key: key, body: file, ctype: "text/vcard"})
		if r.code != 200 {
			t.Fatalf("import: %d %.300s", r.code, r.body)
		}
		return r.json(t)["data"].(map[string]any)
	}
	if out := imp(bulkCards(n, "A")); out["created"] != float64(n) || out["updated"] != 0.0 {
		t.Fatalf("import: %v", out)
	}
	if got := d.searchTotal(key, ""); got != n+1 {
		t.Errorf("%d persons, want %d", got, n+1)
	}
	for q, want := range map[string]int{"Given0599": 1, "family0000": 1, "ANick0534": 1, "given0042@example.com": 1,
		"g0550@work.example": 1, "work.example": n, "jim": 1} {
		if got := d.searchTotal(key, q); got != want {
			t.Errorf("search %q: %d, want %d", q, got, want)
		}
	}
	delta, err := d.client.SyncCollection(ctx, book, &carddav.SyncQuery{SyncToken: before.SyncToken})
	if err != nil || len(delta.Updated) != n || len(delta.Deleted) != 0 || delta.SyncToken == before.SyncToken {
		t.Fatalf("sync after the import: %d updated, %d deleted, %v", len(delta.Updated), len(delta.Deleted), err)
	}
	etags := map[string]string{}
	for _, o := range delta.Updated {
		etags[o.Path] = o.ETag
	}
	if len(etags) != n {
		t.Errorf("%d cards listed, want %d", len(etags), n)
	}
	// The triggers run again after the import: a new email is a change
	// that a sync sees, and search finds.
	jim := d.personsByNameID(key, "Jim")
	d.contactDetail(key, jim, "kind=email&value=jim@example.com")
	after, err := d.client.SyncCollection(ctx, book, &carddav.SyncQuery{SyncToken: delta.SyncToken})
	if err != nil || len(after.Updated) != 1 {
		t.Fatalf("sync after a new email: %+v %v", after, err)
	}
	if got := d.searchTotal(key, "jim@example.com"); got != 1 {
		t.Errorf("search of the new email: %d", got)
	}
	// The same cards again, with new nicknames: every card updated, the
	// old nickname no longer found and the new one found.
	if out := imp(bulkCards(n, "B")); out["created"] != 0.0 || out["updated"] != float64(n) {
		t.Fatalf("import again: %v", out)
	}
	if a, b := d.searchTotal(key, "ANick"), d.searchTotal(key, "BNick0007"); a != 0 || b != 1 {
		t.Errorf("after the update, search finds %d of the old nicknames and %d of the new", a, b)
	}
	again, err := d.client.SyncCollection(ctx, book, &carddav.SyncQuery{SyncToken: after.SyncToken})
	if err != nil || len(again.Updated) != n || len(again.Deleted) != 0 {
		t.Fatalf("sync after the update: %d updated, %v", len(again.Updated), err)
	}
	// Each card changed: its ETag too, which a phone's If-Match compares.
	for _, o := range again.Updated {
		if old, ok := etags[o.Path]; !ok || old == o.ETag {
			t.Fatalf("card %s: ETag %q, before the update %q", o.Path, o.ETag, old)
		}
	}
	if got := d.searchTotal(key, ""); got != n+1 {
		t.Errorf("%d persons after the update, want %d", got, n+1)
	}
}

// TestBulkImportPeople: 600 persons (more than an import's batch of 500)
// from a Monica export, a CSV file and an export document, each into an
// account of its own: counts, search by name and email, and a sync that
// sees every card.
func TestBulkImportPeople(t *testing.T) {
	const n = 600
	var csv bytes.Buffer
	csv.WriteString("First Name,Last Name,Nickname,E-mail 1 - Label,E-mail 1 - Value,Phone 1 - Label,Phone 1 - Value\r\n")
	for i := range n {
		fmt.Fprintf(&csv, "Csv%d,Row%d,Nick%d,* Home,csv%d@example.com,Mobile,+1 555 %07d\r\n", i, i, i, i, i)
	}
	cases := []struct {
		name, path, ctype string
		file              []byte
		want              string
		search            map[string]int
	}{
		{"monica", "/api/import/monica", "application/json", monicaContacts(n), fmt.Sprintf(`"created":%d,`, n),
			map[string]int{"First599": 1, "person123@example.com": 1, "last12": 11}},
		{"csv", "/api/import/csv", "text/csv", csv.Bytes(), fmt.Sprintf(`"created":%d,`, n),
			map[string]int{"Csv599": 1, "nick550": 1, "csv17@example.com": 1}},
		{"export", "/api/import", "application/json", benchDoc(n), fmt.Sprintf(`"persons":%d`, n),
			map[string]int{"Person 599": 1, "person77@example.com": 1, "benchmark": n}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			d, key := newDAVEnv(t, "ada@example.com")
			ctx := context.Background()
			book := d.bookOf(d.client)
			before, err := d.client.SyncCollection(ctx, book, &carddav.SyncQuery{})
			if err != nil {
				t.Fatal(err)
			}
			r := d.do(req{method: "POST", path: c.path, key: key, body: string(c.file), ctype: c.ctype})
			if r.code != 200 || !strings.Contains(r.body, c.want) {
				t.Fatalf("import: %d %.300s", r.code, r.body)
			}
			if got := d.searchTotal(key, ""); got != n {
				t.Errorf("%d persons, want %d", got, n)
			}
			for q, want := range c.search {
				if got := d.searchTotal(key, strings.ReplaceAll(q, " ", "%20")); got != want {
					t.Errorf("search %q: %d, want %d", q, got, want)
				}
			}
			delta, err := d.client.SyncCollection(ctx, book, &carddav.SyncQuery{SyncToken: before.SyncToken})
			if err != nil || len(delta.Updated) != n || delta.SyncToken == before.SyncToken {
				t.Fatalf("sync after the import: %d updated, %v", len(delta.Updated), err)
			}
		})
	}
}
