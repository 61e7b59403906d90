package remind

import (
	"time"

	"kith/store"
)

// ItemAction is one of an item's action links, as a webhook's JSON has it.
type ItemAction struct {
	Label  string `json:"label"`
	URL    string `json:"url"`
	Method string `json:"method"` // always POST: a GET only shows the button
}

// actionOf is what an item of day's digest can be acted on with: a task
// done, a call logged, a dated item snoozed a week. Other items have none.
func actionOf(it Item, day string) (Action, bool) {
	switch it.Kind {
	case KindTask:
		return Action{Do: store.ActionMarkDone, Kind: it.Kind, Ref: it.TaskID}, true
	case KindStayInTouch:
		return Action{Do: store.ActionLogCall, Kind: it.Kind, Ref: it.PersonID}, true
	case KindBirthday, KindImportantDate, KindLifeEvent, KindReminder:
		return Action{Do: store.ActionSnooze, Kind: it.Kind, Ref: it.Ref, Day: day}, true
	}
	return Action{}, false
}

// AddActions gives each item of days its action links under base, signed
// with key for the user, working for store.ActionLinkLife from now.
func AddActions(days []Day, key []byte, base string, userID int64, now time.Time) {
	for i := range days {
		for j := range days[i].Items {
			it := &days[i].Items[j]
			a, ok := actionOf(*it, days[i].Date)
			if !ok {
				continue
			}
			a.UserID, a.Expires, a.Title = userID, now.Unix()+store.ActionLinkLife, it.Title
			it.Actions = []ItemAction{{Label: a.Label(), URL: base + "/actions/" + SignAction(key, a), Method: "POST"}}
		}
	}
}

// firstActions are up to n of the digest's actions, days and items in order.
func firstActions(days []Day, n int) []ItemAction {
	var out []ItemAction
	for _, d := range days {
		for _, it := range d.Items {
			for _, a := range it.Actions {
				if len(out) == n {
					return out
				}
				out = append(out, a)
			}
		}
	}
	return out
}
