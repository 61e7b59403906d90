package server

import (
	"bufio"
	"bytes"
	"errors"
	"io"
	"mime"
	"net/http"
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

// maxVCardImportBytes is the largest vCard file an import takes: 20 MiB, some
// 20,000 cards without photos, or a few hundred with.
const maxVCardImportBytes = 20 << 20

// vcardPage is how many cards an export reads at a time, and an import
// writes in one transaction.
const vcardPage = 200

// vcardVersion reads ?version=, 4.0 unless 3.0 is asked for.
func vcardVersion(c echo.Context) (string, error) {
	p, err := input.ReadParams(c)
	if err != nil {
		return "", err
	}
	v := p.OneOf("version", []string{vcf.Version4, vcf.Version3, "4", "3"}, vcf.Version4)
	if err := p.Err(); err != nil {
		return "", err
	}
	if len(v) == 1 {
		v += ".0"
	}
	return v, nil
}

// startVCard starts a text/vcard answer that a browser saves as name.vcf.
func startVCard(c echo.Context, name string) {
	h := c.Response().Header()
	h.Set(echo.HeaderContentType, "text/vcard; charset=utf-8")
	h.Set(echo.HeaderContentDisposition, mime.FormatMediaType("attachment", map[string]string{"filename": name + ".vcf"}))
	c.Response().WriteHeader(http.StatusOK)
}

// handlePersonVCard answers one person's card.
func (s *Server) handlePersonVCard(c echo.Context) error {
	personID, err := input.PathID(c, "person", store.ErrPersonNotFound)
	if err != nil {
		return err
	}
	version, err := vcardVersion(c)
	if err != nil {
		if _, missing := s.store.Person(c.Request().Context(), input.Account(c), personID); missing != nil {
			return missing
		}
		return err
	}
	card, err := s.store.Card(c.Request().Context(), input.Account(c), personID)
	if err != nil {
		return err
	}
	var buf bytes.Buffer
	if err := vcard.NewEncoder(&buf).Encode(vcf.Encode(&card, version)); err != nil {
		return err
	}
	startVCard(c, fileName(store.FullName(card.FirstName, card.LastName)))
	_, err = c.Response().Write(buf.Bytes())
	return err
}

// fileName is name without the characters a file name cannot hold.
func fileName(name string) string {
	name = strings.Map(func(r rune) rune {
		if strings.ContainsRune(`/\:*?"<>|`, r) || r < 0x20 {
			return '_'
		}
		return r
	}, name)
	if strings.Trim(name, "._ ") == "" {
		return "contact"
	}
	return name
}

// handleVCardExport answers every person of the account in one file, read
// and written a page at a time, so that a large account never sits in
// memory. A database error after the first page can only cut the file
// short: the status is sent by then.
func (s *Server) handleVCardExport(c echo.Context) error {
	ctx, acct := c.Request().Context(), input.Account(c)
	version, err := vcardVersion(c)
	if err != nil {
		return err
	}
	cards, err := s.store.Cards(ctx, acct, 0, vcardPage)
	if err != nil {
		return err
	}
	startVCard(c, "kith-contacts")
	w := bufio.NewWriterSize(c.Response(), 64<<10)
	enc := vcard.NewEncoder(w)
	for len(cards) > 0 {
		for i := range cards {
			if err := enc.Encode(vcf.Encode(&cards[i], version)); err != nil {
				return err
			}
		}
		if err := w.Flush(); err != nil {
			return err
		}
		if len(cards) < vcardPage {
			break
		}
		if cards, err = s.store.Cards(ctx, acct, cards[len(cards)-1].ID, vcardPage); err != nil {
			return err
		}
	}
	return w.Flush()
}

// vcardImportJSON is an import's summary.
type vcardImportJSON struct {
	Object  string          `json:"object"`
	Created int             `json:"created"`
	Updated int             `json:"updated"`
	Skipped []vcardSkipJSON `json:"skipped"`
}

// vcardSkipJSON is a card left out, with why: its place in the file
// (from 1), its name as the card gives it, and the reason.
type vcardSkipJSON struct {
	Card   int    `json:"card"`
	Name   string `json:"name"`
	Reason string `json:"reason"`
}

// handleVCardImport creates or updates a person for each card of a vCard
// file, sent as the body (text/vcard) or as the file field of a
// multipart form. A card that cannot be a person is skipped and named in
// the answer; the others go in all the same, a page at a time as they are
// read, so that only the file and one page of cards are in memory.
func (s *Server) handleVCardImport(c echo.Context) error {
	body, err := vcardBody(c)
	if err != nil {
		return err
	}
	out := vcardImportJSON{Object: "vcard_import"}
	out.Skipped, err = decodeVCards(body, s.store.Now(), func(batch []store.CardInput) error {
		created, err := s.store.PutCards(c.Request().Context(), input.Account(c), batch)
		out.Created += created
		out.Updated += len(batch) - created
		return err
	})
	if err != nil {
		return err
	}
	return c.JSON(http.StatusOK, dataBody[vcardImportJSON]{out})
}

// vcardBody reads the file: the body, or a multipart form's file field.
func vcardBody(c echo.Context) (io.Reader, error) {
	r := c.Request()
	mt, _, _ := mime.ParseMediaType(r.Header.Get(echo.HeaderContentType))
	if mt != echo.MIMEMultipartForm {
		raw, err := io.ReadAll(r.Body)
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

// decodeVCards reads every card of the file and hands them to put a page
// (vcardPage) at a time. A file with no card at all is a 422, before put
// is called; a card that cannot be a person is skipped, with its reason.
func decodeVCards(r io.Reader, now time.Time, put func([]store.CardInput) error) ([]vcardSkipJSON, error) {
	dec := vcard.NewDecoder(r)
	cards, skipped := make([]store.CardInput, 0, vcardPage), []vcardSkipJSON{}
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
				skipped = append(skipped, vcardSkipJSON{Card: seen + 1, Reason: "lines outside BEGIN:VCARD … END:VCARD"})
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
			skipped = append(skipped, vcardSkipJSON{Card: seen, Name: name, Reason: strings.TrimPrefix(err.Error(), "vcard: ")})
			continue
		}
		in, err := vcf.Decode(card, now)
		if err != nil {
			skipped = append(skipped, vcardSkipJSON{Card: seen, Name: name, Reason: err.Error()})
			continue
		}
		if cards = append(cards, in); len(cards) == vcardPage {
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
