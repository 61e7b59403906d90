package web

import "testing"

// TestPagesParse: every template parses, with the layout and partials
// each page is parsed with. The server parses them only when its first
// page is asked for, so a broken one would not stop it from starting.
func TestPagesParse(t *testing.T) {
	p, err := Parse()
	if err != nil {
		t.Fatal(err)
	}
	for _, name := range []string{"login", "dashboard", "people", "person", "settings", "journals"} {
		if _, ok := p.pages[name]; !ok {
			t.Errorf("no page %q among %d", name, len(p.pages))
		}
	}
}
