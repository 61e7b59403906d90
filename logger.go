package main

import (
	"io"
	"os"
	"time"

	"github.com/mattn/go-isatty"
	"github.com/rs/zerolog"

	"kith/config"
)

func newLogger(cfg *config.Config, w io.Writer) zerolog.Logger {
	level, err := zerolog.ParseLevel(cfg.LogLevel)
	if err != nil {
		level = zerolog.InfoLevel // unreachable: the config was validated
	}
	if cfg.LogFormat == "console" {
		w = zerolog.ConsoleWriter{Out: w, NoColor: !isTerminal(w), TimeFormat: time.DateTime}
	}
	return zerolog.New(w).Level(level).With().Timestamp().Logger()
}

// isTerminal reports whether w is a terminal, where colours help; a file,
// a pipe, the journal or /dev/null (a character device too) get none.
func isTerminal(w io.Writer) bool {
	f, ok := w.(*os.File)
	return ok && isatty.IsTerminal(f.Fd())
}
