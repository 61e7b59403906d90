package dav

import (
	"bytes"
	"encoding/xml"
	"errors"
	"io"
	"net/http"
	"strconv"
	"strings"
)

// MaxPropNames is the most properties one PROPFIND or REPORT may name.
// Every name is answered for every card listed, so the names multiply
// the answer by the size of the address book: 16,000 names fit in a
// 64 KiB body, which made one PROPFIND of 5,000 cards cost 1.4 GB.
// Clients ask for a few (DAVx⁵ about ten, iOS about thirty at
// discovery).
const MaxPropNames = 100

// maxPropNameBytes is the longest property name (namespace and local
// name together) a request may give: a 64 KiB name answered 404 for
// every card would make the answer as large as the body times the cards.
const maxPropNameBytes = 256

// errTooManyProps answers a request over MaxPropNames.
var errTooManyProps = httpError(http.StatusBadRequest,
	"a request may name at most "+strconv.Itoa(MaxPropNames)+" properties, of at most "+strconv.Itoa(maxPropNameBytes)+" bytes each")

// allpropBody is what a PROPFIND without a body asks (RFC 4918, 9.1).
const allpropBody = `<?xml version="1.0" encoding="utf-8"?><propfind xmlns="DAV:"><allprop/></propfind>`

// bound checks a PROPFIND's or a REPORT's request before any work is
// done for it, and puts its body back for whoever reads it next: at most
// maxRequestXML bytes, at most MaxPropNames property names, and no
// Depth: infinity, which would list the whole tree (a PROPFIND without
// Depth is answered as Depth: 1, not as the infinity RFC 4918 reads it
// as). An empty PROPFIND body is allprop. It answers the refusal itself
// and reports false.
func bound(w http.ResponseWriter, r *http.Request) bool {
	if r.Method == "PROPFIND" {
		switch strings.ToLower(strings.TrimSpace(r.Header.Get("Depth"))) {
		case "0", "1":
		case "":
			r.Header.Set("Depth", "1")
		case "infinity":
			writeDAVError(w, http.StatusForbidden, "propfind-finite-depth")
			return false
		default:
			writeError(w, httpError(http.StatusBadRequest, "Depth must be 0 or 1"))
			return false
		}
	}
	raw, err := io.ReadAll(io.LimitReader(r.Body, maxRequestXML+1))
	var tooLarge *http.MaxBytesError
	switch {
	case errors.As(err, &tooLarge) || len(raw) > maxRequestXML:
		writeError(w, httpError(http.StatusRequestEntityTooLarge, "the request body is too large"))
		return false
	case err != nil:
		writeError(w, httpError(http.StatusBadRequest, "the request body could not be read"))
		return false
	}
	if len(bytes.TrimSpace(raw)) == 0 && r.Method == "PROPFIND" {
		raw = []byte(allpropBody)
		r.Header.Set("Content-Type", "application/xml")
	}
	if err := countPropNames(raw); err != nil {
		writeError(w, err)
		return false
	}
	r.Body = io.NopCloser(bytes.NewReader(raw))
	r.ContentLength = int64(len(raw))
	return true
}

// countPropNames refuses a body that names more than MaxPropNames
// properties (the children of DAV:prop elements), or one too long. A
// body that is no XML is left to the handler, which says so.
func countPropNames(raw []byte) error {
	d := xml.NewDecoder(bytes.NewReader(raw))
	depth, propAt, n := 0, 0, 0
	for {
		tok, err := d.Token()
		if err != nil {
			return nil
		}
		switch t := tok.(type) {
		case xml.StartElement:
			depth++
			if propAt > 0 && depth == propAt+1 {
				n++
				if n > MaxPropNames || len(t.Name.Space)+len(t.Name.Local) > maxPropNameBytes {
					return errTooManyProps
				}
			}
			if propAt == 0 && t.Name.Space == nsDAV && t.Name.Local == "prop" {
				propAt = depth
			}
		case xml.EndElement:
			if depth == propAt {
				propAt = 0
			}
			depth--
		}
	}
}
