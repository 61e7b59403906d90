package server

import (
	"context"
	"database/sql"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/rs/zerolog"

	"kith/store"
)

// BenchmarkAccountScale is issue 34's table: what each request a user
// meets costs on an account of 1,000 and 10,000 people (and 100,000 with
// KITH_BENCH_SCALE=100000; any comma-separated sizes there are added),
// each with an email, a phone and a birthday, every tenth with an
// important date, a task (nine in ten of them done) and a note. A size's account is seeded once and
// every operation of that size runs on it. Where a request's work is the
// whole account, ns/person is its time divided by the people.
//
//	go test ./server -run '^$' -bench AccountScale -benchmem -benchtime 20x
//	KITH_BENCH_SCALE=100000 go test ./server -run '^$' -bench AccountScale -benchmem -benchtime 5x -timeout 30m
func BenchmarkAccountScale(b *testing.B) {
	for _, n := range scaleSizes(b) {
		b.Run(fmt.Sprintf("people=%d", n), func(b *testing.B) {
			bd := newScaleAccount(b, n)
			bd.scaleOps(b, n)
		})
	}
}

// scaleSizes is 1,000 and 10,000, and the sizes KITH_BENCH_SCALE adds:
// seeding 100,000 people takes a minute, too long for every run.
func scaleSizes(b *testing.B) []int {
	sizes := []int{1000, 10000}
	for s := range strings.SplitSeq(os.Getenv("KITH_BENCH_SCALE"), ",") {
		if s = strings.TrimSpace(s); s == "" {
			continue
		}
		n, err := strconv.Atoi(s)
		if err != nil || n < 1 {
			b.Fatalf("KITH_BENCH_SCALE: %q is not a number of people", s)
		}
		if n != 1000 && n != 10000 {
			sizes = append(sizes, n)
		}
	}
	return sizes
}

// newScaleAccount seeds n people into one account, straight into the
// database in transactions of prepared statements, as
// newRemindersBench does on SQLite: through the API it would take minutes. The
// schema's triggers still run (card sequence, UIDs, search text), so the
// account is what the store would have written.
func newScaleAccount(b *testing.B, n int) *benchData {
	e := newEnv(b, func(o *Options) { o.Logger = zerolog.New(io.Discard) })
	u, key := e.user("bench@example.com")
	acct := u.AccountID
	d, driver := openSeed(b, e.where)
	defer d.Close()
	// A transaction a thousand people: in one transaction, 100,000 people
	// on PostgreSQL were not written after eight minutes (each person's
	// triggers write the account's one row again, the likely cause).
	for from := 0; from < n; from += 1000 {
		seedScalePeople(b, d, driver, acct, from, min(from+1000, n), 1)
	}
	seedScaleLists(b, d, driver, acct, u.ID, n)
	analyzeScale(b, d, driver)
	return &benchData{env: e, key: key}
}

// openSeed opens the database at where beside the store, for a seed
// written straight into it, and names its driver.
func openSeed(b *testing.B, where string) (*sql.DB, string) {
	driver, dsn := "sqlite", "file:"+where+"?_pragma=busy_timeout(10000)&_pragma=foreign_keys(1)"
	if store.IsPostgres(where) {
		driver, dsn = "pgx", where
	}
	d, err := sql.Open(driver, dsn)
	if err != nil {
		b.Fatal(err)
	}
	return d, driver
}

// analyzeScale does on PostgreSQL what its autovacuum would within its
// minute after the seed's hundreds of thousands of rows: the planner has
// their statistics, the visibility map lets an index answer alone, and
// the trigram index's pending list is merged, as on a settled account.
func analyzeScale(b *testing.B, d *sql.DB, driver string) {
	if driver != "pgx" {
		return
	}
	if _, err := d.Exec(`VACUUM ANALYZE persons, contact_details, important_dates, tasks, notes, logs, journal_entries,
		stay_in_touch`); err != nil {
		b.Fatal(err)
	}
}

// seedScaleLists gives the user a log entry for each of the n people (a
// person made is one), and the account's first journal an entry for each
// tenth, one a day back from 2026, as the other lists a used account has.
func seedScaleLists(b *testing.B, d *sql.DB, driver string, acct, user int64, n int) {
	tx, err := d.Begin()
	if err != nil {
		b.Fatal(err)
	}
	defer tx.Rollback()
	q := func(s string) string {
		if driver == "pgx" {
			return dollars(s)
		}
		return s
	}
	var journal int64
	if err := tx.QueryRow(q(`SELECT min(id) FROM journals WHERE account_id = ?`), acct).Scan(&journal); err != nil {
		b.Fatal(err)
	}
	logs, err := tx.Prepare(q(`INSERT INTO logs (account_id, user_id, action, description, created_at, updated_at)
		VALUES (?, ?, 'person_create', ?, ?, ?)`))
	if err != nil {
		b.Fatal(err)
	}
	entry, err := tx.Prepare(q(`INSERT INTO journal_entries (account_id, journal_id, year, month, day, body, body_folded,
		created_at, updated_at) VALUES (?, ?, ?, ?, ?, 'A walk by the river.', 'a walk by the river.', ?, ?)`))
	if err != nil {
		b.Fatal(err)
	}
	const now = 1_767_225_600 // 2026-01-01
	for p := range n {
		if _, err := logs.Exec(acct, user, fmt.Sprintf("Created the person called Given%06d", p), now+p, now+p); err != nil {
			b.Fatal(err)
		}
		if p%10 == 0 {
			day := time.Unix(now, 0).UTC().AddDate(0, 0, -p/10)
			if _, err := entry.Exec(acct, journal, day.Year(), int(day.Month()), day.Day(), now, now); err != nil {
				b.Fatal(err)
			}
		}
	}
	if err := tx.Commit(); err != nil {
		b.Fatal(err)
	}
}

// sparse is a GET of path as the account of sparseAccount, which the
// first call (untimed) makes.
func (bd *benchData) sparse(n int, path string) func(b *testing.B) *sampled {
	var get func(b *testing.B) *sampled
	return func(b *testing.B) *sampled {
		if get == nil {
			get = (&benchData{env: bd.env, key: bd.sparseAccount(b, n)}).apiGet(path)
		}
		return get(b)
	}
}

// sparseAccount seeds a second account of n people in bd's database of
// whom only 100, spread over it, have a birthday or any date, and are
// due a call within the month, though every person has a cadence: its
// upcoming answer is the same at every size, so that its cost shows
// whether upcoming follows the answer or the account. It answers the
// account's key.
func (bd *benchData) sparseAccount(b *testing.B, n int) string {
	_, key := bd.userIn(0, "sparse@example.com")
	u, err := bd.st.UserByEmail(context.Background(), "sparse@example.com")
	if err != nil {
		b.Fatal(err)
	}
	d, driver := openSeed(b, bd.where)
	defer d.Close()
	for from := 0; from < n; from += 1000 {
		seedScalePeople(b, d, driver, u.AccountID, from, min(from+1000, n), max(1, n/100))
	}
	// Every person is one to stay in touch with: the 100 with dates every
	// 30 days, due within the month, the others every year, not due.
	q := `INSERT INTO stay_in_touch (account_id, person_id, every_days, since_on, created_at, updated_at)
		SELECT account_id, id, CASE WHEN age_type IS NULL THEN 365 ELSE 30 END, '2026-03-01', 0, 0 FROM persons WHERE account_id = ?`
	if driver == "pgx" {
		q = dollars(q)
	}
	if _, err := d.Exec(q, u.AccountID); err != nil {
		b.Fatal(err)
	}
	analyzeScale(b, d, driver)
	return key
}

// seedScalePeople writes people from to to (not included) in one
// transaction with prepared statements. Only every every-th person has a
// birthday and dates (every = 1: all of them).
func seedScalePeople(b *testing.B, d *sql.DB, driver string, acct int64, from, to, every int) {
	tx, err := d.Begin()
	if err != nil {
		b.Fatal(err)
	}
	defer tx.Rollback()
	prep := func(q string) *sql.Stmt {
		if driver == "pgx" {
			q = dollars(q)
		}
		s, err := tx.Prepare(q)
		if err != nil {
			b.Fatal(err)
		}
		return s
	}
	const now = 1_767_225_600 // 2026-01-01
	person := prep(`INSERT INTO persons (account_id, first_name, last_name, age_type, age_year, age_month, age_day,
		yearly_reminder, created_at, updated_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?) RETURNING id`)
	detail := prep(`INSERT INTO contact_details (account_id, person_id, kind, label, position, value, created_at, updated_at)
		VALUES (?, ?, ?, ?, 0, ?, ?, ?)`)
	search := prep(`UPDATE persons SET search_text = NULL WHERE id = ?`) // built again with the email, as the store asks
	date := prep(`INSERT INTO important_dates (account_id, person_id, label, month, day, remind_yearly, created_at, updated_at)
		VALUES (?, ?, 'Anniversary', ?, ?, TRUE, ?, ?)`)
	task := prep(`INSERT INTO tasks (account_id, person_id, name, due_at, is_completed, completed_at, created_at, updated_at)
		VALUES (?, ?, 'Call about the present', ?, ?, ?, ?, ?)`)
	note := prep(`INSERT INTO notes (account_id, person_id, content, created_at, updated_at)
		VALUES (?, ?, 'Met at the conference; likes climbing and jazz. Ask about the new job.', ?, ?)`)
	exec := func(s *sql.Stmt, args ...any) {
		if _, err := s.Exec(args...); err != nil {
			b.Fatal(err)
		}
	}
	for p := from; p < to; p++ {
		hasDates := p%every == 0
		var age, year, month, day, remind any
		if hasDates {
			age, year, month, day, remind = "exact", 1950+p%60, 1+p%12, 1+p%28, true
		}
		var id int64
		if err := person.QueryRow(acct, fmt.Sprintf("Given%06d", p), fmt.Sprintf("Family%06d", p),
			age, year, month, day, remind, now, now).Scan(&id); err != nil {
			b.Fatal(err)
		}
		exec(detail, acct, id, "email", "home", fmt.Sprintf("given%06d@example.com", p), now, now)
		exec(detail, acct, id, "phone", "mobile", fmt.Sprintf("+44 20 7946 %04d", p%10000), now, now)
		exec(search, id)
		if p%10 == 0 && hasDates {
			exec(date, acct, id, 1+(p/10)%12, 1+p%28, now, now)
		}
		// A tenth of the people have a task and a note; of the sparse
		// account's, a tenth of its dated ones, the same ten tasks at
		// every size, so that its upcoming answer does not grow.
		if p%(10*every) == 0 {
			due, done := scaleTask(p / (10 * every))
			var doneAt *int64
			if done {
				doneAt = &due
			}
			exec(task, acct, id, due, done, doneAt, now, now)
			exec(note, acct, id, now, now)
		}
	}
	if err := tx.Commit(); err != nil {
		b.Fatal(err)
	}
}

// scaleTask is the due time of the account's k-th task, and whether it is
// done, as an account that is used sees them: nine in ten done in the year
// before newEnv's clock (15 March 2026), the rest open, due from a month
// before it to eleven months after, a few overdue.
func scaleTask(k int) (due int64, done bool) {
	const today, day = 1_773_532_800, 86_400 // 2026-03-15
	if k%10 != 0 {
		return today - int64(1+k*7%365)*day, true
	}
	return today + int64(k/10*37%365-30)*day, false
}

// dollars numbers a statement's ? placeholders as PostgreSQL's $1, $2….
func dollars(q string) string {
	var out strings.Builder
	n := 0
	for _, r := range q {
		if r == '?' {
			n++
			fmt.Fprintf(&out, "$%d", n)
			continue
		}
		out.WriteRune(r)
	}
	return out.String()
}

// scaleOps runs each operation of issue 34's table on the account of n
// people as a sub-benchmark.
func (bd *benchData) scaleOps(b *testing.B, n int) {
	// Ten a page, so that page 100 exists at every size.
	lastPage := min(100, (n+9)/10)
	feed := bd.feedPath(b)
	u, err := bd.st.UserByEmail(context.Background(), "bench@example.com")
	if err != nil {
		b.Fatal(err)
	}
	book := fmt.Sprintf("/dav/%d/addressbooks/contacts/", u.ID)
	br := bd.signIn(b, "bench@example.com")
	journals, err := bd.st.Journals(context.Background(), u.AccountID)
	if err != nil || len(journals) == 0 {
		b.Fatalf("journals: %v", err)
	}
	entries := fmt.Sprintf("/api/journals/%d/entries?per_page=10", journals[0].ID)
	ops := []struct {
		name      string
		whole     bool // the request's work is the whole account: ns/person
		peak      bool // the most the heap held is reported
		serve     func(b *testing.B) *sampled
		wantCode  int
		wantBytes string
	}{
		{name: "persons first page", serve: bd.apiGet("/api/persons"), wantCode: 200, wantBytes: "Given000000"},
		{name: "persons page 100", serve: bd.apiGet(fmt.Sprintf("/api/persons?per_page=10&page=%d", lastPage)), wantCode: 200, wantBytes: "Given"},
		{name: "search", serve: bd.apiGet("/api/persons?q=family000500"), wantCode: 200, wantBytes: `"total":1}`},
		{name: "upcoming 30 days", serve: bd.apiGet("/api/reminders/upcoming?days=30"), wantCode: 200, wantBytes: "reminder_day"},
		{name: "calendar feed", whole: true, peak: true, serve: bd.anonGet(feed), wantCode: 200, wantBytes: "BEGIN:VEVENT"},
		{name: "carddav propfind etags", whole: true, peak: true, serve: bd.propfind(book), wantCode: 207, wantBytes: "getetag"},
		{name: "json export", whole: true, peak: true, serve: bd.apiGet("/api/export"), wantCode: 200, wantBytes: fmt.Sprintf(`"first_name":"Given%06d"`, n-1)},
		{name: "web people page", serve: bd.webGet(br, "/people"), wantCode: 200, wantBytes: fmt.Sprintf("1–50 of %d", n)},
		{name: "web people by last name", serve: bd.webGet(br, "/people?sort=last_name"), wantCode: 200, wantBytes: fmt.Sprintf("1–50 of %d", n)},
		{name: "web people by last contacted", serve: bd.listed(u.AccountID, n, bd.webGet(br, "/people?sort=last_contacted")), wantCode: 200, wantBytes: fmt.Sprintf("1–50 of %d", n)},
		{name: "web people page 20", serve: bd.webGet(br, "/people?page=20"), wantCode: 200, wantBytes: fmt.Sprintf("951–1000 of %d", n)},
		{name: "web people tag", serve: bd.listed(u.AccountID, n, bd.webGet(br, "/people?tag=bench-circle")), wantCode: 200, wantBytes: "1–50 of 100"},
		{name: "persons tag", serve: bd.listed(u.AccountID, n, bd.apiGet("/api/persons?tag=bench-circle")), wantCode: 200, wantBytes: `"total":100}`},
		{name: "tasks page", serve: bd.apiGet("/api/tasks?per_page=10"), wantCode: 200, wantBytes: fmt.Sprintf(`"total":%d}`, n/10)},
		{name: "open tasks page", serve: bd.apiGet("/api/tasks?per_page=10&is_completed=0"), wantCode: 200, wantBytes: fmt.Sprintf(`"total":%d}`, n/100)},
		{name: "logs page", serve: bd.apiGet("/api/administration/logs"), wantCode: 200, wantBytes: "Given"},
		{name: "journal page", serve: bd.apiGet(entries), wantCode: 200, wantBytes: fmt.Sprintf(`"total":%d}`, n/10)},
		{name: "web journals", serve: bd.webGet(br, "/journals"), wantCode: 200, wantBytes: fmt.Sprintf("%d entries", n/10)},
		{name: "upcoming 30 days, 100 dated", serve: bd.sparse(n, "/api/reminders/upcoming?days=30"), wantCode: 200, wantBytes: `"kind":"stay_in_touch"`},
	}
	for _, op := range ops {
		b.Run(op.name, func(b *testing.B) {
			if w := op.serve(b); w.code != op.wantCode || !strings.Contains(w.sample, op.wantBytes) {
				b.Fatalf("%d, want %d with %q in %.300s", w.code, op.wantCode, op.wantBytes, w.sample)
			}
			b.ReportAllocs()
			var stop func() (float64, float64)
			if op.peak {
				stop = heapPeak()
			}
			b.ResetTimer()
			cpu := cpuTime()
			size := 0
			for b.Loop() {
				w := op.serve(b)
				if w.code != op.wantCode {
					b.Fatalf("%d, want %d", w.code, op.wantCode)
				}
				size = w.n
			}
			b.StopTimer()
			if op.whole {
				b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/float64(n), "ns/person")
				b.ReportMetric(float64(cpuTime()-cpu)/float64(b.N)/float64(n), "cpu-ns/person")
			}
			if stop != nil {
				all, live := stop()
				b.ReportMetric(all, "peak-heap-MB")
				b.ReportMetric(live, "peak-live-MB")
			}
			b.ReportMetric(float64(size), "out-bytes")
		})
	}
}

// cpuTime is the CPU time the process has used, user and system. On a
// machine shared with other work, wall time measures the others too; the
// process's CPU time much less (SQLite runs in the process, PostgreSQL
// does not, so there it counts Kith's side only).
func cpuTime() time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

// sampled is a discarding response writer that keeps the answer's first
// 64 KiB and its last 4 to 8 KiB, for the check before the timing: an
// export's persons come after its journals, past the first 64 KiB at
// 10,000 people. The bytes are kept in slices made once: a string grown
// by each write copied it whole every time, 19 MB a request of many
// small writes (a PROPFIND's), which the peak heap counted as the
// server's.
type sampled struct {
	discard
	kept, tail []byte
	sample     string
}

func (s *sampled) Write(p []byte) (int, error) {
	if s.kept == nil {
		s.kept, s.tail = make([]byte, 0, 64<<10), make([]byte, 0, 8<<10)
	}
	s.kept = append(s.kept, p[:min(len(p), cap(s.kept)-len(s.kept))]...)
	last := p[max(0, len(p)-4<<10):]
	if len(s.tail)+len(last) > cap(s.tail) {
		keep := s.tail[max(0, len(s.tail)-(cap(s.tail)-len(last))):]
		s.tail = append(s.tail[:0], keep...)
	}
	s.tail = append(s.tail, last...)
	return s.discard.Write(p)
}

func (bd *benchData) serveTo(r *http.Request) *sampled {
	w := &sampled{discard: discard{header: http.Header{}, code: 200}}
	bd.srv.ServeHTTP(w, r)
	w.sample = string(w.kept) + "\n…\n" + string(w.tail)
	return w
}

func (bd *benchData) apiGet(path string) func(b *testing.B) *sampled {
	return func(b *testing.B) *sampled {
		r := httptest.NewRequest(http.MethodGet, path, nil)
		r.Header.Set("Authorization", "Bearer "+bd.key)
		return bd.serveTo(r)
	}
}

// anonGet is a request with no credentials: the calendar feed's secret
// is in its path.
func (bd *benchData) anonGet(path string) func(b *testing.B) *sampled {
	return func(b *testing.B) *sampled {
		return bd.serveTo(httptest.NewRequest(http.MethodGet, path, nil))
	}
}

// propfind lists every card's ETag, as a first sync does.
func (bd *benchData) propfind(book string) func(b *testing.B) *sampled {
	return func(b *testing.B) *sampled {
		r := httptest.NewRequest("PROPFIND", book, strings.NewReader(`<propfind xmlns="DAV:"><prop><getetag/><getcontenttype/></prop></propfind>`))
		r.SetBasicAuth("bench@example.com", bd.key)
		r.Header.Set("Content-Type", "application/xml")
		r.Header.Set("Depth", "1")
		return bd.serveTo(r)
	}
}

// webGet is a page of the web app with br's session.
func (bd *benchData) webGet(br *browser, path string) func(b *testing.B) *sampled {
	return func(b *testing.B) *sampled {
		r := httptest.NewRequest(http.MethodGet, path, nil)
		r.Header.Set("Accept", "text/html")
		for _, c := range br.cookies {
			r.AddCookie(c)
		}
		return bd.serveTo(r)
	}
}

// feedPath makes the user's calendar feed and answers its path.
func (bd *benchData) feedPath(b *testing.B) string {
	r := httptest.NewRequest(http.MethodPost, "/api/me/calendar-feed", nil)
	r.Header.Set("Authorization", "Bearer "+bd.key)
	w := httptest.NewRecorder()
	bd.srv.ServeHTTP(w, r)
	var out struct {
		Data struct {
			URL string `json:"url"`
		} `json:"data"`
	}
	if w.Code != http.StatusCreated || json.Unmarshal(w.Body.Bytes(), &out) != nil {
		b.Fatalf("calendar feed: %d %s", w.Code, w.Body)
	}
	i := strings.Index(out.Data.URL, "/ical/")
	if i < 0 {
		b.Fatalf("calendar feed: no path in %q", out.Data.URL)
	}
	return out.Data.URL[i:]
}

// BenchmarkVCardImportRate imports files of 1,000 and 10,000 cards (as
// BenchmarkVCardImport writes them) into a new account each time: the
// rate, cards/s, should not fall as the file grows.
//
//	go test ./server -run '^$' -bench VCardImportRate -benchmem -benchtime 2x
func BenchmarkVCardImportRate(b *testing.B) {
	for _, n := range []int{1000, 10000} {
		b.Run(fmt.Sprintf("cards=%d", n), func(b *testing.B) {
			e := benchEnv(b)
			file := benchVCards(n)
			i := 0
			b.ReportAllocs()
			for b.Loop() {
				b.StopTimer()
				i++
				_, key := e.user(fmt.Sprintf("bench%d@example.com", i))
				b.StartTimer()
				importBench(b, e, key, file, n)
			}
			b.ReportMetric(float64(n)*float64(b.N)/b.Elapsed().Seconds(), "cards/s")
		})
	}
}

// listed is serve once the account has what the people list's filters
// and orders read: a tag on 100 people spread over the account, and an
// interaction with 100 others, made on the first call (untimed).
func (bd *benchData) listed(acct int64, n int, serve func(b *testing.B) *sampled) func(b *testing.B) *sampled {
	done := false
	return func(b *testing.B) *sampled {
		if !done {
			bd.listedOnce(b, acct, n)
			done = true
		}
		return serve(b)
	}
}

func (bd *benchData) listedOnce(b *testing.B, acct int64, n int) {
	ctx := context.Background()
	if tags, err := bd.st.Tags(ctx, acct); err != nil || len(tags) > 0 {
		return // made by an earlier operation of this size
	}
	for i := range 100 {
		ps, _, err := bd.st.Persons(ctx, acct, 2, int64(i*(n/100)))
		if err != nil || len(ps) < 2 {
			b.Fatalf("person %d: %v", i*(n/100), err)
		}
		if _, err := bd.st.SetPersonTags(ctx, acct, ps[0].ID, []string{"bench-circle"}); err != nil {
			b.Fatal(err)
		}
		day := fmt.Sprintf("2025-%02d-%02d", 1+i%12, 1+i%28)
		if _, err := bd.st.CreateInteraction(ctx, acct, ps[1].ID, store.InteractionInput{HappenedOn: day, Kind: "call"}); err != nil {
			b.Fatal(err)
		}
	}
}
