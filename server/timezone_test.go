package server

import (
	"context"
	"net/url"
	"strconv"
	"testing"
	"time"
)

// TestTimezoneSpellingsAreRefused: only a name exactly as the IANA
// database spells it is a time zone; other paths to the same file are not.
func TestTimezoneSpellingsAreRefused(t *testing.T) {
	e := newEnv(t)
	_, token := e.user("ada@example.com")
	put := func(tz string) req {
		return req{method: "PUT", path: "/api/me/timezone?timezone=" + url.QueryEscape(tz), key: token}
	}
	invalidTZ := append(errBody(422, "The timezone field must be a valid timezone."),
		`"errors":{"timezone":["The timezone field must be a valid timezone."]}`)
	var scenarios []scenario
	for _, tz := range []string{
		"Europe//Paris", "Europe/./Paris", "./Europe/Paris", "Europe/../Europe/Paris",
		"/Europe/Paris", "Europe/Paris/", "posix/Europe/Paris", "right/Europe/Paris",
		"zone.tab", "EUROPE/PARIS",
	} {
		scenarios = append(scenarios, scenario{"refused " + strconv.Quote(tz), put(tz), 422, invalidTZ})
	}
	scenarios = append(scenarios,
		scenario{"a canonical name is stored as sent", put("Europe/Paris"), 200, []string{`"timezone":"Europe/Paris"`}},
		scenario{"an old name the database keeps as a link", put("Asia/Calcutta"), 200, []string{`"timezone":"Asia/Calcutta"`}},
	)
	e.run(t, scenarios)
}

// TestStoredOldSpellingStillCounts: a spelling stored before names were
// checked ("Pacific//Auckland") still counts the user's days in that zone.
func TestStoredOldSpellingStillCounts(t *testing.T) {
	e := newEnv(t)
	u, token := e.user("ada@example.com")
	if _, err := e.st.SetTimezone(context.Background(), u.ID, "Pacific//Auckland"); err != nil {
		t.Fatal(err)
	}
	e.clock.Advance(11*time.Hour + 30*time.Minute) // 16 March in Auckland
	b := `{"first_name":"A","last_name":"L","email":"ada@example.com","born_at":"2026-03-16"}`
	if r := e.do(req{method: "PUT", path: "/api/me", key: token, body: b}); r.code != 200 {
		t.Fatalf("in Auckland 16 March is today: %d %s", r.code, r.body)
	}
}
