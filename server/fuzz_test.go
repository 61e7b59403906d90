package server

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/emersion/go-vcard"

	"kith/server/input"
)

// The fuzz targets feed arbitrary input to the parameter layer and to every
// write route, through the real router on a real database. Whatever comes
// in, the answer is never a panic or a 5xx, and an error always has the
// contract's shape. Plain "go test" runs the seeds below and the corpora
// in testdata/fuzz; "go test -fuzz FuzzX ./server" explores.

// checkAnswer fails unless r is a non-5xx JSON answer and, when an error,
// exactly {"message", "status"[, "errors"]} with status matching the code.
func checkAnswer(t *testing.T, what string, r resp) {
	t.Helper()
	if r.code >= 500 {
		t.Fatalf("%s: %d %s", what, r.code, r.body)
	}
	if r.code == 204 {
		return
	}
	if !json.Valid([]byte(r.body)) {
		t.Fatalf("%s: %d, body not JSON: %q", what, r.code, r.body)
	}
	if r.code < 400 {
		return
	}
	var body map[string]json.RawMessage
	if err := json.Unmarshal([]byte(r.body), &body); err != nil {
		t.Fatalf("%s: error body not an object: %s", what, r.body)
	}
	var e struct {
		Message string              `json:"message"`
		Status  int                 `json:"status"`
		Errors  map[string][]string `json:"errors"`
	}
	if err := json.Unmarshal([]byte(r.body), &e); err != nil {
		t.Fatalf("%s: error body of the wrong types: %v: %s", what, err, r.body)
	}
	want := 2
	if _, ok := body["errors"]; ok {
		want = 3
		if r.code != 422 || len(e.Errors) == 0 {
			t.Fatalf("%s: errors on a %d, or empty: %s", what, r.code, r.body)
		}
	}
	if len(body) != want || e.Message == "" || e.Status != r.code {
		t.Fatalf("%s: %d with error body %s", what, r.code, r.body)
	}
}

// fuzzEnv is one server for a whole fuzz target, with one user, a person
// and a task to aim at: opening a database per input would fuzz SQLite's
// file creation instead of Kith.
type fuzzEnv struct {
	*env
	key string
}

func newFuzzEnv(f *testing.F) *fuzzEnv {
	e := newEnv(f)
	_, key := e.user("ada@example.com")
	e.person(key, "first_name=Jim&can_be_deleted=0")
	e.task(key, "1", "name=Call")
	e.lifeEvent(key, "1", "description=Wedding&happened_at=2020-06-01")
	e.workEntry(key, "1", "job_title=Salesman&active=1")
	e.note(key, "1", "Likes tea")
	e.gift(key, "1", "name=Teapot&status=idea")
	e.contactDetail(key, "1", "kind=phone&value=555-0100")
	e.importantDate(key, "1", "label=met&date=2020-06-01")
	e.interaction(key, "1", "happened_on=2026-03-01&kind=call")
	return &fuzzEnv{env: e, key: key}
}

// send is one fuzzed request: the route's method and path, then the
// fuzzer's query string, body and Content-Type.
func (fe *fuzzEnv) send(t *testing.T, method, path, query, body, ctype string) {
	fe.t = t
	query = urlEscape(query)
	r := fe.do(req{method: method, path: path + "?" + query, key: fe.key, body: body, ctype: ctype})
	checkAnswer(t, method+" "+path, r)
	if r.code == 200 && path == "/api/me" {
		fe.reverify(t)
	}
}

// reverify undoes an email change, so that one input that changes the
// email does not lock every input after it out with a 403.
func (fe *fuzzEnv) reverify(t *testing.T) {
	ctx := context.Background()
	sess, err := fe.st.Authenticate(ctx, fe.key)
	if err != nil {
		t.Fatal(err)
	}
	if !sess.Verified {
		u, err := fe.st.User(ctx, sess.UserID)
		if err != nil {
			t.Fatal(err)
		}
		if _, err := fe.st.MarkVerified(ctx, u.Email); err != nil {
			t.Fatal(err)
		}
	}
}

// urlEscape keeps a fuzzed query string a query string: httptest refuses
// a request line with spaces or control characters outright.
func urlEscape(s string) string {
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c <= ' ' || c >= 0x7f || c == '#' {
			fmt.Fprintf(&b, "%%%02X", c)
			continue
		}
		b.WriteByte(c)
	}
	return b.String()
}

var ctypes = []string{"application/json", "application/x-www-form-urlencoded", "multipart/form-data; boundary=X", "text/plain", ""}

// pick chooses among n things by a fuzzed byte.
func pick(b uint8, n int) int { return int(b) % n }

type route struct{ method, path string }

func fuzzRoutes(f *testing.F, routes []route, seeds [][2]string) {
	fe := newFuzzEnv(f)
	for i := range routes {
		for _, s := range seeds {
			for c := range ctypes {
				f.Add(uint8(i), s[0], s[1], uint8(c))
			}
		}
	}
	f.Fuzz(func(t *testing.T, which uint8, query, body string, ctype uint8) {
		rt := routes[pick(which, len(routes))]
		fe.send(t, rt.method, rt.path, query, body, ctypes[pick(ctype, len(ctypes))])
	})
}

func FuzzPersonWrites(f *testing.F) {
	fuzzRoutes(f, []route{
		{"POST", "/api/persons"}, {"PUT", "/api/persons/1"},
		{"PATCH", "/api/persons/1/physical-appearance"}, {"PATCH", "/api/persons/1/age"},
	}, [][2]string{
		{"first_name=Jim&last_name=Halpert&gender=male", `{"first_name":"Jim","born_at":"1978-10-01","is_listed":"1"}`},
		{"age_type=exact&age_year=1978&age_month=2&age_day=29", `{"age_type":"estimated","age_estimated":"30"}`},
		{"age_type=bracket&age_bracket=20-29", `{"height":180,"weight":"80","hair_color":"brown","build":7}`},
		{"first_name=" + strings.Repeat("x", 300), `{"first_name":["x"],"can_be_deleted":"maybe"}`},
		{"", `{"first_name":null,"middle_name":{"a":1},"nickname":1e400}`},
		{"first_name=Pam&gender_id=2&marital_status=couple", `{"first_name":"Pam","gender_id":"-1","kids_status":"has_kids"}`},
	})
}

func FuzzTaskWrites(f *testing.F) {
	fuzzRoutes(f, []route{
		{"POST", "/api/persons/1/tasks"}, {"PUT", "/api/persons/1/tasks/1"}, {"PUT", "/api/tasks/1/toggle"},
	}, [][2]string{
		{"name=Call&task_category_id=2&due_at=2026-03-20", `{"name":"Call","description":"x","is_completed":true}`},
		{"due_at=1773532800", `{"name":"x","due_at":"2026-03-20T10:00:00+01:00","task_category_id":"99"}`},
		{"name=&is_completed=2", `{"name":"x","task_category_id":-1,"due_at":"9999-99-99"}`},
	})
}

func FuzzLifeEventWrites(f *testing.F) {
	fuzzRoutes(f, []route{
		{"POST", "/api/persons/1/life-events"}, {"PUT", "/api/persons/1/life-events/1"}, {"DELETE", "/api/persons/1/life-events/2"},
	}, [][2]string{
		{"description=Wedding&happened_at=2020-06-01&should_be_reminded=1", `{"description":"Moved","happened_at":"2020-06-01T10:00:00+02:00","icon":"home"}`},
		{"happened_at=-62135596801&comment=x", `{"description":"x","happened_at":1e400,"should_be_reminded":"maybe"}`},
		{"description=&bg_color=" + strings.Repeat("c", 300), `{"description":null,"happened_at":[2020],"text_color":{"a":1}}`},
	})
}

// FuzzDatesAndInteractionWrites: important dates, the stay-in-touch
// cadence and interactions. The DELETEs aim at id 2, which the POSTs make,
// so that the PUTs keep a row to aim at.
func FuzzDatesAndInteractionWrites(f *testing.F) {
	fuzzRoutes(f, []route{
		{"POST", "/api/persons/1/important-dates"}, {"PUT", "/api/persons/1/important-dates/1"}, {"DELETE", "/api/persons/1/important-dates/2"},
		{"PUT", "/api/persons/1/stay-in-touch"},
		{"POST", "/api/persons/1/interactions"}, {"PUT", "/api/persons/1/interactions/1"}, {"DELETE", "/api/persons/1/interactions/2"},
	}, [][2]string{
		{"label=anniversary&date=2010-06-12&remind_yearly=1&every_days=30", `{"label":"name_day","date":"--02-29","happened_on":"2026-03-15","kind":"call"}`},
		{"label=x&year=2023&month=2&day=29&every_days=0", `{"label":"x","year":null,"month":"13","day":0,"every_days":"abc","kind":"fax"}`},
		{"date=2025-02-30&year=2025&happened_on=2026-03-17&kind=email&note=" + strings.Repeat("n", 2001), `{"date":20200101,"every_days":null,"happened_on":1e400,"note":["x"]}`},
		{"label=&date=--00-00&every_days=&happened_on=0000-01-01", `{"label":{"a":1},"date":"9999-12-31","year":"9999","month":12,"day":31,"every_days":3650}`},
	})
}

func FuzzWorkHistoryWrites(f *testing.F) {
	fuzzRoutes(f, []route{
		{"POST", "/api/persons/1/work-history"}, {"PUT", "/api/persons/1/work-history/1"}, {"DELETE", "/api/persons/1/work-history/2"},
	}, [][2]string{
		{"job_title=Salesman&company_name=Dunder+Mifflin&active=1", `{"job_title":"Manager","estimated_salary":"$75,000","duration":"2 years","active":true}`},
		{"active=maybe&duration=x", `{"job_title":7,"active":"0","company_name":null}`},
		{"job_title=&estimated_salary=" + strings.Repeat("$", 300), `{"job_title":["x"],"active":{"a":1},"duration":1e400}`},
	})
}

func FuzzCategoryWrites(f *testing.F) {
	fuzzRoutes(f, []route{
		{"POST", "/api/administration/task-categories"}, {"PUT", "/api/administration/task-categories/1"},
	}, [][2]string{
		{"name=Coffee&color=bg-amber-100", `{"name":"Coffee","color":"bg-amber-100"}`},
		{"name=" + strings.Repeat("é", 256), `{"name":true,"color":[]}`},
	})
}

func FuzzJournalWrites(f *testing.F) {
	fuzzRoutes(f, []route{
		{"POST", "/api/journals"}, {"PUT", "/api/journals/1"}, // the first POST makes journal 1
	}, [][2]string{
		{"name=My+Travel+Journal", `{"name":"Café au lait"}`},
		{"name=" + strings.Repeat("é", 256), `{"name":["x"],"slug":"mine"}`},
		{"name=%E6%97%A5%E8%A8%98", `{"name":null}`},
	})
}

func FuzzAccountWrites(f *testing.F) {
	fuzzRoutes(f, []route{
		{"PUT", "/api/me"}, {"PUT", "/api/me/timezone"}, {"POST", "/api/administration/api"},
		{"POST", "/api/login"}, {"GET", "/api/verify-email"},
		{"POST", "/api/me/calendar-feed"}, {"DELETE", "/api/me/calendar-feed"},
	}, [][2]string{
		{"first_name=Ada&last_name=L&email=ada@example.com&born_at=1815-12-10", `{"timezone":"Europe/Paris"}`},
		{"label=Phone", `{"email":"ada@example.com","password":"correct horse"}`},
		{"timezone=Local&token=AAAA", `{"email":"Ada <ada@example.com>","password":7}`},
	})
}

// FuzzParams drives the parameter layer alone: any method, Content-Type,
// query and body, read with every kind of field reader. The error, when
// there is one, goes through the real error handler.
func FuzzParams(f *testing.F) {
	e := newEnv(f)
	for _, s := range [][2]string{
		{"a=1&b=true&c=2026-02-29&d=x@example.com", `{"a":"1","b":0,"c":"2024-02-29","e":"bracket"}`},
		{"a=9223372036854775808&b=yes", `{"a":1.5,"b":"2","f":"20-10","g":1e400}`},
		{"a[]=1&a[x]=2", `{"a":{"b":[1,2]},"h":"   "}`},
		{"", "a=1&b=%zz"},
		{"", "--X\r\nContent-Disposition: form-data; name=\"a\"\r\n\r\n7\r\n--X--\r\n"},
		{"", `{"a":"\ud800"}`},
	} {
		for c := range ctypes {
			f.Add(s[0], s[1], uint8(c))
		}
	}
	f.Fuzz(func(t *testing.T, query, body string, ctype uint8) {
		e.t = t
		query = urlEscape(query)
		hr := httptest.NewRequest("POST", "/x?"+query, strings.NewReader(body))
		if ct := ctypes[pick(ctype, len(ctypes))]; ct != "" {
			hr.Header.Set("Content-Type", ct)
		}
		rec := httptest.NewRecorder()
		c := e.srv.echo.NewContext(hr, rec)
		p, err := input.ReadParams(c)
		if err == nil {
			p.RequiredText("a", 10)
			p.Text("h", 255)
			p.Password("p", 72)
			p.Email("d", 255)
			p.Integer("a")
			p.Boolean("b")
			p.Date("c")
			p.OneOf("e", []string{"exact", "bracket"}, "")
			p.Between("a", 1, 100)
			p.Timestamp("g")
			p.Sent("f")
			err = p.Err()
		}
		if err == nil {
			return
		}
		e.srv.handleError(err, c)
		checkAnswer(t, "params", resp{code: rec.Code, body: rec.Body.String()})
	})
}

func FuzzGenderWrites(f *testing.F) {
	fuzzRoutes(f, []route{
		{"POST", "/api/administration/genders"}, {"PUT", "/api/administration/genders/1"},
	}, [][2]string{
		{"name=Nonbinary&position=4", `{"name":"Nonbinary","position":"-7"}`},
		{"name=" + strings.Repeat("é", 256) + "&position=99999999999999999999", `{"name":true,"position":1.5}`},
	})
}

func FuzzNoteWrites(f *testing.F) {
	fuzzRoutes(f, []route{
		{"POST", "/api/persons/1/notes"}, {"PUT", "/api/persons/1/notes/1"}, {"GET", "/api/persons/1/notes"},
	}, [][2]string{
		{"content=Likes+tea", `{"content":"Likes\ncoffee\r\n\ttoo"}`},
		{"content=&page=0&per_page=101", `{"content":["x"],"page":"2","per_page":1}`},
		{"content=" + strings.Repeat("x", 20001), `{"content":"\u0000","page":-1}`},
	})
}

func FuzzGiftWrites(f *testing.F) {
	fuzzRoutes(f, []route{
		{"POST", "/api/persons/1/gifts"}, {"PUT", "/api/persons/1/gifts/1"},
	}, [][2]string{
		{"name=Teapot&status=given&occasion=Birthday&url=https://example.com&date=2026-12-01", `{"name":"Mug","status":"received","date":1796083200}`},
		{"name=x&status=Idea&url=example.com&date=2026-02-30", `{"name":"x","status":["idea"],"url":"https:///x","date":"9999-99-99"}`},
		{"status=&url=http://[::1", `{"name":null,"status":"idea","occasion":7,"url":"http://exa mple.com","date":true}`},
	})
}

func FuzzContactDetailWrites(f *testing.F) {
	fuzzRoutes(f, []route{
		{"POST", "/api/persons/1/contact-details"}, {"PUT", "/api/persons/1/contact-details/1"},
		{"GET", "/api/persons/1/contact-details"}, {"DELETE", "/api/persons/1/contact-details/2"},
	}, [][2]string{
		{"kind=email&value=jim@example.com&label=work&position=1", `{"kind":"address","street":"1 Main St\nFlat 2","city":"Scranton","country":"us"}`},
		{"kind=phone&value=%2B1+(570)+555-0100+ext.+12", `{"kind":"social","network":"mastodon","value":"@jim@example.social","position":"-3"}`},
		{"kind=website&value=ftp://x&position=9223372036854775807", `{"kind":"website","value":"http://","label":["x"]}`},
		{"kind=address&country=XX&street=" + strings.Repeat("s", 300), `{"kind":"phone","value":"   ","position":1e400}`},
		{"kind=fax", `{"kind":null,"value":{"a":1},"network":"` + strings.Repeat("n", 65) + `"}`},
	})
}

func FuzzInvitationWrites(f *testing.F) {
	fuzzRoutes(f, []route{
		{"POST", "/api/administration/users"}, {"PUT", "/api/administration/users/2/invite"}, {"POST", "/api/invitations/accept"},
	}, [][2]string{
		{"email=Pam@example.com&first_name=Pam&last_name=Beesly", `{"email":"pam@example.com","first_name":"Pam","last_name":"Beesly"}`},
		{"token=AAAA&password=new+password", `{"token":"AAAA","password":"` + strings.Repeat("é", 37) + `"}`},
		{"email=Pam+<pam@example.com>&first_name=&last_name=" + strings.Repeat("x", 300), `{"email":["x"],"token":null,"password":true}`},
	})
}

func FuzzReminderWrites(f *testing.F) {
	fuzzRoutes(f, []route{
		{"POST", "/api/me/channels"}, {"PUT", "/api/me/channels/2"}, {"PUT", "/api/me/channels/1"},
		{"DELETE", "/api/me/channels/3"}, {"PUT", "/api/me/reminders"}, {"GET", "/api/reminders/upcoming"},
	}, [][2]string{
		{"kind=ntfy&url=https://ntfy.sh/ada&token=tk", `{"kind":"webhook","url":"https://h.example/x","token":"` + strings.Repeat("k", 16) + `"}`},
		{"kind=gotify&url=http://:8080&enabled=2", `{"kind":"email","enabled":"false","url":"ignored"}`},
		{"kind=sms&url=ftp://x&name=" + strings.Repeat("n", 300), `{"kind":["ntfy"],"url":{"a":1},"token":null}`},
		{"send_at=25:00&days=-5", `{"send_at":"07:30","days":365}`},
		{"days=9223372036854775808", `{"send_at":"7:3","days":"abc"}`},
	})
}

// FuzzVCardImport posts any bytes as a vCard file. The answer is a summary
// (200), a file that is no vCard (422) or one too large (413), never a
// 5xx; and what an import made, the export gives back as a file that
// imports again with no card skipped. An input that makes persons leaves
// its account to itself, so that an export holds only what one input made.
//
// An input costs several writes, some 10 ms with the fuzzer's coverage of
// SQLite: minimizing one new input for the default minute would take the
// whole of a short run, so explore with a bounded minimization:
//
//	go test ./server -run '^$' -fuzz FuzzVCardImport -fuzztime 5m -fuzzminimizetime 100x
func FuzzVCardImport(f *testing.F) {
	e := newEnv(f)
	files, err := filepath.Glob(filepath.Join("testdata", "vcard", "*"))
	if err != nil || len(files) == 0 {
		f.Fatalf("no seeds in testdata/vcard: %v", err)
	}
	for _, name := range files {
		raw, err := os.ReadFile(name)
		if err != nil {
			f.Fatal(err)
		}
		f.Add(raw)
	}
	f.Add([]byte("BEGIN:VCARD\r\nVERSION:4.0\r\nFN:Ryan\r\nEND:VCARD\r\njunk\r\nBEGIN:VCARD\r\nVERSION:4.0\r\nFN:Kelly\r\n"))
	f.Add([]byte("\xFF\xFEB\x00E\x00G\x00I\x00N\x00:\x00V\x00C\x00A\x00R\x00D\x00\n\x00F\x00N\x00:\x00Z\x00o\x00\xEB\x00\n\x00E\x00N\x00D\x00:\x00V\x00C\x00A\x00R\x00D\x00"))
	accounts, key := 0, ""
	f.Fuzz(func(t *testing.T, file []byte) {
		e.t = t
		if key == "" {
			accounts++
			_, key = e.user(fmt.Sprintf("fuzz%d@example.com", accounts))
		}
		sum, ok := importFuzzed(t, e, key, string(file))
		if !ok || sum.Created == 0 && sum.Updated == 0 {
			return // the account is still empty, for the next input
		}
		defer func() { key = "" }()
		r := e.do(req{method: "GET", path: "/api/export/vcard", key: key})
		if r.code != 200 {
			t.Fatalf("export after an import of %d: %d %s", sum.Created, r.code, r.body)
		}
		if n := countCards(t, r.body); n != sum.Created {
			t.Fatalf("export holds %d cards, the import created %d:\n%s", n, sum.Created, r.body)
		}
		again, ok := importFuzzed(t, e, key, r.body)
		if !ok || again.Created != 0 || again.Updated != sum.Created || len(again.Skipped) != 0 {
			t.Fatalf("the export of %d persons imported as %+v:\n%s", sum.Created, again, r.body)
		}
	})
}

// importFuzzed posts file as text/vcard and checks the answer; ok is
// whether it was a summary.
func importFuzzed(t *testing.T, e *env, key, file string) (sum vcardImportJSON, ok bool) {
	t.Helper()
	r := e.do(req{method: "POST", path: "/api/import/vcard", key: key, body: file, ctype: "text/vcard"})
	checkAnswer(t, "POST /api/import/vcard", r)
	switch r.code {
	case 200:
	case 413, 422:
		return sum, false
	default:
		t.Fatalf("import: %d %s", r.code, r.body)
	}
	var out dataBody[vcardImportJSON]
	if err := json.Unmarshal([]byte(r.body), &out); err != nil {
		t.Fatalf("import: %v: %s", err, r.body)
	}
	return out.Data, true
}

// countCards counts the cards of an export, failing on one go-vcard
// cannot read.
func countCards(t *testing.T, file string) int {
	t.Helper()
	dec := vcard.NewDecoder(strings.NewReader(file))
	for n := 0; ; n++ {
		_, err := dec.Decode()
		if errors.Is(err, io.EOF) {
			return n
		}
		if err != nil {
			t.Fatalf("card %d of the export: %v\n%s", n+1, err, file)
		}
	}
}
