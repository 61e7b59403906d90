package dav

import (
	"bytes"
	"encoding/xml"
	"net/http"
	"testing"

	"kith/store"
)

// TestAppendResponseIsTheEncoders: every response a listing writes comes
// out of appendResponse exactly as encoding/xml's Encoder wrote it, for
// hrefs and names that need escaping, properties of no namespace, and
// responses with a status and no propstat.
func TestAppendResponseIsTheEncoders(t *testing.T) {
	u := User{ID: 7, AccountID: 3}
	odd := []string{"plain.vcf", `a b"'&<>`, "tab\tnl\nc\r", "\x01ctl\x7f", "é—ü", "bad\xffutf8", "\uFFFE", "", "urn:uuid:1/2"}
	names := []xml.Name{{Space: nsDAV, Local: "getetag"}, {Space: nsDAV, Local: "getlastmodified"},
		{Space: nsDAV, Local: "resourcetype"}, {Space: nsDAV, Local: "getcontenttype"},
		{Space: "", Local: "bare"}, {Space: "urn:x&y<z>", Local: "odd"}, {Space: nsCS, Local: "getctag"}}
	var responses []response
	for i, s := range odd {
		name := s
		ref := store.CardRef{UID: s, Name: &name, Seq: int64(i * 1000), UpdatedAt: int64(i) * 1e9}
		responses = append(responses,
			response{Href: cardPath(u, ref.UID, ref.Name), Propstat: propValues(names, cardProps(ref, nil))},
			response{Href: cardPath(u, s, nil), Propstat: propValues(names[:2], cardProps(ref, nil))},
			response{Href: s, Status: status(http.StatusNotFound)},
			response{Href: s, Propstat: propValues(names[4:], cardProps(ref, nil))},
		)
	}
	responses = append(responses, response{})
	for _, r := range responses {
		var want bytes.Buffer
		if err := xml.NewEncoder(&want).Encode(r); err != nil {
			t.Fatal(err)
		}
		if got := appendResponse([]byte("x"), &r); string(got) != "x"+want.String() {
			t.Errorf("%+v:\n got %s\nwant %s", r, got[1:], want.String())
		}
	}
}
