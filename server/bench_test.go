package server

import (
	"database/sql"
	"fmt"
	"io"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/rs/zerolog"

	"kith/store/storetest"
)

// The benchmarks drive the real router on a real database file, as the
// load benchmark (.ci/bench) drives the binary, so that a change's cost
// shows in ns/op and allocations:
//
//	go test ./server -run '^$' -bench . -benchmem -count 6
//
// BenchmarkScale grows the account to 100x and shows what size costs.

// benchData is an env seeded like .ci/benchseed: a first person with 50
// tasks, and more persons sharing the other tasks.
type benchData struct {
	*env
	key          string
	person, task int64
	second       int64 // the next person, which creates go to
}

func newBenchData(b *testing.B, persons, tasks int) *benchData {
	storetest.SQLiteOnly(b) // it seeds the SQLite file directly
	e := newEnv(b, func(o *Options) { o.Logger = zerolog.New(io.Discard) })
	u, key := e.user("bench@example.com")
	d, err := sql.Open("sqlite", "file:"+e.where+"?_pragma=busy_timeout(10000)&_pragma=foreign_keys(1)")
	if err != nil {
		b.Fatal(err)
	}
	defer d.Close()
	tx, err := d.Begin()
	if err != nil {
		b.Fatal(err)
	}
	const now = 1_767_225_600
	ids := make([]int64, 0, persons+1)
	for p := 0; p <= persons; p++ {
		var id int64
		if err := tx.QueryRow(`INSERT INTO persons (account_id, first_name, created_at, updated_at) VALUES (?, ?, ?, ?) RETURNING id`,
			u.AccountID, fmt.Sprint("Person ", p), now, now).Scan(&id); err != nil {
			b.Fatal(err)
		}
		ids = append(ids, id)
	}
	ins, err := tx.Prepare(`INSERT INTO tasks (account_id, person_id, task_category_id, name, due_at, created_at, updated_at) VALUES (?, ?, ?, ?, ?, ?, ?)`)
	if err != nil {
		b.Fatal(err)
	}
	for i := 0; i < 50+tasks; i++ {
		person := ids[0]
		if i >= 50 {
			person = ids[1+(i-50)%persons]
		}
		if _, err := ins.Exec(u.AccountID, person, 1+i%6, fmt.Sprint("Task ", i, ": call back about the birthday present"), now+i+259200, now+i, now+i); err != nil {
			b.Fatal(err)
		}
	}
	if err := tx.Commit(); err != nil {
		b.Fatal(err)
	}
	var task int64
	d.QueryRow(`SELECT min(id) FROM tasks WHERE person_id = ?`, ids[0]).Scan(&task)
	return &benchData{env: e, key: key, person: ids[0], task: task, second: ids[1]}
}

// serve runs one request through the router and fails on a wrong status.
func (bd *benchData) serve(b *testing.B, method, path, body string, want int) {
	r := httptest.NewRequest(method, path, strings.NewReader(body))
	r.Header.Set("Authorization", "Bearer "+bd.key)
	if body != "" {
		r.Header.Set("Content-Type", "application/json")
	}
	w := httptest.NewRecorder()
	bd.srv.ServeHTTP(w, r)
	if w.Code != want {
		b.Fatalf("%s %s: %d %s", method, path, w.Code, w.Body.String())
	}
}

const benchTask = `{"name":"Call back about the birthday present","task_category_id":1}`

func (bd *benchData) list(b *testing.B) {
	for b.Loop() {
		bd.serve(b, "GET", fmt.Sprintf("/api/persons/%d/tasks", bd.person), "", 200)
	}
}

func (bd *benchData) get(b *testing.B) {
	for b.Loop() {
		bd.serve(b, "GET", fmt.Sprintf("/api/persons/%d/tasks/%d", bd.person, bd.task), "", 200)
	}
}

func (bd *benchData) create(b *testing.B) {
	for b.Loop() {
		bd.serve(b, "POST", fmt.Sprintf("/api/persons/%d/tasks", bd.second), benchTask, 201)
	}
}

func BenchmarkTaskList(b *testing.B)   { newBenchData(b, 100, 10000).list(b) }
func BenchmarkTaskGet(b *testing.B)    { newBenchData(b, 100, 10000).get(b) }
func BenchmarkTaskCreate(b *testing.B) { newBenchData(b, 100, 10000).create(b) }

func BenchmarkTaskToggle(b *testing.B) {
	bd := newBenchData(b, 100, 10000)
	for b.Loop() {
		bd.serve(b, "PUT", fmt.Sprintf("/api/tasks/%d/toggle", bd.task), "", 200)
	}
}

func BenchmarkMe(b *testing.B) {
	bd := newBenchData(b, 1, 0)
	for b.Loop() {
		bd.serve(b, "GET", "/api/me", "", 200)
	}
}

// BenchmarkLogin runs at the tests' bcrypt cost (4); the binary's is 10,
// which dominates a real login (about 50 ms of CPU).
func BenchmarkLogin(b *testing.B) {
	bd := newBenchData(b, 1, 0)
	for b.Loop() {
		bd.serve(b, "POST", "/api/login", `{"email":"bench@example.com","password":"correct horse"}`, 200)
	}
}

// BenchmarkScale grows one account from 100 persons and 1,000 tasks to
// 10,000 persons and 100,000 tasks: list, get and create must not grow
// with it.
func BenchmarkScale(b *testing.B) {
	for _, k := range []int{1, 10, 100} {
		b.Run(fmt.Sprintf("x%d", k), func(b *testing.B) {
			bd := newBenchData(b, 100*k, 1000*k)
			b.Run("list", bd.list)
			b.Run("get", bd.get)
			b.Run("create", bd.create)
		})
	}
}

// BenchmarkPersonSearch finds persons among 10,000 ("Person 0" … "Person
// 10000"): a rare substring (one person), a common one (every person, a
// page of 15 and the count), and a two-letter one (no trigram: each row
// read). The index must keep the rare one far below reading them all.
func BenchmarkPersonSearch(b *testing.B) {
	bd := newBenchData(b, 10000, 0)
	for _, q := range []string{"son 4321", "person", "n 4"} {
		b.Run(strings.ReplaceAll(q, " ", "_"), func(b *testing.B) {
			path := "/api/persons?q=" + strings.ReplaceAll(q, " ", "+")
			for b.Loop() {
				bd.serve(b, "GET", path, "", 200)
			}
		})
	}
}

// BenchmarkAccountTasks lists open tasks due by a date across 10,000
// persons and 100,000 tasks (due on 4 and 5 January 2026): a day none is
// due by, as a dashboard mostly asks, and one all 100,000 are (the page of
// 15 and their count).
func BenchmarkAccountTasks(b *testing.B) {
	bd := newBenchData(b, 10000, 100000)
	for _, day := range []string{"2026-01-03", "2026-01-05"} {
		b.Run("due_to="+day, func(b *testing.B) {
			for b.Loop() {
				bd.serve(b, "GET", "/api/tasks?is_completed=0&due_to="+day, "", 200)
			}
		})
	}
}
