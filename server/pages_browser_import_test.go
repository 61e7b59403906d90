package server

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/chromedp/chromedp"
)

// TestWebBrowserImport moves in from Monica through Settings → Data in a
// real browser, at 1280 and 360 px: a file that is no export is refused
// beside its field; the export's check shows what the import would do;
// Import brings the people into the people list. A spreadsheet's columns
// are mapped by their selects, then imported alike.
func TestWebBrowserImport(t *testing.T) {
	bin := browserBinary(t)
	dir := t.TempDir()
	monica := filepath.Join(dir, "monica.json")
	broken := filepath.Join(dir, "broken.json")
	sheet := filepath.Join(dir, "contacts.csv")
	if err := os.WriteFile(sheet, []byte("Prénom,Nom,Courriel,Notes\r\nGrace,Hopper,grace@navy.example,Admiral\r\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(monica, webMonicaFile(t), 0o600); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(broken, []byte(`{"persons": []}`), 0o600); err != nil {
		t.Fatal(err)
	}
	for _, width := range []int64{1280, 360} {
		t.Run(fmt.Sprint(width), func(t *testing.T) {
			e := newEnv(t)
			_, key := e.user("ada@example.com")
			b := openBrowser(t, bin, e)
			b.do(chromedp.EmulateViewport(width, 900))
			b.signInAs("ada@example.com", "correct horse")
			b.click(`//header//a[normalize-space()="Settings"]`)
			b.click(`//main//a[normalize-space()="Data"]`)
			b.at("/settings/data")

			// Not an export: the Data page again, the words beside the field.
			b.expect("/settings/import/monica")
			file := b.labelled("Monica export (JSON)")
			b.do(chromedp.SetUploadFiles(chromedp.CSS(file), []string{broken}))
			b.submit(file, "Check file")
			b.sees(file+"-err", "The file is not a Monica JSON export.")

			file = b.labelled("Monica export (JSON)")
			b.do(chromedp.SetUploadFiles(chromedp.CSS(file), []string{monica}))
			b.submit(file, "Check file")
			b.sees("h1", "Import from Monica")
			b.sees("main", "What the import will do", "New people\n2", "Skipped\n1", "Reminders\n1",
				"Ada Lovelace", "must be a valid email address")
			b.audit(true)
			b.fits(width)
			if got := e.personNames(t, key); got != "" {
				t.Fatalf("the check imported %q", got)
			}

			b.click(`//main//button[normalize-space()="Import"]`)
			b.at("/people")
			b.sees("main", "Ada Lovelace", "Charles Babbage")
			b.sees("body", "Imported 2 people; updated 0.")
			if got := e.personNames(t, key); got != "Ada,Charles" {
				t.Errorf("imported %q", got)
			}

			// A spreadsheet of its own: its columns mapped by their selects.
			b.open("/settings/data")
			file = b.labelled("CSV file")
			b.do(chromedp.SetUploadFiles(chromedp.CSS(file), []string{sheet}))
			b.setValue(b.labelled("Format"), b.optionValue(b.labelled("Format"), "Another spreadsheet"))
			b.submit(file, "Check file")
			b.sees("main", "What each column holds")
			if notes := b.labelled("Notes"); b.selected(notes) != "Notes" {
				t.Errorf("the column Notes is not Notes: %q", b.selected(notes))
			}
			b.audit(true)
			b.fits(width)
			for label, field := range map[string]string{"Prénom": "First name", "Nom": "Last name", "Courriel": "Email"} {
				sel := b.labelled(label)
				b.setValue(sel, b.optionValue(sel, field))
			}
			b.submit(b.labelled("Courriel"), "Check file")
			b.sees("main", "New people\n1", "It has 1 row (a spreadsheet).", "Notes\n1")
			b.audit(true)
			b.fits(width)
			b.click(`//main//button[normalize-space()="Import"]`)
			b.at("/people")
			b.sees("body", "Imported 1 person; updated 0.")
			if body := e.do(req{method: "GET", path: "/api/persons?q=grace@navy.example", key: key}).body; !strings.Contains(body, `"last_name":"Hopper"`) {
				t.Errorf("no Grace Hopper by her email: %s", body)
			}
		})
	}
}

// selected is the text of the option a select shows.
func (b *chrome) selected(sel string) string {
	b.t.Helper()
	s, err := chromedp.Run(b.ctx, chromedp.Evaluate[string](`(s => s.options[s.selectedIndex].text)(document.querySelector(`+quoteJS(sel)+`))`))
	if err != nil {
		b.t.Fatal(err)
	}
	return s
}
