package cli

import (
	"bytes"
	"context"
	"fmt"
	"math/rand/v2"
	"path/filepath"
	"regexp"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"
)

// TestSoak puts a bounded mixed load on the real binary (built with the
// race detector when the tests run with -race): 32 clients over four users
// in three accounts read, create, update, toggle and delete. No answer may
// be a 5xx, the log may not show SQLite's busy errors or a data race, and
// the rows left must be what the clients were told.
func TestSoak(t *testing.T) {
	if testing.Short() {
		t.Skip("loads the binary")
	}
	db := filepath.Join(t.TempDir(), "kith.db")
	c := startChild(t, db)
	c.firstKey(t) // account 1's first user
	ctx := context.Background()
	users := []struct{ email, account string }{
		{"admin@example.com", ""}, {"team@example.com", "1"}, {"solo@example.com", ""}, {"other@example.com", ""},
	}
	keys := make([]string, len(users))
	accountOf := make([]int, len(users))
	for i, u := range users {
		if i > 0 {
			args := []string{"user", "create", "--db", db, "--email", u.email, "--first-name", "U", "--last-name", "S", "--password", "soak password"}
			if u.account != "" {
				args = append(args, "--account", u.account)
			}
			var out, errOut bytes.Buffer
			if code := run(ctx, args, &out, &errOut); code != 0 {
				t.Fatalf("user create beside the server: %s", errOut.String())
			}
			fmt.Sscan(regexp.MustCompile(`account: (\d+)`).FindStringSubmatch(out.String())[1], &accountOf[i])
			_, body, err := call(ctx, "POST", c.base+"/api/login", "", map[string]any{"email": u.email, "password": "soak password"})
			if err != nil {
				t.Fatal(err)
			}
			keys[i] = body["data"].(map[string]any)["token"].(string)
		} else {
			keys[0], accountOf[0] = c.firstKey(t), 1
		}
	}

	total := scale(4000, 20000)
	const clients = 32
	var sent, bad atomic.Int64
	persons := make([]atomic.Int64, 8) // created, per account
	tasks := make([]atomic.Int64, 8)   // created minus deleted, per account
	start := time.Now()
	var wg sync.WaitGroup
	for n := range clients {
		wg.Add(1)
		go func() {
			defer wg.Done()
			u := n % len(users)
			s := &soaker{base: c.base, key: keys[u], r: rand.New(rand.NewPCG(uint64(n), 7))}
			for sent.Add(1) <= int64(total) {
				code, what, delta := s.step(ctx)
				switch {
				case code != soakWant[what]:
					if bad.Add(1) <= 5 {
						t.Errorf("%s: %d, want %d", what, code, soakWant[what])
					}
				case delta == "person":
					persons[accountOf[u]].Add(1)
				case delta == "+task":
					tasks[accountOf[u]].Add(1)
				case delta == "-task":
					tasks[accountOf[u]].Add(-1)
				}
			}
		}()
	}
	wg.Wait()
	elapsed := time.Since(start)

	d := openRO(t, db)
	for acct := 1; acct <= 3; acct++ {
		var np, nt int64
		d.QueryRow(`SELECT count(*) FROM persons WHERE account_id = ?`, acct).Scan(&np)
		d.QueryRow(`SELECT count(*) FROM tasks WHERE account_id = ?`, acct).Scan(&nt)
		if np != persons[acct].Load() || nt != tasks[acct].Load() {
			t.Errorf("account %d holds %d persons and %d tasks; the clients were told %d and %d",
				acct, np, nt, persons[acct].Load(), tasks[acct].Load())
		}
	}
	c.kill()
	log := c.stderr.String()
	for _, bad := range []string{"database is locked", "SQLITE_BUSY", "DATA RACE", `"level":"error"`} {
		if strings.Contains(log, bad) {
			t.Errorf("the server log shows %q", bad)
		}
	}
	t.Logf("%d requests from %d clients in %v (%.0f req/s, race detector %v), every answer as expected",
		total, clients, elapsed.Round(time.Millisecond), float64(total)/elapsed.Seconds(), raceEnabled)
}

// soakWant is each request's one right answer.
var soakWant = map[string]int{
	"list persons": 200, "create person": 201, "create task": 201, "update person": 200,
	"list tasks": 200, "me": 200, "get task": 200, "toggle": 200, "delete task": 204,
}

// soaker is one client: it works on the persons and tasks it created.
type soaker struct {
	base, key string
	r         *rand.Rand
	persons   []int64
	tasks     [][2]int64 // person, task
}

// step sends one request and says what changed: "person", "+task",
// "-task" or "".
func (s *soaker) step(ctx context.Context) (int, string, string) {
	p := func(id int64) string { return fmt.Sprintf("%s/api/persons/%d", s.base, id) }
	op := s.r.IntN(10)
	if len(s.persons) == 0 {
		op = 2
	}
	switch {
	case op < 2:
		code, _, _ := call(ctx, "GET", s.base+"/api/persons?per_page=20", s.key, nil)
		return code, "list persons", ""
	case op == 2:
		code, body, _ := call(ctx, "POST", s.base+"/api/persons", s.key, map[string]any{"first_name": "Soak", "last_name": "Person"})
		if code == 201 {
			s.persons = append(s.persons, dataID(body))
			return code, "create person", "person"
		}
		return code, "create person", ""
	case op == 3:
		id := s.persons[s.r.IntN(len(s.persons))]
		code, body, _ := call(ctx, "POST", p(id)+"/tasks", s.key, map[string]any{"name": "Call"})
		if code == 201 {
			s.tasks = append(s.tasks, [2]int64{id, dataID(body)})
			return code, "create task", "+task"
		}
		return code, "create task", ""
	case op == 4:
		id := s.persons[s.r.IntN(len(s.persons))]
		code, _, _ := call(ctx, "PUT", p(id), s.key, map[string]any{"first_name": "Soak", "last_name": fmt.Sprint(s.r.IntN(1000))})
		return code, "update person", ""
	case op == 5:
		code, _, _ := call(ctx, "GET", p(s.persons[s.r.IntN(len(s.persons))])+"/tasks", s.key, nil)
		return code, "list tasks", ""
	case len(s.tasks) == 0:
		code, _, _ := call(ctx, "GET", s.base+"/api/me", s.key, nil)
		return code, "me", ""
	case op == 6:
		tk := s.tasks[s.r.IntN(len(s.tasks))]
		code, _, _ := call(ctx, "GET", fmt.Sprintf("%s/tasks/%d", p(tk[0]), tk[1]), s.key, nil)
		return code, "get task", ""
	case op == 7:
		tk := s.tasks[s.r.IntN(len(s.tasks))]
		code, _, _ := call(ctx, "PUT", fmt.Sprintf("%s/api/tasks/%d/toggle", s.base, tk[1]), s.key, nil)
		return code, "toggle", ""
	case op == 8:
		i := s.r.IntN(len(s.tasks))
		tk := s.tasks[i]
		code, _, _ := call(ctx, "DELETE", fmt.Sprintf("%s/tasks/%d", p(tk[0]), tk[1]), s.key, nil)
		if code == 204 {
			s.tasks = append(s.tasks[:i], s.tasks[i+1:]...)
			return code, "delete task", "-task"
		}
		return code, "delete task", ""
	default:
		code, _, _ := call(ctx, "GET", s.base+"/api/me", s.key, nil)
		return code, "me", ""
	}
}
