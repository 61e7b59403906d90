package input

import (
	"math"

	"kith/store"
)

// MaxPersonTags is how many names one PUT …/tags may send.
const MaxPersonTags = 100

// PersonTags reads the names that become a person's tags (contract-people
// §5): tags, an array of names.
func PersonTags(p *Params) []string {
	return p.Strings("tags", MaxPersonTags, store.MaxTagLength)
}

// TagName reads a tag's new name.
func TagName(p *Params) string {
	return p.RequiredText("name", store.MaxTagLength)
}

// TagFilter reads ?tag=, the name of the tag whose persons a list shows;
// nil for every person. A name no tag could have (too long) shows none,
// so the length is not checked.
func TagFilter(p *Params) *string {
	return p.Text("tag", math.MaxInt)
}
