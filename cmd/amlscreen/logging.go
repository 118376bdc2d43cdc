package main

import (
	"io"
	"log/slog"
	"os"
	"strings"
	"sync/atomic"

	"github.com/spf13/cobra"
)

// This file is the log of every command: one handler, set once at start
// from --log-format and --log-level, so that a run writes one format.

// logConfig is what --log-format and --log-level chose.
type logConfig struct {
	json  bool
	level slog.Level
}

// logFlags holds the persistent flags' values while they are parsed.
type logFlags struct{ format, level string }

// logging is the configuration of this run, read by cliLogger. It is set
// by the root command's PersistentPreRunE before any command runs.
var logging atomic.Pointer[logConfig]

// logLevels are the values --log-level takes.
var logLevels = map[string]slog.Level{
	"debug": slog.LevelDebug, "info": slog.LevelInfo, "warn": slog.LevelWarn, "error": slog.LevelError,
}

// addLogFlags defines --log-format and --log-level on root for every
// command, and checks and applies them before the command runs.
func addLogFlags(root *cobra.Command) {
	var f logFlags
	pf := root.PersistentFlags()
	pf.StringVar(&f.format, "log-format", "text", "log lines on stderr as text (key=value) or json (one object a line)")
	pf.StringVar(&f.level, "log-level", "info", "least severe log lines written: debug, info, warn or error")
	root.PersistentPreRunE = func(cmd *cobra.Command, _ []string) error {
		c := logConfig{}
		switch strings.ToLower(f.format) {
		case "text":
		case "json":
			c.json = true
		default:
			return usagef("--log-format: %q is not text or json", f.format)
		}
		level, ok := logLevels[strings.ToLower(f.level)]
		if !ok {
			return usagef("--log-level: %q is not debug, info, warn or error", f.level)
		}
		c.level = level
		logging.Store(&c)
		// Packages that log through slog.Default (the store, the index)
		// write in the same format; only for the process's own stderr,
		// so that tests running commands side by side keep their output
		// apart.
		if cmd.ErrOrStderr() == os.Stderr {
			slog.SetDefault(cliLogger(os.Stderr))
		}
		return nil
	}
}

// cliLogger writes one structured line per event to stderr, in the
// format and from the level of --log-format and --log-level.
func cliLogger(stderr io.Writer) *slog.Logger {
	c := logging.Load()
	if c == nil {
		c = &logConfig{level: slog.LevelInfo}
	}
	opts := &slog.HandlerOptions{Level: c.level}
	if c.json {
		return slog.New(slog.NewJSONHandler(stderr, opts))
	}
	return slog.New(slog.NewTextHandler(stderr, opts))
}

// logsJSON tells whether this run logs JSON, for the few lines written
// for a person (the demo's banner), which then go out as a log record.
func logsJSON() bool {
	c := logging.Load()
	return c != nil && c.json
}
