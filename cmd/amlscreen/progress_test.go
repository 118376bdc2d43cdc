//go:build linux

package main

import (
	"bytes"
	"io"
	"path/filepath"
	"strings"
	"testing"

	"github.com/amlscreen/amlscreen/internal/ptytest"
)

// drawn runs the CLI with stderr on a pseudo-terminal and returns what it
// drew there.
func drawn(t *testing.T, args ...string) (int, string) {
	t.Helper()
	pty, tty := ptytest.Open(t)
	got := make(chan string)
	go func() {
		var b bytes.Buffer
		io.Copy(&b, pty) // ends with EIO once tty is closed
		got <- b.String()
	}()
	var out bytes.Buffer
	code := run(args, &out, tty)
	tty.Close()
	return code, <-got
}

// mediaCorpus is a small media corpus: the progress tests read 13
// articles rather than the embedded sample's 4,000, which media import
// --sample would analyse anew in each test (TestMediaSampleCheck and the
// demo tests use the sample).
const mediaCorpus = "../../media/testdata/corpus.jsonl"

// TestProgressOnTerminal: import, export, apply, media import and batch
// draw the one progress renderer on a terminal, and erase it when done.
func TestProgressOnTerminal(t *testing.T) {
	dir := t.TempDir()
	db := filepath.Join(dir, "a.db")
	tests := []struct {
		args  []string
		stage string
	}{
		{[]string{"import", "--store", db, fixtures + "full_v1.jsonl", "--version", "v1"}, "import"},
		{[]string{"apply", "--store", db, fixtures + "delta_v1_v2.jsonl", "--previous", "v1", "--version", "v2"}, "apply"},
		{[]string{"export", "--store", db, "--out", filepath.Join(dir, "full.jsonl")}, "export"},
		{[]string{"media", "import", "--store", filepath.Join(dir, "m.db"), mediaCorpus}, "media import"},
		{[]string{"batch", "--in", exampleBook, "--out", filepath.Join(dir, "hits.csv")}, "batch"},
	}
	for _, tc := range tests {
		code, screen := drawn(t, tc.args...)
		if code != exitOK && code != exitRejected {
			t.Fatalf("%v: exit %d: %q", tc.args, code, screen)
		}
		if !strings.Contains(screen, tc.stage) || !strings.Contains(screen, "\r") {
			t.Errorf("%v: no progress drawn on the terminal: %q", tc.args, screen)
		}
		// After the input is read, the commit and the index build are
		// shown too, not silence after 100 %.
		if tc.stage == "import" && !strings.Contains(screen, "import: writing the store and building the screening index") {
			t.Errorf("%v: nothing drawn after the input was read: %q", tc.args, screen)
		}
	}
}

// TestNoProgressWithoutTerminal: with stderr in a file or a pipe, the
// same commands write log lines only, no bar and no escape sequences.
func TestNoProgressWithoutTerminal(t *testing.T) {
	dir := t.TempDir()
	db := filepath.Join(dir, "a.db")
	for _, args := range [][]string{
		{"import", "--store", db, fixtures + "full_v1.jsonl", "--version", "v1"},
		{"apply", "--store", db, fixtures + "delta_v1_v2.jsonl", "--previous", "v1", "--version", "v2"},
		{"export", "--store", db, "--out", filepath.Join(dir, "full.jsonl")},
		{"media", "import", "--store", filepath.Join(dir, "m.db"), mediaCorpus},
		{"batch", "--in", exampleBook, "--out", filepath.Join(dir, "hits.csv")},
	} {
		code, _, errs := runStoreCLI(t, args...)
		if code != exitOK && code != exitRejected {
			t.Fatalf("%v: exit %d: %s", args, code, errs)
		}
		if strings.ContainsAny(errs, "\r\x1b") {
			t.Errorf("%v: progress drawn into a non-terminal: %q", args, errs)
		}
	}
}

// TestBinaryNotToTerminal: report --out - and export --gzip refuse a
// terminal on standard output (exit 2), instead of filling it with bytes.
func TestBinaryNotToTerminal(t *testing.T) {
	dir := t.TempDir()
	db := filepath.Join(dir, "a.db")
	if code, _, errs := runStoreCLI(t, "import", "--store", db, fixtures+"full_v1.jsonl", "--version", "v1"); code != exitOK {
		t.Fatal(errs)
	}
	for _, args := range [][]string{
		{"report", "--type", "individual", "--names", "x", "--data", "testdata/small.jsonl", "--out", "-"},
		{"export", "--store", db, "--gzip"},
	} {
		_, tty := ptytest.Open(t)
		var errb bytes.Buffer
		code := run(args, tty, &errb)
		if code != exitUsage || !strings.Contains(errb.String(), "terminal") {
			t.Errorf("%v: exit %d, %q", args, code, errb.String())
		}
	}
}
