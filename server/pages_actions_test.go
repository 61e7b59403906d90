package server

import (
	"context"
	"net/http"
	"net/http/httptest"
	"strconv"
	"strings"
	"testing"
	"time"

	"kith/server/remind"
	"kith/store"
)

// actionLink signs a link for the user, as a digest does, valid for a week
// from the test clock.
func (e *env) actionLink(t *testing.T, a remind.Action) string {
	t.Helper()
	key, err := e.st.ActionSecret(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	if a.Expires == 0 {
		a.Expires = e.clock.Now().Unix() + store.ActionLinkLife
	}
	return "/actions/" + remind.SignAction(key, a)
}

// bare sends a request with no cookie, key or form, as an ntfy button does.
func (e *env) bare(method, path string) page {
	r := httptest.NewRequest(method, path, nil)
	w := httptest.NewRecorder()
	e.srv.ServeHTTP(w, r)
	return page{code: w.Code, header: w.Header(), body: w.Body.String()}
}

func (e *env) taskDone(t *testing.T, key, person, task string) bool {
	t.Helper()
	r := e.do(req{method: "GET", path: "/api/persons/" + person + "/tasks/" + task, key: key})
	if r.code != 200 {
		t.Fatalf("task: %d %s", r.code, r.body)
	}
	return r.json(t)["data"].(map[string]any)["is_completed"] == true
}

// TestActionMarkDone: a GET shows one button and changes nothing; the POST
// completes the task once; the link then answers 410, also after the task
// was reopened, and completes nothing again.
func TestActionMarkDone(t *testing.T) {
	e := newEnv(t)
	u, key := e.user("ada@example.com")
	pid := e.person(key, "first_name=Jim")
	tid := e.task(key, pid, "name=Buy+flowers")
	ref, _ := strconv.ParseInt(tid, 10, 64)
	link := e.actionLink(t, remind.Action{UserID: u.ID, Do: store.ActionMarkDone, Kind: "task", Ref: ref,
		Title: "Task: Buy flowers — Jim"})

	for _, m := range []string{http.MethodGet, http.MethodHead, http.MethodGet} {
		if pg := e.bare(m, link); pg.code != 200 {
			t.Fatalf("%s: %d %s", m, pg.code, pg.body)
		}
	}
	if e.taskDone(t, key, pid, tid) {
		t.Fatal("a GET completed the task")
	}
	pg := e.bare(http.MethodGet, link)
	pg.has(t, `<form method="post">`, `<button type="submit">Mark done</button>`, "Task: Buy flowers — Jim")
	if !strings.HasPrefix(pg.header.Get("Content-Type"), "text/html") {
		t.Fatalf("content type %q", pg.header.Get("Content-Type"))
	}

	pg = e.bare(http.MethodPost, link)
	if pg.code != 200 {
		t.Fatalf("POST: %d %s", pg.code, pg.body)
	}
	pg.has(t, "Marked done")
	if !e.taskDone(t, key, pid, tid) {
		t.Fatal("the POST did not complete the task")
	}
	// Reopened, the task stays open: the link was spent.
	if r := e.do(req{method: "PUT", path: "/api/persons/" + pid + "/tasks/" + tid, key: key, body: `{"name":"Buy flowers","is_completed":false}`}); r.code != 200 {
		t.Fatalf("reopen: %d %s", r.code, r.body)
	}
	for _, m := range []string{http.MethodGet, http.MethodPost} {
		pg := e.bare(m, link)
		if pg.code != http.StatusGone {
			t.Fatalf("used link, %s: %d", m, pg.code)
		}
		pg.has(t, "used already")
		pg.lacks(t, "<form")
	}
	if e.taskDone(t, key, pid, tid) {
		t.Fatal("a used link completed the task again")
	}
}

// TestActionLinksRefused: an altered, unknown or expired link changes
// nothing, and a genuine link still works after altered ones were tried.
func TestActionLinksRefused(t *testing.T) {
	e := newEnv(t)
	u, key := e.user("ada@example.com")
	pid := e.person(key, "first_name=Jim")
	ref, _ := strconv.ParseInt(pid, 10, 64)
	link := e.actionLink(t, remind.Action{UserID: u.ID, Do: store.ActionLogCall, Kind: "stay_in_touch", Ref: ref, Title: "Call Jim"})

	altered := []string{
		link[:len(link)-1] + string(rune('A'+(link[len(link)-1]+1)%26)),
		strings.Replace(link, "/actions/", "/actions/x", 1),
		"/actions/not-a-token",
		"/actions/" + remind.SignAction([]byte("another server's key, 32 bytes!"), remind.Action{UserID: u.ID, Do: store.ActionLogCall, Ref: ref, Expires: 1 << 40}),
	}
	// One character changed inside the payload: the signature no longer fits.
	i := len("/actions/") + 3
	altered = append(altered, link[:i]+flip(link[i])+link[i+1:])
	for _, bad := range altered {
		for _, m := range []string{http.MethodGet, http.MethodPost} {
			pg := e.bare(m, bad)
			if pg.code != http.StatusForbidden {
				t.Fatalf("%s %s: %d, want 403", m, bad, pg.code)
			}
			pg.has(t, "Link not valid")
		}
	}
	if n := e.calls(t, key, pid); n != 0 {
		t.Fatalf("%d calls after altered links", n)
	}

	expired := e.actionLink(t, remind.Action{UserID: u.ID, Do: store.ActionLogCall, Kind: "stay_in_touch", Ref: ref,
		Expires: e.clock.Now().Add(time.Hour).Unix()})
	e.clock.Advance(2 * time.Hour)
	for _, m := range []string{http.MethodGet, http.MethodPost} {
		pg := e.bare(m, expired)
		if pg.code != http.StatusGone {
			t.Fatalf("expired, %s: %d", m, pg.code)
		}
		pg.has(t, "expired")
	}

	if pg := e.bare(http.MethodPost, link); pg.code != 200 {
		t.Fatalf("genuine link after altered ones: %d %s", pg.code, pg.body)
	}
	if n := e.calls(t, key, pid); n != 1 {
		t.Fatalf("%d calls, want 1", n)
	}
	if pg := e.bare(http.MethodPost, link); pg.code != http.StatusGone {
		t.Fatalf("second POST: %d", pg.code)
	}
	if n := e.calls(t, key, pid); n != 1 {
		t.Fatalf("%d calls after a used link, want 1", n)
	}
}

func flip(b byte) string {
	if b == 'A' {
		return "B"
	}
	return "A"
}

// calls counts the person's interactions of kind call.
func (e *env) calls(t *testing.T, key, person string) int {
	t.Helper()
	r := e.do(req{method: "GET", path: "/api/persons/" + person + "/interactions", key: key})
	if r.code != 200 {
		t.Fatalf("interactions: %d %s", r.code, r.body)
	}
	n := 0
	for _, it := range r.json(t)["data"].([]any) {
		if it.(map[string]any)["kind"] == "call" {
			n++
		}
	}
	return n
}

// TestActionLogCall: the call is the user's, today in their zone, with no
// note, and logged as their write.
func TestActionLogCall(t *testing.T) {
	e := newEnv(t)
	u, key := e.user("ada@example.com")
	if _, err := e.st.SetTimezone(context.Background(), u.ID, "Pacific/Kiritimati"); err != nil {
		t.Fatal(err)
	}
	e.at(time.Date(2026, 3, 15, 20, 0, 0, 0, time.UTC)) // 16 March in Kiritimati (UTC+14)
	pid := e.person(key, "first_name=Jim")
	ref, _ := strconv.ParseInt(pid, 10, 64)
	link := e.actionLink(t, remind.Action{UserID: u.ID, Do: store.ActionLogCall, Kind: "stay_in_touch", Ref: ref, Title: "Call Jim"})
	pg := e.bare(http.MethodPost, link)
	if pg.code != 200 {
		t.Fatalf("POST: %d %s", pg.code, pg.body)
	}
	pg.has(t, "Call logged")
	r := e.do(req{method: "GET", path: "/api/persons/" + pid + "/interactions", key: key})
	data := r.json(t)["data"].([]any)
	if len(data) != 1 {
		t.Fatalf("%d interactions", len(data))
	}
	it := data[0].(map[string]any)
	if it["kind"] != "call" || it["happened_on"] != "2026-03-16" || it["note"] != nil {
		t.Fatalf("interaction %v", it)
	}
	logs := e.do(req{method: "GET", path: "/api/administration/logs", key: key}).body
	if !strings.Contains(logs, "interaction_creation") {
		t.Fatalf("the call is not logged as the user's write: %s", logs)
	}
}

// TestActionSnoozeAndGone: a snooze is recorded once for its user; a link
// to a person deleted since says so and changes nothing; a link of a
// deleted user is not valid.
func TestActionSnoozeAndGone(t *testing.T) {
	e := newEnv(t)
	u, key := e.user("ada@example.com")
	pid := e.person(key, "first_name=Jim")
	ref, _ := strconv.ParseInt(pid, 10, 64)
	snooze := e.actionLink(t, remind.Action{UserID: u.ID, Do: store.ActionSnooze, Kind: "birthday", Ref: ref,
		Day: "2026-03-17", Title: "Birthday of Jim"})
	e.bare(http.MethodGet, snooze).has(t, "Snooze a week")
	if pg := e.bare(http.MethodPost, snooze); pg.code != 200 {
		t.Fatalf("snooze: %d %s", pg.code, pg.body)
	}
	got, err := e.st.Snoozes(context.Background(), u.ID, "2026-03-01")
	if err != nil || len(got) != 1 || got[0] != (store.Snooze{Kind: "birthday", RefID: ref, OccursOn: "2026-03-17"}) {
		t.Fatalf("snoozes %v %v", got, err)
	}

	call := e.actionLink(t, remind.Action{UserID: u.ID, Do: store.ActionLogCall, Kind: "stay_in_touch", Ref: ref})
	if r := e.do(req{method: "DELETE", path: "/api/persons/" + pid, key: key}); r.code != 200 && r.code != 204 {
		t.Fatalf("delete: %d", r.code)
	}
	if pg := e.bare(http.MethodPost, call); pg.code != http.StatusNotFound {
		t.Fatalf("call with a deleted person: %d %s", pg.code, pg.body)
	}

	grace, gkey := e.user("grace@example.com")
	gp := e.person(gkey, "first_name=Ann")
	gref, _ := strconv.ParseInt(gp, 10, 64)
	// Ada's link to Grace's person: another account's id is no person of hers.
	cross := e.actionLink(t, remind.Action{UserID: u.ID, Do: store.ActionLogCall, Kind: "stay_in_touch", Ref: gref})
	if pg := e.bare(http.MethodPost, cross); pg.code != http.StatusNotFound {
		t.Fatalf("another account's person: %d", pg.code)
	}
	if n := e.calls(t, gkey, gp); n != 0 {
		t.Fatalf("another account's person got %d calls", n)
	}
	gt := e.task(gkey, gp, "name=Water+plants")
	gtRef, _ := strconv.ParseInt(gt, 10, 64)
	crossTask := e.actionLink(t, remind.Action{UserID: u.ID, Do: store.ActionMarkDone, Kind: "task", Ref: gtRef})
	if pg := e.bare(http.MethodPost, crossTask); pg.code != http.StatusNotFound {
		t.Fatalf("another account's task: %d", pg.code)
	}
	if e.taskDone(t, gkey, gp, gt) {
		t.Fatal("a link of Ada's completed Grace's task")
	}
	gone := e.actionLink(t, remind.Action{UserID: grace.ID, Do: store.ActionLogCall, Kind: "stay_in_touch", Ref: gref})
	if _, err := e.st.DeleteUser(context.Background(), "grace@example.com"); err != nil {
		t.Fatal(err)
	}
	if pg := e.bare(http.MethodPost, gone); pg.code != http.StatusForbidden {
		t.Fatalf("a deleted user's link: %d", pg.code)
	}
}
