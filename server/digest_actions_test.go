package server

import (
	"encoding/json"
	"fmt"
	"net/http"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"

	"kith/server/remind"
	"kith/store"
)

const kithBase = "https://kith.example.org"

// dueForAll makes a person with a birthday today, a task due today and a
// stay-in-touch cadence that is due: one item of each kind that acts.
func (e *env) dueForAll(key string) (person, task string) {
	e.t.Helper()
	person = e.birthday(key, "Zoë", 1990, 3, 23, true) // the day after the advance
	task = e.task(key, person, "name=Send+flowers&due_at=2026-03-15")
	if r := e.do(req{method: "PUT", path: "/api/persons/" + person + "/stay-in-touch?every_days=7", key: key}); r.code != 200 {
		e.t.Fatalf("stay in touch: %d %s", r.code, r.body)
	}
	e.clock.Advance(8 * 24 * time.Hour)
	return person, task
}

// TestDigestActionLinks: with base_url, a webhook's items carry their
// actions, ntfy gets http buttons (at most three), and the email links
// the dashboard, each person and each action; a link from a digest does
// what it says once.
func TestDigestActionLinks(t *testing.T) {
	rc, got := newReceiver(t)
	mb := newMailbox(t)
	e := newEnv(t, withSMTP(mb), func(o *Options) { o.BaseURL = kithBase + "/" })
	_, key := e.user("ada@example.com")
	zoe, task := e.dueForAll(key)
	e.channel(key, "kind=ntfy&url="+rc.URL+"/ntfy/ada")
	e.channel(key, "kind=webhook&url="+rc.URL+"/hook")
	e.pass()
	if len(*got) != 2 {
		t.Fatalf("%d requests, want 2", len(*got))
	}

	var w remind.WebhookBody
	if err := json.Unmarshal((*got)[1].body, &w); err != nil {
		t.Fatal(err)
	}
	labels := map[string]string{}
	var urls []string
	for _, d := range w.Days {
		for _, it := range d.Items {
			if len(it.Actions) != 1 {
				t.Fatalf("item %s has %d actions: %s", it.Kind, len(it.Actions), (*got)[1].body)
			}
			a := it.Actions[0]
			if a.Method != "POST" || !strings.HasPrefix(a.URL, kithBase+"/actions/") || strings.Count(a.URL, "/") != 4 {
				t.Errorf("action %+v", a)
			}
			labels[it.Kind] = a.Label
			urls = append(urls, a.URL)
		}
	}
	want := map[string]string{"task": "Mark done", "stay_in_touch": "Log a call", "birthday": "Snooze a week"}
	for k, l := range want {
		if labels[k] != l {
			t.Errorf("%s: %q, want %q (all: %v)", k, labels[k], l, labels)
		}
	}
	if !strings.Contains(string((*got)[1].body), `"actions":[{"label":`) {
		t.Errorf("webhook body without actions: %s", (*got)[1].body)
	}

	var n struct {
		Actions []map[string]any `json:"actions"`
	}
	json.Unmarshal((*got)[0].body, &n)
	if len(n.Actions) != 3 {
		t.Fatalf("ntfy actions %v", n.Actions)
	}
	for i, a := range n.Actions {
		if a["action"] != "http" || a["method"] != "POST" || a["clear"] != true || a["url"] != urls[i] {
			t.Errorf("ntfy action %d: %v, want url %s", i, a, urls[i])
		}
	}

	m := mb.next(t).parse(t)
	for part, body := range map[string]string{"text": m.text, "html": m.html} {
		for _, s := range append([]string{kithBase + "/", kithBase + "/people/" + zoe, "Mark done", "Log a call", "Snooze a week"}, urls...) {
			if !strings.Contains(body, s) {
				t.Errorf("the email's %s part lacks %s:\n%s", part, s, body)
			}
		}
	}
	li := regexp.MustCompile(`(?s)<li>(.*?)</li>`).FindAllStringSubmatch(m.html, -1)
	if len(li) != 3 {
		t.Fatalf("%d items in the html: %s", len(li), m.html)
	}
	for _, item := range li {
		if !strings.Contains(item[1], `href="`+kithBase+`/people/`+zoe+`"`) || !strings.Contains(item[1], `/actions/`) {
			t.Errorf("an item's <li> without its person and action links: %s", item[1])
		}
	}

	// The webhook's "Mark done" link, posted as ntfy would: done, once.
	for _, d := range w.Days {
		for _, it := range d.Items {
			if it.Kind != "task" {
				continue
			}
			path := strings.TrimPrefix(it.Actions[0].URL, kithBase)
			if pg := e.bare(http.MethodPost, path); pg.code != 200 {
				t.Fatalf("mark done: %d %s", pg.code, pg.body)
			}
			if pg := e.bare(http.MethodPost, path); pg.code != http.StatusGone {
				t.Fatalf("mark done again: %d", pg.code)
			}
		}
	}
	if !e.taskDone(t, key, zoe, task) {
		t.Error("the digest's Mark done did not complete the task")
	}
}

// TestDigestWithoutBaseURL: no base_url, no links anywhere, and one
// warning naming base_url however many digests go out.
func TestDigestWithoutBaseURL(t *testing.T) {
	rc, got := newReceiver(t)
	e := newEnv(t)
	_, key := e.user("ada@example.com")
	_, bob := e.user("bob@example.com")
	e.dueForAll(key)
	e.dueForAll(bob)
	e.channel(key, "kind=ntfy&url="+rc.URL+"/ntfy/ada")
	e.channel(key, "kind=webhook&url="+rc.URL+"/hook")
	e.channel(bob, "kind=webhook&url="+rc.URL+"/hook")
	e.pass()
	if len(*got) != 3 {
		t.Fatalf("%d requests", len(*got))
	}
	for _, r := range *got {
		body := string(r.body)
		if strings.Contains(body, "/actions/") || strings.Contains(body, `"action":"http"`) {
			t.Errorf("links without base_url: %s", body)
		}
		if r.path == "/hook" && (!strings.Contains(body, `"actions":[]`) || strings.Contains(body, `"actions":[{`)) {
			t.Errorf("webhook items without actions: []: %s", body)
		}
	}
	if n := strings.Count(e.logs.String(), "base_url is not set: reminder digests carry no action links"); n != 1 {
		t.Errorf("%d warnings, want 1:\n%s", n, e.logs.String())
	}
}

// upcomingOn lists the days of the key's upcoming reminders that hold
// title.
func (e *env) upcomingOn(key, title string) []string {
	e.t.Helper()
	r := e.do(req{method: "GET", path: "/api/reminders/upcoming?days=30", key: key})
	if r.code != 200 {
		e.t.Fatalf("upcoming: %d %s", r.code, r.body)
	}
	var days []string
	for _, d := range r.json(e.t)["data"].([]any) {
		day := d.(map[string]any)
		for _, it := range day["items"].([]any) {
			if it.(map[string]any)["title"] == title {
				days = append(days, day["date"].(string))
			}
		}
	}
	return days
}

// TestSnoozeAWeek: a snoozed birthday shows to its user a week later, as
// it was (the same age), in upcoming and the digest, also once its own
// day has passed; others of the account still see it on its day.
func TestSnoozeAWeek(t *testing.T) {
	rc, got := newReceiver(t)
	e := newEnv(t)
	ada, key := e.user("ada@example.com")
	_, mate := e.userIn(ada.AccountID, "grace@example.com")
	zoe := e.birthday(key, "Zoë", 1990, 3, 17, true)
	ref, _ := strconv.ParseInt(zoe, 10, 64)
	title := "Birthday of Zoë (36)"
	if d := e.upcomingOn(key, title); len(d) != 1 || d[0] != "2026-03-17" {
		t.Fatalf("before the snooze: %v", d)
	}
	link := e.actionLink(t, remind.Action{UserID: ada.ID, Do: store.ActionSnooze, Kind: "birthday", Ref: ref, Day: "2026-03-17", Title: title})
	if pg := e.bare(http.MethodPost, link); pg.code != 200 {
		t.Fatalf("snooze: %d %s", pg.code, pg.body)
	}
	if d := e.upcomingOn(key, title); len(d) != 1 || d[0] != "2026-03-24" {
		t.Errorf("ada after the snooze: %v, want [2026-03-24]", d)
	}
	if d := e.upcomingOn(mate, title); len(d) != 1 || d[0] != "2026-03-17" {
		t.Errorf("grace after ada's snooze: %v, want [2026-03-17]", d)
	}
	if pg := e.bare(http.MethodPost, link); pg.code != http.StatusGone {
		t.Fatalf("second snooze: %d", pg.code)
	}

	// Past its own day, it still waits for D+7; the digest of D+7 holds it.
	e.channel(key, "kind=webhook&url="+rc.URL+"/hook")
	e.at(time.Date(2026, 3, 20, 12, 0, 0, 0, time.UTC))
	if d := e.upcomingOn(key, title); len(d) != 1 || d[0] != "2026-03-24" {
		t.Errorf("on the 20th: %v, want [2026-03-24]", d)
	}
	e.at(time.Date(2026, 3, 24, 12, 0, 0, 0, time.UTC))
	e.pass()
	if len(*got) != 1 {
		t.Fatalf("%d digests", len(*got))
	}
	var w remind.WebhookBody
	json.Unmarshal((*got)[0].body, &w)
	if len(w.Days) == 0 || w.Days[0].Date != "2026-03-24" || len(w.Days[0].Items) != 1 || w.Days[0].Items[0].Title != title {
		t.Errorf("the digest of the 24th: %s", (*got)[0].body)
	}
}

// TestChannelTestHasNoActions: "Send a test" carries no action links,
// base_url or not.
func TestChannelTestHasNoActions(t *testing.T) {
	rc, got := newReceiver(t)
	e := newEnv(t, func(o *Options) { o.BaseURL = kithBase })
	_, key := e.user("ada@example.com")
	e.dueForAll(key)
	hook := e.channel(key, "kind=webhook&url="+rc.URL+"/hook")
	ntfy := e.channel(key, "kind=ntfy&url="+rc.URL+"/ntfy/ada")
	for _, ch := range []map[string]any{hook, ntfy} {
		if r := e.do(req{method: "POST", path: fmt.Sprintf("/api/me/channels/%v/test", ch["id"]), key: key}); r.code != 200 {
			t.Fatalf("test send: %d %s", r.code, r.body)
		}
	}
	if len(*got) != 2 {
		t.Fatalf("%d requests", len(*got))
	}
	if b := string((*got)[0].body); !strings.Contains(b, `"actions":[]`) || strings.Contains(b, "/actions/") {
		t.Errorf("the webhook's sample: %s", b)
	}
	if b := string((*got)[1].body); strings.Contains(b, `"actions"`) {
		t.Errorf("the ntfy sample: %s", b)
	}
}
