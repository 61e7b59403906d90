package vcf

import (
	"bufio"
	"io"
)

// Unfold returns a reader of r's text with its folded lines joined again
// (RFC 6350 3.2: a line break followed by a space or a tab is no break, and
// both go). go-vcard unfolds too, but by adding each continuation to the
// line so far, so that a line folded n times costs n² bytes of copies: a
// photo of 100 KiB, whose base64 an address book folds at 75 octets,
// copied 120 MB, and a 1 MiB card about 7 GB. Unfolded before go-vcard
// reads it, each line is read once.
func Unfold(r io.Reader) io.Reader { return &unfolder{r: bufio.NewReaderSize(r, 64<<10)} }

type unfolder struct {
	r   *bufio.Reader
	err error // the reader's, kept for the next Read once bytes came before it
}

func (u *unfolder) Read(p []byte) (int, error) {
	n := 0
	for n < len(p) {
		if u.err != nil {
			break
		}
		c, err := u.r.ReadByte()
		if err != nil {
			u.err = err
			break
		}
		if (c == '\r' || c == '\n') && u.folded(c) {
			continue
		}
		p[n] = c
		n++
	}
	if n > 0 {
		return n, nil
	}
	return 0, u.err
}

// folded tells whether the line break that starts with c is a fold, and
// if so drops the rest of it: LF, or CR LF, then one space or tab.
func (u *unfolder) folded(c byte) bool {
	want := 1 // the space or tab after an LF
	if c == '\r' {
		want = 2
	}
	next, _ := u.r.Peek(want)
	if len(next) < want || c == '\r' && next[0] != '\n' {
		return false
	}
	if ws := next[want-1]; ws != ' ' && ws != '\t' {
		return false
	}
	u.r.Discard(want)
	return true
}
