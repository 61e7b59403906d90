package server

import (
	"bufio"
	"bytes"
	"mime"
	"net/http"
	"strings"

	"github.com/labstack/echo/v4"

	"kith/server/input"
	"kith/server/transfer"
	"kith/server/vcf"
	"kith/store"
)

// maxVCardImportBytes is the largest vCard file an import takes: 20 MiB, some
// 20,000 cards without photos, or a few hundred with.
const maxVCardImportBytes = 20 << 20

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
	if err := vcf.NewEncoder(&buf).Encode(vcf.Encode(&card, version)); err != nil {
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
	cards, err := s.store.Cards(ctx, acct, 0, transfer.VCardPage)
	if err != nil {
		return err
	}
	startVCard(c, "kith-contacts")
	w := bufio.NewWriterSize(c.Response(), 64<<10)
	enc := vcf.NewEncoder(w)
	for len(cards) > 0 {
		for i := range cards {
			if err := enc.Encode(vcf.Encode(&cards[i], version)); err != nil {
				return err
			}
		}
		if err := w.Flush(); err != nil {
			return err
		}
		if len(cards) < transfer.VCardPage {
			break
		}
		if cards, err = s.store.Cards(ctx, acct, cards[len(cards)-1].ID, transfer.VCardPage); err != nil {
			return err
		}
	}
	return w.Flush()
}

// vcardImportJSON is an import's summary.
type vcardImportJSON struct {
	Object  string               `json:"object"`
	Created int                  `json:"created"`
	Updated int                  `json:"updated"`
	Skipped []transfer.VCardSkip `json:"skipped"`
}

// handleVCardImport creates or updates a person for each card of a vCard
// file, sent as the body (text/vcard) or as the file field of a
// multipart form. A card that cannot be a person is skipped and named in
// the answer; the others go in all the same, in one transaction, a page at
// a time as they are read, so that only the file and one page of cards are
// in memory.
func (s *Server) handleVCardImport(c echo.Context) error {
	body, err := transfer.VCardFile(c)
	if err != nil {
		return err
	}
	ctx, acct := c.Request().Context(), input.Account(c)
	out := vcardImportJSON{Object: "vcard_import"}
	out.Created, out.Updated, err = s.store.ImportCards(ctx, acct,
		func(put func([]store.CardInput) error, link func([]store.CardLinks) error) error {
			var err error
			out.Skipped, err = transfer.DecodeVCards(body, s.store.Now(), put, link)
			return err
		})
	if err != nil {
		return err
	}
	return c.JSON(http.StatusOK, dataBody[vcardImportJSON]{out})
}
