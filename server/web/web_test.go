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

// TestFillSendsNoPasswordBack: a form drawn again after its errors keeps
// what was typed, but never a password field's value.
func TestFillSendsNoPasswordBack(t *testing.T) {
	f := Form{Fields: []Field{{Name: "email", Type: "email"}, {Name: "token", Type: "password"}}}.
		Fill(map[string][]string{"email": {"a@example.com"}, "token": {"secret"}}, map[string][]string{"token": {"Too short."}})
	if f.Fields[0].Value != "a@example.com" {
		t.Errorf("email %q", f.Fields[0].Value)
	}
	if f.Fields[1].Value != "" || len(f.Fields[1].Errors) != 1 {
		t.Errorf("password field %+v", f.Fields[1])
	}
}
