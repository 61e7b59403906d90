package server

import (
	"context"
	"fmt"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"kith/store"
)

// BenchmarkWebPages times the pages a signed-in user opens most, on an
// account of 1,000 people, some with birthdays, dates, tasks and a
// reminder to stay in touch so that the dashboard has work, and one with
// a few things of every kind. The target is under 20 ms a page.
func BenchmarkWebPages(b *testing.B) {
	e := newEnv(b)
	u, key := e.user("ada@example.com")
	ctx := context.Background()
	acct := u.AccountID
	today := e.clock.Now().Format(time.DateOnly)
	for i := 1; i <= 1000; i++ {
		last := fmt.Sprintf("Surname%04d", i)
		nick := fmt.Sprintf("Nick%04d", i)
		p, err := e.st.CreatePerson(ctx, acct, store.PersonInput{FirstName: fmt.Sprintf("Person%04d", i), LastName: &last,
			Nickname: &nick, MaritalStatus: "unknown", KidsStatus: "unknown", CanBeDeleted: true, IsListed: true})
		if err != nil {
			b.Fatal(err)
		}
		if i%10 == 0 { // 100 birthdays spread over the year
			exact, y, m, d, yes := "exact", int64(1950+i%50), int64(1+i%12), int64(1+i%28), true
			if _, err := e.st.SetAge(ctx, acct, p.ID, store.Age{Type: &exact, Year: &y, Month: &m, Day: &d, YearlyReminder: &yes}); err != nil {
				b.Fatal(err)
			}
		}
		if i%20 == 0 { // 50 important dates
			if _, err := e.st.CreateImportantDate(ctx, acct, p.ID, store.ImportantDateInput{Label: "Anniversary",
				Month: int64(1 + i%12), Day: int64(1 + i%28), RemindYearly: true}); err != nil {
				b.Fatal(err)
			}
		}
		if i%5 == 0 { // 200 tasks, due from 30 days ago to 170 days ahead
			due := e.clock.Now().AddDate(0, 0, i/5-30).Unix()
			if _, err := e.st.CreateTask(ctx, acct, p.ID, store.TaskInput{Name: "Call " + last, DueAt: &due}); err != nil {
				b.Fatal(err)
			}
		}
		if i%25 == 0 { // 40 to stay in touch with
			every := int64(1 + i%60)
			if _, err := e.st.SetStayInTouch(ctx, acct, p.ID, &every, today); err != nil {
				b.Fatal(err)
			}
		}
	}
	// One person with a few things of every kind.
	full := e.person(key, "first_name=Grace&last_name=Hopper&nickname=Amazing&how_we_met=Navy")
	e.do(req{method: "PATCH", path: "/api/persons/" + full + "/age?age_type=exact&age_year=1906&age_month=12&age_day=9&add_yearly_reminder=1", key: key})
	for i := 0; i < 3; i++ {
		n := fmt.Sprint(i)
		e.contactDetail(key, full, "kind=phone&value=555-010"+n)
		e.importantDate(key, full, "label=Date+"+n+"&date=2019-05-0"+fmt.Sprint(i+1))
		e.task(key, full, "name=Task+"+n+"&due_at=2026-03-2"+n)
		e.note(key, full, "Note "+n)
		e.interaction(key, full, "happened_on=2026-03-0"+fmt.Sprint(i+1)+"&kind=call&note=Talked")
		e.gift(key, full, "name=Gift+"+n+"&status=idea")
		e.lifeEvent(key, full, "description=Event+"+n+"&happened_at=2020-01-0"+fmt.Sprint(i+1))
		e.workEntry(key, full, "job_title=Job+"+n+"&active=0")
	}
	e.do(req{method: "PUT", path: "/api/persons/" + full + "/stay-in-touch?every_days=30", key: key})

	journal := e.journal(key, "Diary")
	var journalID int64
	fmt.Sscan(journal, &journalID)
	for d := 0; d < 365; d++ { // a year of entries
		day := e.clock.Now().AddDate(0, 0, -d)
		if _, _, err := e.st.JournalEntry(ctx, acct, journalID, day.Year(), int(day.Month()), day.Day()); err != nil {
			b.Fatal(err)
		}
	}
	note := e.note(key, full, "A note to edit")

	br := e.signIn(b, "ada@example.com")
	// want is on the page, so that what is timed is the full page.
	pages := []struct{ name, path, want string }{
		{"dashboard", "/", "overdue since"},
		{"people", "/people", "1–50 of 1001"},
		{"people_search", "/people?q=son012", "1–10 of 10"},
		{"people_search_broad", "/people?q=erson", "1–50 of 1000"},
		{"person", "/people/" + full, "Job 2"},
		{"person_edit", "/people/" + full + "/edit", `value="Hopper"`},
		{"note_edit", "/people/" + full + "/notes/" + note + "/edit", "A note to edit"},
		{"journals", "/journals", "Diary"},
		{"journal", "/journals/" + journal, "1–100 of 365"},
		{"settings", "/settings/lists", "Relationship types"},
	}
	for _, pg := range pages {
		b.Run(pg.name, func(b *testing.B) {
			get := func() *httptest.ResponseRecorder {
				r := httptest.NewRequest(http.MethodGet, pg.path, nil)
				r.Header.Set("Accept", "text/html")
				for _, c := range br.cookies {
					r.AddCookie(c)
				}
				w := httptest.NewRecorder()
				e.srv.ServeHTTP(w, r)
				return w
			}
			if w := get(); w.Code != http.StatusOK || !strings.Contains(w.Body.String(), pg.want) {
				b.Fatalf("%s: %d, want %q in %s", pg.path, w.Code, pg.want, w.Body)
			}
			b.ReportAllocs()
			b.ResetTimer()
			for b.Loop() {
				if w := get(); w.Code != http.StatusOK {
					b.Fatalf("%s: %d", pg.path, w.Code)
				}
			}
			b.ReportMetric(float64(b.Elapsed().Microseconds())/1000/float64(b.N), "ms/op")
		})
	}
}

// BenchmarkWebPeopleLarge is the people page, in name order, and its
// search on an account of 10,000 persons: the first and a far page.
func BenchmarkWebPeopleLarge(b *testing.B) {
	bd := newBenchData(b, 10000, 0)
	br := bd.signIn(b, "bench@example.com")
	for _, path := range []string{"/people", "/people?page=150", "/people?q=son+4321", "/people?q=person"} {
		b.Run(strings.TrimPrefix(path, "/people"), func(b *testing.B) {
			for b.Loop() {
				r := httptest.NewRequest(http.MethodGet, path, nil)
				for _, c := range br.cookies {
					r.AddCookie(c)
				}
				w := httptest.NewRecorder()
				bd.srv.ServeHTTP(w, r)
				if w.Code != http.StatusOK {
					b.Fatalf("%s: %d", path, w.Code)
				}
			}
			b.ReportMetric(float64(b.Elapsed().Microseconds())/1000/float64(b.N), "ms/op")
		})
	}
}
