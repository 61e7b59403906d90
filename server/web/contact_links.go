package web

import (
	"html/template"
	"net/url"
	"regexp"
	"strings"
	"sync"
	"unicode"

	"kith/store"
)

// contactLink is where tapping a contact detail leads: a mail to the
// address, a call to the number, the website, the profile, the address
// on a map. Href is "" for a detail that leads nowhere (a handle of a
// network Kith does not know). External is a page of another site, which
// the link opens without telling it where the reader came from.
type contactLink struct {
	Href     template.URL
	External bool
}

// contactHref builds the link of a detail. Every Href is built here from
// a scheme Kith chose (mailto:, tel:, https:) or is a website the API
// checked is http or https, so no stored value can make a javascript:
// link: html/template would let template.URL through unchecked.
func contactHref(v *store.ContactDetail) contactLink {
	value := deref(v.Value)
	switch v.Kind {
	case "email":
		if store.ValidEmail(value) {
			return contactLink{Href: template.URL("mailto:" + mailtoEscaper.Replace(value))}
		}
	case "phone":
		if n := telNumber(value); n != "" {
			return contactLink{Href: template.URL("tel:" + n)}
		}
	case "website":
		return webLink(value)
	case "social":
		if l := webLink(value); l.Href != "" {
			return l
		}
		if u := profileURL(deref(v.Network), value); u != "" {
			return contactLink{Href: template.URL(u), External: true}
		}
	case "address":
		if q := addressQuery(v); q != "" {
			return contactLink{Href: template.URL("https://www.openstreetmap.org/search?query=" + url.QueryEscape(q)), External: true}
		}
	}
	return contactLink{}
}

// mailtoEscaper escapes what would end an address in a mailto: URL.
var mailtoEscaper = strings.NewReplacer("%", "%25", "?", "%3F", "#", "%23")

// webLink is a link to s when it is an http or https URL, as it was
// stored; nothing otherwise.
func webLink(s string) contactLink {
	if !store.WebURL(s) {
		return contactLink{}
	}
	return contactLink{Href: template.URL(s), External: true}
}

// telNumber is a phone number as a tel: link dials it: its digits, with
// the leading + of an international number. "+1 (555) 010-2030" is
// "+15550102030". The digits stop at a letter after them: an extension
// ("ext. 12") is not part of the number.
func telNumber(s string) string {
	var b strings.Builder
	if strings.HasPrefix(strings.TrimSpace(s), "+") {
		b.WriteByte('+')
	}
	digits := 0
	for _, r := range s {
		switch {
		case r >= '0' && r <= '9':
			b.WriteRune(r)
			digits++
		case unicode.IsLetter(r) && digits > 0:
			return b.String()
		}
	}
	if digits == 0 {
		return ""
	}
	return b.String()
}

// handle is a profile's name on a network: letters, digits, _ . and -.
var handle = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^[A-Za-z0-9_.-]{1,64}$`) })

// fediverse is a Mastodon handle: @name@host.
var fediverse = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`^@?([A-Za-z0-9_.-]{1,64})@([A-Za-z0-9-]+(?:\.[A-Za-z0-9-]+)+)$`)
})

// profiles are the networks whose profile a handle names, by their
// address with the handle at the end.
var profiles = map[string]string{
	"github": "https://github.com/", "gitlab": "https://gitlab.com/", "twitter": "https://x.com/",
	"x": "https://x.com/", "instagram": "https://www.instagram.com/", "bluesky": "https://bsky.app/profile/",
}

// profileURL is the profile page of a handle on a network Kith knows, ""
// for others.
func profileURL(network, value string) string {
	network = strings.ToLower(strings.TrimSpace(network))
	value = strings.TrimSpace(value)
	if m := fediverse().FindStringSubmatch(value); m != nil && network != "x" && network != "twitter" {
		return "https://" + m[2] + "/@" + m[1]
	}
	base, ok := profiles[network]
	value = strings.TrimPrefix(value, "@")
	if !ok || !handle().MatchString(value) {
		return ""
	}
	return base + value
}

// addressQuery is an address as a map's search reads it: street (its
// lines joined), postal code and city, region, country.
func addressQuery(v *store.ContactDetail) string {
	var street *string
	if v.Street != nil {
		street = ptr(strings.Join(strings.Fields(strings.ReplaceAll(*v.Street, "\n", ", ")), " "))
	}
	city := joinSet(" ", v.PostalCode, v.City)
	return joinSet(", ", street, &city, v.Region, v.Country)
}
