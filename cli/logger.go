package cli

import (
	"bufio"
	"io"
	"os"
	"sync"
	"time"

	"github.com/mattn/go-isatty"
	"github.com/rs/zerolog"

	"kith/config"
)

// newLogger returns the logger of cfg, writing to w through a logBuffer,
// which the caller closes to write out what it holds.
func newLogger(cfg *config.Config, w io.Writer) (zerolog.Logger, *logBuffer) {
	level, err := zerolog.ParseLevel(cfg.LogLevel)
	if err != nil {
		level = zerolog.InfoLevel // unreachable: the config was validated
	}
	buf := newLogBuffer(w)
	if cfg.LogFormat == "console" {
		buf.line = zerolog.ConsoleWriter{Out: buf.out, NoColor: !isTerminal(w), TimeFormat: time.DateTime}
	}
	return zerolog.New(buf).Level(level).With().Timestamp().Logger(), buf
}

// isTerminal reports whether w is a terminal, where colours help; a file,
// a pipe, the journal or /dev/null (a character device too) get none.
func isTerminal(w io.Writer) bool {
	f, ok := w.(*os.File)
	return ok && isatty.IsTerminal(f.Fd())
}

// logFlushDelay is how long a line may wait in a logBuffer.
const logFlushDelay = 100 * time.Millisecond

// logBuffer gathers log lines and writes them out together, within
// logFlushDelay of the first, or at once for a warning or worse: a
// write(2) per request's line was a twentieth of a task read's CPU. A
// crash loses what it holds, at most logFlushDelay of lines below warning.
// An idle server sets no timer.
type logBuffer struct {
	mu      sync.Mutex
	out     *bufio.Writer
	line    io.Writer // what a line is written through: out, or a ConsoleWriter over it
	pending bool      // a flush is due
	closed  bool
}

func newLogBuffer(w io.Writer) *logBuffer {
	out := bufio.NewWriterSize(w, 32<<10)
	return &logBuffer{out: out, line: out}
}

// Write is a line without a level, which goes out at once.
func (b *logBuffer) Write(p []byte) (int, error) { return b.WriteLevel(zerolog.NoLevel, p) }

// WriteLevel makes logBuffer a zerolog.LevelWriter.
func (b *logBuffer) WriteLevel(l zerolog.Level, p []byte) (int, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	n, err := b.line.Write(p)
	switch {
	case err != nil:
	case l >= zerolog.WarnLevel || b.closed:
		err = b.out.Flush()
	case !b.pending:
		b.pending = true
		time.AfterFunc(logFlushDelay, b.flush)
	}
	return n, err
}

func (b *logBuffer) flush() {
	b.mu.Lock()
	defer b.mu.Unlock()
	b.pending = false
	b.out.Flush()
}

// Close writes out what the buffer holds; lines after it go out at once.
func (b *logBuffer) Close() error {
	b.mu.Lock()
	defer b.mu.Unlock()
	b.closed = true
	return b.out.Flush()
}
