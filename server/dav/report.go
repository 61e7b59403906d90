package dav

import (
	"context"
	"encoding/xml"
	"net/http"
	"net/url"
	"path"
	"strings"

	"github.com/emersion/go-webdav/carddav"

	"kith/store"
)

// reportRequest is a REPORT of the address book: sync-collection
// (RFC 6578), addressbook-multiget or addressbook-query (RFC 6352),
// whichever its root element names. Kith answers them itself rather than
// through go-webdav, which built the answer whole in memory and read
// every card for a query.
type reportRequest struct {
	XMLName   xml.Name
	SyncToken string `xml:"DAV: sync-token"`
	SyncLevel string `xml:"DAV: sync-level"`
	propRequest
	Hrefs  []string     `xml:"DAV: href"`
	Filter *queryFilter `xml:"urn:ietf:params:xml:ns:carddav filter"`
	Limit  *struct {
		NResults int `xml:"urn:ietf:params:xml:ns:carddav nresults"`
	} `xml:"urn:ietf:params:xml:ns:carddav limit"`
}

type queryFilter struct {
	Test  string `xml:"test,attr"`
	Props []struct {
		Name         string    `xml:"name,attr"`
		Test         string    `xml:"test,attr"`
		IsNotDefined *struct{} `xml:"urn:ietf:params:xml:ns:carddav is-not-defined"`
		TextMatches  []struct {
			Text      string `xml:",chardata"`
			Negate    string `xml:"negate-condition,attr"`
			MatchType string `xml:"match-type,attr"`
		} `xml:"urn:ietf:params:xml:ns:carddav text-match"`
	} `xml:"urn:ietf:params:xml:ns:carddav prop-filter"`
}

// serveReport answers a REPORT of the address book.
func (h *Handler) serveReport(w http.ResponseWriter, r *http.Request, u User) {
	var req reportRequest
	if err := readXML(r, &req); err != nil {
		writeError(w, err)
		return
	}
	switch req.XMLName {
	case xml.Name{Space: nsDAV, Local: "sync-collection"}:
		h.serveSyncCollection(w, r, u, &req)
	case xml.Name{Space: nsCardDAV, Local: "addressbook-multiget"}:
		h.serveMultiget(w, r, u, &req)
	case xml.Name{Space: nsCardDAV, Local: "addressbook-query"}:
		h.serveQuery(w, r, u, &req)
	default:
		writeDAVError(w, http.StatusForbidden, "supported-report")
	}
}

// serveMultiget answers the cards named, each once, in the order named:
// the cards are read store.CardNameBatch at a time, a few queries a batch.
func (h *Handler) serveMultiget(w http.ResponseWriter, r *http.Request, u User, req *reportRequest) {
	ctx := r.Context()
	names := req.cardNames()
	ms := newMultistatus(w)
	seen := map[string]bool{}
	var paths []string
	for _, raw := range req.Hrefs {
		ref, err := url.Parse(strings.TrimSpace(raw))
		if err != nil || seen[ref.Path] {
			continue
		}
		seen[ref.Path] = true
		paths = append(paths, ref.Path)
	}
	for len(paths) > 0 {
		batch := paths[:min(len(paths), store.CardNameBatch)]
		paths = paths[len(batch):]
		cards, err := h.cardsAt(ctx, u, batch)
		if err != nil {
			h.failStream(ctx, ms, err)
			return
		}
		for i, p := range batch {
			resp := response{Href: p, Status: status(http.StatusNotFound)}
			if c := cards[i]; c != nil {
				resp = response{Href: cardPath(u, c.UID, c.Name), Propstat: propValues(names, cardProps(refOf(c), c))}
			}
			if !ms.add(resp) {
				return
			}
		}
	}
	ms.end("")
}

// cardsAt is the card at each of paths (nil where there is none, or the
// path is not in the user's address book), in one read.
func (h *Handler) cardsAt(ctx context.Context, u User, paths []string) ([]*store.Card, error) {
	var names, uids []string
	var at []int // the index in paths of each name
	for i, p := range paths {
		if path.Dir(p)+"/" == bookPath(u) {
			name := path.Base(p)
			names, uids, at = append(names, name), append(uids, uidOfName(name)), append(at, i)
		}
	}
	out := make([]*store.Card, len(paths))
	if len(names) == 0 {
		return out, nil
	}
	cards, err := h.store.CardsByName(ctx, u.AccountID, names, uids)
	if err != nil {
		return nil, err
	}
	for j, c := range cards {
		out[at[j]] = c
	}
	return out, nil
}

// serveQuery answers the cards that match the filter (every card for
// none, RFC 6352 10.5), read a page at a time, up to the limit asked.
func (h *Handler) serveQuery(w http.ResponseWriter, r *http.Request, u User, req *reportRequest) {
	ctx := r.Context()
	q, err := req.query()
	if err != nil {
		writeError(w, err)
		return
	}
	limit := -1
	if req.Limit != nil {
		limit = max(req.Limit.NResults, 0)
	}
	names := req.cardNames()
	ms := newMultistatus(w)
	if limit != 0 {
		err = h.eachCard(ctx, u, 0, func(c *store.Card) bool {
			if len(q.PropFilters) > 0 {
				ao, err := object(u, c)
				if ok, _ := carddav.Match(q, &ao); err != nil || !ok {
					return true
				}
			}
			limit--
			return ms.add(response{Href: cardPath(u, c.UID, c.Name), Propstat: propValues(names, cardProps(refOf(c), c))}) && limit != 0
		})
	}
	if err != nil {
		h.failStream(ctx, ms, err)
		return
	}
	ms.end("")
}

// query is the filter as go-webdav's matcher takes it; a test or a
// match type it does not know is refused here, before any card is read.
func (req *reportRequest) query() (*carddav.AddressBookQuery, error) {
	q := &carddav.AddressBookQuery{}
	if req.Filter == nil {
		return q, nil
	}
	bad := httpError(http.StatusBadRequest, "the filter is not one of RFC 6352")
	tests := map[string]carddav.FilterTest{"": carddav.FilterAnyOf, "anyof": carddav.FilterAnyOf, "allof": carddav.FilterAllOf}
	test, ok := tests[req.Filter.Test]
	if !ok {
		return nil, bad
	}
	q.FilterTest = test
	for _, pf := range req.Filter.Props {
		f := carddav.PropFilter{Name: pf.Name, IsNotDefined: pf.IsNotDefined != nil}
		if f.Test, ok = tests[pf.Test]; !ok || pf.Name == "" || f.IsNotDefined && len(pf.TextMatches) > 0 {
			return nil, bad
		}
		for _, tm := range pf.TextMatches {
			m := carddav.TextMatch{Text: tm.Text, MatchType: carddav.MatchType(tm.MatchType)}
			switch m.MatchType {
			case "", carddav.MatchEquals, carddav.MatchContains, carddav.MatchStartsWith, carddav.MatchEndsWith:
			default:
				return nil, bad
			}
			switch tm.Negate {
			case "", "no":
			case "yes":
				m.NegateCondition = true
			default:
				return nil, bad
			}
			f.TextMatches = append(f.TextMatches, m)
		}
		q.PropFilters = append(q.PropFilters, f)
	}
	return q, nil
}
