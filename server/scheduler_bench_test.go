package server

import (
	"context"
	"database/sql"
	"fmt"
	"io"
	"testing"
	"time"

	"github.com/rs/zerolog"

	"kith/server/remind"
	"kith/store/storetest"
)

// newRemindersBench seeds accounts × persons, each person with a birthday
// to be reminded of and a reminder of their own (monthly, weekly, yearly or
// once, in turn), every tenth with a life event and an important date
// reminded yearly, an open task due within the year, a stay-in-touch
// cadence and two interactions. Every user has their email channel, which
// without SMTP writes the digest to the (discarded) log.
func newRemindersBench(b *testing.B, accounts, persons int) *env {
	storetest.SQLiteOnly(b) // it seeds the SQLite file directly
	e := newEnv(b, func(o *Options) { o.Logger = zerolog.New(io.Discard) })
	d, err := sql.Open("sqlite", "file:"+e.where+"?_pragma=busy_timeout(10000)&_pragma=foreign_keys(1)")
	if err != nil {
		b.Fatal(err)
	}
	defer d.Close()
	var accts []int64
	for a := range accounts {
		u, _ := e.user(fmt.Sprintf("user%d@example.com", a))
		accts = append(accts, u.AccountID)
	}
	tx, err := d.Begin()
	if err != nil {
		b.Fatal(err)
	}
	const now = 1_767_225_600 // 2026-01-01
	person, _ := tx.Prepare(`INSERT INTO persons (account_id, first_name, last_name, age_type, age_year, age_month, age_day,
		yearly_reminder, created_at, updated_at) VALUES (?, ?, 'Example', 'exact', ?, ?, ?, 1, ?, ?) RETURNING id`)
	event, _ := tx.Prepare(`INSERT INTO life_events (account_id, person_id, description, happened_at, should_be_reminded, created_at, updated_at)
		VALUES (?, ?, 'Moved house', ?, 1, ?, ?)`)
	task, _ := tx.Prepare(`INSERT INTO tasks (account_id, person_id, task_category_id, name, due_at, created_at, updated_at)
		VALUES (?, ?, 1, 'Call about the present', ?, ?, ?)`)
	date, _ := tx.Prepare(`INSERT INTO important_dates (account_id, person_id, label, month, day, remind_yearly, created_at, updated_at)
		VALUES (?, ?, 'Anniversary', ?, ?, 1, ?, ?)`)
	cadence, _ := tx.Prepare(`INSERT INTO stay_in_touch (account_id, person_id, every_days, since_on, created_at, updated_at)
		VALUES (?, ?, ?, '2026-01-01', ?, ?)`)
	interaction, _ := tx.Prepare(`INSERT INTO interactions (account_id, person_id, happened_on, kind, created_at, updated_at)
		VALUES (?, ?, ?, 'call', ?, ?)`)
	reminder, _ := tx.Prepare(`INSERT INTO reminders (account_id, person_id, label, starts_on, frequency, every, created_at, updated_at)
		VALUES (?, ?, 'Ask about the flat', ?, ?, 1, ?, ?)`)
	frequencies := []string{"monthly", "weekly", "yearly", "one_time"}
	for _, acct := range accts {
		for p := range persons {
			var id int64
			if err := person.QueryRow(acct, fmt.Sprint("Person ", p), 1950+p%60, 1+p%12, 1+p%28, now, now).Scan(&id); err != nil {
				b.Fatal(err)
			}
			starts := fmt.Sprintf("2026-%02d-%02d", 1+p%12, 1+p%31%28)
			if _, err := reminder.Exec(acct, id, starts, frequencies[p%4], now, now); err != nil {
				b.Fatal(err)
			}
			if p%10 == 0 {
				if _, err := event.Exec(acct, id, now-int64(p)*86400*3, now, now); err != nil {
					b.Fatal(err)
				}
				if _, err := task.Exec(acct, id, now+int64(p%365)*86400, now, now); err != nil {
					b.Fatal(err)
				}
				if _, err := date.Exec(acct, id, 1+(p/10)%12, 1+p%28, now, now); err != nil {
					b.Fatal(err)
				}
				if _, err := cadence.Exec(acct, id, 7+p%90, now, now); err != nil {
					b.Fatal(err)
				}
				for _, on := range []string{"2026-01-15", fmt.Sprintf("2026-02-%02d", 1+p%28)} {
					if _, err := interaction.Exec(acct, id, on, now, now); err != nil {
						b.Fatal(err)
					}
				}
			}
		}
	}
	if err := tx.Commit(); err != nil {
		b.Fatal(err)
	}
	return e
}

// BenchmarkReminderDailyPass is the day's pass at the hour everyone's
// digest is due: every user's dates read, worked out and sent. Each
// iteration is the next day.
//
//	go test ./server -run '^$' -bench ReminderDailyPass -benchtime 10x
func BenchmarkReminderDailyPass(b *testing.B) {
	e := newRemindersBench(b, 100, 1000)
	day := time.Date(2026, 3, 1, 9, 0, 0, 0, time.UTC)
	for b.Loop() {
		e.at(day)
		if err := e.srv.Reminders().Pass(context.Background()); err != nil {
			b.Fatal(err)
		}
		day = day.AddDate(0, 0, 1)
	}
	if n := e.count(`SELECT count(*) FROM channels WHERE done_day IS NULL`); n != 0 {
		b.Fatalf("%d channels were not done", n)
	}
}

// BenchmarkDigestOf10000 builds one user's digest, as the daily pass
// does, for an account of 10,000 people each with a birthday and a
// reminder of their own: the account's dates read, a week of them worked
// out, the action links signed.
//
//	go test ./server -run '^$' -bench DigestOf10000 -benchtime 20x
func BenchmarkDigestOf10000(b *testing.B) {
	e := newRemindersBench(b, 1, 10000)
	e.srv.Reminders().BaseURL = "https://kith.example.org"
	u, err := e.st.UserByEmail(context.Background(), "user0@example.com")
	if err != nil {
		b.Fatal(err)
	}
	day := time.Date(2026, 3, 1, 0, 0, 0, 0, time.UTC)
	key, err := e.st.ActionSecret(context.Background())
	if err != nil {
		b.Fatal(err)
	}
	items := 0
	b.ReportAllocs()
	for b.Loop() {
		src, err := remind.ReadSource(context.Background(), e.st, u.AccountID, u.ID, day, 7, time.UTC)
		if err != nil {
			b.Fatal(err)
		}
		days := remind.Digest(src, day, 7, time.UTC)
		remind.AddActions(days, key, "https://kith.example.org", u.ID, day)
		items = 0
		for _, d := range days {
			items += len(d.Items)
		}
	}
	b.ReportMetric(float64(items), "items")
}

// BenchmarkReminderIdlePass is the pass of every other minute of the day:
// everything sent, nothing to do.
func BenchmarkReminderIdlePass(b *testing.B) {
	e := newRemindersBench(b, 100, 1000)
	e.at(time.Date(2026, 3, 1, 9, 0, 0, 0, time.UTC))
	if err := e.srv.Reminders().Pass(context.Background()); err != nil {
		b.Fatal(err)
	}
	for b.Loop() {
		e.clock.Advance(time.Minute)
		if err := e.srv.Reminders().Pass(context.Background()); err != nil {
			b.Fatal(err)
		}
	}
}
