package input

import "math"

// PageOffset is how many rows come before the page. A page so far out that
// the product overflows gets the largest offset, which is an empty page:
// wrapping round would serve the first rows under a page number they are not.
func PageOffset(page, perPage int64) int64 {
	if page-1 > math.MaxInt64/perPage {
		return math.MaxInt64
	}
	return (page - 1) * perPage
}
