package server

import (
	"net/http"
	"testing"
	"time"
)

// BenchmarkWebSessionSeen times a page whose session's last seen is
// written on every request (the clock moves on 5 minutes each time)
// beside the same page that writes nothing: what a page pays once every 5
// minutes of a session's use, and every other page does not.
func BenchmarkWebSessionSeen(b *testing.B) {
	e := newEnv(b)
	e.user("ada@example.com")
	for _, c := range []struct {
		name string
		step time.Duration
	}{{"unwritten", 0}, {"written", 5 * time.Minute}} {
		b.Run(c.name, func(b *testing.B) {
			br := e.signIn(b, "ada@example.com")
			n := 0
			b.ReportAllocs()
			for b.Loop() {
				if n++; n%4000 == 0 { // a session lasts 8,640 steps of 5 minutes
					b.StopTimer()
					br = e.signIn(b, "ada@example.com")
					b.StartTimer()
				}
				e.clock.Advance(c.step)
				if pg := br.get("/journals"); pg.code != http.StatusOK {
					b.Fatalf("%d", pg.code)
				}
			}
			b.ReportMetric(float64(b.Elapsed().Microseconds())/1000/float64(b.N), "ms/op")
		})
	}
}
