package dav

import (
	"bufio"
	"bytes"
	"context"
	"encoding/xml"
	"fmt"
	"io"
	"net/http"
	"path"
	"slices"
	"strconv"
	"strings"
	"time"

	"kith/server/vcf"
	"kith/store"
)

// XML namespaces.
const (
	nsDAV     = "DAV:"
	nsCardDAV = "urn:ietf:params:xml:ns:carddav"
	nsCS      = "http://calendarserver.org/ns/"
)

// syncTokenPrefix starts every sync token: a URI, as RFC 6578 asks, with
// the account's change counter after it.
const syncTokenPrefix = "urn:kith:sync:"

// maxRequestXML is the largest PROPFIND or REPORT body read.
const maxRequestXML = 64 << 10

// response is one resource's part of a 207 answer.
type response struct {
	XMLName  xml.Name   `xml:"DAV: response"`
	Href     string     `xml:"DAV: href"`
	Propstat []propstat `xml:"DAV: propstat,omitempty"`
	Status   string     `xml:"DAV: status,omitempty"`
}

type propstat struct {
	Prop   propList `xml:"DAV: prop"`
	Status string   `xml:"DAV: status"`
}

type propList struct {
	Props []rawProp
}

// rawProp is a property with its content already XML.
type rawProp struct {
	XMLName xml.Name
	Inner   string `xml:",innerxml"`
}

func (l propList) MarshalXML(e *xml.Encoder, start xml.StartElement) error {
	if err := e.EncodeToken(start); err != nil {
		return err
	}
	for _, p := range l.Props {
		if err := e.Encode(p); err != nil {
			return err
		}
	}
	return e.EncodeToken(start.End())
}

func status(code int) string { return "HTTP/1.1 " + strconv.Itoa(code) + " " + http.StatusText(code) }

// escapeText is s as XML character data.
func escapeText(s string) string {
	var b bytes.Buffer
	xml.EscapeText(&b, []byte(s))
	return b.String()
}

func href(p string) string { return `<href xmlns="DAV:">` + escapeText(p) + `</href>` }

// propValues answers the properties asked for (names), from what the
// resource has (have): those it has in one propstat, the others 404.
func propValues(names []xml.Name, have map[xml.Name]string) []propstat {
	var found, missing []rawProp
	for _, n := range names {
		if v, ok := have[n]; ok {
			found = append(found, rawProp{XMLName: n, Inner: v})
		} else {
			missing = append(missing, rawProp{XMLName: n})
		}
	}
	var out []propstat
	if len(found) > 0 {
		out = append(out, propstat{Prop: propList{found}, Status: status(http.StatusOK)})
	}
	if len(missing) > 0 {
		out = append(out, propstat{Prop: propList{missing}, Status: status(http.StatusNotFound)})
	}
	return out
}

// allNames are the properties of have, sorted, for allprop.
func allNames(have map[xml.Name]string) []xml.Name {
	var names []xml.Name
	for n := range have {
		names = append(names, n)
	}
	for i := 1; i < len(names); i++ {
		for j := i; j > 0 && names[j].Space+names[j].Local < names[j-1].Space+names[j-1].Local; j-- {
			names[j], names[j-1] = names[j-1], names[j]
		}
	}
	return names
}

// multistatus writes a 207 answer one response at a time, so that an
// answer of many cards is never held in memory whole: only the page of
// cards being sent is, and a buffer of what leaves next. Nothing is
// written before the first response, so that a fault before it is still
// answered with its own status.
type multistatus struct {
	w       http.ResponseWriter
	out     *bufio.Writer
	b       []byte // the response being written
	started bool
	// err is the first write that failed (the client went away, or the
	// server's write timeout passed): what is left is not worked out.
	err error
}

func newMultistatus(w http.ResponseWriter) *multistatus {
	return &multistatus{w: w, out: bufio.NewWriterSize(w, 32<<10)}
}

func (ms *multistatus) start() {
	if ms.started {
		return
	}
	ms.started = true
	ms.w.Header().Set("Content-Type", `application/xml; charset="utf-8"`)
	ms.w.WriteHeader(http.StatusMultiStatus)
	_, ms.err = ms.out.WriteString(xml.Header + `<multistatus xmlns="DAV:">`)
}

// add writes one response, and tells whether to go on.
func (ms *multistatus) add(r response) bool {
	ms.start()
	if ms.err == nil {
		ms.b = appendResponse(ms.b[:0], &r)
		_, ms.err = ms.out.Write(ms.b)
	}
	return ms.err == nil
}

// end closes the answer, with the sync token when there is one.
func (ms *multistatus) end(syncToken string) {
	ms.start()
	if ms.err != nil {
		return
	}
	tail := `</multistatus>`
	if syncToken != "" {
		tail = `<sync-token>` + escapeText(syncToken) + `</sync-token>` + tail
	}
	if _, ms.err = ms.out.WriteString(tail); ms.err == nil {
		ms.err = ms.out.Flush()
	}
}

// fail answers err, a store's, with its status while the answer has not
// begun; after, it can only cut the connection (as the export does), so
// that the client sees a failed answer rather than one that stops short.
func (h *Handler) failStream(ctx context.Context, ms *multistatus, err error) {
	if !ms.started {
		writeError(ms.w, h.fail(ctx, err))
		return
	}
	h.logError(ctx, fmt.Errorf("dav: the answer stopped after it began: %w", err))
	panic(http.ErrAbortHandler)
}

// serveMultistatus answers the responses, a few.
func serveMultistatus(w http.ResponseWriter, responses ...response) {
	ms := newMultistatus(w)
	for _, r := range responses {
		ms.add(r)
	}
	ms.end("")
}

// propRequest is a PROPFIND's or a REPORT's choice of properties.
type propRequest struct {
	AllProp  *struct{} `xml:"DAV: allprop"`
	PropName *struct{} `xml:"DAV: propname"`
	Prop     *struct {
		Names []struct {
			XMLName xml.Name
		} `xml:",any"`
	} `xml:"DAV: prop"`
}

// names is the properties asked for, or those of have for allprop (and
// for no body, which is allprop).
func (p *propRequest) names(have map[xml.Name]string) []xml.Name {
	if p == nil || p.Prop == nil {
		return allNames(have)
	}
	var out []xml.Name
	for _, n := range p.Prop.Names {
		if !slices.Contains(out, n.XMLName) { // at most MaxPropNames
			out = append(out, n.XMLName)
		}
	}
	return out
}

// readXML reads a request body of at most maxRequestXML into v; an empty
// body leaves v as it is.
func readXML(r *http.Request, v any) error {
	raw, err := io.ReadAll(io.LimitReader(r.Body, maxRequestXML+1))
	if err != nil {
		return httpError(http.StatusBadRequest, "the request body could not be read")
	}
	if len(raw) > maxRequestXML {
		return httpError(http.StatusRequestEntityTooLarge, "the request body is too large")
	}
	if len(bytes.TrimSpace(raw)) == 0 {
		return nil
	}
	if err := xml.Unmarshal(raw, v); err != nil {
		return httpError(http.StatusBadRequest, "the request body is not the XML expected")
	}
	return nil
}

// serveRoot answers the site root, /.well-known/carddav and /dav/ where
// discovery begins: OPTIONS says CardDAV is here, and PROPFIND names the
// user's principal. It answers in place rather than redirecting, since
// iOS drops the credentials it was asked for when it follows a redirect
// of a PROPFIND; a GET of /.well-known/carddav is redirected by the
// server, before any password is asked.
func (h *Handler) serveRoot(w http.ResponseWriter, r *http.Request, u User) {
	switch r.Method {
	case http.MethodOptions:
		davHeaders(w)
		w.WriteHeader(http.StatusNoContent)
	case "PROPFIND":
		var req struct {
			XMLName xml.Name `xml:"DAV: propfind"`
			propRequest
		}
		if err := readXML(r, &req); err != nil {
			writeError(w, err)
			return
		}
		have := map[xml.Name]string{
			{Space: nsDAV, Local: "current-user-principal"}:   href(principalPath(u)),
			{Space: nsDAV, Local: "principal-URL"}:            href(principalPath(u)),
			{Space: nsDAV, Local: "resourcetype"}:             `<collection xmlns="DAV:"/>`,
			{Space: nsCardDAV, Local: "addressbook-home-set"}: href(homeSetPath(u)),
		}
		serveMultistatus(w, response{Href: r.URL.Path, Propstat: propValues(req.names(have), have)})
	default:
		http.Error(w, "Method not allowed.", http.StatusMethodNotAllowed)
	}
}

// davHeaders says what the server does, as go-webdav's OPTIONS does.
func davHeaders(w http.ResponseWriter) {
	w.Header().Set("DAV", "1, 3, addressbook, sync-collection")
	w.Header().Set("Allow", "OPTIONS, GET, HEAD, PUT, DELETE, PROPFIND, REPORT")
}

// bookProps are the address book's properties: what go-webdav gives, and
// the sync token and ctag that tell a client whether to look again.
func bookProps(u User, seq int64) map[xml.Name]string {
	token := escapeText(syncTokenPrefix + strconv.FormatInt(seq, 10))
	return map[xml.Name]string{
		{Space: nsDAV, Local: "resourcetype"}:           `<collection xmlns="DAV:"/><addressbook xmlns="urn:ietf:params:xml:ns:carddav"/>`,
		{Space: nsDAV, Local: "displayname"}:            "Kith",
		{Space: nsDAV, Local: "current-user-principal"}: href(principalPath(u)),
		{Space: nsDAV, Local: "owner"}:                  href(principalPath(u)),
		{Space: nsDAV, Local: "sync-token"}:             token,
		{Space: nsCS, Local: "getctag"}:                 token,
		{Space: nsDAV, Local: "supported-report-set"}: `<supported-report xmlns="DAV:"><report><sync-collection/></report></supported-report>` +
			`<supported-report xmlns="DAV:"><report><addressbook-multiget xmlns="urn:ietf:params:xml:ns:carddav"/></report></supported-report>` +
			`<supported-report xmlns="DAV:"><report><addressbook-query xmlns="urn:ietf:params:xml:ns:carddav"/></report></supported-report>`,
		{Space: nsDAV, Local: "current-user-privilege-set"}: `<privilege xmlns="DAV:"><read/></privilege><privilege xmlns="DAV:"><write/></privilege>` +
			`<privilege xmlns="DAV:"><write-content/></privilege><privilege xmlns="DAV:"><bind/></privilege><privilege xmlns="DAV:"><unbind/></privilege>`,
		{Space: nsCardDAV, Local: "supported-address-data"}:  `<address-data-type xmlns="urn:ietf:params:xml:ns:carddav" content-type="text/vcard" version="3.0"/>`,
		{Space: nsCardDAV, Local: "addressbook-description"}: "Your people in Kith",
		{Space: nsCardDAV, Local: "max-resource-size"}:       strconv.Itoa(MaxCardBytes),
	}
}

// refPropNames are the properties a card's reference gives, its content
// aside.
var refPropNames = []xml.Name{{Space: nsDAV, Local: "getetag"}, {Space: nsDAV, Local: "getcontenttype"},
	{Space: nsDAV, Local: "resourcetype"}, {Space: nsDAV, Local: "getlastmodified"}}

// refProp is the value of one of refPropNames for the card of ref, as XML.
func refProp(n xml.Name, ref *store.CardRef) string {
	switch n.Local {
	case "getetag":
		return `&#34;` + etag(ref.Seq) + `&#34;` // the quotes escapeText gives
	case "getcontenttype":
		return "text/vcard; charset=utf-8"
	case "getlastmodified":
		return time.Unix(ref.UpdatedAt, 0).UTC().Format(http.TimeFormat)
	}
	return ""
}

// cardProps are a card's properties; address-data only when the card's
// content was read.
func cardProps(ref store.CardRef, card *store.Card) map[xml.Name]string {
	have := make(map[xml.Name]string, len(refPropNames)+1)
	for _, n := range refPropNames {
		have[n] = refProp(n, &ref)
	}
	if card != nil {
		var buf bytes.Buffer
		if err := vcf.NewEncoder(&buf).Encode(vcf.Encode(card, vcf.Version3)); err == nil {
			have[xml.Name{Space: nsCardDAV, Local: "address-data"}] = escapeText(buf.String())
		}
	}
	return have
}

// wantsData tells whether the properties asked for include the cards'
// content.
func wantsData(names []xml.Name) bool {
	for _, n := range names {
		if n.Space == nsCardDAV && n.Local == "address-data" {
			return true
		}
	}
	return false
}

// serveBookPropfind answers a PROPFIND of the address book, and with
// Depth: 1 of its cards, from their references alone unless their content
// is asked for.
func (h *Handler) serveBookPropfind(w http.ResponseWriter, r *http.Request, u User) {
	ctx := r.Context()
	var req struct {
		XMLName xml.Name `xml:"DAV: propfind"`
		propRequest
	}
	if err := readXML(r, &req); err != nil {
		writeError(w, err)
		return
	}
	seq, err := h.store.CardSeq(ctx, u.AccountID)
	if err != nil {
		writeError(w, h.fail(ctx, err))
		return
	}
	have := bookProps(u, seq)
	book := response{Href: bookPath(u), Propstat: propValues(req.names(have), have)}
	ms := newMultistatus(w)
	ms.add(book)
	if r.Header.Get("Depth") != "0" {
		if err := h.streamCards(ctx, ms, u, 0, nil, &req.propRequest); err != nil {
			h.failStream(ctx, ms, err)
			return
		}
	}
	ms.end("")
}

// cardNames is the properties asked for of each card; allprop's include
// the card's content.
func (p *propRequest) cardNames() []xml.Name {
	names := p.names(cardProps(store.CardRef{}, nil))
	if p.Prop == nil {
		names = append(names, xml.Name{Space: nsCardDAV, Local: "address-data"})
	}
	return names
}

// refPage is how many cards' references a listing reads at a time.
const refPage = 1000

// streamCards answers the properties asked for of each card changed after
// since, whose references are changed, or of every card for since 0: from
// their references alone (every card's read refPage at a time, one query
// a page) unless their content is asked for, then from the cards, read
// cardPage at a time, a few queries a page, never a few a card.
func (h *Handler) streamCards(ctx context.Context, ms *multistatus, u User, since int64, changed []store.CardRef, req *propRequest) error {
	names := req.cardNames()
	if !wantsData(names) {
		rw := newRefWriter(ms, u, names)
		if since > 0 {
			rw.write(changed)
			return nil
		}
		return h.streamRefs(ctx, rw)
	}
	return h.eachCard(ctx, u, since, func(c *store.Card) bool {
		return ms.add(response{Href: cardPath(u, c.UID, c.Name), Propstat: propValues(names, cardProps(refOf(c), c))})
	})
}

// refWriter answers the properties asked for of cards from their
// references. Every card has the same properties, so which are found and
// which not is worked out once; only the values change.
type refWriter struct {
	ms    *multistatus
	u     User
	resp  response
	found []rawProp // those of resp's first propstat, when it is the 200 one
}

func newRefWriter(ms *multistatus, u User, names []xml.Name) *refWriter {
	rw := &refWriter{ms: ms, u: u, resp: response{Propstat: propValues(names, cardProps(store.CardRef{}, nil))}}
	if ps := rw.resp.Propstat; len(ps) > 0 && ps[0].Status == status(http.StatusOK) {
		rw.found = ps[0].Prop.Props
	}
	return rw
}

// write answers refs, and tells whether to go on.
func (rw *refWriter) write(refs []store.CardRef) bool {
	for i := range refs {
		ref := &refs[i]
		rw.resp.Href = cardPath(rw.u, ref.UID, ref.Name)
		for j := range rw.found {
			rw.found[j].Inner = refProp(rw.found[j].XMLName, ref)
		}
		if !rw.ms.add(rw.resp) {
			return false
		}
	}
	return true
}

// streamRefs answers every card of the account from its reference, read
// refPage at a time.
func (h *Handler) streamRefs(ctx context.Context, rw *refWriter) error {
	var after int64
	for {
		refs, err := h.store.CardRefs(ctx, rw.u.AccountID, after, refPage)
		if err != nil {
			return err
		}
		if !rw.write(refs) || len(refs) < refPage {
			return nil
		}
		after = refs[len(refs)-1].ID
	}
}

// eachCard calls fn with each card of the account changed after since
// (every card for 0), read cardPage cards at a time, until fn says stop.
func (h *Handler) eachCard(ctx context.Context, u User, since int64, fn func(*store.Card) bool) error {
	var after int64
	for {
		cards, err := h.store.CardsChanged(ctx, u.AccountID, since, after, cardPage)
		if err != nil {
			return err
		}
		for i := range cards {
			if !fn(&cards[i]) {
				return nil
			}
		}
		if len(cards) < cardPage {
			return nil
		}
		after = cards[len(cards)-1].ID
	}
}

func refOf(c *store.Card) store.CardRef {
	return store.CardRef{UID: c.UID, Name: c.Name, Seq: c.Seq, UpdatedAt: c.UpdatedAt}
}

// serveSyncCollection answers a sync-collection REPORT (RFC 6578): the
// cards changed and deleted since the token, or every card for no token,
// and the new token.
func (h *Handler) serveSyncCollection(w http.ResponseWriter, r *http.Request, u User, req *reportRequest) {
	ctx := r.Context()
	since, ok := parseSyncToken(req.SyncToken)
	if req.SyncLevel != "" && strings.TrimSpace(req.SyncLevel) != "1" {
		writeDAVError(w, http.StatusForbidden, "number-of-matches-within-limits")
		return
	}
	var seq int64
	var changed, deleted []store.CardRef
	var err error
	if since == 0 {
		// The first sync: every card, listed as they are read. The counter
		// is read first, so that a change made meanwhile is sent again
		// next time, never missed.
		seq, err = h.store.CardSeq(ctx, u.AccountID)
	} else {
		seq, changed, deleted, err = h.store.CardChanges(ctx, u.AccountID, since)
	}
	if err == nil && (!ok || since > seq) {
		writeDAVError(w, http.StatusForbidden, "valid-sync-token")
		return
	}
	if err != nil {
		writeError(w, h.fail(ctx, err))
		return
	}
	ms := newMultistatus(w)
	if err := h.streamCards(ctx, ms, u, since, changed, &req.propRequest); err != nil {
		h.failStream(ctx, ms, err)
		return
	}
	for _, d := range deleted {
		if !ms.add(response{Href: cardPath(u, d.UID, d.Name), Status: status(http.StatusNotFound)}) {
			break
		}
	}
	ms.end(syncTokenPrefix + strconv.FormatInt(seq, 10))
}

// parseSyncToken reads a token this server gave; "" is the start.
func parseSyncToken(token string) (int64, bool) {
	token = strings.TrimSpace(token)
	if token == "" {
		return 0, true
	}
	n, err := strconv.ParseInt(strings.TrimPrefix(token, syncTokenPrefix), 10, 64)
	if !strings.HasPrefix(token, syncTokenPrefix) || err != nil || n < 0 {
		return 0, false
	}
	return n, true
}

// writeDAVError answers a failed precondition as DAV's error element.
func writeDAVError(w http.ResponseWriter, code int, condition string) {
	w.Header().Set("Content-Type", `application/xml; charset="utf-8"`)
	w.WriteHeader(code)
	io.WriteString(w, xml.Header+`<error xmlns="DAV:"><`+condition+`/></error>`)
}

// serveDelete deletes a card, honouring If-Match, which go-webdav does
// not pass on for DELETE.
func (h *Handler) serveDelete(w http.ResponseWriter, r *http.Request, u User) {
	ctx := r.Context()
	name := path.Base(r.URL.Path)
	c, err := h.store.CardByName(ctx, u.AccountID, name, uidOfName(name))
	if err == nil {
		ifMatch := conditional(r.Header.Get("If-Match"))
		err = h.store.DeleteCard(ctx, u.AccountID, c.UID, func(cur *store.Card) error {
			return checkConditions(cur, ifMatch, conditional(""))
		})
	}
	if err != nil {
		writeError(w, h.fail(ctx, err))
		return
	}
	w.WriteHeader(http.StatusNoContent)
}

// conditional is an If-Match or If-None-Match header.
type conditional string

func (c conditional) IsSet() bool { return c != "" }

// MatchETag tells whether the header names etag: *, or one of its
// quoted tags (weak ones too, as a DELETE may compare weakly).
func (c conditional) MatchETag(etag string) (bool, error) {
	if etag == "" {
		return false, nil
	}
	if strings.TrimSpace(string(c)) == "*" {
		return true, nil
	}
	for _, t := range strings.Split(string(c), ",") {
		t = strings.TrimPrefix(strings.TrimSpace(t), "W/")
		if strings.Trim(t, `"`) == etag {
			return true, nil
		}
	}
	return false, nil
}
