package store_test

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"kith/store"
	"kith/store/storetest"
)

// TestSQLiteCLIOpensTheDatabase: the sqlite3 that Debian 12 and Raspberry
// Pi OS ship (3.40) reads a Kith database, after every migration and with
// persons and emails in it: a self-hoster's integrity check, query and
// .backup work. It once said "malformed database schema
// (persons_search_insert)", for a group_concat(… ORDER BY …) of SQLite 3.44.
// (The search index, persons_search, still takes options of 3.43 and
// 3.45: the CLI may not read or write it, so nothing here changes names.)
func TestSQLiteCLIOpensTheDatabase(t *testing.T) {
	storetest.SQLiteOnly(t)
	cli, err := exec.LookPath("sqlite3")
	if err != nil {
		if os.Getenv("CI") == "true" {
			t.Fatal("CI=true but sqlite3 is not installed (apt-get install sqlite3)")
		}
		t.Skip("sqlite3 is not installed (apt-get install sqlite3): the CLI cannot be tried")
	}
	s, where := newStoreAt(t)
	me := newUser(t, s)
	for _, name := range []string{"Ada", "Grace"} {
		p := newPerson(t, s, me.AccountID, name)
		for _, email := range []string{strings.ToLower(name) + "@example.com", strings.ToLower(name) + "@work.example"} {
			if _, err := s.CreateContactDetail(t.Context(), me.AccountID, p.ID, store.ContactDetailInput{Kind: "email", Value: &email}); err != nil {
				t.Fatal(err)
			}
		}
	}
	if err := s.Close(); err != nil {
		t.Fatal(err)
	}
	version, _ := exec.Command(cli, "--version").Output()
	t.Logf("sqlite3 %s", strings.TrimSpace(string(version)))
	backup := filepath.Join(t.TempDir(), "backup.db")
	run := func(db string, commands ...string) string {
		t.Helper()
		out, err := exec.Command(cli, append([]string{"-bail", db}, commands...)...).CombinedOutput()
		if err != nil {
			t.Fatalf("sqlite3 %s: %v\n%s", strings.Join(commands, " "), err, out)
		}
		return strings.TrimSpace(string(out))
	}
	out := run(where, "PRAGMA integrity_check;",
		"SELECT first_name || ': ' || search_text FROM persons ORDER BY id;",
		"UPDATE persons SET how_we_met = 'at work';",
		".backup "+backup)
	want := "ok\nAda: Ada ada@example.com ada@work.example\nGrace: Grace grace@example.com grace@work.example"
	if out != want {
		t.Errorf("sqlite3 answered\n%s\nwant\n%s", out, want)
	}
	if out := run(backup, "PRAGMA integrity_check;", "SELECT count(*) FROM persons WHERE how_we_met = 'at work';"); out != "ok\n2" {
		t.Errorf("the backup: sqlite3 answered\n%s\nwant ok and 2 persons", out)
	}
}
