package input

import (
	"kith/store"
)

// Gift reads every field of a gift, on create and on replace alike.
// PeopleOS's API takes idea, given and offered; its web app also writes
// received, and Kith takes all four.
func Gift(p *Params) store.GiftInput {
	in := store.GiftInput{
		Name:     p.RequiredText("name", 255),
		Status:   p.OneOf("status", store.GiftStatuses, ""),
		Occasion: p.Text("occasion", 255),
		URL:      p.Text("url", 255),
		GiftedAt: p.Timestamp("date"),
	}
	if in.Status == "" && !p.Failed("status") {
		p.Fail("status", "The status field is required.")
	}
	if in.URL != nil && !store.WebURL(*in.URL) {
		p.Fail("url", "The url field must be a valid URL.")
		in.URL = nil
	}
	return in
}
