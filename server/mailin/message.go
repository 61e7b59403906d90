package mailin

import (
	"fmt"
	"io"
	"mime"
	"net/mail"
	"regexp"
	"strings"
	"sync"
	"time"
	"unicode/utf8"

	"golang.org/x/text/encoding"
	"golang.org/x/text/encoding/charmap"

	"kith/server/input"
)

// maxNote is the longest note kept of a subject, in characters.
const maxNote = 2000

// message is all that is kept of a message: its To and Cc addresses, its
// Date and its Subject.
type message struct {
	addrs   []string
	date    time.Time // zero when missing or unparseable
	subject *string   // nil when empty
}

// charsets are the encoded words' charsets read beside UTF-8 and ASCII,
// which mime.WordDecoder reads by itself: those mail clients still send.
var charsets = map[string]encoding.Encoding{
	"iso-8859-1": charmap.ISO8859_1, "latin1": charmap.ISO8859_1,
	"iso-8859-2": charmap.ISO8859_2, "iso-8859-15": charmap.ISO8859_15,
	"windows-1252": charmap.Windows1252, "cp1252": charmap.Windows1252,
	"windows-1250": charmap.Windows1250, "koi8-r": charmap.KOI8R,
}

var words = &mime.WordDecoder{CharsetReader: func(charset string, r io.Reader) (io.Reader, error) {
	if enc, ok := charsets[strings.ToLower(charset)]; ok {
		return enc.NewDecoder().Reader(r), nil
	}
	return nil, fmt.Errorf("mailin: unknown charset %q", charset)
}}

// parseMessage reads the headers that matter; a message it cannot read
// as one yields nothing, and is still taken.
func parseMessage(r io.Reader) message {
	var m message
	msg, err := mail.ReadMessage(r)
	if err != nil {
		return m
	}
	for _, h := range []string{"To", "Cc"} {
		for _, v := range msg.Header[h] {
			m.addrs = append(m.addrs, addresses(v)...)
		}
	}
	if d, err := mail.ParseDate(msg.Header.Get("Date")); err == nil {
		m.date = d
	}
	m.subject = note(msg.Header.Get("Subject"))
	return m
}

// looseAddress finds what looks like an address in a header that is not
// RFC 5322's (an unquoted comma in a name, a stray bracket).
var looseAddress = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`[^\s<>(),;:"\[\]]+@[^\s<>(),;:"\[\]]+`) })

// addresses are a To or Cc header's addresses: display names and groups
// as RFC 5322 allows them, or, when the header is not well formed, every
// word that looks like an address.
func addresses(v string) []string {
	p := mail.AddressParser{WordDecoder: words}
	list, err := p.ParseList(v)
	if err != nil {
		return looseAddress().FindAllString(v, -1)
	}
	out := make([]string, 0, len(list))
	for _, a := range list {
		out = append(out, a.Address)
	}
	return out
}

// note is the subject decoded (RFC 2047), trimmed and cut to maxNote
// characters; nil when empty. An undecodable word stays as written.
func note(subject string) *string {
	s, err := words.DecodeHeader(subject)
	if err != nil {
		s = subject
	}
	s = strings.ToValidUTF8(strings.TrimSpace(s), "\uFFFD")
	if utf8.RuneCountInString(s) > maxNote {
		s = strings.TrimSpace(string([]rune(s)[:maxNote]))
	}
	if s == "" {
		return nil
	}
	return &s
}

// day is the message's date in the user's time zone: its Date header's
// instant there, or today when it has none or one more than a day ahead
// (a wrong clock, or a message post-dated on purpose), or before 1900,
// which no interaction is.
func (m message) day(now time.Time, zone string) string {
	loc := input.UserZone(zone)
	t := m.date
	if t.IsZero() || t.After(now.Add(24*time.Hour)) || t.Year() < 1900 {
		t = now
	}
	return t.In(loc).Format(time.DateOnly)
}
