package server

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"time"

	"kith/server/mail"
	"kith/server/remind"
)

// pass runs one scheduler pass at the clock's time.
func (e *env) pass() {
	e.t.Helper()
	if err := e.srv.Reminders().Pass(context.Background()); err != nil {
		e.t.Fatalf("reminder pass: %v", err)
	}
}

// at sets the clock.
func (e *env) at(t time.Time) {
	e.clock.mu.Lock()
	defer e.clock.mu.Unlock()
	e.clock.t = t
}

// birthday gives a new person of the account an exact birth date with
// its yearly reminder on or off.
func (e *env) birthday(key, name string, y, m, d int, remind bool) string {
	e.t.Helper()
	id := e.person(key, "first_name="+name)
	on := map[bool]string{true: "1", false: "0"}[remind]
	r := e.do(req{method: "PATCH", path: fmt.Sprintf("/api/persons/%s/age?age_type=exact&age_year=%d&age_month=%d&age_day=%d&add_yearly_reminder=%s", id, y, m, d, on), key: key})
	if r.code != 200 {
		e.t.Fatalf("set birthday: %d %s", r.code, r.body)
	}
	return id
}

func (e *env) timezone(key, tz string) {
	e.t.Helper()
	if r := e.do(req{method: "PUT", path: "/api/me/timezone?timezone=" + tz, key: key}); r.code != 200 {
		e.t.Fatalf("set timezone: %d %s", r.code, r.body)
	}
}

// TestDigestArrivesOnTheBirthday: at the user's hour in their zone the
// email arrives, once, however many passes and restarts follow.
func TestDigestArrivesOnTheBirthday(t *testing.T) {
	mb := newMailbox(t)
	withMail := func(o *Options) { o.Mailer = mail.NewSMTP(mb.options()) }
	e := newEnv(t, withMail)
	_, key := e.user("ada@example.com")
	e.timezone(key, "Europe/Paris")
	e.birthday(key, "Grace", 1990, 3, 16, true)
	e.birthday(key, "Quiet", 1991, 3, 16, false) // no yearly reminder: not in the digest
	bob := e.person(key, "first_name=Bob")
	e.do(req{method: "PUT", path: "/api/persons/" + bob + "/stay-in-touch?every_days=1", key: key}) // due on the 16th
	e.importantDate(key, bob, "label=Met+Bob&date=2016-03-18&remind_yearly=1")

	e.at(time.Date(2026, 3, 16, 6, 59, 0, 0, time.UTC)) // 07:59 in Paris
	e.pass()
	if mb.count() != 0 {
		t.Fatal("a digest went out before 08:00 in the user's zone")
	}
	e.at(time.Date(2026, 3, 16, 7, 0, 0, 0, time.UTC)) // 08:00 in Paris
	e.pass()
	m := mb.next(t).parse(t)
	if subj := m.header.Get("Subject"); subj != "Kith: your reminders for Monday 16 March" {
		t.Errorf("subject %q", subj)
	}
	if !strings.Contains(m.text, "Today, Monday 16 March") || !strings.Contains(m.text, "Birthday of Grace (36)") ||
		strings.Contains(m.text, "Quiet") || !strings.Contains(m.html, "Birthday of Grace (36)") ||
		!strings.Contains(m.text, "• Get in touch with Bob (every day)") || !strings.Contains(m.text, "Wednesday 18 March") || !strings.Contains(m.text, "• Met Bob — Bob (10 years)") {
		t.Errorf("digest text:\n%s", m.text)
	}
	// More passes that day, and a restarted server, send nothing more.
	e.clock.Advance(time.Hour)
	e.pass()
	restarted := e.twin(withMail)
	restarted.pass()
	time.Sleep(50 * time.Millisecond)
	if n := mb.count(); n != 0 {
		t.Fatalf("%d more digests after the first", n)
	}
	ch := e.do(req{method: "GET", path: "/api/me/channels", key: key}).json(t)["data"].([]any)[0].(map[string]any)
	if ch["last_sent_at"] != float64(time.Date(2026, 3, 16, 7, 0, 0, 0, time.UTC).Unix()) || ch["last_error"] != nil {
		t.Errorf("channel after the send: %v", ch)
	}
	// Bob was called; the next day has nothing within 7 days: no email.
	e.interaction(key, bob, "happened_on=2026-03-16&kind=call")
	e.do(req{method: "PUT", path: "/api/persons/" + bob + "/stay-in-touch?every_days=30", key: key})
	e.at(time.Date(2026, 3, 19, 7, 0, 0, 0, time.UTC))
	e.pass()
	time.Sleep(50 * time.Millisecond)
	if n := mb.count(); n != 0 {
		t.Fatalf("an empty digest was sent")
	}
	// A year later the birthday comes round again.
	e.at(time.Date(2027, 3, 16, 7, 5, 0, 0, time.UTC))
	e.pass()
	if m := mb.next(t).parse(t); !strings.Contains(m.text, "Birthday of Grace (37)") {
		t.Errorf("next year's digest:\n%s", m.text)
	}
}

// TestDigestAfterDowntime: a server down at the user's hour sends the
// day's digest when it is back that day, and never a day gone by.
func TestDigestAfterDowntime(t *testing.T) {
	mb := newMailbox(t)
	e := newEnv(t, func(o *Options) { o.Mailer = mail.NewSMTP(mb.options()) })
	_, key := e.user("ada@example.com")
	e.timezone(key, "America/New_York")
	grace := e.birthday(key, "Grace", 1990, 7, 4, true)
	// A date alone is that date in New York too, not the evening before.
	e.task(key, grace, "name=Fireworks&task_category_id=1&due_at=2026-07-04")

	// Down all of 3 July (the digest that day would announce the 4th).
	// Back at 23:58 on the 4th, New York time: still the 4th there.
	e.at(time.Date(2026, 7, 5, 3, 58, 0, 0, time.UTC))
	e.pass()
	m := mb.next(t).parse(t)
	if !strings.Contains(m.text, "Today, Saturday 4 July") || !strings.Contains(m.text, "Birthday of Grace (36)") ||
		!strings.Contains(m.text, "• Task: Fireworks — Grace") || strings.Contains(m.text, "Overdue") {
		t.Errorf("late digest:\n%s", m.text)
	}
	// Just after midnight of the 5th there: before 08:00, nothing is due.
	e.at(time.Date(2026, 7, 5, 4, 1, 0, 0, time.UTC))
	e.pass()
	time.Sleep(50 * time.Millisecond)
	if mb.count() != 0 {
		t.Fatal("a digest before the user's hour")
	}
}

// TestDigestDaylightSavingDays: the hour is the user's wall clock, also on
// the days it jumps.
func TestDigestDaylightSavingDays(t *testing.T) {
	e := newEnv(t)
	_, key := e.user("ada@example.com")
	e.timezone(key, "Europe/Paris")
	e.birthday(key, "Spring", 1990, 3, 29, true)
	e.birthday(key, "Autumn", 1990, 10, 25, true)
	e.do(req{method: "PUT", path: "/api/me/reminders?send_at=02:30&days=0", key: key})
	sent := func() int { return strings.Count(e.logs.String(), "reminder digest sent") }

	// 29 March 2026: 02:00 jumps to 03:00 in Paris; 02:30 never comes.
	e.at(time.Date(2026, 3, 29, 0, 59, 0, 0, time.UTC)) // 01:59 CET
	e.pass()
	if sent() != 0 {
		t.Fatal("sent before the hour")
	}
	e.at(time.Date(2026, 3, 29, 1, 0, 0, 0, time.UTC)) // 03:00 CEST
	e.pass()
	if sent() != 1 || !strings.Contains(e.logs.String(), "Birthday of Spring") {
		t.Fatalf("spring-forward day: %d sent\n%s", sent(), e.logs)
	}
	// 25 October 2026: 03:00 falls back to 02:00; 02:30 comes twice.
	e.at(time.Date(2026, 10, 25, 0, 30, 0, 0, time.UTC)) // the first 02:30 (CEST)
	e.pass()
	e.at(time.Date(2026, 10, 25, 1, 30, 0, 0, time.UTC)) // the second 02:30 (CET)
	e.pass()
	if sent() != 2 || !strings.Contains(e.logs.String(), "Birthday of Autumn") {
		t.Fatalf("fall-back day: %d sent, want 2 in all", sent())
	}
}

// receiver is a local HTTP server standing in for ntfy, Gotify and a
// webhook's target; status answers each request.
type receiver struct {
	*httptest.Server
	mu     sync.Mutex
	status int
}

type receivedHTTP struct {
	path   string
	header http.Header
	body   []byte
}

func newReceiver(t *testing.T) (*receiver, *[]receivedHTTP) {
	rc := &receiver{status: 200}
	var got []receivedHTTP
	rc.Server = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		body, _ := io.ReadAll(r.Body)
		rc.mu.Lock()
		got = append(got, receivedHTTP{path: r.URL.Path, header: r.Header.Clone(), body: body})
		status := rc.status
		rc.mu.Unlock()
		w.WriteHeader(status)
		fmt.Fprint(w, `{"error":"no such topic"}`)
	}))
	t.Cleanup(rc.Close)
	return rc, &got
}

func (rc *receiver) setStatus(s int) {
	rc.mu.Lock()
	defer rc.mu.Unlock()
	rc.status = s
}

// TestDigestToNtfyGotifyAndWebhook: each channel gets its request, the
// webhook's signed with its secret.
func TestDigestToNtfyGotifyAndWebhook(t *testing.T) {
	rc, got := newReceiver(t)
	e := newEnv(t)
	ada, key := e.user("ada@example.com")
	e.birthday(key, "Zoë", 1990, 3, 15, true) // today, at the env's clock
	e.channel(key, "kind=ntfy&url="+rc.URL+"/ntfy/ada-topic&token=tk_ntfy")
	e.channel(key, "kind=gotify&url="+rc.URL+"/gotify/&token=AppToken.1")
	hook := e.channel(key, "kind=webhook&url="+rc.URL+"/hook")
	e.pass()
	if len(*got) != 3 {
		t.Fatalf("%d requests, want 3", len(*got))
	}
	ntfy, gotify, wh := (*got)[0], (*got)[1], (*got)[2]

	var n map[string]any
	json.Unmarshal(ntfy.body, &n)
	if ntfy.path != "/ntfy/" || ntfy.header.Get("Authorization") != "Bearer tk_ntfy" || n["topic"] != "ada-topic" ||
		n["title"] != "Kith: your reminders for Sunday 15 March" || !strings.Contains(n["message"].(string), "Birthday of Zoë (36)") {
		t.Errorf("ntfy got %s %v %s", ntfy.path, ntfy.header, ntfy.body)
	}
	var g map[string]any
	json.Unmarshal(gotify.body, &g)
	if gotify.path != "/gotify/message" || gotify.header.Get("X-Gotify-Key") != "AppToken.1" ||
		!strings.Contains(g["message"].(string), "Birthday of Zoë") || g["priority"] != 5.0 {
		t.Errorf("gotify got %s %v %s", gotify.path, gotify.header, gotify.body)
	}
	if sig := wh.header.Get(remind.SignatureHeader); sig != remind.Sign(hook["secret"].(string), wh.body) || !strings.HasPrefix(sig, "sha256=") {
		t.Errorf("webhook signature %q does not match its body under the secret", sig)
	}
	var w remind.WebhookBody
	if err := json.Unmarshal(wh.body, &w); err != nil {
		t.Fatal(err)
	}
	if w.Object != "digest" || w.Test || w.Date != "2026-03-15" || w.UserID != ada.ID || len(w.Days) != 1 ||
		w.Days[0].Items[0].Kind != "birthday" || w.Days[0].Items[0].Person != "Zoë" || *w.Days[0].Items[0].Years != 36 {
		t.Errorf("webhook body %s", wh.body)
	}
	// A tampered body does not verify.
	if remind.Sign(hook["secret"].(string), append(wh.body, ' ')) == wh.header.Get(remind.SignatureHeader) {
		t.Error("the signature does not cover the body")
	}
	e.pass()
	if len(*got) != 3 {
		t.Errorf("a second pass sent again: %d requests", len(*got))
	}
}

// TestFailingChannelRetriesThenGivesUp: a channel that fails is retried
// after a wait, its error is shown, and after five tries it waits for the
// next day; a success clears the error.
func TestFailingChannelRetriesThenGivesUp(t *testing.T) {
	rc, got := newReceiver(t)
	rc.setStatus(503)
	e := newEnv(t)
	_, key := e.user("ada@example.com")
	e.birthday(key, "Grace", 1990, 3, 15, true)
	id := fmt.Sprint(e.channel(key, "kind=ntfy&url="+rc.URL+"/ada")["id"])
	show := func() map[string]any {
		return e.do(req{method: "GET", path: "/api/me/channels/" + id, key: key}).json(t)["data"].(map[string]any)
	}
	e.pass()
	ch := show()
	if len(*got) != 1 || ch["last_error"] != "ntfy answered 503 Service Unavailable" || ch["last_sent_at"] != nil {
		t.Fatalf("after a failure: %d requests, %v", len(*got), ch)
	}
	e.clock.Advance(30 * time.Second)
	e.pass()
	if len(*got) != 1 {
		t.Fatal("retried before the wait was over")
	}
	for _, wait := range []time.Duration{time.Minute, 5 * time.Minute, 15 * time.Minute, time.Hour} {
		e.clock.Advance(wait)
		e.pass()
	}
	if len(*got) != 5 || !strings.HasPrefix(show()["last_error"].(string), "gave up for the day after 5 tries: ntfy answered 503") {
		t.Fatalf("%d tries, %v", len(*got), show())
	}
	e.clock.Advance(2 * time.Hour)
	e.pass()
	if len(*got) != 5 {
		t.Fatal("tried again after giving up")
	}
	// The next day the receiver is back.
	rc.setStatus(200)
	e.at(time.Date(2026, 3, 16, 8, 0, 0, 0, time.UTC))
	e.do(req{method: "POST", path: "/api/persons/" + e.person(key, "first_name=Bob") + "/tasks?name=Call+Bob&task_category_id=1&due_at=2026-03-16", key: key})
	e.pass()
	if ch := show(); len(*got) != 6 || ch["last_error"] != nil || ch["last_sent_at"] == nil {
		t.Errorf("after a success: %d requests, %v", len(*got), ch)
	}
}

// TestTwoServersSendOnce: two servers on one database, passing at once,
// deliver one digest per channel.
func TestTwoServersSendOnce(t *testing.T) {
	rc, got := newReceiver(t)
	e := newEnv(t)
	_, key := e.user("ada@example.com")
	e.birthday(key, "Grace", 1990, 3, 15, true)
	for i := range 5 {
		e.channel(key, fmt.Sprintf("kind=webhook&url=%s/hook%d", rc.URL, i))
	}
	other := e.twin()
	var wg sync.WaitGroup
	for _, s := range []*env{e, other, e, other} {
		wg.Go(func() {
			if err := s.srv.Reminders().Pass(context.Background()); err != nil {
				t.Error(err)
			}
		})
	}
	wg.Wait()
	rc.mu.Lock()
	defer rc.mu.Unlock()
	if len(*got) != 5 {
		t.Errorf("%d webhook requests, want one for each of 5 channels", len(*got))
	}
}

func TestChannelTestSendsASample(t *testing.T) {
	rc, got := newReceiver(t)
	e := newEnv(t)
	_, key := e.user("ada@example.com")
	id := fmt.Sprint(e.channel(key, "kind=ntfy&url="+rc.URL+"/ada&enabled=0")["id"])
	r := e.do(req{method: "POST", path: "/api/me/channels/" + id + "/test", key: key})
	if r.code != 200 || len(*got) != 1 || !strings.Contains(string((*got)[0].body), "This is a test from Kith") ||
		!strings.Contains(string((*got)[0].body), "Kith (test)") {
		t.Fatalf("test: %d %s, %d requests", r.code, r.body, len(*got))
	}
	rc.setStatus(401)
	r = e.do(req{method: "POST", path: "/api/me/channels/" + id + "/test", key: key})
	if r.code != 422 || !strings.Contains(r.body, "The channel could not deliver the test: ntfy answered 401 Unauthorized") {
		t.Errorf("failed test: %d %s", r.code, r.body)
	}
	// Without SMTP the email sample goes to the log, as links do.
	email := fmt.Sprint(e.do(req{method: "GET", path: "/api/me/channels", key: key}).json(t)["data"].([]any)[0].(map[string]any)["id"])
	if r := e.do(req{method: "POST", path: "/api/me/channels/" + email + "/test", key: key}); r.code != 200 ||
		!strings.Contains(e.logs.String(), "This is a test from Kith") {
		t.Errorf("email test: %d %s\n%s", r.code, r.body, e.logs)
	}
	if n := e.count(`SELECT count(*) FROM channels WHERE done_day IS NOT NULL OR last_sent_at IS NOT NULL`); n != 0 {
		t.Errorf("a test counted as the day's digest")
	}
}

// TestUnverifiedEmailGetsNoDigest: a changed, unverified address is not
// mailed; the channel says why.
func TestUnverifiedEmailGetsNoDigest(t *testing.T) {
	mb := newMailbox(t)
	e := newEnv(t, func(o *Options) { o.Mailer = mail.NewSMTP(mb.options()) })
	_, key := e.user("ada@example.com")
	e.birthday(key, "Grace", 1990, 3, 15, true)
	e.do(req{method: "PUT", path: "/api/me?first_name=Ada&last_name=L&email=new@example.com", key: key})
	mb.next(t)                                                      // the verification link
	if err := e.srv.WaitForMail(context.Background()); err != nil { // and its log line
		t.Fatal(err)
	}
	e.pass()
	time.Sleep(50 * time.Millisecond)
	if mb.count() != 0 {
		t.Fatal("a digest went to an unverified address")
	}
	if n := e.count(`SELECT count(*) FROM channels WHERE last_error LIKE '%not verified%' AND done_day = '2026-03-15'`); n != 1 {
		t.Errorf("the channel does not say why, or tries again that day")
	}
	if strings.Contains(e.logs.String(), "reminder digest not delivered") {
		t.Errorf("an unverified address is logged as a failure to deliver")
	}
}
