package server

import (
	"archive/zip"
	"context"
	"net/url"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
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

// TestTimezoneCacheIsBounded: many distinct spellings leave nothing in the
// zone cache but names of the database.
func TestTimezoneCacheIsBounded(t *testing.T) {
	e := newEnv(t)
	_, token := e.user("ada@example.com")
	for i := range 2000 {
		tz := "Europe/" + strings.Repeat("./", i%40+1) + strings.Repeat("/", i/40) + "Paris"
		r := e.do(req{method: "PUT", path: "/api/me/timezone?timezone=" + url.QueryEscape(tz), key: token})
		if r.code != 422 {
			t.Fatalf("%q: %d %s", tz, r.code, r.body)
		}
	}
	n := 0
	zones.Range(func(k, _ any) bool {
		n++
		if !zoneNames[k.(string)] {
			t.Errorf("the cache holds %q", k)
			return n < 5
		}
		return true
	})
	if n > len(zoneNames) {
		t.Errorf("the cache holds %d zones, more than the %d of the database", n, len(zoneNames))
	}
}

// TestZoneNamesMatchTheEmbeddedDatabase: zonenames.txt lists exactly the
// zones of the Go release's database, and every one of them loads.
func TestZoneNamesMatchTheEmbeddedDatabase(t *testing.T) {
	for name := range zoneNames {
		if _, err := time.LoadLocation(name); err != nil {
			t.Errorf("%s: %v", name, err)
		}
	}
	out, err := exec.Command("go", "env", "GOROOT").Output()
	if err != nil {
		t.Skipf("no go command to find the release's zoneinfo.zip: %v", err)
	}
	zr, err := zip.OpenReader(filepath.Join(strings.TrimSpace(string(out)), "lib", "time", "zoneinfo.zip"))
	if err != nil {
		t.Skipf("no zoneinfo.zip: %v", err)
	}
	defer zr.Close()
	var want []string
	for _, f := range zr.File {
		want = append(want, f.Name)
	}
	slices.Sort(want)
	got := strings.Fields(zoneList)
	if !slices.Equal(got, want) {
		t.Errorf("zonenames.txt has %d names, zoneinfo.zip %d: regenerate it (see calendar.go)", len(got), len(want))
	}
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
