package server

import (
	"testing"

	"github.com/chromedp/chromedp"
)

// TestWebBrowserChatChannels: in a browser, choosing Telegram, Pushover
// or Matrix in "Add a channel" shows that kind's labelled fields only;
// each is added from them and its "Send a test" arrives.
func TestWebBrowserChatChannels(t *testing.T) {
	bin := browserBinary(t)
	cs := newChatServer(t)
	e := newEnv(t)
	e.user("ada@example.com")
	b := openBrowser(t, bin, e)
	b.open("/login")
	b.sendKeys(b.labelled("Email"), "ada@example.com")
	b.sendKeys(b.labelled("Password"), "correct horse")
	b.submit(b.labelled("Password"), "Log in")
	b.at("/")

	shown := func(label string) bool {
		t.Helper()
		sel := b.labelledIn("#channels", label)
		vis, err := chromedp.Run(b.ctx, chromedp.Evaluate[bool](`document.querySelector(`+quoteJS(sel)+`).closest(".field").hidden === false`))
		if err != nil {
			t.Fatal(err)
		}
		return vis
	}
	for _, tc := range []struct {
		kind, label string
		fields      map[string]string
		hidden      []string
	}{
		{"telegram", "Telegram", map[string]string{"Bot token": tgToken, "Chat ID": "-100200", "Server address (optional)": cs.URL + "/tg"},
			[]string{"URL", "Token", "User key", "Homeserver", "Room ID"}},
		{"pushover", "Pushover", map[string]string{"User key": "uQiRzpo4DXghDmr9QzzfQu27cmVRsG", "App token": poToken, "Server address (optional)": cs.URL},
			[]string{"URL", "Bot token", "Access token"}},
		{"matrix", "Matrix", map[string]string{"Homeserver": cs.URL + "/mx", "Access token": mxToken, "Room ID": "!room/1:example.org"},
			[]string{"Token", "Chat ID", "App token", "Server address (optional)"}},
	} {
		b.open("/settings/reminders")
		b.do(chromedp.Click(`//section[@id="channels"]//summary[normalize-space()="Add a channel"]`))
		kind := b.labelledIn("#channels", "Kind")
		b.setValue(kind, b.optionValue(kind, tc.label))
		b.do(chromedp.Evaluate[chromedp.Void](`document.querySelector(` + quoteJS(kind) + `).dispatchEvent(new Event("change", {bubbles: true}))`))
		for label, value := range tc.fields {
			if !shown(label) {
				t.Errorf("%s: %s is hidden", tc.kind, label)
			}
			b.sendKeys(b.labelledIn("#channels", label), value)
		}
		for _, label := range tc.hidden {
			if shown(label) {
				t.Errorf("%s: %s is shown", tc.kind, label)
			}
		}
		b.submit(kind, "Add channel")
		b.sees("main", "Channel added.")
		b.click(`(//section[@id="channels"]//button[normalize-space()="Send a test"])[last()]`)
		b.sees("main", "Test sent")
		got := byKind(cs.took())
		if len(got[tc.kind]) != 1 {
			t.Errorf("%s got %v", tc.kind, got)
			continue
		}
		switch tc.kind {
		case "telegram":
			wantTelegram(t, got["telegram"][0], "This is a test")
		case "pushover":
			wantPushover(t, got["pushover"][0], "Kith (test): your reminders for Sunday 15 March", "This is a test")
		default:
			wantMatrix(t, got["matrix"][0], "This is a test")
		}
	}
}
