package server

import (
	"context"
	"database/sql"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/emersion/go-vcard"
	"github.com/emersion/go-webdav"
	"github.com/emersion/go-webdav/carddav"
	"github.com/rs/zerolog"

	"kith/store"
	"kith/store/storetest"
)

// davEnv is a Kith server on a real port, and a go-webdav CardDAV client
// of one user.
type davEnv struct {
	*env
	url    string
	client *carddav.Client
	book   string // the address book's path, as discovered
}

func newDAVEnv(t *testing.T, email string) (*davEnv, string) {
	e := newEnv(t)
	ts := httptest.NewServer(e.srv)
	t.Cleanup(ts.Close)
	_, key := e.user(email)
	d := &davEnv{env: e, url: ts.URL}
	d.client = d.clientOf(email, key)
	return d, key
}

func (d *davEnv) clientOf(email, key string) *carddav.Client {
	c, err := carddav.NewClient(webdav.HTTPClientWithBasicAuth(http.DefaultClient, email, key), d.url)
	if err != nil {
		d.t.Fatal(err)
	}
	return c
}

// raw sends one DAV request with Basic auth and answers status and body.
func (d *davEnv) raw(method, path, email, key, body string, header map[string]string) (int, http.Header, string) {
	d.t.Helper()
	req, _ := http.NewRequest(method, d.url+path, strings.NewReader(body))
	if email != "" {
		req.SetBasicAuth(email, key)
	}
	for k, v := range header {
		req.Header.Set(k, v)
	}
	client := &http.Client{CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}
	resp, err := client.Do(req)
	if err != nil {
		d.t.Fatal(err)
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	return resp.StatusCode, resp.Header, string(b)
}

func TestCardDAVDiscovery(t *testing.T) {
	d, key := newDAVEnv(t, "ada@example.com")
	ctx := context.Background()
	principal, err := d.client.FindCurrentUserPrincipal(ctx)
	if err != nil {
		t.Fatal(err)
	}
	home, err := d.client.FindAddressBookHomeSet(ctx, principal)
	if err != nil {
		t.Fatal(err)
	}
	books, err := d.client.FindAddressBooks(ctx, home)
	if err != nil || len(books) != 1 || !strings.HasPrefix(books[0].Path, home) {
		t.Fatalf("books %+v, %v", books, err)
	}
	if books[0].Name != "Kith" || !books[0].SupportsAddressData("text/vcard", "3.0") {
		t.Errorf("book %+v", books[0])
	}

	// Where iOS and others look first: answered in place, not redirected.
	propfind := `<?xml version="1.0"?><propfind xmlns="DAV:"><prop><current-user-principal/></prop></propfind>`
	for _, path := range []string{"/", "/.well-known/carddav", "/dav/", "/dav"} {
		code, _, body := d.raw("PROPFIND", path, "ada@example.com", key, propfind, map[string]string{"Content-Type": "application/xml", "Depth": "0"})
		if code != 207 || !strings.Contains(body, "<href xmlns=\"DAV:\">"+principal+"</href>") {
			t.Errorf("PROPFIND %s: %d %s", path, code, body)
		}
	}
	code, h, _ := d.raw("GET", "/.well-known/carddav", "", "", "", nil)
	if code != 301 || h.Get("Location") != "/dav/" {
		t.Errorf("GET /.well-known/carddav: %d %v", code, h)
	}
	code, h, _ = d.raw("OPTIONS", "/dav/", "", "", "", nil)
	if code != 204 || !strings.Contains(h.Get("DAV"), "addressbook") {
		t.Errorf("OPTIONS: %d %v", code, h)
	}
	// The address book tells a client whether to look again.
	code, _, body := d.raw("PROPFIND", books[0].Path, "ada@example.com", key,
		`<propfind xmlns="DAV:" xmlns:cs="http://calendarserver.org/ns/"><prop><sync-token/><cs:getctag/><supported-report-set/><displayname/><quota-used-bytes/></prop></propfind>`,
		map[string]string{"Content-Type": "application/xml", "Depth": "0"})
	for _, want := range []string{"urn:kith:sync:", "getctag", "<sync-collection", "addressbook-multiget", "quota-used-bytes", "404 Not Found"} {
		if code != 207 || !strings.Contains(body, want) {
			t.Errorf("book PROPFIND: %d, want %q in %s", code, want, body)
		}
	}
}

func TestCardDAVAuth(t *testing.T) {
	e := newEnv(t)
	ts := httptest.NewServer(e.srv)
	t.Cleanup(ts.Close)
	ada, key := e.user("ada@example.com")
	d := &davEnv{env: e, url: ts.URL}
	d.client = d.clientOf("ada@example.com", key)
	bob, bobKey := d.user("bob@example.com")
	revoked := func() string {
		u := ada
		k, token, err := d.st.CreateAPIKey(context.Background(), u.ID, "old phone")
		if err != nil {
			t.Fatal(err)
		}
		if err := d.st.DeleteAPIKey(context.Background(), u.ID, k.ID); err != nil {
			t.Fatal(err)
		}
		return token
	}()
	principal, _ := d.client.FindCurrentUserPrincipal(context.Background())
	body := `<propfind xmlns="DAV:"><prop><resourcetype/></prop></propfind>`
	xmlh := map[string]string{"Content-Type": "application/xml"}
	cases := []struct {
		name, email, key, path string
		want                   int
	}{
		{"no credentials", "", "", principal, 401},
		{"a wrong key", "ada@example.com", "1|nope", principal, 401},
		{"another user's key", "ada@example.com", bobKey, principal, 401},
		{"a revoked key", "ada@example.com", revoked, principal, 401},
		{"the email in another case", "ADA@Example.com", key, principal, 207},
		{"another user's tree", "ada@example.com", key, fmt.Sprintf("/dav/%d/", bob.ID), 404},
		{"another user's address book", "ada@example.com", key, fmt.Sprintf("/dav/%d/addressbooks/contacts/", bob.ID), 404},
		{"Bob's own key in Ada's tree", "bob@example.com", bobKey, principal, 404},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			code, h, _ := d.raw("PROPFIND", c.path, c.email, c.key, body, xmlh)
			if code != c.want {
				t.Errorf("%d, want %d", code, c.want)
			}
			if code == 401 && h.Get("WWW-Authenticate") != `Basic realm="Kith", charset="UTF-8"` {
				t.Errorf("WWW-Authenticate %q", h.Get("WWW-Authenticate"))
			}
		})
	}
	t.Run("an unverified email is refused", func(t *testing.T) {
		_, carolKey := d.user("carol@example.com")
		d.changeEmail(carolKey, "carol2@example.com")
		code, _, body := d.raw("PROPFIND", "/", "carol2@example.com", carolKey, `<propfind xmlns="DAV:"><prop><current-user-principal/></prop></propfind>`, xmlh)
		if code != 403 || !strings.Contains(body, "not verified") {
			t.Errorf("%d %s", code, body)
		}
	})
	t.Run("failures are throttled like logins", func(t *testing.T) {
		for range 5 {
			d.raw("PROPFIND", principal, "carol@example.com", "1|nope", body, xmlh)
		}
		if code, h, _ := d.raw("PROPFIND", principal, "carol@example.com", "1|nope", body, xmlh); code != 429 || h.Get("Retry-After") == "" {
			t.Errorf("the sixth failure: %d %v", code, h)
		}
	})
	t.Run("a valid key is not refused by the failures' throttle", func(t *testing.T) {
		_, daveKey := d.user("dave@example.com")
		for range 6 {
			d.raw("PROPFIND", "/", "dave@example.com", "1|nope", body, xmlh)
		}
		if code, _, _ := d.raw("PROPFIND", "/", "dave@example.com", "1|nope", body, xmlh); code != 429 {
			t.Fatalf("the failures were not throttled: %d", code)
		}
		if code, _, out := d.raw("PROPFIND", "/", "dave@example.com", daveKey, body, xmlh); code != 207 {
			t.Errorf("the phone's valid key: %d %s", code, out)
		}
	})
}

// bookOf discovers the user's address book.
func (d *davEnv) bookOf(c *carddav.Client) string {
	d.t.Helper()
	ctx := context.Background()
	p, err := c.FindCurrentUserPrincipal(ctx)
	if err != nil {
		d.t.Fatal(err)
	}
	home, err := c.FindAddressBookHomeSet(ctx, p)
	if err != nil {
		d.t.Fatal(err)
	}
	books, err := c.FindAddressBooks(ctx, home)
	if err != nil || len(books) != 1 {
		d.t.Fatalf("books %v %v", books, err)
	}
	return books[0].Path
}

func TestCardDAVReadWrite(t *testing.T) {
	d, key := newDAVEnv(t, "ada@example.com")
	ctx := context.Background()
	book := d.bookOf(d.client)
	// A person made in Kith is on the phone.
	pid := d.person(key, "first_name=Michael&last_name=Scott")
	d.contactDetail(key, pid, "kind=phone&label=mobile&value=%2B1+570+555+0101")
	objs, err := d.client.QueryAddressBook(ctx, book, &carddav.AddressBookQuery{DataRequest: carddav.AddressDataRequest{AllProp: true}})
	if err != nil || len(objs) != 1 {
		t.Fatalf("query: %v %v", objs, err)
	}
	michael := objs[0]
	if michael.Card.Value(vcard.FieldFormattedName) != "Michael Scott" || michael.Card.Value(vcard.FieldTelephone) != "+1 570 555 0101" || michael.ETag == "" {
		t.Errorf("Michael on the phone: %+v", michael)
	}
	got, err := d.client.GetAddressObject(ctx, michael.Path)
	if err != nil || got.Card.Value(vcard.FieldUID) != michael.Card.Value(vcard.FieldUID) {
		t.Fatalf("GET: %+v %v", got, err)
	}

	// A contact made on the phone is a person in Kith.
	card := vcard.Card{}
	card.SetValue(vcard.FieldVersion, "3.0")
	card.SetValue(vcard.FieldUID, "phone-made-1")
	card.SetValue(vcard.FieldFormattedName, "Dwight Schrute")
	card.SetName(&vcard.Name{GivenName: "Dwight", FamilyName: "Schrute"})
	card.Add(vcard.FieldEmail, &vcard.Field{Value: "dwight@example.com", Params: vcard.Params{"TYPE": {"work"}}})
	put, err := d.client.PutAddressObject(ctx, book+"phone-made-1.vcf", card)
	if err != nil {
		t.Fatal(err)
	}
	dwight := d.personsByName(key)["Dwight Schrute"]
	if dwight == nil {
		t.Fatal("no Dwight in Kith")
	}
	equalLists(t, "Dwight's details", d.detailsOf(key, dwight["id"]), []string{"email|work|dwight@example.com"})

	// Edited on the phone with the ETag it has: Kith follows.
	card.SetValue(vcard.FieldFormattedName, "Dwight K. Schrute")
	card.SetName(&vcard.Name{GivenName: "Dwight", AdditionalName: "Kurt", FamilyName: "Schrute"})
	var buf strings.Builder
	vcard.NewEncoder(&buf).Encode(card)
	vh := func(ifMatch string) map[string]string {
		return map[string]string{"Content-Type": "text/vcard", "If-Match": ifMatch}
	}
	code, h, body := d.raw("PUT", book+"phone-made-1.vcf", "ada@example.com", key, buf.String(), vh(`"`+put.ETag+`"`))
	if code != 204 || h.Get("ETag") == "" || h.Get("ETag") == `"`+put.ETag+`"` { // an update: 204 (issue 27), 201 before
		t.Fatalf("PUT with the ETag: %d %v %s", code, h, body)
	}
	if got := d.personsByName(key)["Dwight Schrute"]; got == nil || got["middle_name"] != "Kurt" {
		t.Errorf("Dwight after the edit: %v", got)
	}
	// A stale phone cannot overwrite the newer edit.
	code, _, _ = d.raw("PUT", book+"phone-made-1.vcf", "ada@example.com", key, buf.String(), vh(`"`+put.ETag+`"`))
	if code != 412 {
		t.Errorf("PUT with a stale ETag: %d, want 412", code)
	}
	// Nor create over one that exists.
	code, _, _ = d.raw("PUT", book+"phone-made-1.vcf", "ada@example.com", key, buf.String(), map[string]string{"Content-Type": "text/vcard", "If-None-Match": "*"})
	if code != 412 {
		t.Errorf("PUT If-None-Match * over a card: %d, want 412", code)
	}
	// An edit in Kith changes the ETag the phone sees.
	before, _ := d.client.GetAddressObject(ctx, book+"phone-made-1.vcf")
	d.contactDetail(key, fmt.Sprint(dwight["id"]), "kind=phone&value=555")
	after, _ := d.client.GetAddressObject(ctx, book+"phone-made-1.vcf")
	if before.ETag == after.ETag || after.Card.Value(vcard.FieldTelephone) != "555" {
		t.Errorf("ETag %q then %q, TEL %q", before.ETag, after.ETag, after.Card.Value(vcard.FieldTelephone))
	}

	// Bad cards are refused and change nothing.
	for name, c := range map[string]string{
		"not a vCard":    "hello",
		"no name":        "BEGIN:VCARD\r\nVERSION:3.0\r\nUID:x\r\nEND:VCARD\r\n",
		"no END":         "BEGIN:VCARD\r\nVERSION:3.0\r\nFN:X\r\n",
		"wrong type":     "",
		"UID of another": strings.Replace(buf.String(), "UID:phone-made-1", "UID:"+michael.Card.Value(vcard.FieldUID), 1),
	} {
		ct := "text/vcard"
		if name == "wrong type" {
			ct, c = "application/json", "{}"
		}
		code, _, body := d.raw("PUT", book+"new.vcf", "ada@example.com", key, c, map[string]string{"Content-Type": ct})
		if code < 400 || code >= 500 {
			t.Errorf("PUT %s: %d %s", name, code, body)
		}
	}
	if n := len(d.personsByName(key)); n != 2 {
		t.Errorf("%d persons after bad PUTs, want 2", n)
	}

	// Deleted on the phone: gone from Kith; a stale If-Match is refused first.
	code, _, _ = d.raw("DELETE", book+"phone-made-1.vcf", "ada@example.com", key, "", map[string]string{"If-Match": `"1"`})
	if code != 412 {
		t.Errorf("DELETE with a stale ETag: %d", code)
	}
	code, _, _ = d.raw("DELETE", book+"phone-made-1.vcf", "ada@example.com", key, "", map[string]string{"If-Match": `"` + after.ETag + `"`})
	if code != 204 || d.personsByName(key)["Dwight Schrute"] != nil {
		t.Errorf("DELETE: %d", code)
	}
	if code, _, _ := d.raw("GET", book+"phone-made-1.vcf", "ada@example.com", key, "", nil); code != 404 {
		t.Errorf("GET after DELETE: %d", code)
	}
	// Another account cannot reach Ada's cards by their names.
	_, bobKey := d.user("bob@example.com")
	bobBook := d.bookOf(d.clientOf("bob@example.com", bobKey))
	name := michael.Path[strings.LastIndex(michael.Path, "/")+1:]
	if code, _, _ := d.raw("GET", bobBook+name, "bob@example.com", bobKey, "", nil); code != 404 {
		t.Errorf("Bob GETs Ada's card by name: %d", code)
	}
	if code, _, _ := d.raw("DELETE", bobBook+name, "bob@example.com", bobKey, "", nil); code != 404 {
		t.Errorf("Bob DELETEs Ada's card by name: %d", code)
	}
}

func TestCardDAVSyncCollection(t *testing.T) {
	d, key := newDAVEnv(t, "ada@example.com")
	ctx := context.Background()
	book := d.bookOf(d.client)
	jim := d.person(key, "first_name=Jim")
	pam := d.person(key, "first_name=Pam")
	first, err := d.client.SyncCollection(ctx, book, &carddav.SyncQuery{})
	if err != nil || len(first.Updated) != 2 || len(first.Deleted) != 0 || first.SyncToken == "" {
		t.Fatalf("first sync %+v %v", first, err)
	}
	// Nothing changed: nothing listed, the same token.
	again, err := d.client.SyncCollection(ctx, book, &carddav.SyncQuery{SyncToken: first.SyncToken})
	if err != nil || len(again.Updated)+len(again.Deleted) != 0 || again.SyncToken != first.SyncToken {
		t.Fatalf("sync without changes %+v %v", again, err)
	}
	// A change to Jim's details, and Pam deleted.
	d.contactDetail(key, jim, "kind=email&value=jim@example.com")
	d.do(req{method: "DELETE", path: "/api/persons/" + pam, key: key})
	delta, err := d.client.SyncCollection(ctx, book, &carddav.SyncQuery{SyncToken: first.SyncToken})
	if err != nil || len(delta.Updated) != 1 || len(delta.Deleted) != 1 || delta.SyncToken == first.SyncToken {
		t.Fatalf("delta %+v %v", delta, err)
	}
	paths := []string{}
	for _, o := range first.Updated {
		paths = append(paths, o.Path)
	}
	if !slices.Contains(paths, delta.Updated[0].Path) || !slices.Contains(paths, delta.Deleted[0]) || delta.Updated[0].Path == delta.Deleted[0] {
		t.Errorf("delta %+v against %v", delta, paths)
	}
	// With the cards' content, as some clients ask (go-webdav's client
	// reads none).
	code, _, body := d.raw("REPORT", book, "ada@example.com", key, `<?xml version="1.0"?>
<sync-collection xmlns="DAV:" xmlns:C="urn:ietf:params:xml:ns:carddav"><sync-token>`+first.SyncToken+`</sync-token>
<sync-level>1</sync-level><prop><getetag/><C:address-data/></prop></sync-collection>`, map[string]string{"Content-Type": "application/xml"})
	if code != 207 || !strings.Contains(body, "EMAIL;TYPE=internet:jim@example.com") || !strings.Contains(body, "HTTP/1.1 404 Not Found</status>") {
		t.Errorf("delta with data: %d %s", code, body)
	}
	// A token this server never gave is refused.
	for _, bad := range []string{"urn:kith:sync:999999", "http://example.com/x", "urn:kith:sync:-1"} {
		_, err := d.client.SyncCollection(ctx, book, &carddav.SyncQuery{SyncToken: bad})
		if err == nil || !strings.Contains(err.Error(), "403") {
			t.Errorf("token %q: %v", bad, err)
		}
	}
}

// TestCardDAVRefusals: what a phone may not do is refused with its
// status, and changes nothing.
func TestCardDAVRefusals(t *testing.T) {
	d, key := newDAVEnv(t, "ada@example.com")
	book := d.bookOf(d.client)
	pid := d.person(key, "first_name=Jan&can_be_deleted=0")
	objs, err := d.client.QueryAddressBook(context.Background(), book, &carddav.AddressBookQuery{})
	if err != nil || len(objs) != 1 {
		t.Fatalf("query: %v %v", objs, err)
	}
	jan := objs[0].Path
	big := "BEGIN:VCARD\r\nVERSION:3.0\r\nFN:Big\r\nNOTE:" + strings.Repeat("x", 1<<20) + "\r\nEND:VCARD\r\n"
	card := "BEGIN:VCARD\r\nVERSION:3.0\r\nUID:elsewhere\r\nFN:Elsewhere\r\nEND:VCARD\r\n"
	vcardType := map[string]string{"Content-Type": "text/vcard"}
	cases := []struct {
		name, method, path, body string
		want                     int
	}{
		{"a card over 1 MiB", "PUT", book + "big.vcf", big, 413},
		{"a card outside the address book", "PUT", strings.TrimSuffix(book, "contacts/") + "elsewhere.vcf", card, 403},
		{"a person that cannot be deleted", "DELETE", jan, "", 403},
		{"an address book of one's own", "MKCOL", strings.TrimSuffix(book, "contacts/") + "mine/", "", 405},
		{"the address book itself", "DELETE", book, "", 403},
		{"a card that is not there", "DELETE", book + "nobody.vcf", "", 404},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			if code, _, body := d.raw(c.method, c.path, "ada@example.com", key, c.body, vcardType); code != c.want {
				t.Errorf("%d, want %d: %.200s", code, c.want, body)
			}
		})
	}
	if n := len(d.personsByName(key)); n != 1 {
		t.Errorf("%d persons, want Jan alone", n)
	}
	if r := d.do(req{method: "GET", path: "/api/persons/" + pid, key: key}); r.code != 200 {
		t.Errorf("Jan: %d", r.code)
	}
}

// TestCardDAVBounds: a request that would make the server work out an
// answer of the whole tree, or of every card times thousands of names,
// is refused before any work; what clients send is answered.
func TestCardDAVBounds(t *testing.T) {
	d, key := newDAVEnv(t, "ada@example.com")
	book := d.bookOf(d.client)
	principal := strings.TrimSuffix(book, "addressbooks/contacts/")
	for _, n := range []string{"Jim", "Pam"} {
		d.person(key, "first_name="+n)
	}
	manyNames := func(n int) string {
		var b strings.Builder
		for i := range n {
			fmt.Fprintf(&b, "<x%d/>", i)
		}
		return b.String()
	}
	propfind := func(props string) string {
		return `<?xml version="1.0"?><propfind xmlns="DAV:"><prop>` + props + `</prop></propfind>`
	}
	query := func(props string) string {
		return `<C:addressbook-query xmlns="DAV:" xmlns:C="urn:ietf:params:xml:ns:carddav"><prop>` + props + `</prop></C:addressbook-query>`
	}
	cases := []struct {
		name, method, path, depth, body string
		want                            int
		wantBody                        []string
	}{
		{"10,000 property names are refused", "PROPFIND", book, "1", propfind(strings.Repeat("<a/>", 10000)), 400, []string{"at most 100 properties"}},
		{"101 property names are refused", "PROPFIND", book, "1", propfind(manyNames(101)), 400, []string{"at most 100 properties"}},
		{"10,000 names on the principal are refused", "PROPFIND", principal, "0", propfind(strings.Repeat("<a/>", 10000)), 400, []string{"at most 100 properties"}},
		{"10,000 names at the root are refused", "PROPFIND", "/", "0", propfind(strings.Repeat("<a/>", 10000)), 400, []string{"at most 100 properties"}},
		{"10,000 names in an addressbook-query are refused", "REPORT", book, "1", query(strings.Repeat("<a/>", 10000)), 400, []string{"at most 100 properties"}},
		{"a name of 300 bytes is refused", "PROPFIND", book, "1", propfind("<" + strings.Repeat("n", 300) + "/>"), 400, []string{"at most 256 bytes"}},
		{"100 property names are answered", "PROPFIND", book, "1", propfind("<getetag/>" + manyNames(99)), 207, []string{"getetag", "<x98", "404 Not Found"}},
		{"Depth: infinity on the book is refused", "PROPFIND", book, "infinity", propfind("<getetag/>"), 403, []string{"<propfind-finite-depth/>"}},
		{"Depth: infinity on the principal is refused", "PROPFIND", principal, "Infinity", propfind("<getetag/>"), 403, []string{"<propfind-finite-depth/>"}},
		{"Depth: infinity at the root is refused", "PROPFIND", "/dav/", "infinity", propfind("<getetag/>"), 403, []string{"<propfind-finite-depth/>"}},
		{"a Depth that is no depth is refused", "PROPFIND", book, "2", propfind("<getetag/>"), 400, nil},
		{"an empty body on the principal is allprop", "PROPFIND", principal, "0", "", 207, []string{"current-user-principal", "addressbook-home-set"}},
		{"an empty body on the book is allprop", "PROPFIND", book, "0", "", 207, []string{"getctag", "supported-report-set"}},
		{"an empty body on the home set is allprop", "PROPFIND", principal + "addressbooks/", "0", "", 207, []string{"resourcetype"}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			h := map[string]string{"Content-Type": "application/xml"}
			if c.depth != "" {
				h["Depth"] = c.depth
			}
			code, _, body := d.raw(c.method, c.path, "ada@example.com", key, c.body, h)
			if code != c.want {
				t.Fatalf("%d, want %d: %.300s", code, c.want, body)
			}
			for _, w := range c.wantBody {
				if !strings.Contains(body, w) {
					t.Errorf("want %q in %.500s", w, body)
				}
			}
		})
	}
	t.Run("a PROPFIND of the principal without Depth lists no cards", func(t *testing.T) {
		code, _, body := d.raw("PROPFIND", principal, "ada@example.com", key, propfind("<getetag/>"), map[string]string{"Content-Type": "application/xml"})
		if code != 207 || strings.Contains(body, ".vcf") {
			t.Errorf("%d %.500s", code, body)
		}
	})
}

// TestCardDAVReports: the address book's REPORTs, which Kith answers a
// card at a time: a multiget answers each card named once, and 404 for
// one not there; a query filters and stops at its limit; what is no
// such REPORT is refused.
func TestCardDAVReports(t *testing.T) {
	d, key := newDAVEnv(t, "ada@example.com")
	book := d.bookOf(d.client)
	for _, n := range []string{"Jim", "Pam", "Dwight"} {
		d.person(key, "first_name="+n)
	}
	objs, err := d.client.QueryAddressBook(context.Background(), book, &carddav.AddressBookQuery{})
	if err != nil || len(objs) != 3 {
		t.Fatalf("query: %v %v", objs, err)
	}
	xmlh := map[string]string{"Content-Type": "application/xml", "Depth": "1"}
	multiget := func(hrefs ...string) string {
		return `<C:addressbook-multiget xmlns:D="DAV:" xmlns:C="urn:ietf:params:xml:ns:carddav"><D:prop><D:getetag/><C:address-data/></D:prop><D:href>` +
			strings.Join(hrefs, "</D:href><D:href>") + `</D:href></C:addressbook-multiget>`
	}
	query := func(filter, limit string) string {
		return `<C:addressbook-query xmlns:D="DAV:" xmlns:C="urn:ietf:params:xml:ns:carddav"><D:prop><D:getetag/><C:address-data/></D:prop>` +
			filter + limit + `</C:addressbook-query>`
	}
	fnIs := func(name, match string) string {
		return `<C:filter><C:prop-filter name="FN"><C:text-match match-type="` + match + `">` + name + `</C:text-match></C:prop-filter></C:filter>`
	}
	cases := []struct {
		name, body string
		want       int
		count      map[string]int
	}{
		{"a multiget answers each card named once", multiget(objs[0].Path, objs[0].Path, objs[1].Path), 207,
			map[string]int{"<response": 2, "BEGIN:VCARD": 2}},
		{"a multiget answers 404 for a card not there", multiget(book+"nobody.vcf", "/dav/999/addressbooks/contacts/x.vcf"), 207,
			map[string]int{"HTTP/1.1 404 Not Found": 2, "BEGIN:VCARD": 0}},
		{"a query filters", query(fnIs("Pam", "equals"), ""), 207, map[string]int{"<response": 1, "FN:Pam": 1}},
		{"a query without filter is every card", query("", ""), 207, map[string]int{"<response": 3}},
		{"a query stops at its limit", query("", `<C:limit><C:nresults>2</C:nresults></C:limit>`), 207, map[string]int{"<response": 2}},
		{"a match type that is none is refused", query(fnIs("Pam", "sounds-like"), ""), 400, nil},
		{"a REPORT that is none of the three is refused", `<D:expand-property xmlns:D="DAV:"/>`, 403, map[string]int{"<supported-report/>": 1}},
		{"a REPORT that is no XML is refused", `<nope`, 400, nil},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			code, _, body := d.raw("REPORT", book, "ada@example.com", key, c.body, xmlh)
			if code != c.want {
				t.Fatalf("%d, want %d: %.500s", code, c.want, body)
			}
			for s, n := range c.count {
				if got := strings.Count(body, s); got != n {
					t.Errorf("%d × %q, want %d: %.1000s", got, s, n, body)
				}
			}
		})
	}
}

// TestCardDAVPutETag: a PUT answers the card's new ETag, the one a GET
// then shows and a DELETE may name (vdirsyncer deletes with it), 201 when
// it made the card and 204 when it replaced it (RFC 4918 9.7.1).
func TestCardDAVPutETag(t *testing.T) {
	d, key := newDAVEnv(t, "ada@example.com")
	book := d.bookOf(d.client)
	card := func(fn string) string {
		return "BEGIN:VCARD\r\nVERSION:3.0\r\nUID:put-etag-1\r\nFN:" + fn + "\r\nN:;" + fn + ";;;\r\nTEL:+1 555 0100\r\nEMAIL:x@example.com\r\nBDAY:1980-03-04\r\nNOTE:hello\r\nEND:VCARD\r\n"
	}
	vh := func(h ...string) map[string]string {
		m := map[string]string{"Content-Type": "text/vcard"}
		for i := 0; i < len(h); i += 2 {
			m[h[i]] = h[i+1]
		}
		return m
	}
	path := book + "put-etag-1.vcf"
	getETag := func() string {
		code, h, _ := d.raw("GET", path, "ada@example.com", key, "", nil)
		if code != 200 {
			t.Fatalf("GET: %d", code)
		}
		return h.Get("ETag")
	}
	code, h, body := d.raw("PUT", path, "ada@example.com", key, card("Jim"), vh("If-None-Match", "*"))
	if code != 201 || h.Get("ETag") == "" || h.Get("ETag") != getETag() {
		t.Fatalf("PUT of a new card: %d, ETag %q (GET: %q) %s", code, h.Get("ETag"), getETag(), body)
	}
	code, h2, body := d.raw("PUT", path, "ada@example.com", key, card("James"), vh("If-Match", h.Get("ETag")))
	if code != 204 || h2.Get("ETag") == "" || h2.Get("ETag") == h.Get("ETag") || h2.Get("ETag") != getETag() {
		t.Fatalf("PUT over the card: %d, ETag %q then %q (GET: %q) %s", code, h.Get("ETag"), h2.Get("ETag"), getETag(), body)
	}
	if code, _, body := d.raw("DELETE", path, "ada@example.com", key, "", map[string]string{"If-Match": h2.Get("ETag")}); code != 204 {
		t.Errorf("DELETE with the PUT's ETag: %d %s", code, body)
	}
	// A card without a name is refused with RFC 6352's precondition.
	noName := "BEGIN:VCARD\r\nVERSION:3.0\r\nUID:x\r\nEND:VCARD\r\n"
	if code, _, body := d.raw("PUT", book+"x.vcf", "ada@example.com", key, noName, vh()); code != 409 || !strings.Contains(body, "<valid-address-data") {
		t.Errorf("PUT of a card without a name: %d %s", code, body)
	}
}

// TestCardDAVStorageFault: a write that cannot get the database (here
// its lock, held past SQLite's 10 s busy timeout by another process)
// answers 503 with Retry-After, as the API does, not 500.
func TestCardDAVStorageFault(t *testing.T) {
	storetest.SQLiteOnly(t)
	storetest.Slow(t, "waits out SQLite's 10 s busy timeout twice")
	if testing.Short() {
		t.Skip("waits out SQLite's 10 s busy timeout")
	}
	t.Parallel()
	d, key := newDAVEnv(t, "ada@example.com")
	book := d.bookOf(d.client)
	other, err := sql.Open("sqlite", "file:"+d.where)
	if err != nil {
		t.Fatal(err)
	}
	defer other.Close()
	ctx := context.Background()
	conn, err := other.Conn(ctx)
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	if _, err := conn.ExecContext(ctx, `BEGIN IMMEDIATE`); err != nil {
		t.Fatal(err)
	}
	defer conn.ExecContext(ctx, `ROLLBACK`)
	// The API's write, beside it, waits out the same timeout.
	var api *http.Response
	var apiBody []byte
	var apiErr error
	var wg sync.WaitGroup
	wg.Go(func() {
		r, _ := http.NewRequest("POST", d.url+"/api/persons?first_name=Locked", nil)
		r.Header.Set("Authorization", "Bearer "+key)
		if api, apiErr = http.DefaultClient.Do(r); apiErr == nil {
			apiBody, apiErr = io.ReadAll(api.Body)
			api.Body.Close()
		}
	})
	card := "BEGIN:VCARD\r\nVERSION:3.0\r\nUID:locked\r\nFN:Locked Out\r\nEND:VCARD\r\n"
	code, h, body := d.raw("PUT", book+"locked.vcf", "ada@example.com", key, card, map[string]string{"Content-Type": "text/vcard"})
	if code != 503 || h.Get("Retry-After") == "" {
		t.Errorf("PUT while the database is locked: %d, Retry-After %q: %s", code, h.Get("Retry-After"), body)
	}
	wg.Wait()
	if apiErr != nil || api.StatusCode != 503 || api.Header.Get("Retry-After") != "5" || !strings.Contains(string(apiBody), "Service Unavailable.") {
		t.Errorf("the API's write while the database is locked: %v %v: %s", api, apiErr, apiBody)
	}
}

// TestCardDAVCutLogged: an answer that the server's write timeout cuts
// (a client that does not read a large multistatus) is logged as cut,
// with the status it began with, not as a 207 that was answered.
func TestCardDAVCutLogged(t *testing.T) {
	logs := &lockedLog{}
	e := newEnv(t, func(o *Options) { o.Logger = zerolog.New(logs) })
	u, key := e.user("ada@example.com")
	var ins []store.CardInput
	for i := range 1000 {
		ins = append(ins, store.CardInput{UID: fmt.Sprintf("card-%04d", i), FirstName: fmt.Sprint("Person ", i)})
	}
	if _, err := e.st.PutCards(context.Background(), u.AccountID, ins); err != nil {
		t.Fatal(err)
	}
	ts := httptest.NewUnstartedServer(e.srv)
	ts.Config.WriteTimeout = 300 * time.Millisecond
	ts.Start()
	t.Cleanup(ts.Close)
	// 100 long names, each answered 404 for every card: some 20 MB, more
	// than the sockets between client and server hold.
	var names strings.Builder
	for i := range 100 {
		fmt.Fprintf(&names, "<n%03d%s/>", i, strings.Repeat("x", 200))
	}
	body := `<propfind xmlns="DAV:"><prop>` + names.String() + `</prop></propfind>`
	conn, err := net.Dial("tcp", ts.Listener.Addr().String())
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	req, _ := http.NewRequest("PROPFIND", fmt.Sprintf("%s/dav/%d/addressbooks/contacts/", ts.URL, u.ID), strings.NewReader(body))
	req.SetBasicAuth("ada@example.com", key)
	req.Header.Set("Content-Type", "application/xml")
	req.Header.Set("Depth", "1")
	if err := req.Write(conn); err != nil {
		t.Fatal(err)
	}
	// The client reads nothing; the server's writes fail at the timeout.
	var line string
	for deadline := time.Now().Add(10 * time.Second); line == "" && time.Now().Before(deadline); time.Sleep(50 * time.Millisecond) {
		for _, l := range strings.Split(logs.String(), "\n") {
			if strings.Contains(l, `"method":"PROPFIND"`) {
				line = l
			}
		}
	}
	if !strings.Contains(line, `"cut":`) || !strings.Contains(line, `"sent_status":207`) || strings.Contains(line, `"status":207`) {
		t.Errorf("the access line of the cut answer: %s", line)
	}
}
