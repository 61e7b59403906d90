package transfer

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"mime"
	"strings"
	"time"
	"unicode/utf16"
	"unicode/utf8"

	"github.com/emersion/go-vcard"
	"github.com/labstack/echo/v4"

	"kith/server/input"
	"kith/server/vcf"
	"kith/store"
)

// VCardPage is how many cards an import writes in one transaction, and
// the vCard export reads at a time.
const VCardPage = 200

// VCardSkip is a card left out, with why: its place in the file
// (from 1), its name as the card gives it, and the reason.
type VCardSkip struct {
	Card   int    `json:"card"`
	Name   string `json:"name"`
	Reason string `json:"reason"`
}

// utf8Text is the file as UTF-8 without a byte order mark, whatever it
// came in: UTF-16 with a mark (as Outlook saves), UTF-8, or else the
// Windows-1252 of older address books, read as Latin-1. NUL bytes, which
// no text holds and PostgreSQL refuses, go.
func utf8Text(raw []byte) []byte {
	switch {
	case len(raw) >= 2 && (raw[0] == 0xFF && raw[1] == 0xFE || raw[0] == 0xFE && raw[1] == 0xFF):
		units := make([]uint16, (len(raw)-2)/2)
		for i := range units {
			lo, hi := raw[2+2*i], raw[3+2*i]
			if raw[0] == 0xFE {
				lo, hi = hi, lo
			}
			units[i] = uint16(lo) | uint16(hi)<<8
		}
		raw = []byte(string(utf16.Decode(units)))
	case bytes.HasPrefix(raw, []byte("\xEF\xBB\xBF")):
		raw = raw[3:]
	}
	if !utf8.Valid(raw) {
		runes := make([]rune, len(raw))
		for i, b := range raw {
			runes[i] = rune(b)
		}
		raw = []byte(string(runes))
	}
	if bytes.IndexByte(raw, 0) < 0 {
		return raw // no copy of a file of many megabytes for nothing
	}
	return bytes.ReplaceAll(raw, []byte{0}, nil)
}

// DecodeVCards reads every card of the file and hands them to put a page
// (VCardPage) at a time. A file with no card at all is a validation error
// of the file field (a 422), before put is called; a card that cannot be a person is skipped, with its reason.
// Once every card is put, link gets the relationships that cards ask for
// (RELATED), which may name cards of any page, before or after their own.
func DecodeVCards(r io.Reader, now time.Time, put func([]store.CardInput) error, link func([]store.CardLinks) error) ([]VCardSkip, error) {
	dec := vcf.NewDecoder(r)
	cards, skipped := make([]store.CardInput, 0, VCardPage), []VCardSkip{}
	var links []store.CardLinks
	seen := 0
	junk := false // skipping lines that are no card, which count as one
	for {
		card, err := dec.Decode()
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil && card != nil && len(card) == 0 {
			// Lines outside any card: a file that is no vCard, or junk
			// between cards.
			if !junk && seen > 0 {
				skipped = append(skipped, VCardSkip{Card: seen + 1, Reason: "lines outside BEGIN:VCARD … END:VCARD"})
			}
			junk = true
			if seen == 0 {
				return nil, notVCard()
			}
			continue
		}
		junk = false
		seen++
		name := cardName(card)
		if err != nil {
			skipped = append(skipped, VCardSkip{Card: seen, Name: name, Reason: strings.TrimPrefix(err.Error(), "vcard: ")})
			continue
		}
		in, err := vcf.Decode(card, now)
		if err != nil {
			skipped = append(skipped, VCardSkip{Card: seen, Name: name, Reason: err.Error()})
			continue
		}
		if len(in.Details) > store.MaxContactDetails {
			skipped = append(skipped, VCardSkip{Card: seen, Name: name,
				Reason: fmt.Sprintf("more than %d contact details (%d)", store.MaxContactDetails, len(in.Details))})
			continue
		}
		if len(in.Related) > 0 {
			links = append(links, store.CardLinks{UID: in.UID, Related: in.Related})
		}
		if cards = append(cards, in); len(cards) == VCardPage {
			if err := put(cards); err != nil {
				return nil, err
			}
			cards = cards[:0]
		}
	}
	if seen == 0 {
		return nil, notVCard()
	}
	if len(cards) > 0 {
		if err := put(cards); err != nil {
			return nil, err
		}
	}
	if len(links) > 0 {
		if err := link(links); err != nil {
			return nil, err
		}
	}
	return skipped, nil
}

func notVCard() error {
	p := input.NewParams(map[string]any{})
	p.Fail("file", "The file must be a vCard file (BEGIN:VCARD … END:VCARD).")
	return p.Err()
}

// cardName is the name a card gives itself, for a skip.
func cardName(card vcard.Card) string {
	if fn := strings.TrimSpace(card.Value(vcard.FieldFormattedName)); fn != "" {
		return fn
	}
	if n := card.Name(); n != nil {
		return strings.TrimSpace(n.GivenName + " " + n.FamilyName)
	}
	return ""
}

// VCardFile reads an uploaded vCard file: the body, or a multipart form's file field.
func VCardFile(c echo.Context) (io.Reader, error) {
	r := c.Request()
	mt, _, _ := mime.ParseMediaType(r.Header.Get(echo.HeaderContentType))
	if mt != echo.MIMEMultipartForm {
		raw, err := input.ReadAll(r.Body, r.ContentLength)
		if err != nil {
			return nil, input.BodyError(err, input.ErrInvalidForm)
		}
		return bytes.NewReader(utf8Text(raw)), nil
	}
	if err := r.ParseMultipartForm(input.MaxBodyBytes); err != nil {
		return nil, input.BodyError(err, input.ErrInvalidForm)
	}
	files := r.MultipartForm.File["file"]
	if len(files) == 0 {
		p := input.NewParams(map[string]any{})
		p.Fail("file", "The file field is required.")
		return nil, p.Err()
	}
	f, err := files[0].Open()
	if err != nil {
		return nil, err
	}
	defer f.Close()
	raw, err := io.ReadAll(f)
	r.MultipartForm.RemoveAll()
	if err != nil {
		return nil, err
	}
	return bytes.NewReader(utf8Text(raw)), nil
}
