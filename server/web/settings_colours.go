package web

import (
	"regexp"
	"slices"
	"strings"
	"sync"
)

// A task category's colour is stored as the reference system stores it:
// a Tailwind background class (bg-purple-100), which the API passes on as
// it is. The pages never show the class: they name its hue ("Purple") and
// draw a swatch of it with a class of their own (swatch-purple).

// hues are the Tailwind hues the pages name and draw, the colourful ones
// first, in the order of the colour wheel.
var hues = []string{
	"red", "orange", "amber", "yellow", "lime", "green", "emerald", "teal", "cyan", "sky",
	"blue", "indigo", "violet", "purple", "fuchsia", "pink", "rose",
	"slate", "gray", "zinc", "neutral", "stone",
}

// offeredHues are the hues the form offers: the greys beyond gray alike
// are only named when a category has one.
var offeredHues = hues[:19]

var colourClass = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^bg-([a-z]+)-(\d{2,3})$`) })

// colourHue is the hue of a stored colour, or "" for one the pages do not
// know (the API takes any text).
func colourHue(color string) (hue, shade string) {
	m := colourClass().FindStringSubmatch(color)
	if m == nil || !slices.Contains(hues, m[1]) {
		return "", ""
	}
	return m[1], m[2]
}

// colourName is a stored colour as a person reads it: its hue, with its
// shade when not the defaults' 100.
func colourName(color string) string {
	hue, shade := colourHue(color)
	switch {
	case hue == "":
		return "Other colour"
	case shade == "100":
		return strings.ToUpper(hue[:1]) + hue[1:]
	}
	return strings.ToUpper(hue[:1]) + hue[1:] + ", shade " + shade
}

// swatchClass is the class that draws a stored colour's swatch.
func swatchClass(color string) string {
	if hue, _ := colourHue(color); hue != "" {
		return "swatch swatch-" + hue
	}
	return "swatch swatch-other"
}

// colourOptions are the colours the category form offers, named, with
// current (a category's, or what a refused form sent) among them.
func colourOptions(current string) []Option {
	opts := make([]Option, 0, len(offeredHues)+1)
	for _, h := range offeredHues {
		opts = append(opts, Option{Value: "bg-" + h + "-100", Label: colourName("bg-" + h + "-100")})
	}
	if current != "" && !slices.ContainsFunc(opts, func(o Option) bool { return o.Value == current }) {
		opts = append([]Option{{Value: current, Label: colourName(current) + " (as it is)"}}, opts...)
	}
	return opts
}
