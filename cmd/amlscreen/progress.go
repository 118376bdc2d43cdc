package main

import (
	"fmt"
	"io"
	"os"
	"time"

	"github.com/schollz/progressbar/v3"
	"golang.org/x/term"

	"github.com/amlscreen/amlscreen/syncer"
)

// progressBar is the one progress renderer of the CLI: import, apply,
// export, sync, batch and media import all draw with it, on stderr, and
// only when stderr is a terminal; in logs and pipes a bar would be noise.
// It is github.com/schollz/progressbar, which does the terminal work
// (redraw throttling, rate, time left, erasing itself when done). A nil
// *progressBar draws nothing, so callers need no checks.
type progressBar struct {
	pb *progressbar.ProgressBar
	// stop and done end a spinner's redraw loop (nil for a bar).
	stop, done chan struct{}
}

// progressUnitBytes counts bytes (shown as KB, MB, ...); any other unit
// names what is counted ("records").
const progressUnitBytes = "bytes"

// newProgress starts a bar for stage, of total units (-1 when unknown: a
// spinner with the count so far), or returns nil when stderr is not a
// terminal.
func newProgress(stderr io.Writer, stage string, total int64, unit string) *progressBar {
	if !stderrTerminal(stderr) {
		return nil
	}
	opts := []progressbar.Option{
		progressbar.OptionSetWriter(stderr),
		progressbar.OptionSetDescription(stage),
		progressbar.OptionSetWidth(30),
		progressbar.OptionThrottle(200 * time.Millisecond),
		progressbar.OptionShowCount(),
		progressbar.OptionSetElapsedTime(true),
		progressbar.OptionSetPredictTime(true),
		progressbar.OptionUseANSICodes(true),
		progressbar.OptionSetRenderBlankState(true),
		progressbar.OptionClearOnFinish(),
		progressbar.OptionSpinnerType(14),
	}
	if unit == progressUnitBytes {
		opts = append(opts, progressbar.OptionShowBytes(true), progressbar.OptionUseIECUnits(true))
	} else {
		opts = append(opts, progressbar.OptionShowIts(), progressbar.OptionSetItsString(unit))
	}
	return &progressBar{pb: progressbar.NewOptions64(total, opts...)}
}

// newSpinner starts a spinner with the time elapsed, for a stage whose
// size is not known (the store's commit and the index build after an
// import has read its input), or returns nil when stderr is not a
// terminal. It turns until Finish, redrawn every 200 ms.
func newSpinner(stderr io.Writer, stage string) *progressBar {
	if !stderrTerminal(stderr) {
		return nil
	}
	b := &progressBar{pb: progressbar.NewOptions64(-1,
		progressbar.OptionSetWriter(stderr),
		progressbar.OptionSetDescription(stage),
		progressbar.OptionSetWidth(30),
		progressbar.OptionSetElapsedTime(true),
		progressbar.OptionUseANSICodes(true),
		progressbar.OptionSetRenderBlankState(true),
		progressbar.OptionClearOnFinish(),
		progressbar.OptionSpinnerType(14),
	), stop: make(chan struct{}), done: make(chan struct{})}
	go func() {
		defer close(b.done)
		t := time.NewTicker(200 * time.Millisecond)
		defer t.Stop()
		for {
			select {
			case <-t.C:
				b.pb.Add64(0)
			case <-b.stop:
				return
			}
		}
	}()
	return b
}

// Add64 advances the bar by n units.
func (b *progressBar) Add64(n int64) error {
	if b == nil {
		return nil
	}
	return b.pb.Add64(n)
}

// Set64 moves the bar to n units.
func (b *progressBar) Set64(n int64) {
	if b != nil {
		b.pb.Set64(n)
	}
}

// Describe replaces the text before the bar.
func (b *progressBar) Describe(s string) {
	if b != nil {
		b.pb.Describe(s)
	}
}

// Finish erases the bar, so that the log lines around it stay readable.
func (b *progressBar) Finish() error {
	if b == nil {
		return nil
	}
	if b.stop != nil {
		close(b.stop)
		<-b.done
		b.stop = nil
	}
	return b.pb.Finish()
}

// stderrTerminal reports whether w is a terminal, where progress bars
// belong.
func stderrTerminal(w io.Writer) bool {
	f, ok := w.(*os.File)
	return ok && term.IsTerminal(int(f.Fd()))
}

// cliProgress returns the syncer's progress bars (bytes downloaded and
// imported) on a terminal and nil otherwise.
func cliProgress(stderr io.Writer) syncer.ProgressFunc {
	if !stderrTerminal(stderr) {
		return nil
	}
	return func(stage string, total int64) syncer.ProgressBar {
		return newProgress(stderr, stage, total, progressUnitBytes)
	}
}

// humanBytes writes a size for people: 1.5 MiB.
func humanBytes(n int64) string {
	switch {
	case n >= 1<<30:
		return fmt.Sprintf("%.1f GiB", float64(n)/(1<<30))
	case n >= 1<<20:
		return fmt.Sprintf("%.1f MiB", float64(n)/(1<<20))
	case n >= 1<<10:
		return fmt.Sprintf("%.1f KiB", float64(n)/(1<<10))
	}
	return fmt.Sprintf("%d B", n)
}
