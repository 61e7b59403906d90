package cli

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"kith/store/storetest"
	"math/rand/v2"
	"path/filepath"
	"sync"
	"testing"
	"time"
)

// ledger is what the clients of the crash test were told, and what they
// sent without hearing back. A row whose last write had no answer may hold
// either value; every acknowledged write must be there.
type ledger struct {
	mu      sync.Mutex
	persons map[string]*crashPerson // by first_name
	tasks   map[string]*crashTask   // by name
	refused []string                // task names answered 422: must never exist
}

type crashPerson struct {
	id       int64
	owner    int      // writer
	lastName []string // possible values: the acknowledged one, then one in flight
}

type crashTask struct {
	id        int64
	owner     int
	dueAt     int64
	completed []bool
}

// TestCrashSafety starts the real binary, writes to it from several
// clients at once and kills it with SIGKILL at random moments, many times.
// After each restart every acknowledged write is there, no write answered
// with an error exists even in part, and SQLite's integrity check passes.
func TestCrashSafety(t *testing.T) {
	if testing.Short() {
		t.Skip("starts and kills the binary many times")
	}
	storetest.Slow(t, "kills and restarts the binary 25 times")
	db := filepath.Join(t.TempDir(), "kith.db")
	c := startChild(t, db)
	key := c.firstKey(t)
	lg := &ledger{persons: map[string]*crashPerson{}, tasks: map[string]*crashTask{}}
	kills := scale(25, 100)
	acked := 0
	for round := 0; round < kills; round++ {
		ctx, cancel := context.WithCancel(context.Background())
		var wg sync.WaitGroup
		counts := make([]int, 4)
		// The kill's moment is counted from the round's first answered
		// write: a server just started opens its writer's connection at
		// its first write, which under -race on a busy machine can take
		// longer than the random wait itself.
		first, once := make(chan struct{}), sync.Once{}
		answered := func() { once.Do(func() { close(first) }) }
		for w := range 4 {
			wg.Add(1)
			go func() {
				defer wg.Done()
				counts[w] = lg.write(ctx, t, c.base, key, round, w, answered)
			}()
		}
		select {
		case <-first:
		case <-time.After(10 * time.Second):
		}
		time.Sleep(time.Duration(20+rand.IntN(180)) * time.Millisecond)
		c.kill()
		cancel()
		wg.Wait()
		for _, n := range counts {
			acked += n
		}
		c = startChild(t, db)
		lg.check(t, db)
	}
	t.Logf("%d kills survived, %d writes acknowledged, %d persons and %d tasks checked after each",
		kills, acked, len(lg.persons), len(lg.tasks))
	if acked < kills {
		t.Errorf("only %d writes acknowledged in %d rounds: the test is not writing", acked, kills)
	}
}

// write runs one client until its server dies, calls acked after each
// acknowledged write, and returns how many there were.
func (lg *ledger) write(ctx context.Context, t *testing.T, base, key string, round, w int, ack func()) int {
	acked := 0
	for i := 0; ; i++ {
		name := fmt.Sprintf("r%d-w%d-%d", round, w, i)
		var err error
		switch op := rand.IntN(5); {
		case op == 0 || len(lg.own(w)) == 0:
			err = lg.createPerson(ctx, base, key, w, name)
		case op == 1:
			err = lg.createTask(ctx, base, key, w, name, lg.pickPerson(w))
		case op == 2:
			err = lg.toggle(ctx, base, key, lg.pickTask(w))
		case op == 3:
			err = lg.rename(ctx, base, key, lg.pickPerson(w), name)
		default:
			err = lg.refusedTask(ctx, base, key, name, lg.pickPerson(w))
		}
		if errors.Is(err, errNoAnswer) {
			return acked
		}
		if err != nil {
			t.Error(err)
			return acked
		}
		acked++
		ack()
	}
}

var errNoAnswer = errors.New("no answer")

func (lg *ledger) own(w int) []*crashPerson {
	lg.mu.Lock()
	defer lg.mu.Unlock()
	var ps []*crashPerson
	for _, p := range lg.persons {
		if p.owner == w && p.id != 0 {
			ps = append(ps, p)
		}
	}
	return ps
}

func (lg *ledger) pickPerson(w int) *crashPerson {
	ps := lg.own(w)
	return ps[rand.IntN(len(ps))]
}

func (lg *ledger) pickTask(w int) *crashTask {
	lg.mu.Lock()
	defer lg.mu.Unlock()
	for _, tk := range lg.tasks {
		if tk.owner == w && tk.id != 0 {
			return tk
		}
	}
	return nil
}

func (lg *ledger) createPerson(ctx context.Context, base, key string, w int, name string) error {
	p := &crashPerson{owner: w, lastName: []string{"L-" + name}}
	lg.mu.Lock()
	lg.persons[name] = p // id 0: sent, not acknowledged
	lg.mu.Unlock()
	code, body, err := call(ctx, "POST", base+"/api/persons", key,
		map[string]any{"first_name": name, "last_name": "L-" + name, "nickname": "N-" + name})
	if err != nil {
		return errNoAnswer
	}
	if code != 201 {
		return fmt.Errorf("create person: %d %v", code, body)
	}
	lg.mu.Lock()
	p.id = dataID(body)
	lg.mu.Unlock()
	return nil
}

func (lg *ledger) createTask(ctx context.Context, base, key string, w int, name string, p *crashPerson) error {
	tk := &crashTask{owner: w, dueAt: 1_800_000_000 + rand.Int64N(1_000_000), completed: []bool{false}}
	lg.mu.Lock()
	lg.tasks[name] = tk
	lg.mu.Unlock()
	code, body, err := call(ctx, "POST", fmt.Sprintf("%s/api/persons/%d/tasks", base, p.id), key,
		map[string]any{"name": name, "due_at": tk.dueAt, "task_category_id": 1})
	if err != nil {
		return errNoAnswer
	}
	if code != 201 {
		return fmt.Errorf("create task: %d %v", code, body)
	}
	lg.mu.Lock()
	tk.id = dataID(body)
	lg.mu.Unlock()
	return nil
}

func (lg *ledger) toggle(ctx context.Context, base, key string, tk *crashTask) error {
	if tk == nil {
		return nil
	}
	lg.mu.Lock()
	now := tk.completed[len(tk.completed)-1]
	tk.completed = []bool{now, !now}
	lg.mu.Unlock()
	code, body, err := call(ctx, "PUT", fmt.Sprintf("%s/api/tasks/%d/toggle", base, tk.id), key, nil)
	if err != nil {
		return errNoAnswer
	}
	d, _ := body["data"].(map[string]any)
	if code != 200 || d["is_completed"] != !now {
		return fmt.Errorf("toggle: %d %v", code, body)
	}
	lg.mu.Lock()
	tk.completed = []bool{!now}
	lg.mu.Unlock()
	return nil
}

func (lg *ledger) rename(ctx context.Context, base, key string, p *crashPerson, name string) error {
	lg.mu.Lock()
	first := ""
	for n, q := range lg.persons {
		if q == p {
			first = n
		}
	}
	p.lastName = []string{p.lastName[len(p.lastName)-1], "L-" + name}
	lg.mu.Unlock()
	code, body, err := call(ctx, "PUT", fmt.Sprintf("%s/api/persons/%d", base, p.id), key,
		map[string]any{"first_name": first, "last_name": "L-" + name, "nickname": "N-" + first})
	if err != nil {
		return errNoAnswer
	}
	if code != 200 {
		return fmt.Errorf("update person: %d %v", code, body)
	}
	lg.mu.Lock()
	p.lastName = []string{"L-" + name}
	lg.mu.Unlock()
	return nil
}

// refusedTask sends a task with an unknown category: 422, and nothing of
// it may ever be stored.
func (lg *ledger) refusedTask(ctx context.Context, base, key, name string, p *crashPerson) error {
	code, body, err := call(ctx, "POST", fmt.Sprintf("%s/api/persons/%d/tasks", base, p.id), key,
		map[string]any{"name": "bad-" + name, "task_category_id": 999999})
	if err != nil {
		return errNoAnswer
	}
	if code != 422 {
		return fmt.Errorf("refused task: %d %v", code, body)
	}
	lg.mu.Lock()
	lg.refused = append(lg.refused, "bad-"+name)
	lg.mu.Unlock()
	return nil
}

// check compares the database with the ledger after a restart, then
// settles every write in flight to what the database shows.
func (lg *ledger) check(t *testing.T, db string) {
	t.Helper()
	integrityOK(t, db)
	d := openRO(t, db)
	lg.mu.Lock()
	defer lg.mu.Unlock()
	for name, p := range lg.persons {
		var id int64
		var last, nick sql.NullString
		err := d.QueryRow(`SELECT id, last_name, nickname FROM persons WHERE first_name = ?`, name).Scan(&id, &last, &nick)
		if errors.Is(err, sql.ErrNoRows) && p.id == 0 {
			delete(lg.persons, name) // never acknowledged, never stored: fine
			continue
		}
		if err != nil {
			t.Fatalf("person %s (acknowledged as %d): %v", name, p.id, err)
		}
		if (p.id != 0 && id != p.id) || nick.String != "N-"+name || !oneOf(last.String, p.lastName) {
			t.Fatalf("person %s: id %d last %q nick %q, want id %d last in %v", name, id, last.String, nick.String, p.id, p.lastName)
		}
		p.id, p.lastName = id, []string{last.String}
	}
	for name, tk := range lg.tasks {
		var id, due int64
		var done bool
		var completedAt sql.NullInt64
		err := d.QueryRow(`SELECT id, due_at, is_completed, completed_at FROM tasks WHERE name = ?`, name).Scan(&id, &due, &done, &completedAt)
		if errors.Is(err, sql.ErrNoRows) && tk.id == 0 {
			delete(lg.tasks, name)
			continue
		}
		if err != nil {
			t.Fatalf("task %s (acknowledged as %d): %v", name, tk.id, err)
		}
		if (tk.id != 0 && id != tk.id) || due != tk.dueAt || !oneOf(done, tk.completed) || done != completedAt.Valid {
			t.Fatalf("task %s: id %d due %d completed %v at %v, want id %d due %d completed in %v",
				name, id, due, done, completedAt, tk.id, tk.dueAt, tk.completed)
		}
		tk.id, tk.completed = id, []bool{done}
	}
	for _, name := range lg.refused {
		var n int
		d.QueryRow(`SELECT count(*) FROM tasks WHERE name = ?`, name).Scan(&n)
		if n != 0 {
			t.Fatalf("task %s was refused with 422 but exists", name)
		}
	}
}

func oneOf[T comparable](v T, in []T) bool {
	for _, x := range in {
		if v == x {
			return true
		}
	}
	return false
}
