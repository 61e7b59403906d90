package transfer

import (
	"bytes"
	"io"
	"mime/multipart"
	"net/http/httptest"
	"testing"

	"kith/server/input"
)

// A form's file and options are read alike whether the form streams in or
// a middleware has parsed it already; the form's options win over the
// query's.
func TestReadUpload(t *testing.T) {
	for _, parsed := range []bool{false, true} {
		var buf bytes.Buffer
		w := multipart.NewWriter(&buf)
		w.WriteField("dry_run", "1")
		w.WriteField("csrf", "x")
		fw, _ := w.CreateFormFile("file", "monica.json")
		fw.Write([]byte(`{"account":{}}`))
		w.Close()
		r := httptest.NewRequest("POST", "/import?dry_run=0&format=google", &buf)
		r.Header.Set("Content-Type", w.FormDataContentType())
		if parsed {
			if err := r.ParseMultipartForm(1 << 20); err != nil {
				t.Fatal(err)
			}
		}
		up, err := ReadUpload(r, []string{"dry_run", "format"}, input.ErrInvalidJSON)
		if err != nil {
			t.Fatal(err)
		}
		got, _ := io.ReadAll(io.NewSectionReader(up.File, 0, up.Size))
		if string(got) != `{"account":{}}` || !up.Form || up.Options["dry_run"] != "1" || up.Options["format"] != "google" ||
			up.Options["csrf"] != nil {
			t.Errorf("parsed %v: %q %+v", parsed, got, up)
		}
		up.Close()
	}
}
