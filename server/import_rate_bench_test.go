//go:build unix

package server

import (
	"fmt"
	"net/http/httptest"
	"runtime"
	"strings"
	"syscall"
	"testing"
	"time"
)

// BenchmarkBulkImport is issue 34's bulk-in rule: each import's rate into
// an account of 1,000 and of 10,000 people already, which should not fall
// as the account grows. Every run imports 2,000 new persons: vCards as a
// phone writes them (every tenth with a photo), a Monica export and a
// Google CSV file. KB/card is what the import allocated, divided by the
// cards.
//
//	go test ./server -run '^$' -bench BulkImport -benchtime 3x
//	KITH_TEST_POSTGRES_URL=… go test ./server -run '^$' -bench BulkImport -benchtime 3x
func BenchmarkBulkImport(b *testing.B) {
	const n = 2000
	vcards := benchVCards(n)
	monica := string(monicaContacts(n))
	for _, people := range []int{1000, 10000} {
		b.Run(fmt.Sprintf("people=%d", people), func(b *testing.B) {
			bd := newScaleAccount(b, people)
			run := 0
			// fresh makes a file's persons new to the account: run r's
			// UIDs, emails and names are its own.
			kinds := []struct {
				name string
				file func(r int) string
				post func(b *testing.B, file string)
			}{
				{"vcard", func(r int) string {
					return strings.ReplaceAll(vcards, "UID:BENCH-", fmt.Sprintf("UID:R%d-", r))
				}, func(b *testing.B, file string) { importBench(b, bd.env, bd.key, file, n) }},
				{"monica", func(r int) string {
					return strings.NewReplacer(`"uuid":"c-`, fmt.Sprintf(`"uuid":"c%d-`, r), `"data":"person`,
						fmt.Sprintf(`"data":"r%dperson`, r), `"first_name":"First`, fmt.Sprintf(`"first_name":"R%dFirst`, r)).Replace(monica)
				}, func(b *testing.B, file string) {
					monicaBench(b, bd.env, bd.key, []byte(file), fmt.Sprintf(`"created":%d,`, n))
				}},
				{"csv", func(r int) string {
					var file strings.Builder
					file.WriteString("First Name,Last Name,Labels,E-mail 1 - Label,E-mail 1 - Value,Phone 1 - Label,Phone 1 - Value\r\n")
					for i := range n {
						fmt.Fprintf(&file, "R%dPerson%d,Number%d,* myContacts ::: Friends,* Home,r%dperson%d@example.com,Mobile,+1 555 %07d\r\n",
							r, i, i, r, i, i)
					}
					return file.String()
				}, func(b *testing.B, file string) {
					req := httptest.NewRequest("POST", "/api/import/csv", strings.NewReader(file))
					req.Header.Set("Authorization", "Bearer "+bd.key)
					req.Header.Set("Content-Type", "text/csv")
					w := httptest.NewRecorder()
					bd.srv.ServeHTTP(w, req)
					if want := fmt.Sprintf(`"created":%d,`, n); w.Code != 200 || !strings.Contains(w.Body.String(), want) {
						b.Fatalf("import: %d %.300s", w.Code, w.Body)
					}
				}},
			}
			for _, k := range kinds {
				b.Run(k.name, func(b *testing.B) {
					var alloc uint64
					var cpu time.Duration
					var ms runtime.MemStats
					for b.Loop() {
						b.StopTimer()
						run++
						file := k.file(run)
						runtime.ReadMemStats(&ms)
						before, cpu0 := ms.TotalAlloc, cpuDuration()
						b.StartTimer()
						k.post(b, file)
						cpu += cpuDuration() - cpu0
						runtime.ReadMemStats(&ms)
						alloc += ms.TotalAlloc - before
					}
					b.ReportMetric(float64(n)*float64(b.N)/b.Elapsed().Seconds(), "cards/s")
					b.ReportMetric(float64(alloc)/float64(b.N)/n/1024, "KB/card")
					b.ReportMetric(float64(cpu.Microseconds())/float64(b.N)/n, "cpu-µs/card")
				})
			}
		})
	}
}

// cpuDuration is the CPU time this process has used: on a machine shared with
// other work, a steadier measure than the clock of what an import costs
// (on PostgreSQL, without the server's own).
func cpuDuration() time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

// BenchmarkVCardImport20MiB imports a file just under the 20 MiB an
// import takes, as benchVCards writes them, into a new account each
// time, with the heap's peak above where it stood: streamed, the import
// should hold the file once and a page of cards.
func BenchmarkVCardImport20MiB(b *testing.B) {
	perCard := len(benchVCards(1000)) / 1000
	n := (20 << 20) / perCard
	file := benchVCards(n)
	for len(file) >= 20<<20 {
		n -= 100
		file = benchVCards(n)
	}
	e := benchEnv(b)
	var all, live float64
	i := 0
	for b.Loop() {
		b.StopTimer()
		i++
		_, key := e.user(fmt.Sprintf("bench%d@example.com", i))
		stop := heapPeak()
		b.StartTimer()
		importBench(b, e, key, file, n)
		a, l := stop()
		all, live = max(all, a), max(live, l)
	}
	b.ReportMetric(float64(n)*float64(b.N)/b.Elapsed().Seconds(), "cards/s")
	b.ReportMetric(all, "peak-heap-MB")
	b.ReportMetric(live, "peak-live-MB")
	b.ReportMetric(float64(len(file))/(1<<20), "in-MB")
}
