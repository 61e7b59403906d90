package vcf

import (
	"bytes"
	"io"

	"github.com/emersion/go-vcard"
)

// Encoder writes cards as go-vcard's encoder does, but for one comma:
// go-vcard escapes every comma of a value, as RFC 6350 asks of text, and
// so wrote a 4.0 PHOTO's data: URI as data:image/jpeg;base64\,… , which is
// no URI (RFC 6350 escapes no URI). Kith's own PHOTO goes out as it is;
// base64 holds no other character that go-vcard escapes.
type Encoder struct {
	w   io.Writer
	buf bytes.Buffer
}

// NewEncoder returns an Encoder that writes to w.
func NewEncoder(w io.Writer) *Encoder { return &Encoder{w: w} }

// escapedPhoto is the start of Kith's 4.0 PHOTO as go-vcard writes it.
var escapedPhoto = []byte("\r\n" + vcard.FieldPhoto + ":data:image/jpeg;base64\\,")

// Encode writes one card.
func (e *Encoder) Encode(c vcard.Card) error {
	e.buf.Reset()
	if err := vcard.NewEncoder(&e.buf).Encode(c); err != nil {
		return err
	}
	b := e.buf.Bytes()
	if i := bytes.Index(b, escapedPhoto); i >= 0 {
		comma := i + len(escapedPhoto) - 2 // the backslash before it
		if _, err := e.w.Write(b[:comma]); err != nil {
			return err
		}
		b = b[comma+1:]
	}
	_, err := e.w.Write(b)
	return err
}
