package input

import (
	"archive/zip"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"
)

// TestTimezoneCacheIsBounded: many distinct spellings leave nothing in the
// zone cache but names of the database.
func TestTimezoneCacheIsBounded(t *testing.T) {
	for i := range 2000 {
		tz := "Europe/" + strings.Repeat("./", i%40+1) + strings.Repeat("/", i/40) + "Paris"
		p := NewParams(map[string]any{"timezone": tz})
		if Timezone(p); p.Err() == nil {
			t.Fatalf("%q: accepted", tz)
		}
	}
	n := 0
	zones.Range(func(k, _ any) bool {
		n++
		if !zoneNames()[k.(string)] {
			t.Errorf("the cache holds %q", k)
			return n < 5
		}
		return true
	})
	if n > len(zoneNames()) {
		t.Errorf("the cache holds %d zones, more than the %d of the database", n, len(zoneNames()))
	}
}

// TestZoneNamesMatchTheEmbeddedDatabase: zonenames.txt lists exactly the
// zones of the Go release's database, and every one of them loads.
func TestZoneNamesMatchTheEmbeddedDatabase(t *testing.T) {
	for name := range zoneNames() {
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
	got := strings.Fields(ZoneList)
	if !slices.Equal(got, want) {
		t.Errorf("zonenames.txt has %d names, zoneinfo.zip %d: regenerate it (see calendar.go)", len(got), len(want))
	}
}
