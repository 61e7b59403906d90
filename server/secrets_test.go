package server

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"kith/store/storetest"
)

// TestNoSecretsAtRest logs in, creates keys and changes an email, invites
// and makes calendar feeds, then reads every file of the database, the WAL
// included, byte by byte: no key, password, verification, invitation or
// feed secret may be in any of them.
func TestNoSecretsAtRest(t *testing.T) {
	storetest.SQLiteOnly(t) // it reads the database's files
	e := newEnv(t)
	_, first := e.user("ada@example.com")
	var secrets []string
	secrets = append(secrets, first, "correct horse")
	for i := 0; i < 3; i++ {
		r := e.do(req{method: "POST", path: "/api/login", body: `{"email":"ada@example.com","password":"correct horse"}`})
		secrets = append(secrets, r.json(t)["data"].(map[string]any)["token"].(string))
	}
	r := e.do(req{method: "POST", path: "/api/administration/api?label=Phone", key: first})
	secrets = append(secrets, r.json(t)["token"].(string))
	e.changeEmail(first, "new@example.com")
	link := regexpLink(t, e.logs.String())
	secrets = append(secrets, link[strings.Index(link, "=")+1:])
	// An invitation that was accepted, with the password chosen, and one pending.
	_, adminKey := e.user("admin@example.com") // Ada is unverified now
	e.invite(adminKey, "pam@example.com")
	accepted := e.loggedLink()
	if r := e.do(req{method: "POST", path: pathOf(accepted) + "&password=pam%27s+secret+pw"}); r.code != 200 {
		t.Fatalf("accept: %d %s", r.code, r.body)
	}
	e.invite(adminKey, "kevin@example.com")
	pending := e.loggedLink()
	for _, l := range []string{accepted, pending} {
		secrets = append(secrets, l[strings.Index(l, "=")+1:])
	}
	secrets = append(secrets, "pam's secret pw")
	// Calendar feeds: one replaced, one live and fetched.
	for range 2 {
		feed := e.feed(adminKey)
		if r := e.ics(feed, nil); r.code != 200 {
			t.Fatalf("feed: %d %s", r.code, r.body)
		}
		secrets = append(secrets, strings.TrimSuffix(strings.TrimPrefix(feed, "/ical/"), ".ics"))
	}

	// Each token's secret part, without the "<id>|" prefix, must be absent too.
	for _, s := range secrets {
		if _, secret, ok := strings.Cut(s, "|"); ok {
			secrets = append(secrets, secret)
		}
	}
	files, _ := filepath.Glob(e.where + "*")
	if len(files) < 2 {
		t.Fatalf("want the database and its WAL, found %v", files)
	}
	for _, f := range files {
		b, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		for _, s := range secrets {
			if strings.Contains(string(b), s) {
				t.Errorf("%s holds the secret %q", filepath.Base(f), s)
			}
		}
	}
	// Closing checkpoints the WAL into the main file: look again.
	if err := e.st.Close(); err != nil {
		t.Fatal(err)
	}
	b, err := os.ReadFile(e.where)
	if err != nil {
		t.Fatal(err)
	}
	for _, s := range secrets {
		if strings.Contains(string(b), s) {
			t.Errorf("kith.db holds the secret %q after a checkpoint", s)
		}
	}
	if !strings.Contains(string(b), "new@example.com") {
		t.Error("the file does not even hold the new email: this test reads the wrong file")
	}
}
