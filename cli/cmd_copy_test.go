package cli

import (
	"context"
	"database/sql"
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"net/url"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/rs/zerolog"

	"kith/rate"
	"kith/server"
	"kith/server/mail"
	"kith/server/photo/phototest"
	"kith/server/remind"
	"kith/server/totp"
	"kith/store"
	"kith/store/storetest"
)

// TestCopyRoundTrip: `kith copy` round trip SQLite → PostgreSQL → SQLite
// gives identical API answers for every resource.
func TestCopyRoundTrip(t *testing.T) {
	base := os.Getenv("KITH_TEST_POSTGRES_URL")
	if base == "" {
		t.Skip("KITH_TEST_POSTGRES_URL is not set: the round trip through PostgreSQL is not tested")
	}
	dir := t.TempDir()
	first, middle, last := filepath.Join(dir, "first.db"), storetest.Schema(t, base), filepath.Join(dir, "last.db")
	if code, _, errOut := runKith("user", "create", "--db", first, "--email", "ada@example.com",
		"--first-name", "Ada", "--last-name", "Lovelace", "--password", "correct horse"); code != 0 {
		t.Fatalf("user create: %s", errOut)
	}
	a := openAPI(t, first)
	token, paths, highest := fillEveryTable(t, a)
	a.close()

	for _, hop := range [][2]string{{first, middle}, {middle, last}} {
		code, out, errOut := runKith("copy", "--from", hop[0], "--to", hop[1])
		if code != 0 || !strings.Contains(out, " complete: "+fmt.Sprint(totalRows(out))+" rows in ") {
			t.Fatalf("copy %s: exit %d\n%s%s", store.Redacted(hop[1]), code, out, errOut)
		}
		for _, line := range strings.Split(strings.TrimSpace(out), "\n") {
			if strings.HasSuffix(line, ": 0 rows") {
				t.Errorf("%s: the test must fill every table", line)
			}
		}
	}

	want := openAPI(t, first).answers(token, paths)
	for _, db := range []string{middle, last} {
		c := openAPI(t, db)
		got := c.answers(token, paths)
		for i, path := range paths {
			if got[i] != want[i] {
				t.Errorf("GET %s on %s:\n%s\nwhere the original answers:\n%s", path, store.Redacted(db), got[i], want[i])
			}
		}
		// Logging in makes a key, and creating a person a person, each
		// after the highest id copied, deleted or not.
		code, body := c.do(http.MethodPost, "/api/login", "", `{"email":"ada@example.com","password":"correct horse"}`)
		if key := idOf(t, body, "token"); code != 200 || key <= highest["api_keys"] {
			t.Errorf("login on %s: %d %s, want a key above %d", store.Redacted(db), code, body, highest["api_keys"])
		}
		code, body = c.do(http.MethodPost, "/api/persons", token, `{"first_name":"New"}`)
		if id := idOf(t, body, "id"); code != 201 || id <= highest["persons"] {
			t.Errorf("a new person on %s: %d %s, want an id above %d", store.Redacted(db), code, body, highest["persons"])
		}
	}
}

// fillEveryTable puts rows in every table through the API, as Ada (the
// user made before), and returns her token, the GET paths that show them
// all, and the highest ids given of persons and keys, deleted or not.
func fillEveryTable(t *testing.T, a *api) (token string, paths []string, highest map[string]int64) {
	_, body := a.must(200, http.MethodPost, "/api/login", "", `{"email":"ada@example.com","password":"correct horse"}`)
	token = tokenOf(t, body)
	a.must(200, http.MethodPut, "/api/me/timezone?timezone=Europe/Paris", token, "")
	key := a.create("/api/administration/api?label=Phone", token, "")
	cat := a.create("/api/administration/task-categories?name=Visit&color=bg-pink-100", token, "")
	gender := a.create("/api/administration/genders?name=Nonbinary", token, "")
	p := a.create("/api/persons", token, `{"first_name":"Michael","last_name":"Scott","how_we_met":"Work","marital_status":"single","gender_id":`+gender+`}`)
	pp := "/api/persons/" + p
	a.must(200, http.MethodPatch, pp+"/physical-appearance?height=180cm&eye_color=blue", token, "")
	a.must(200, http.MethodPatch, pp+"/age?age_type=exact&age_year=1964&age_month=3&age_day=15&add_yearly_reminder=1", token, "")
	task := a.create(pp+"/tasks?name=Call+Michael&due_at=2026-12-01&task_category_id="+cat, token, "")
	a.must(200, http.MethodPut, "/api/tasks/"+task+"/toggle", token, "")
	a.create(pp+"/tasks?name=Lunch", token, "")
	note := a.create(pp+"/notes", token, `{"content":"Loves paper.\nHates pretzels."}`)
	gift := a.create(pp+"/gifts?name=Mug&status=given&occasion=Birthday&url=https://example.com/mug&date=2026-03-15", token, "")
	event := a.create(pp+"/life-events?description=Promoted&happened_at=2005-03-24&should_be_reminded=1", token, "")
	work := a.create(pp+"/work-history?job_title=Regional+Manager&company_name=Dunder+Mifflin&active=1", token, "")
	detail := a.create(pp+"/contact-details", token, `{"kind":"address","label":"work","street":"1725 Slough Avenue\nSuite 200","city":"Scranton","country":"us"}`)
	a.create(pp+"/contact-details?kind=social&network=mastodon&value=@michael@example.social&position=-1", token, "")
	date := a.create(pp+"/important-dates?label=anniversary&date=--02-29&remind_yearly=1", token, "")
	a.must(200, http.MethodPut, pp+"/stay-in-touch?every_days=30", token, "")
	a.must(200, http.MethodPut, pp+"/tags", token, `{"tags":["Book club","Smith, Jones & Co"]}`)
	_, body = a.must(200, http.MethodGet, "/api/tags", token, "")
	var tags struct{ Data []struct{ ID int64 } }
	if err := json.Unmarshal([]byte(body), &tags); err != nil || len(tags.Data) != 2 {
		t.Fatalf("tags: %v %s", err, body)
	}
	a.must(200, http.MethodPut, pp+"/photo", token, string(phototest.PNG(phototest.Quadrants(40, 20))))
	interaction := a.create(pp+"/interactions?happened_on=2026-03-14&kind=call&note=Planned+the+trip", token, "")
	a.must(200, http.MethodPut, "/api/me/reminders?send_at=07:45&days=10", token, "")
	channel := a.create("/api/me/channels?kind=ntfy&url=https://ntfy.sh/michael&token=tk&enabled=0", token, "")
	journal := a.create("/api/journals?name=My+Travel+Journal", token, "")
	dwight := a.create("/api/persons?first_name=Dwight&last_name=Schrute", token, "")
	relType := a.create("/api/administration/relationship-types?name=boss&name_reverse=employee&group=work", token, "")
	a.create(pp+"/relationships?relationship_type_id="+relType+"&person_id="+dwight, token, "")
	a.must(201, http.MethodGet, "/api/journals/"+journal+"/2026/3/15", token, "")
	// The calendar feed: its secret's hash moves, so the same URL answers
	// the same on every copy; its first fetch records an ETag.
	_, body = a.must(201, http.MethodPost, "/api/me/calendar-feed", token, "")
	var feed struct{ Data struct{ URL string } }
	if err := json.Unmarshal([]byte(body), &feed); err != nil || !strings.HasPrefix(feed.Data.URL, "http://kith.test/ical/") {
		t.Fatalf("calendar feed: %v %s", err, body)
	}
	feedPath := strings.TrimPrefix(feed.Data.URL, "http://kith.test")
	a.must(200, http.MethodGet, feedPath, "", "")
	reminder := a.create(pp+"/reminders?label=Call+about+the+flat&starts_on=2026-03-31&frequency=monthly&until=2027-03-31", token, "")
	// Ada's snooze of Michael's birthday, by a digest's link: the links'
	// key, the used link and the snooze.
	ada, err := a.st.UserByEmail(context.Background(), "ada@example.com")
	if err != nil {
		t.Fatal(err)
	}
	linkKey, err := a.st.ActionSecret(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	pid, _ := strconv.ParseInt(p, 10, 64)
	link := remind.SignAction(linkKey, remind.Action{UserID: ada.ID, Do: store.ActionSnooze, Kind: "birthday", Ref: pid,
		Day: "2026-03-15", Expires: copyClock.Unix() + store.ActionLinkLife, Title: "Birthday of Michael Scott (62)"})
	a.must(200, http.MethodPost, "/actions/"+link, "", "")
	// Her mail-in address and a passkey.
	if _, err := a.st.MailInSecret(context.Background(), ada.ID); err != nil {
		t.Fatal(err)
	}
	if _, err := a.st.PasskeyHandle(context.Background(), ada.ID); err != nil {
		t.Fatal(err)
	}
	if _, err := a.st.AddPasskey(context.Background(), store.Passkey{UserID: ada.ID, CredentialID: []byte("credential of ada's laptop"),
		PublicKey: []byte("a COSE key"), SignCount: 3, Flags: 0x45, Transports: []string{"internal"}, AAGUID: make([]byte, 16), Name: "Laptop"}); err != nil {
		t.Fatal(err)
	}
	gone := a.create("/api/persons", token, `{"first_name":"Gone"}`)
	a.must(204, http.MethodDelete, "/api/persons/"+gone, token, "")

	// Bob stays invited; Carol joins, then changes her email, which waits
	// for its verification.
	a.must(201, http.MethodPost, "/api/administration/users", token, `{"email":"bob@example.com","first_name":"Bob","last_name":"Invited"}`)
	a.must(201, http.MethodPost, "/api/administration/users", token, `{"email":"carol@example.com","first_name":"Carol","last_name":"Joined"}`)
	a.must(200, http.MethodPost, "/api/invitations/accept", "", `{"token":"`+a.link(t, "carol@example.com")+`","password":"carol's password"}`)
	_, body = a.must(200, http.MethodPost, "/api/login", "", `{"email":"carol@example.com","password":"carol's password"}`)
	carol := tokenOf(t, body)
	// Carol turns two-factor on: a secret and its recovery codes.
	_, body = a.must(201, http.MethodPost, "/api/me/two-factor", carol, "")
	var setup struct{ Data struct{ Secret string } }
	if err := json.Unmarshal([]byte(body), &setup); err != nil || setup.Data.Secret == "" {
		t.Fatalf("two-factor setup: %v %s", err, body)
	}
	a.must(200, http.MethodPost, "/api/me/two-factor/confirm", carol,
		`{"code":"`+totp.Code(setup.Data.Secret, totp.Step(copyClock))+`"}`)
	a.must(200, http.MethodPut, "/api/me", carol, `{"first_name":"Carol","last_name":"Joined","email":"carol.new@example.com"}`)

	_, body = a.must(200, http.MethodGet, "/api/administration/logs", token, "")
	var logs struct{ Data []struct{ ID string } }
	if err := json.Unmarshal([]byte(body), &logs); err != nil || len(logs.Data) == 0 {
		t.Fatalf("logs: %v %s", err, body)
	}
	paths = []string{
		"/api/me", "/api/me/timezone", "/api/me/reminders", "/api/me/channels", "/api/me/channels/" + channel,
		"/api/administration/api", "/api/administration/api/" + key,
		"/api/persons", pp, pp + "/tasks", pp + "/tasks/" + task, pp + "/notes", pp + "/notes/" + note,
		pp + "/gifts", pp + "/gifts/" + gift, pp + "/life-events", pp + "/life-events/" + event,
		pp + "/work-history", pp + "/work-history/" + work,
		pp + "/contact-details", pp + "/contact-details/" + detail,
		pp + "/important-dates", pp + "/important-dates/" + date, pp + "/stay-in-touch",
		pp + "/interactions", pp + "/interactions/" + interaction, pp + "/photo",
		"/api/administration/task-categories", "/api/administration/task-categories/" + cat,
		"/api/administration/genders", "/api/administration/genders/" + gender,
		"/api/journals", "/api/journals/" + journal, "/api/journals/" + journal + "/2026/3/15",
		"/api/journals/" + journal + "/entries/2026/3/15", "/api/journals/" + journal + "/entries",
		// The totals of these lists are counts kept by triggers (migration
		// 0041), which the copy skips and the target's triggers count anew.
		"/api/tasks", "/api/tasks?is_completed=0", "/api/tasks?has_due_date=1",
		"/api/administration/logs", "/api/administration/logs?page=2", "/api/administration/logs/" + logs.Data[0].ID,
		"/api/me/calendar-feed", feedPath, "/api/me/two-factor",
		"/api/administration/relationship-types", "/api/administration/relationship-types/" + relType,
		pp + "/relationships", "/api/persons/" + dwight + "/relationships",
		"/api/tags", "/api/tags/" + fmt.Sprint(tags.Data[1].ID), "/api/persons?tag=book+club",
		pp + "/reminders", pp + "/reminders/" + reminder, "/api/reminders/upcoming?days=30", "/api/me/passkeys",
	}
	goneID, _ := strconv.ParseInt(gone, 10, 64)
	carolKey, _ := strconv.ParseInt(strings.Split(carol, "|")[0], 10, 64)
	return token, paths, map[string]int64{"persons": goneID, "api_keys": carolKey}
}

// api is the server on one database, with a fixed clock, so that every
// database answers the same at any moment of the test.
type api struct {
	t    *testing.T
	st   *store.Store
	srv  *server.Server
	mail *mailbox
}

var copyClock = time.Date(2026, 3, 15, 12, 0, 0, 0, time.UTC)

func openAPI(t *testing.T, db string) *api {
	t.Helper()
	st, err := store.Open(context.Background(), db)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { st.Close() })
	st.Now = func() time.Time { return copyClock }
	st.PasswordCost = 4 // bcrypt's minimum, for Carol's password
	mail := &mailbox{}
	srv := server.New(server.Options{
		Store: st, Limiter: rate.New(0), Logins: rate.NewAttempts(5, time.Minute), Mailer: mail,
		Logger: zerolog.Nop(), BaseURL: "http://kith.test",
	})
	return &api{t: t, st: st, srv: srv, mail: mail}
}

func (a *api) close() {
	if err := a.st.Close(); err != nil {
		a.t.Fatal(err)
	}
}

func (a *api) do(method, path, token, body string) (int, string) {
	r := httptest.NewRequest(method, path, strings.NewReader(body))
	if strings.HasPrefix(body, "{") {
		r.Header.Set("Content-Type", "application/json")
	} // any other body goes without a type: a photo's bytes

	r.Header.Set("Accept", "application/json")
	if token != "" {
		r.Header.Set("Authorization", "Bearer "+token)
	}
	rec := httptest.NewRecorder()
	a.srv.ServeHTTP(rec, r)
	return rec.Code, rec.Body.String()
}

// must is do that fails the test unless the answer has the status code.
func (a *api) must(code int, method, path, token, body string) (int, string) {
	a.t.Helper()
	got, out := a.do(method, path, token, body)
	if got != code {
		a.t.Fatalf("%s %s: %d (want %d) %s", method, path, got, code, out)
	}
	return got, out
}

// create POSTs and returns the new row's id.
func (a *api) create(path, token, body string) string {
	a.t.Helper()
	_, out := a.must(201, http.MethodPost, path, token, body)
	return fmt.Sprint(idOf(a.t, out, "id"))
}

// answers GETs each path and returns the status and body of each.
func (a *api) answers(token string, paths []string) []string {
	out := make([]string, len(paths))
	for i, p := range paths {
		code, body := a.do(http.MethodGet, p, token, "")
		out[i] = fmt.Sprintf("%d %s", code, body)
	}
	return out
}

// link returns the token of the last link mailed to the address.
func (a *api) link(t *testing.T, to string) string {
	t.Helper()
	if err := a.srv.WaitForMail(context.Background()); err != nil {
		t.Fatal(err)
	}
	a.mail.mu.Lock()
	defer a.mail.mu.Unlock()
	for i := len(a.mail.sent) - 1; i >= 0; i-- {
		if m := a.mail.sent[i]; m.To == to {
			if found := tokenParam.FindStringSubmatch(m.Text); found != nil {
				tok, err := url.QueryUnescape(found[1])
				if err != nil {
					t.Fatal(err)
				}
				return tok
			}
		}
	}
	t.Fatalf("no link mailed to %s", to)
	return ""
}

var tokenParam = regexp.MustCompile(`token=(\S+)`)

// mailbox keeps the mails the server sends.
type mailbox struct {
	mu   sync.Mutex
	sent []mail.Message
}

func (m *mailbox) Send(_ context.Context, msg mail.Message) error {
	m.mu.Lock()
	defer m.mu.Unlock()
	m.sent = append(m.sent, msg)
	return nil
}

// idOf reads data.<field> of a body: a number, or a string that starts
// with one ("3" or a token "3|…").
func idOf(t *testing.T, body, field string) int64 {
	t.Helper()
	var b struct{ Data map[string]any }
	if err := json.Unmarshal([]byte(body), &b); err != nil {
		t.Fatalf("%v: %s", err, body)
	}
	v := fmt.Sprint(b.Data[field])
	n, err := strconv.ParseInt(strings.Split(v, "|")[0], 10, 64)
	if err != nil {
		t.Fatalf("data.%s of %s", field, body)
	}
	return n
}

func tokenOf(t *testing.T, body string) string {
	t.Helper()
	var b struct{ Data struct{ Token string } }
	if err := json.Unmarshal([]byte(body), &b); err != nil || b.Data.Token == "" {
		t.Fatalf("no token in %s", body)
	}
	return b.Data.Token
}

// totalRows adds up the "table: N rows" lines of a copy's output.
func totalRows(out string) int64 {
	var total int64
	for _, line := range strings.Split(out, "\n") {
		var n int64
		if _, rows, ok := strings.Cut(line, ": "); ok && strings.HasSuffix(rows, " rows") {
			fmt.Sscanf(rows, "%d rows", &n)
		}
		total += n
	}
	return total
}

func TestCopyRefuses(t *testing.T) {
	dir := t.TempDir()
	withUser := func(name string) string {
		db := filepath.Join(dir, name)
		if code, _, errOut := runKith("user", "create", "--db", db, "--email", name+"@example.com",
			"--first-name", "A", "--last-name", "B", "--password", "password1"); code != 0 {
			t.Fatalf("user create: %s", errOut)
		}
		return db
	}
	src, full := withUser("src.db"), withUser("full.db")
	older, newer := withUser("older.db"), withUser("newer.db")
	execSQLite(t, older, `DELETE FROM schema_migrations WHERE version = (SELECT max(version) FROM schema_migrations)`)
	execSQLite(t, newer, `INSERT INTO schema_migrations (version, name, applied_at) VALUES (9999, '9999_future', 0)`)
	abs, err := filepath.Abs(src)
	if err != nil {
		t.Fatal(err)
	}
	fresh := func() string { return filepath.Join(t.TempDir(), "new.db") }
	for _, tc := range []struct {
		name string
		args []string
		want string
	}{
		{"without --from", []string{"--to", fresh()}, "copy needs --from DB\n"},
		{"without --to", []string{"--from", src}, "copy needs --to DB\n"},
		{"without either", nil, "copy needs --from DB and --to DB\n"},
		{"with --db", []string{"--db", src, "--from", src, "--to", fresh()}, "copy takes --from and --to, not --db"},
		{"the same database", []string{"--from", src, "--to", "sqlite:" + abs}, "--from and --to both name " + src},
		{"a source that does not exist", []string{"--from", filepath.Join(dir, "typo.db"), "--to", fresh()}, "typo.db: no such database file"},
		{"a target with data", []string{"--from", src, "--to", full}, "the target database is not empty: table accounts has rows"},
		{"a source at an older schema version", []string{"--from", older, "--to", fresh()}, "older than this kith's " + fmt.Sprint(latestVersion(t)) + ": run kith migrate --db " + older + " first"},
		{"a source at a newer schema version", []string{"--from", newer, "--to", fresh()}, "newer than this kith knows"},
		// The password of a URL is never shown, not even when it fails.
		{"an unreachable target", []string{"--from", src, "--to", "postgres://kith:sekrit@127.0.0.1:1/kith?connect_timeout=5"}, "postgres://kith:xxxxx@127.0.0.1:1/kith"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			code, out, errOut := runKith(append([]string{"copy"}, tc.args...)...)
			if code != 1 || out != "" || !strings.Contains(errOut, tc.want) || strings.Contains(errOut, "sekrit") {
				t.Errorf("exit %d, stdout %q, stderr %q; want 1 and %q", code, out, errOut, tc.want)
			}
		})
	}
	if _, err := os.Stat(filepath.Join(dir, "typo.db")); err == nil {
		t.Error("a copy from a missing file made it")
	}
	if n := countSQLite(t, full, `SELECT count(*) FROM users`); n != 1 {
		t.Errorf("the refused target has %d users, want its 1", n)
	}
}

// latestVersion is the schema version of a database that kith migrated.
func latestVersion(t *testing.T) int {
	t.Helper()
	db := filepath.Join(t.TempDir(), "latest.db")
	if code, _, errOut := runKith("migrate", "--db", db); code != 0 {
		t.Fatal(errOut)
	}
	return countSQLite(t, db, `SELECT max(version) FROM schema_migrations`)
}

// countSQLite runs a query for one number on the SQLite database at path.
func countSQLite(t *testing.T, path, query string) int {
	t.Helper()
	db, err := sql.Open("sqlite", path)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	var n int
	if err := db.QueryRow(query).Scan(&n); err != nil {
		t.Fatalf("%s: %v", query, err)
	}
	return n
}

// execSQLite runs a statement on the SQLite database at path.
func execSQLite(t *testing.T, path, query string) {
	t.Helper()
	db, err := sql.Open("sqlite", path)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	if _, err := db.Exec(query); err != nil {
		t.Fatalf("%s: %v", query, err)
	}
}
