package cli

import (
	"strings"
	"testing"
	"time"

	"kith/config"
)

// eventually waits up to a second for cond.
func eventually(cond func() bool) bool {
	for deadline := time.Now().Add(time.Second); !cond(); time.Sleep(5 * time.Millisecond) {
		if time.Now().After(deadline) {
			return false
		}
	}
	return true
}

// TestLogBuffer: lines below a warning wait, together, for at most
// logFlushDelay; a warning goes out at once, with the lines before it and
// in their order; Close writes out what is held, and lines after it go out
// at once.
func TestLogBuffer(t *testing.T) {
	for _, format := range []string{"json", "console"} {
		t.Run(format, func(t *testing.T) {
			out := &buffer{} // main_test.go: the timer's flush and the test read it at once
			log, buf := newLogger(&config.Config{LogLevel: "info", LogFormat: format}, out)

			start := time.Now()
			log.Info().Msg("first")
			log.Info().Msg("second")
			if got := out.String(); got != "" {
				t.Errorf("info lines written at once: %q", got)
			}
			if !eventually(func() bool { return strings.Count(out.String(), "\n") == 2 }) {
				t.Fatalf("the info lines were not written within a second: %q", out.String())
			}
			if waited := time.Since(start); waited < logFlushDelay/2 {
				t.Errorf("written after %v, before the delay", waited)
			}

			log.Info().Msg("third")
			log.Warn().Msg("fourth")
			got := out.String()
			if i3, i4 := strings.Index(got, "third"), strings.Index(got, "fourth"); i3 < 0 || i4 < i3 {
				t.Errorf("a warning did not write itself and the line before it, in order: %q", got)
			}

			log.Info().Msg("fifth")
			if err := buf.Close(); err != nil {
				t.Fatal(err)
			}
			if !strings.Contains(out.String(), "fifth") {
				t.Errorf("Close did not write the line it held: %q", out.String())
			}
			log.Info().Msg("sixth")
			if !strings.Contains(out.String(), "sixth") {
				t.Errorf("a line after Close was held: %q", out.String())
			}
			if n := strings.Count(out.String(), "\n"); n != 6 {
				t.Errorf("%d lines, want 6: %q", n, out.String())
			}
		})
	}
}
