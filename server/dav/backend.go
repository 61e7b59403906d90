package dav

import (
	"bytes"
	"context"
	"errors"
	"net/http"
	"path"
	"time"

	"github.com/emersion/go-vcard"
	"github.com/emersion/go-webdav/carddav"

	"kith/server/vcf"
	"kith/store"
)

// backend is go-webdav's view of the address books.
type backend struct {
	h *Handler
}

// cardPage is how many cards a listing reads at a time.
const cardPage = 200

func (b *backend) user(ctx context.Context) User {
	u, _ := userOf(ctx) // ServeHTTP let no request without one in
	return u
}

func (b *backend) CurrentUserPrincipal(ctx context.Context) (string, error) {
	return principalPath(b.user(ctx)), nil
}

func (b *backend) AddressBookHomeSetPath(ctx context.Context) (string, error) {
	return homeSetPath(b.user(ctx)), nil
}

func (b *backend) book(u User) carddav.AddressBook {
	return carddav.AddressBook{
		Path: bookPath(u), Name: "Kith", Description: "Your people in Kith",
		MaxResourceSize:      MaxCardBytes,
		SupportedAddressData: []carddav.AddressDataType{{ContentType: vcard.MIMEType, Version: "3.0"}},
	}
}

func (b *backend) ListAddressBooks(ctx context.Context) ([]carddav.AddressBook, error) {
	return []carddav.AddressBook{b.book(b.user(ctx))}, nil
}

func (b *backend) GetAddressBook(ctx context.Context, p string) (*carddav.AddressBook, error) {
	u := b.user(ctx)
	if p != bookPath(u) {
		return nil, httpError(http.StatusNotFound, "address book not found")
	}
	ab := b.book(u)
	return &ab, nil
}

// Each account has one address book, which is its persons: none is made
// or removed by a client.
func (b *backend) CreateAddressBook(context.Context, *carddav.AddressBook) error {
	return httpError(http.StatusForbidden, "an account has one address book")
}

func (b *backend) DeleteAddressBook(context.Context, string) error {
	return httpError(http.StatusForbidden, "an account has one address book")
}

// object is a card as go-webdav serves it, in vCard 3.0, which every
// CardDAV client reads.
func object(u User, c *store.Card) (carddav.AddressObject, error) {
	card := vcf.Encode(c, vcf.Version3)
	var buf bytes.Buffer
	if err := vcf.NewEncoder(&buf).Encode(card); err != nil {
		return carddav.AddressObject{}, err
	}
	return carddav.AddressObject{
		Path: cardPath(u, c.UID, c.Name), ModTime: time.Unix(vcf.Revision(c), 0),
		ContentLength: int64(buf.Len()), ETag: etag(c.Seq), Card: card,
	}, nil
}

// cardAt is the card at p, a path in the user's address book.
func (b *backend) cardAt(ctx context.Context, p string) (store.Card, error) {
	u := b.user(ctx)
	if path.Dir(p)+"/" != bookPath(u) {
		return store.Card{}, httpError(http.StatusNotFound, "card not found")
	}
	name := path.Base(p)
	return b.h.store.CardByName(ctx, u.AccountID, name, uidOfName(name))
}

func (b *backend) GetAddressObject(ctx context.Context, p string, _ *carddav.AddressDataRequest) (*carddav.AddressObject, error) {
	c, err := b.cardAt(ctx, p)
	if err != nil {
		return nil, b.h.fail(ctx, err)
	}
	ao, err := object(b.user(ctx), &c)
	if err != nil {
		return nil, b.h.fail(ctx, err)
	}
	return &ao, nil
}

// allObjects is every card of the user's account, read a page at a time.
func (b *backend) allObjects(ctx context.Context) ([]carddav.AddressObject, error) {
	u := b.user(ctx)
	out := []carddav.AddressObject{}
	var after int64
	for {
		cards, err := b.h.store.Cards(ctx, u.AccountID, after, cardPage)
		if err != nil {
			return nil, b.h.fail(ctx, err)
		}
		for i := range cards {
			ao, err := object(u, &cards[i])
			if err != nil {
				return nil, b.h.fail(ctx, err)
			}
			out = append(out, ao)
		}
		if len(cards) < cardPage {
			return out, nil
		}
		after = cards[len(cards)-1].ID
	}
}

func (b *backend) ListAddressObjects(ctx context.Context, p string, _ *carddav.AddressDataRequest) ([]carddav.AddressObject, error) {
	if _, err := b.GetAddressBook(ctx, p); err != nil {
		return nil, err
	}
	return b.allObjects(ctx)
}

func (b *backend) QueryAddressObjects(ctx context.Context, p string, q *carddav.AddressBookQuery) ([]carddav.AddressObject, error) {
	if _, err := b.GetAddressBook(ctx, p); err != nil {
		return nil, err
	}
	all, err := b.allObjects(ctx)
	if err != nil {
		return nil, err
	}
	if len(q.PropFilters) == 0 {
		// An empty filter matches every card (RFC 6352, 10.5), which
		// go-webdav's Filter reads as "any of none".
		if q.Limit > 0 && q.Limit < len(all) {
			all = all[:q.Limit]
		}
		return all, nil
	}
	return carddav.Filter(q, all)
}

// PutAddressObject creates or replaces the card at p. The resource keeps
// its UID whatever the new card says; a new resource whose card has the
// UID of another is refused (no-uid-conflict). If-Match and If-None-Match
// are checked in the write's transaction, so that a stale phone cannot
// overwrite a newer edit.
func (b *backend) PutAddressObject(ctx context.Context, p string, card vcard.Card, opts *carddav.PutAddressObjectOptions) (*carddav.AddressObject, error) {
	ao, _, err := b.putCard(ctx, p, card, opts.IfMatch, opts.IfNoneMatch)
	return ao, err
}

// putCard is PutAddressObject, which also tells whether it made the card.
func (b *backend) putCard(ctx context.Context, p string, card vcard.Card, ifMatch, ifNoneMatch condition) (*carddav.AddressObject, bool, error) {
	u := b.user(ctx)
	if path.Dir(p)+"/" != bookPath(u) {
		return nil, false, httpError(http.StatusForbidden, "cards go in "+bookPath(u))
	}
	in, err := vcf.Decode(card, b.h.now())
	if err != nil {
		return nil, false, preconditionError("valid-address-data")
	}
	name := path.Base(p)
	old, err := b.cardAt(ctx, p)
	switch {
	case err == nil:
		in.UID = old.UID
	case isNotFound(err):
		if card.Value(vcard.FieldUID) == "" || in.UID == "" {
			if uid := uidOfName(name); uid != "" {
				in.UID = uid
			}
		}
		if other, err := b.h.store.CardByUID(ctx, u.AccountID, in.UID); err == nil && cardName(other.UID, other.Name) != name {
			return nil, false, preconditionError("no-uid-conflict")
		}
		if cardName(in.UID, nil) != name {
			in.Name = name
		}
	default:
		return nil, false, b.h.fail(ctx, err)
	}
	c, created, err := b.h.store.PutCard(ctx, u.AccountID, in, func(cur *store.Card) error {
		return checkConditions(cur, ifMatch, ifNoneMatch)
	})
	if err != nil {
		return nil, false, b.h.fail(ctx, err)
	}
	ao, err := object(u, &c)
	if err != nil {
		return nil, false, b.h.fail(ctx, err)
	}
	return &ao, created, nil
}

// condition is an If-Match or If-None-Match header.
type condition interface {
	IsSet() bool
	MatchETag(string) (bool, error)
}

// checkConditions answers 412 unless If-Match names the card's ETag (or
// is * and there is a card) and If-None-Match does not (or is * and
// there is none).
func checkConditions(cur *store.Card, ifMatch, ifNoneMatch condition) error {
	current := ""
	if cur != nil {
		current = etag(cur.Seq)
	}
	if ifMatch.IsSet() {
		if ok, err := ifMatch.MatchETag(current); err != nil || !ok {
			return httpError(http.StatusPreconditionFailed, "the card has changed since it was read")
		}
	}
	if ifNoneMatch.IsSet() {
		if ok, err := ifNoneMatch.MatchETag(current); err != nil || ok {
			return httpError(http.StatusPreconditionFailed, "the card exists already")
		}
	}
	return nil
}

func isNotFound(err error) bool {
	var nf *store.NotFoundError
	return errors.As(err, &nf)
}

func (b *backend) DeleteAddressObject(ctx context.Context, p string) error {
	c, err := b.cardAt(ctx, p)
	if err != nil {
		return b.h.fail(ctx, err)
	}
	if err := b.h.store.DeleteCard(ctx, b.user(ctx).AccountID, c.UID, nil); err != nil {
		return b.h.fail(ctx, err)
	}
	return nil
}
