package web

import "strings"

// The Security page names each web session by the browser it was signed in
// from, as a person would: "Firefox on Linux", "Safari on iPhone". A
// User-Agent is a browser's say-so and only a hint, so a small table is
// enough: no library knows more than the few words shown here need.

// uaMark is a token of a User-Agent and what it says.
type uaMark struct{ token, name string }

// uaBrowsers are in the order to try: a browser built on another names
// the other too (Edge and Opera say Chrome, Chrome says Safari), so the
// more particular come first.
var uaBrowsers = []uaMark{
	{"Edg/", "Edge"}, {"EdgA/", "Edge"}, {"EdgiOS/", "Edge"}, {"Edge/", "Edge"},
	{"OPR/", "Opera"}, {"OPiOS/", "Opera"},
	{"SamsungBrowser/", "Samsung Internet"},
	{"Vivaldi/", "Vivaldi"},
	{"YaBrowser/", "Yandex Browser"},
	{"Firefox/", "Firefox"}, {"FxiOS/", "Firefox"},
	{"CriOS/", "Chrome"}, {"Chrome/", "Chrome"}, {"Chromium/", "Chromium"},
	{"Safari/", "Safari"},
}

// uaSystems likewise: an iPhone says "like Mac OS X", Android says Linux.
var uaSystems = []uaMark{
	{"iPhone", "iPhone"}, {"iPad", "iPad"}, {"iPod", "iPod"},
	{"Android", "Android"},
	{"CrOS", "ChromeOS"},
	{"Windows", "Windows"},
	{"Macintosh", "macOS"}, {"Mac OS X", "macOS"},
	{"Linux", "Linux"}, {"FreeBSD", "FreeBSD"}, {"OpenBSD", "OpenBSD"},
}

// deviceName words a User-Agent: "Firefox on Linux", "Chrome" when the
// system is unknown, "Unknown browser" (on its system, when known) when
// the browser is.
func deviceName(ua string) string {
	browser, system := uaFind(ua, uaBrowsers), uaFind(ua, uaSystems)
	if browser == "" {
		browser = "Unknown browser"
	}
	if system == "" {
		return browser
	}
	return browser + " on " + system
}

func uaFind(ua string, marks []uaMark) string {
	for _, m := range marks {
		if strings.Contains(ua, m.token) {
			return m.name
		}
	}
	return ""
}
