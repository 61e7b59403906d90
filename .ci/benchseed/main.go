// Command benchseed fills a new Kith database for .ci/bench and the scaling
// benchmark: one user in one account (with its six task categories), a
// first person with 50 tasks, and more persons sharing the other tasks.
// It prints the user's API key, password and the ids a benchmark needs.
//
//	go run ./.ci/benchseed -db /tmp/kith-bench.db [-persons 100 -tasks 10000]
//	go run ./.ci/benchseed -db 'postgres://postgres@/kithbench?host=/tmp/pg'
//
// A PostgreSQL database must exist and hold no tables yet.
package main

import (
	"context"
	"database/sql"
	"flag"
	"fmt"
	"log"
	"net/url"

	"kith/store" // registers the "sqlite" and "pgx" drivers too
)

func main() {
	db := flag.String("db", "", "database file to create (must not exist), or an empty PostgreSQL database's postgres:// URL")
	persons := flag.Int("persons", 100, "persons besides the first")
	tasks := flag.Int("tasks", 10000, "tasks spread over those persons")
	flag.Parse()
	if *db == "" {
		log.Fatal("benchseed: -db is required")
	}
	ctx := context.Background()
	st, err := store.Open(ctx, *db)
	if err != nil {
		log.Fatal(err)
	}
	if _, err := st.Migrate(ctx); err != nil {
		log.Fatal(err)
	}
	const password = "bench password"
	u, err := st.CreateUser(ctx, store.NewUser{FirstName: "Bench", LastName: "User", Email: "bench@example.com", Password: password})
	if err != nil {
		log.Fatal(err)
	}
	_, token, err := st.CreateAPIKey(ctx, u.ID, "bench")
	if err != nil {
		log.Fatal(err)
	}
	st.Close()

	first, taskID, err := fill(*db, u.AccountID, *persons, *tasks)
	if err != nil {
		log.Fatal(err)
	}
	fmt.Printf("token=%s\nemail=%s\npassword=%s\nperson=%d\ntask=%d\n", token, u.Email, password, first, taskID)
}

// fill writes the rows in one transaction: through the API they would
// take one fsync each.
func fill(db string, account int64, persons, tasks int) (first, taskID int64, err error) {
	pg := store.IsPostgres(db)
	var d *sql.DB
	if pg {
		d, err = openPostgres(db)
	} else {
		var path string
		if path, err = store.SQLitePath(db); err == nil {
			d, err = sql.Open("sqlite", "file:"+path+"?_pragma=foreign_keys(1)&_pragma=busy_timeout(10000)")
		}
	}
	if err != nil {
		return 0, 0, err
	}
	defer d.Close()
	// The queries below are written with SQLite's ? placeholders.
	q := func(query string) string {
		if !pg {
			return query
		}
		return store.Rebind(query)
	}
	tx, err := d.Begin()
	if err != nil {
		return 0, 0, err
	}
	defer tx.Rollback()
	const now = 1_767_225_600 // 2026-01-01
	var ids []int64
	for p := 0; p <= persons; p++ {
		var id int64
		err := tx.QueryRow(q(`INSERT INTO persons (account_id, first_name, last_name, created_at, updated_at)
			VALUES (?, ?, ?, ?, ?) RETURNING id`), account, fmt.Sprintf("Person %d", p), "Bench", now, now).Scan(&id)
		if err != nil {
			return 0, 0, err
		}
		ids = append(ids, id)
	}
	ins, err := tx.Prepare(q(`INSERT INTO tasks (account_id, person_id, task_category_id, name, is_completed, due_at, completed_at, created_at, updated_at)
		VALUES (?, ?, (SELECT id FROM task_categories WHERE account_id = ? ORDER BY id LIMIT 1 OFFSET ?), ?, ?, ?, ?, ?, ?) RETURNING id`))
	if err != nil {
		return 0, 0, err
	}
	for i := 0; i < 50+tasks; i++ {
		person := ids[0]
		if i >= 50 && persons > 0 {
			person = ids[1+(i-50)%persons]
		}
		done := i%3 == 0
		var completed any
		if done {
			completed = now + i
		}
		var id int64
		err := ins.QueryRow(account, person, account, i%6, fmt.Sprintf("Task %d: call back about the birthday present", i),
			done, now+i+72*3600, completed, now+i, now+i).Scan(&id)
		if err != nil {
			return 0, 0, err
		}
		if i == 0 {
			taskID = id
		}
	}
	if err := tx.Commit(); err != nil {
		return 0, 0, err
	}
	if pg {
		// Statistics for the planner now, rather than whenever autovacuum
		// comes round to the 10,000 new rows.
		_, err = d.Exec(`ANALYZE`)
	} else {
		_, err = d.Exec(`PRAGMA wal_checkpoint(TRUNCATE)`)
	}
	return ids[0], taskID, err
}

// openPostgres opens the URL with pgx's database/sql driver, less Kith's
// own pool_max_conns, which PostgreSQL would refuse as an unknown setting.
func openPostgres(dsn string) (*sql.DB, error) {
	u, err := url.Parse(dsn)
	if err != nil {
		return nil, fmt.Errorf("benchseed: -db is not a valid PostgreSQL URL")
	}
	v := u.Query()
	v.Del("pool_max_conns")
	u.RawQuery = v.Encode()
	return sql.Open("pgx", u.String())
}
