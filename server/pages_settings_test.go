package server

import (
	"bytes"
	"fmt"
	"mime/multipart"
	"net/http"
	"net/http/httptest"
	"net/url"
	"regexp"
	"strings"
	"testing"

	"kith/server/input"
)

// upload posts a multipart form of one file, the field "file", with the
// last page's CSRF token unless csrf says another.
func (b *browser) upload(path, name string, content []byte, csrf ...string) page {
	b.t.Helper()
	var body bytes.Buffer
	w := multipart.NewWriter(&body)
	tok := b.csrf
	if len(csrf) > 0 {
		tok = csrf[0]
	}
	if err := w.WriteField("csrf", tok); err != nil {
		b.t.Fatal(err)
	}
	if name != "" {
		f, err := w.CreateFormFile("file", name)
		if err != nil {
			b.t.Fatal(err)
		}
		f.Write(content)
	}
	w.Close()
	r := httptest.NewRequest(http.MethodPost, path, &body)
	r.Header.Set("Content-Type", w.FormDataContentType())
	return b.send(r)
}

// TestWebSettingsPage: the Settings link leads to a menu of seven pages,
// each at its own address, each with the menu (its own link marked) and
// what it holds.
func TestWebSettingsPage(t *testing.T) {
	e := newEnv(t)
	ada, _ := e.user("ada@example.com")
	b := e.signIn(t, "ada@example.com")
	pg := b.get("/settings")
	if pg.code != 200 {
		t.Fatalf("settings: %d %s", pg.code, pg.body)
	}
	menu := []string{`href="/settings/profile">Profile</a>`, `href="/settings/reminders">Reminders</a>`,
		`href="/settings/phone">Phone and calendar</a>`, `href="/settings/data">Data</a>`, `href="/settings/lists">Lists</a>`,
		`href="/settings/security">Security</a>`, `href="/settings/users">Users</a>`}
	pg.has(t, append(menu, "<h1>Settings</h1>", `aria-current="page">Settings`, "API keys for scripts")...)
	if ct := pg.header.Get("Content-Security-Policy"); !strings.Contains(ct, "script-src 'self'") {
		t.Errorf("CSP %q", ct)
	}
	pages := []struct {
		path, h1 string
		want     []string
	}{
		{"/settings/profile", "Profile", []string{"Time zone", `<option value="Europe/Paris">`, `value="Ada"`, "Change password", "ada@example.com"}},
		{"/settings/reminders", "Reminders", []string{"Send the digest at", "Notification channels", "Email (your address)"}},
		{"/settings/phone", "Phone and calendar", []string{"CardDAV", "http://example.com/dav/", fmt.Sprintf("/dav/%d/addressbooks/contacts/", ada.ID),
			"Add CardDAV Account", "DAVx⁵", "Calendar feed", "No feed.", ">Create a feed</button>"}},
		{"/settings/data", "Data", []string{`href="/settings/export.json"`, `href="/settings/export.vcf"`, "Import", `enctype="multipart/form-data"`,
			`action="/settings/import"`, `action="/settings/import/vcard"`, `type="file"`}},
		{"/settings/lists", "Lists", []string{"Task categories", "Thank you", "Woman", "uncle or aunt", "Genders", "Relationship types"}},
		{"/settings/security", "Security", []string{"API keys", "test key", "never used", `<label for="key-label">Label`, ">Create key</button>"}},
		{"/settings/users", "Users", []string{"Ada", "ada@example.com", "(you)", `<label for="invite-email">Email`, ">Invite</button>"}},
	}
	for _, p := range pages {
		pg := b.get(p.path)
		pg.status(t, http.StatusOK)
		pg.has(t, append(p.want, "<h1>"+p.h1+"</h1>", `href="`+p.path+`" aria-current="page">`+p.h1+`</a>`, `href="/settings/security"`)...)
		if n := strings.Count(pg.body, "<h1"); n != 1 {
			t.Errorf("%s: %d h1", p.path, n)
		}
		pg.lacks(t, "style=", "<script>")
		if text := pageText(pg.body); strings.Contains(text, "bg-") {
			t.Errorf("%s shows a colour's class:\n%s", p.path, text)
		}
	}

	// Signed out: to the sign-in page.
	for _, path := range []string{"/settings", "/settings/users"} {
		out := e.browser(t).get(path)
		if out.code != http.StatusSeeOther || out.header.Get("Location") != "/login" {
			t.Errorf("signed out: %d %s", out.code, out.header.Get("Location"))
		}
	}
}

func TestWebSettingsProfile(t *testing.T) {
	e := newEnv(t)
	e.user("ada@example.com")
	e.user("bob@example.com")
	b := e.signIn(t, "ada@example.com")
	b.get("/settings")
	ok := url.Values{"first_name": {"Augusta"}, "last_name": {"King"}, "nickname": {"Ada"}, "email": {"ada@example.com"},
		"born_at": {"1815-12-10"}}
	pg := b.post("/settings/profile", ok)
	if pg.code != http.StatusSeeOther || pg.header.Get("Location") != "/settings/profile" {
		t.Fatalf("profile: %d %s", pg.code, pg.body)
	}
	b.follow(pg).has(t, "Profile saved.", `value="Augusta"`, `value="King"`, `value="1815-12-10"`)

	// Changing the email asks for the current password (issue 27, L2).
	move := url.Values{"first_name": {"Augusta"}, "last_name": {"King"}, "email": {"eve@example.com"}}
	pg = b.post("/settings/profile", move)
	pg.status(t, http.StatusUnprocessableEntity)
	pg.has(t, `id="profile-current_password-err">The current password is needed to change the email.`)
	move.Set("current_password", "wrong horse")
	pg = b.post("/settings/profile", move)
	pg.status(t, http.StatusUnprocessableEntity)
	pg.has(t, `id="profile-current_password-err">The password is incorrect.`)
	if n := e.count(`SELECT count(*) FROM users WHERE email = 'eve@example.com'`); n != 0 {
		t.Errorf("the email changed without the password")
	}
	// No email is the form's error, not a change that needs the password;
	// the same address in capitals needs none either.
	pg = b.post("/settings/profile", url.Values{"first_name": {"Augusta"}, "last_name": {"King"}, "email": {""}})
	pg.status(t, http.StatusUnprocessableEntity)
	pg.has(t, `id="profile-email-err">The email field is required.`)
	pg.lacks(t, `id="profile-current_password-err"`)
	pg = b.post("/settings/profile", url.Values{"first_name": {"Augusta"}, "last_name": {"King"}, "email": {"ADA@example.com"}})
	if pg.code != http.StatusSeeOther {
		t.Errorf("the same email in capitals: %d", pg.code)
	}

	bad := url.Values{"first_name": {""}, "last_name": {"King"}, "email": {"bob@example.com"}, "born_at": {"2999-01-01"},
		"current_password": {"correct horse"}}
	pg = b.post("/settings/profile", bad)
	if pg.code != http.StatusUnprocessableEntity {
		t.Fatalf("bad profile: %d %s", pg.code, pg.body)
	}
	pg.has(t, `id="profile-first_name-err">The first name field is required.`,
		`id="profile-born_at-err">The born at field must be a date before or equal to today.`,
		`value="bob@example.com"`, "<details open><summary>Edit profile")
	pg = b.post("/settings/profile", url.Values{"first_name": {"A"}, "last_name": {"K"}, "email": {"bob@example.com"},
		"current_password": {"correct horse"}})
	if pg.code != http.StatusUnprocessableEntity {
		t.Fatalf("taken email: %d", pg.code)
	}
	pg.has(t, `id="profile-email-err">The email has already been taken.`)
	if n := e.count(`SELECT count(*) FROM users WHERE first_name = 'Augusta'`); n != 1 {
		t.Errorf("a refused profile changed the user")
	}

	if pg := b.post("/settings/profile", url.Values{"csrf": {"wrong"}, "first_name": {"Eve"}}); pg.code != http.StatusForbidden {
		t.Errorf("without the token: %d", pg.code)
	}
}

func TestWebSettingsTimezone(t *testing.T) {
	e := newEnv(t)
	e.user("ada@example.com")
	b := e.signIn(t, "ada@example.com")
	b.get("/settings")
	pg := b.post("/settings/timezone", url.Values{"timezone": {"Europe/Paris"}})
	if pg.code != http.StatusSeeOther {
		t.Fatalf("timezone: %d %s", pg.code, pg.body)
	}
	b.follow(pg).has(t, "Time zone set to Europe/Paris.", `<option value="Europe/Paris" selected>`)
	pg = b.post("/settings/timezone", url.Values{"timezone": {"Mars/Olympus_Mons"}})
	if pg.code != http.StatusUnprocessableEntity {
		t.Fatalf("bad timezone: %d", pg.code)
	}
	pg.has(t, `id="timezone-timezone-err">The timezone field must be a valid timezone.`)
	pg = b.post("/settings/timezone", url.Values{"timezone": {""}})
	pg.has(t, `id="timezone-timezone-err">The timezone field is required.`)
	if n := e.count(`SELECT count(*) FROM users WHERE timezone = 'Europe/Paris'`); n != 1 {
		t.Errorf("a refused time zone was kept")
	}
	if pg := b.post("/settings/timezone", url.Values{"csrf": {"wrong"}, "timezone": {"UTC"}}); pg.code != http.StatusForbidden {
		t.Errorf("without the token: %d", pg.code)
	}
}

var tokenShown = regexp.MustCompile(`<code class="secret" id="[a-z-]+">([^<]+)</code>`)

func TestWebSettingsKeys(t *testing.T) {
	e := newEnv(t)
	e.user("ada@example.com")
	_, bobKey := e.user("bob@example.com")
	b := e.signIn(t, "ada@example.com")
	b.get("/settings")
	pg := b.post("/settings/keys", url.Values{"label": {"iPhone"}})
	if pg.code != http.StatusOK {
		t.Fatalf("create key: %d %s", pg.code, pg.body)
	}
	pg.has(t, "Your new key: iPhone", "it is shown once")
	m := tokenShown.FindStringSubmatch(pg.body)
	if m == nil || !strings.Contains(m[1], "|") {
		t.Fatalf("no token on the page:\n%s", pg.body)
	}
	token := m[1]
	if pg.header.Get("Cache-Control") != "no-store" {
		t.Errorf("the token's page may be cached: %q", pg.header.Get("Cache-Control"))
	}
	// The token works, then is never shown again.
	if r := e.do(req{method: "GET", path: "/api/me", key: token}); r.code != 200 {
		t.Errorf("the new token: %d", r.code)
	}
	again := b.get("/settings/security")
	again.lacks(t, token, "Your new key")
	again.has(t, "iPhone", "last used")

	pg = b.post("/settings/keys", url.Values{"label": {""}})
	if pg.code != http.StatusUnprocessableEntity {
		t.Fatalf("empty label: %d", pg.code)
	}
	pg.has(t, `id="key-label-err">The label field is required.`)

	// Another user's key is not found, and stays.
	bobID := strings.Split(bobKey, "|")[0]
	if pg := b.post("/settings/keys/"+bobID+"/delete", nil); pg.code != http.StatusNotFound {
		t.Errorf("another's key: %d", pg.code)
	}
	if r := e.do(req{method: "GET", path: "/api/me", key: bobKey}); r.code != 200 {
		t.Errorf("bob's key was revoked: %d", r.code)
	}
	if pg := b.post("/settings/keys/"+strings.Split(token, "|")[0]+"/delete", url.Values{"csrf": {"wrong"}}); pg.code != http.StatusForbidden {
		t.Errorf("without the token: %d", pg.code)
	}
	pg = b.post("/settings/keys/"+strings.Split(token, "|")[0]+"/delete", nil)
	if pg.code != http.StatusSeeOther {
		t.Fatalf("revoke: %d %s", pg.code, pg.body)
	}
	b.follow(pg).has(t, "Key “iPhone” revoked.")
	if r := e.do(req{method: "GET", path: "/api/me", key: token}); r.code != 401 {
		t.Errorf("a revoked token: %d", r.code)
	}
}

func TestWebSettingsChannels(t *testing.T) {
	rc, got := newReceiver(t)
	e := newEnv(t)
	e.user("ada@example.com")
	_, bobKey := e.user("bob@example.com")
	bobChannel := jsonID(t, e.do(req{method: "POST", path: "/api/me/channels?kind=ntfy&url=" + rc.URL + "/bob", key: bobKey}))
	b := e.signIn(t, "ada@example.com")
	b.get("/settings")

	pg := b.post("/settings/channels", url.Values{"kind": {"ntfy"}, "name": {"Phone"}, "url": {"not a url"}, "enabled": {"0", "1"}})
	if pg.code != http.StatusUnprocessableEntity {
		t.Fatalf("bad channel: %d %s", pg.code, pg.body)
	}
	pg.has(t, `id="channel-url-err">The url field must be a valid URL.`, `value="Phone"`, "<details open><summary>Add a channel")
	pg = b.post("/settings/channels", url.Values{"kind": {"gotify"}, "url": {"https://gotify.example.com"}})
	pg.has(t, `id="channel-token-err">The token field is required when kind is gotify.`)
	pg = b.post("/settings/channels", url.Values{"kind": {"webhook"}, "url": {"https://h.example/x"}, "token": {"short-secret"}})
	pg.has(t, `id="channel-token-err">The token field must be at least 16 characters.`)
	pg.lacks(t, "short-secret")
	pg = b.post("/settings/channels", url.Values{"kind": {"email"}})
	if pg.code != http.StatusUnprocessableEntity {
		t.Fatalf("second email channel: %d", pg.code)
	}
	pg.has(t, `id="channel-kind-err">You already have an email channel.`)
	if pg := b.post("/settings/channels", url.Values{"csrf": {"wrong"}, "kind": {"ntfy"}, "url": {rc.URL + "/ada"}}); pg.code != http.StatusForbidden {
		t.Errorf("without the token: %d", pg.code)
	}

	pg = b.post("/settings/channels", url.Values{"kind": {"ntfy"}, "name": {"Phone"}, "url": {rc.URL + "/ada"}, "enabled": {"0", "1"}})
	if pg.code != http.StatusSeeOther {
		t.Fatalf("add channel: %d %s", pg.code, pg.body)
	}
	pg = b.follow(pg)
	pg.has(t, "Channel added.", "Phone", rc.URL+"/ada", "Nothing sent yet", "Send a test")
	var id string
	if m := regexp.MustCompile(`/settings/channels/(\d+)/test`).FindAllStringSubmatch(pg.body, -1); len(m) == 2 {
		id = m[1][1]
	} else {
		t.Fatalf("want two channels' tests: %v", m)
	}

	// The test reaches the channel; a failing one says why beside it.
	pg = b.post("/settings/channels/"+id+"/test", nil)
	if pg.code != http.StatusSeeOther {
		t.Fatalf("test: %d %s", pg.code, pg.body)
	}
	b.follow(pg).has(t, "Test sent")
	rc.mu.Lock()
	n := len(*got)
	sample := n == 1 && strings.Contains(string((*got)[0].body), "This is a test from Kith")
	rc.mu.Unlock()
	if !sample {
		t.Fatalf("%d requests, want the sample", n)
	}
	rc.setStatus(401)
	pg = b.post("/settings/channels/"+id+"/test", nil)
	if pg.code != http.StatusUnprocessableEntity {
		t.Fatalf("failed test: %d", pg.code)
	}
	pg.has(t, "The channel could not deliver the test: ntfy answered 401 Unauthorized")

	// A webhook without a token gets a secret, shown once.
	pg = b.post("/settings/channels", url.Values{"kind": {"webhook"}, "url": {"https://hooks.example.com/kith"}, "enabled": {"0", "1"}})
	if pg.code != http.StatusOK {
		t.Fatalf("webhook: %d %s", pg.code, pg.body)
	}
	m := tokenShown.FindStringSubmatch(pg.body)
	if m == nil || len(m[1]) != 52 {
		t.Fatalf("no secret shown:\n%s", pg.body)
	}
	b.get("/settings/reminders").lacks(t, m[1])

	pg = b.post("/settings/channels/"+id+"/toggle", nil)
	if pg.code != http.StatusSeeOther {
		t.Fatalf("toggle: %d", pg.code)
	}
	b.follow(pg).has(t, "Channel turned off.", "Turn on")

	// Bob's channel is not found, and is neither tested nor deleted.
	for _, action := range []string{"test", "toggle", "delete"} {
		if pg := b.post("/settings/channels/"+bobChannel+"/"+action, nil); pg.code != http.StatusNotFound {
			t.Errorf("%s bob's channel: %d", action, pg.code)
		}
	}
	rc.mu.Lock()
	n = len(*got)
	rc.mu.Unlock()
	if n != 2 || e.count(`SELECT count(*) FROM channels WHERE id = ? AND enabled`, bobChannel) != 1 {
		t.Errorf("bob's channel was touched: %d requests", n)
	}

	pg = b.post("/settings/channels/"+id+"/delete", nil)
	if pg.code != http.StatusSeeOther {
		t.Fatalf("delete: %d", pg.code)
	}
	b.follow(pg).has(t, "Channel deleted.")
	if pg := b.post("/settings/channels/"+id+"/delete", nil); pg.code != http.StatusNotFound {
		t.Errorf("delete again: %d", pg.code)
	}
}

var feedShown = regexp.MustCompile(`/ical/[A-Z2-7]{52}\.ics`)

func TestWebSettingsCalendarFeed(t *testing.T) {
	e := newEnv(t)
	e.user("ada@example.com")
	b := e.signIn(t, "ada@example.com")
	b.get("/settings")
	if pg := b.post("/settings/calendar", url.Values{"csrf": {"wrong"}}); pg.code != http.StatusForbidden {
		t.Errorf("without the token: %d", pg.code)
	}
	pg := b.post("/settings/calendar", nil)
	if pg.code != http.StatusOK {
		t.Fatalf("create feed: %d %s", pg.code, pg.body)
	}
	pg.has(t, "Your calendar feed", "it is shown once")
	first := feedShown.FindString(pg.body)
	if first == "" {
		t.Fatalf("no feed URL:\n%s", pg.body)
	}
	if r := e.do(req{method: "GET", path: first}); r.code != 200 || !strings.Contains(r.body, "BEGIN:VCALENDAR") {
		t.Errorf("the feed: %d %.200s", r.code, r.body)
	}
	again := b.get("/settings/phone")
	again.lacks(t, first)
	again.has(t, "You have a feed", "Make a new address")

	// A new address voids the old one.
	second := feedShown.FindString(b.post("/settings/calendar", nil).body)
	if second == "" || second == first {
		t.Fatalf("rotate: %q", second)
	}
	if r := e.do(req{method: "GET", path: first}); r.code != 404 {
		t.Errorf("the old feed: %d", r.code)
	}
	if r := e.do(req{method: "GET", path: second}); r.code != 200 {
		t.Errorf("the new feed: %d", r.code)
	}
	pg = b.post("/settings/calendar/delete", nil)
	if pg.code != http.StatusSeeOther {
		t.Fatalf("revoke: %d", pg.code)
	}
	b.follow(pg).has(t, "Calendar feed revoked", "No feed.")
	if r := e.do(req{method: "GET", path: second}); r.code != 404 {
		t.Errorf("the revoked feed: %d", r.code)
	}
	pg = b.post("/settings/calendar/delete", nil)
	if pg.code != http.StatusSeeOther {
		t.Fatalf("revoke none: %d", pg.code)
	}
	b.follow(pg).has(t, "There was no calendar feed to revoke.")
}

func TestWebSettingsExportImport(t *testing.T) {
	e := newEnv(t)
	_, ada := e.user("ada@example.com")
	e.person(ada, "first_name=Grace&last_name=Hopper")
	e.user("bob@example.com")
	e.user("cy@example.com")
	b := e.signIn(t, "ada@example.com")

	doc := b.get("/settings/export.json")
	if doc.code != 200 || doc.header.Get("Content-Type") != "application/json" ||
		!strings.HasPrefix(doc.header.Get("Content-Disposition"), `attachment; filename="kith-export-`) ||
		!strings.Contains(doc.body, `"Grace"`) {
		t.Fatalf("JSON export: %d %v %.300s", doc.code, doc.header, doc.body)
	}
	cards := b.get("/settings/export.vcf")
	if cards.code != 200 || cards.header.Get("Content-Type") != "text/vcard; charset=utf-8" ||
		!strings.Contains(cards.header.Get("Content-Disposition"), "kith-contacts.vcf") ||
		!strings.Contains(cards.body, "BEGIN:VCARD") || !strings.Contains(cards.body, "VERSION:4.0") || !strings.Contains(cards.body, "Hopper") {
		t.Fatalf("vCard export: %d %v %.300s", cards.code, cards.header, cards.body)
	}
	if v3 := b.get("/settings/export.vcf?version=3.0"); !strings.Contains(v3.body, "VERSION:3.0") {
		t.Errorf("vCard 3.0: %.200s", v3.body)
	}
	if out := e.browser(t).get("/settings/export.json"); out.code != http.StatusSeeOther {
		t.Errorf("export signed out: %d", out.code)
	}

	// Bob restores Ada's export into his empty account.
	bob := e.signIn(t, "bob@example.com")
	bob.get("/settings")
	if pg := bob.upload("/settings/import", "export.json", []byte(doc.body), "wrong"); pg.code != http.StatusForbidden {
		t.Errorf("import without the token: %d", pg.code)
	}
	pg := bob.upload("/settings/import", "", nil)
	if pg.code != http.StatusUnprocessableEntity {
		t.Fatalf("no file: %d %s", pg.code, pg.body)
	}
	pg.has(t, `id="import-file-err">The file field is required.`)
	pg = bob.upload("/settings/import", "export.json", []byte("not json"))
	pg.has(t, `id="import-file-err">The file is not valid JSON.`)
	pg = bob.upload("/settings/import", "export.json", []byte(strings.Replace(doc.body, `"Grace"`, `""`, 1)))
	if pg.code != http.StatusUnprocessableEntity {
		t.Fatalf("bad document: %d %s", pg.code, pg.body)
	}
	pg.has(t, `<p class="error" role="alert">persons.0: The first name field is required.</p>`)
	pg = bob.upload("/settings/import", "export.json", []byte(doc.body))
	if pg.code != http.StatusOK {
		t.Fatalf("import: %d %s", pg.code, pg.body)
	}
	pg.has(t, "Import done", "<dt>People</dt><dd>1</dd>")
	bob.get("/people").has(t, "Grace Hopper")
	pg = bob.upload("/settings/import", "export.json", []byte(doc.body))
	if pg.code != http.StatusConflict {
		t.Fatalf("import again: %d", pg.code)
	}
	pg.has(t, "This account has persons already")

	// Cy imports Ada's cards, and a card that is no person.
	cy := e.signIn(t, "cy@example.com")
	cy.get("/settings")
	pg = cy.upload("/settings/import/vcard", "contacts.vcf", []byte("hello"))
	if pg.code != http.StatusUnprocessableEntity {
		t.Fatalf("no vCard: %d %s", pg.code, pg.body)
	}
	pg.has(t, `id="vcard-file-err">The file must be a vCard file`)
	pg = cy.upload("/settings/import/vcard", "", nil)
	pg.has(t, `id="vcard-file-err">The file field is required.`)
	file := cards.body + "BEGIN:VCARD\r\nVERSION:3.0\r\nNOTE:nobody\r\nEND:VCARD\r\n"
	pg = cy.upload("/settings/import/vcard", "contacts.vcf", []byte(file))
	if pg.code != http.StatusOK {
		t.Fatalf("vCard import: %d %s", pg.code, pg.body)
	}
	pg.has(t, "Contacts imported", "<dt>Created</dt><dd>1</dd>", "<dt>Skipped</dt><dd>1</dd>", "Card 2")
	cy.get("/people").has(t, "Grace Hopper")

	// A file over the forms' 1 MiB gets the API's import limit.
	big := "BEGIN:VCARD\r\nVERSION:3.0\r\nFN:Big Note\r\nN:Note;Big;;;\r\nNOTE:" + strings.Repeat("x", input.MaxBodyBytes+100) + "\r\nEND:VCARD\r\n"
	pg = cy.upload("/settings/import/vcard", "big.vcf", []byte(big))
	if pg.code != http.StatusOK {
		t.Errorf("a file over 1 MiB: %d %.300s", pg.code, pg.body)
	}
	huge := bytes.Repeat([]byte("x"), maxVCardImportBytes+1)
	if pg := cy.upload("/settings/import/vcard", "huge.vcf", huge); pg.code != http.StatusRequestEntityTooLarge {
		t.Errorf("a file over the limit: %d", pg.code)
	}
}

func TestWebSettingsReminders(t *testing.T) {
	e := newEnv(t)
	_, key := e.user("ada@example.com")
	b := e.signIn(t, "ada@example.com")
	pg := b.get("/settings/reminders")
	pg.has(t, `<h2 id="reminders-h">Daily digest</h2>`, `id="reminders-send_at"`, `name="days" value="7"`)

	pg = b.follow(b.post("/settings/reminders", url.Values{"send_at": {"07:30"}, "days": {"14"}}))
	pg.has(t, "Reminders saved.", `name="send_at" value="07:30"`, `name="days" value="14"`)
	if got := e.do(req{method: "GET", path: "/api/me/reminders", key: key}).body; !strings.Contains(got, `"send_at":"07:30"`) || !strings.Contains(got, `"days":14`) {
		t.Errorf("the API shows %s", got)
	}

	pg = b.post("/settings/reminders", url.Values{"send_at": {"7h"}, "days": {"400"}})
	if pg.code != http.StatusUnprocessableEntity {
		t.Fatalf("bad input: %d", pg.code)
	}
	pg.has(t, `id="reminders-send_at-err">The send at field must match the format H:i.`,
		`id="reminders-days-err">The days field must be between 0 and 365.`, `value="7h"`)
	if got := e.do(req{method: "GET", path: "/api/me/reminders", key: key}).body; !strings.Contains(got, `"send_at":"07:30"`) {
		t.Errorf("a refused form changed the settings: %s", got)
	}
	if pg := b.post("/settings/reminders", url.Values{"csrf": {"wrong"}, "days": {"3"}}); pg.code != http.StatusForbidden {
		t.Errorf("without the token: %d", pg.code)
	}
}

// TestWebPasswordChange: Settings changes the password behind the current
// one, checked as a sign-in is: a wrong one is the form's error and counts
// toward the login throttle; the right one changes it, signs out the
// user's other browsers and keeps this one, their API keys and phones.
func TestWebPasswordChange(t *testing.T) {
	e := newEnv(t)
	_, key := e.user("ada@example.com")
	other := e.signIn(t, "ada@example.com")
	b := e.signIn(t, "ada@example.com")
	b.get("/settings/profile").has(t, "Change password", "Current password", "New password")

	pg := b.post("/settings/password", url.Values{"current_password": {"wrong horse"}, "new_password": {"battery staple"}})
	pg.status(t, http.StatusUnprocessableEntity)
	pg.has(t, "The password is incorrect.")
	pg = b.post("/settings/password", url.Values{"current_password": {"correct horse"}, "new_password": {"short"}})
	pg.status(t, http.StatusUnprocessableEntity)
	pg.has(t, "The new password field must be at least 8 characters.")
	pg = b.post("/settings/password", url.Values{"new_password": {"battery staple"}})
	pg.status(t, http.StatusUnprocessableEntity)
	pg.has(t, "The current password field is required.")
	if pg := b.post("/settings/password", url.Values{"csrf": {"forged"}, "current_password": {"correct horse"}, "new_password": {"battery staple"}}); pg.code != http.StatusForbidden {
		t.Errorf("without the form's token: %d", pg.code)
	}
	if pg := other.get("/"); pg.code != http.StatusOK {
		t.Errorf("a refused change signed the other browser out: %d", pg.code)
	}

	pg = b.post("/settings/password", url.Values{"current_password": {"correct horse"}, "new_password": {"battery staple"}})
	pg.redirects(t, "/settings/profile#password")
	b.follow(pg).has(t, "Password changed.")
	if r := e.do(req{method: "POST", path: "/api/login?email=ada@example.com&password=correct+horse"}); r.code != 401 {
		t.Errorf("the old password: %d", r.code)
	}
	if r := e.do(req{method: "POST", path: "/api/login?email=ada@example.com&password=battery+staple"}); r.code != 200 {
		t.Errorf("the new password: %d %s", r.code, r.body)
	}
	if pg := other.get("/"); pg.code != http.StatusSeeOther {
		t.Errorf("the other browser after the change: %d", pg.code)
	}
	b.get("/").status(t, http.StatusOK)
	if r := e.do(req{method: "GET", path: "/api/me", key: key}); r.code != 200 {
		t.Errorf("the API key after the change: %d", r.code)
	}

	// Wrong current passwords meet the sign-in's throttle.
	for range 5 {
		b.post("/settings/password", url.Values{"current_password": {"guess"}, "new_password": {"battery staple 2"}})
	}
	pg = b.post("/settings/password", url.Values{"current_password": {"battery staple"}, "new_password": {"battery staple 2"}})
	pg.status(t, http.StatusTooManyRequests)
	pg.has(t, "Too many attempts.")
	if !regexp.MustCompile(`Try again in \d+ seconds?\.`).MatchString(pg.body) {
		t.Errorf("the throttled form does not say how long to wait:\n%s", pg.body)
	}
	if _, err := e.st.Login(t.Context(), "ada@example.com", "battery staple"); err != nil {
		t.Errorf("the throttled change changed the password: %v", err)
	}
	if n := e.count(`SELECT count(*) FROM web_sessions`); n != 1 {
		t.Errorf("%d web sessions after the throttled change, want this browser's alone", n)
	}
}
