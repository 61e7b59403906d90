package dav

import (
	"bytes"
	"encoding/xml"
)

// appendResponse appends r as encoding/xml's Encoder writes it, byte for
// byte, without its reflection: a listing of every card writes one a card,
// and the Encoder's cost was most of a PROPFIND's. The layout is fixed
// (response, href, propstat, prop, the properties, status), so only the
// escaping of text and the properties' names vary; a property of no
// namespace, inside DAV:prop, gets xmlns="", as the Encoder gives it.
func appendResponse(b []byte, r *response) []byte {
	b = append(b, `<response xmlns="DAV:"><href xmlns="DAV:">`...)
	b = appendEscaped(b, r.Href)
	b = append(b, `</href>`...)
	for i := range r.Propstat {
		ps := &r.Propstat[i]
		b = append(b, `<propstat xmlns="DAV:"><prop xmlns="DAV:">`...)
		for _, p := range ps.Prop.Props {
			b = append(b, '<')
			b = append(b, p.XMLName.Local...)
			b = append(b, ` xmlns="`...)
			b = appendEscaped(b, p.XMLName.Space)
			b = append(b, `">`...)
			b = append(b, p.Inner...)
			b = append(b, `</`...)
			b = append(b, p.XMLName.Local...)
			b = append(b, '>')
		}
		b = append(b, `</prop><status xmlns="DAV:">`...)
		b = appendEscaped(b, ps.Status)
		b = append(b, `</status></propstat>`...)
	}
	if r.Status != "" {
		b = append(b, `<status xmlns="DAV:">`...)
		b = appendEscaped(b, r.Status)
		b = append(b, `</status>`...)
	}
	return append(b, `</response>`...)
}

// appendEscaped appends s escaped as encoding/xml escapes text and
// attribute values: printable ASCII but for "'&<> is as it is, the rest
// goes through xml.EscapeText.
func appendEscaped(b []byte, s string) []byte {
	for i := 0; i < len(s); i++ {
		switch c := s[i]; {
		case c < 0x20 || c > 0x7e || c == '"' || c == '\'' || c == '&' || c == '<' || c == '>':
			var buf bytes.Buffer
			xml.EscapeText(&buf, []byte(s))
			return append(b, buf.Bytes()...)
		}
	}
	return append(b, s...)
}
