package server

import (
	"fmt"
	"os"
	"path/filepath"
	"testing"

	"github.com/chromedp/chromedp"
)

// TestWebBrowserImport moves in from Monica through Settings → Data in a
// real browser, at 1280 and 360 px: a file that is no export is refused
// beside its field; the export's check shows what the import would do;
// Import brings the people into the people list.
func TestWebBrowserImport(t *testing.T) {
	bin := browserBinary(t)
	dir := t.TempDir()
	monica := filepath.Join(dir, "monica.json")
	broken := filepath.Join(dir, "broken.json")
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
		})
	}
}
