// Package dav serves each account's persons as one CardDAV address book
// (RFC 6352) at /dav/, so that phones and desktop address books keep
// them in sync. github.com/emersion/go-webdav does the protocol; Kith adds
// what it lacks: sync-collection (RFC 6578) with a sync token per address
// book, getctag, If-Match on DELETE, and discovery answered where Apple's
// clients look for it (the site root and /.well-known/carddav, in place).
//
// The layout, by the depth go-webdav gives each path:
//
//	/dav/                                  root
//	/dav/{user}/                           the user's principal
//	/dav/{user}/addressbooks/              the address book home set
//	/dav/{user}/addressbooks/contacts/     the account's one address book
//	/dav/{user}/addressbooks/contacts/X    a card
package dav

import (
	"bytes"
	"context"
	"encoding/base64"
	"encoding/xml"
	"errors"
	"io"
	"mime"
	"net/http"
	"net/url"
	"path"
	"strconv"
	"strings"
	"time"

	"github.com/emersion/go-vcard"
	"github.com/emersion/go-webdav"
	"github.com/emersion/go-webdav/carddav"

	"kith/server/vcf"
	"kith/store"
)

// Prefix is where the DAV tree starts.
const Prefix = "/dav"

// MaxCardBytes is the largest card a client may PUT, the server's body
// limit; the address book says so (max-resource-size).
const MaxCardBytes = 1 << 20

// User is the one a request is authenticated as.
type User struct {
	ID, AccountID int64
}

type userKey struct{}

// WithUser returns ctx for a request of u, which the server has
// authenticated: every DAV request needs one.
func WithUser(ctx context.Context, u User) context.Context {
	return context.WithValue(ctx, userKey{}, u)
}

func userOf(ctx context.Context) (User, bool) {
	u, ok := ctx.Value(userKey{}).(User)
	return u, ok
}

// Handler serves the DAV tree, the site root's PROPFIND and OPTIONS, and
// /.well-known/carddav.
type Handler struct {
	store *store.Store
	// logError records an error the client is not told about.
	logError func(ctx context.Context, err error)
	carddav  *carddav.Handler
}

// New returns the handler of st's address books.
func New(st *store.Store, logError func(ctx context.Context, err error)) *Handler {
	h := &Handler{store: st, logError: logError}
	h.carddav = &carddav.Handler{Backend: &backend{h: h}, Prefix: Prefix}
	return h
}

func (h *Handler) now() time.Time { return h.store.Now() }

// Paths of a user's tree.
func principalPath(u User) string { return Prefix + "/" + strconv.FormatInt(u.ID, 10) + "/" }
func homeSetPath(u User) string   { return principalPath(u) + "addressbooks/" }
func bookPath(u User) string      { return homeSetPath(u) + "contacts/" }

// cardPath is the URL path of a card, its name escaped.
func cardPath(u User, uid string, name *string) string {
	return bookPath(u) + url.PathEscape(cardName(uid, name))
}

// cardName is the name of a card's resource: the one a client gave it,
// else its UID and .vcf when the UID is made of characters that every
// client keeps as they are in a URL, else its UID in base64url: a UID
// may hold a slash or a space ("urn:uuid:…" holds colons, which some
// clients mangle).
func cardName(uid string, name *string) string {
	if name != nil {
		return *name
	}
	if safeUID(uid) {
		return uid + ".vcf"
	}
	return b64Prefix + base64.RawURLEncoding.EncodeToString([]byte(uid)) + ".vcf"
}

const b64Prefix = "b64-"

func safeUID(uid string) bool {
	if uid == "" || strings.HasPrefix(uid, b64Prefix) || len(uid) > 200 {
		return false
	}
	for _, r := range uid {
		if !('a' <= r && r <= 'z' || 'A' <= r && r <= 'Z' || '0' <= r && r <= '9' || r == '-' || r == '_' || r == '.') {
			return false
		}
	}
	return true
}

// uidOfName is the UID whose default name is name, or "".
func uidOfName(name string) string {
	base, ok := strings.CutSuffix(name, ".vcf")
	if !ok {
		return ""
	}
	if enc, ok := strings.CutPrefix(base, b64Prefix); ok {
		uid, err := base64.RawURLEncoding.DecodeString(enc)
		if err != nil {
			return ""
		}
		return string(uid)
	}
	if !safeUID(base) {
		return ""
	}
	return base
}

// Root serves the places a client looks for the address book before it
// knows Prefix (the site root, /.well-known/carddav) as the tree's root:
// whichever routes the server mounts it on.
func (h *Handler) Root() http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w = unavailableWriter{w}
		if u, ok := h.user(w, r); ok && (r.Method != "PROPFIND" || bound(w, r)) {
			h.serveRoot(w, r, u)
		}
	})
}

// user is the request's authenticated user; OPTIONS, which needs none, and
// a request without one are answered here.
func (h *Handler) user(w http.ResponseWriter, r *http.Request) (User, bool) {
	if r.Method == http.MethodOptions {
		davHeaders(w)
		w.WriteHeader(http.StatusNoContent)
		return User{}, false
	}
	u, ok := userOf(r.Context())
	if !ok {
		http.Error(w, "Unauthenticated.", http.StatusUnauthorized)
	}
	return u, ok
}

// etag is a card's ETag: the account's change counter when the card last
// changed, which moves on with every change to what the card shows (the
// triggers of migration 0020), unquoted.
func etag(seq int64) string { return strconv.FormatInt(seq, 10) }

// ServeHTTP serves a request under Prefix whose user the server has
// authenticated.
func (h *Handler) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	w = unavailableWriter{w}
	u, ok := h.user(w, r)
	if !ok {
		return
	}
	if (r.Method == "PROPFIND" || r.Method == "REPORT") && !bound(w, r) {
		return
	}
	p := r.URL.Path
	if p == Prefix || p == Prefix+"/" {
		h.serveRoot(w, r, u)
		return
	}
	// Collections are named with a slash at the end; a client that leaves
	// it out means the same.
	for _, c := range []string{principalPath(u), homeSetPath(u), bookPath(u)} {
		if p == strings.TrimSuffix(c, "/") {
			r.URL.Path = c
			p = c
		}
	}
	if !strings.HasPrefix(p, principalPath(u)) {
		// Another user's tree, or none: as if it were not there.
		http.Error(w, "Not found.", http.StatusNotFound)
		return
	}
	switch {
	case p == bookPath(u) && r.Method == "PROPFIND":
		h.serveBookPropfind(w, r, u)
		return
	case p == bookPath(u) && r.Method == "REPORT":
		h.serveReport(w, r, u)
		return
	case r.Method == "REPORT":
		// The address book is all there is to report on.
		writeDAVError(w, http.StatusForbidden, "supported-report")
		return
	case p != bookPath(u) && path.Dir(p)+"/" == bookPath(u) && r.Method == http.MethodDelete:
		h.serveDelete(w, r, u)
		return
	case p != bookPath(u) && path.Dir(p)+"/" == bookPath(u) && r.Method == http.MethodPut:
		h.servePut(w, r)
		return
	case p != bookPath(u) && path.Dir(p)+"/" == bookPath(u) && (r.Method == http.MethodGet || r.Method == http.MethodHead):
		h.serveGet(w, r)
		return
	}
	h.carddav.ServeHTTP(w, r)
}

// RetryAfter is what a 503 asks a client to wait, in seconds.
const RetryAfter = "5"

// unavailableWriter gives every 503 a Retry-After, whoever writes it:
// go-webdav writes the errors of the backend calls it makes.
type unavailableWriter struct{ http.ResponseWriter }

func (w unavailableWriter) WriteHeader(code int) {
	if code == http.StatusServiceUnavailable && w.Header().Get("Retry-After") == "" {
		w.Header().Set("Retry-After", RetryAfter)
	}
	w.ResponseWriter.WriteHeader(code)
}

// Unwrap lets http.ResponseController reach the connection's writer.
func (w unavailableWriter) Unwrap() http.ResponseWriter { return w.ResponseWriter }

// statusError is an error with the status a client gets. It wraps
// go-webdav's own, which go-webdav's handler answers with.
type statusError struct {
	code int
	msg  string
	err  error
	// condition is the CardDAV precondition that failed, if one did
	// (RFC 6352 6.3.2.1), answered as DAV's error element.
	condition string
}

func (e *statusError) Error() string { return e.msg }
func (e *statusError) Unwrap() error { return e.err }

func httpError(code int, msg string) error {
	return &statusError{code: code, msg: msg, err: webdav.NewHTTPError(code, errors.New(msg))}
}

// preconditionError is a CardDAV precondition that failed: 409.
func preconditionError(condition string) error {
	e := httpError(http.StatusConflict, condition).(*statusError)
	e.condition = condition
	return e
}

// fail is the error a backend call returns for err: store errors become
// their status, and the rest a 500 whose cause is logged, not told.
func (h *Handler) fail(ctx context.Context, err error) error {
	var nf *store.NotFoundError
	var status *statusError
	switch {
	case errors.As(err, &status):
		return err
	case errors.As(err, &nf):
		return httpError(http.StatusNotFound, "card not found")
	case errors.Is(err, store.ErrPersonProtected):
		return httpError(http.StatusForbidden, "this person cannot be deleted")
	case errors.Is(err, store.ErrTooManyContactDetails):
		return httpError(http.StatusUnprocessableEntity, strings.TrimPrefix(store.ErrTooManyContactDetails.Error(), "store: "))
	case store.Unavailable(err):
		// A full disk or a lost lock is the host's trouble and passes, as
		// in the API: 503, and the client tries again later.
		h.logError(ctx, err)
		return httpError(http.StatusServiceUnavailable, "Service Unavailable.")
	}
	h.logError(ctx, err)
	return httpError(http.StatusInternalServerError, "server error")
}

// writeError answers err, which fail made, as plain text.
func writeError(w http.ResponseWriter, err error) {
	var status *statusError
	if !errors.As(err, &status) {
		status = &statusError{code: http.StatusInternalServerError, msg: "server error"}
	}
	if status.condition != "" {
		w.Header().Set("Content-Type", `application/xml; charset="utf-8"`)
		w.WriteHeader(status.code)
		io.WriteString(w, xml.Header+`<error xmlns="DAV:"><`+status.condition+` xmlns="`+nsCardDAV+`"/></error>`)
		return
	}
	http.Error(w, status.msg, status.code)
}

// serveGet answers a card, as go-webdav would but for its text, which
// vcf's Encoder writes: go-vcard's would make CATEGORIES one name.
func (h *Handler) serveGet(w http.ResponseWriter, r *http.Request) {
	b := &backend{h: h}
	c, err := b.cardAt(r.Context(), r.URL.Path)
	if err != nil {
		writeError(w, h.fail(r.Context(), err))
		return
	}
	var buf bytes.Buffer
	if err := vcf.NewEncoder(&buf).Encode(vcf.Encode(&c, vcf.Version3)); err != nil {
		writeError(w, h.fail(r.Context(), err))
		return
	}
	w.Header().Set("Content-Type", vcard.MIMEType)
	w.Header().Set("Content-Length", strconv.Itoa(buf.Len()))
	w.Header().Set("ETag", `"`+etag(c.Seq)+`"`)
	w.Header().Set("Last-Modified", time.Unix(vcf.Revision(&c), 0).UTC().Format(http.TimeFormat))
	if r.Method != http.MethodHead {
		w.Write(buf.Bytes())
	}
}

// servePut creates or replaces a card, and answers its new ETag: 201
// when it made the card, 204 when it replaced one (go-webdav answered 201
// for both).
func (h *Handler) servePut(w http.ResponseWriter, r *http.Request) {
	if t, _, err := mime.ParseMediaType(r.Header.Get("Content-Type")); err != nil || t != vcard.MIMEType {
		writeError(w, httpError(http.StatusUnsupportedMediaType, "a card is sent as text/vcard"))
		return
	}
	card, err := vcf.NewDecoder(r.Body).Decode()
	var tooLarge *http.MaxBytesError
	switch {
	case errors.As(err, &tooLarge):
		writeError(w, httpError(http.StatusRequestEntityTooLarge, "the card is too large"))
		return
	case err != nil:
		writeError(w, httpError(http.StatusBadRequest, "the body is not a vCard"))
		return
	}
	b := &backend{h: h}
	ao, created, err := b.putCard(r.Context(), r.URL.Path, card, conditional(r.Header.Get("If-Match")), conditional(r.Header.Get("If-None-Match")))
	if err != nil {
		writeError(w, err)
		return
	}
	w.Header().Set("ETag", `"`+ao.ETag+`"`)
	w.Header().Set("Last-Modified", ao.ModTime.UTC().Format(http.TimeFormat))
	if created {
		w.Header().Set("Location", ao.Path)
		w.WriteHeader(http.StatusCreated)
		return
	}
	w.WriteHeader(http.StatusNoContent)
}
