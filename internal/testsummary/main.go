// Command testsummary reads the output of go test -json on standard input
// and writes what a reader of a CI log needs: the failures with their
// output, the skipped tests with the reason each gave, go test's closing
// line of each package, and a count. It exits 1 when a test, a package or
// a build failed, or when the input held no test events at all, so that a
// pipeline through it fails as go test would.
//
// .ci/run runs it as: go test -json ./... | testsummary
package main

import (
	"bufio"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"sort"
	"strings"
)

func main() {
	ok, err := summarize(os.Stdin, os.Stdout)
	if err != nil {
		fmt.Fprintln(os.Stderr, "testsummary:", err)
		os.Exit(1)
	}
	if !ok {
		os.Exit(1)
	}
}

// event is one line of go test -json (cmd/test2json); ImportPath is set
// on the build-output and build-fail events of a package that did not
// compile.
type event struct {
	Action     string
	Package    string
	Test       string
	Output     string
	ImportPath string
}

// key names one test of one package; Test is "" for the package itself.
type key struct{ pkg, test string }

// summary is what summarize gathers while it reads.
type summary struct {
	output  map[key]*strings.Builder
	build   map[string]*strings.Builder // by import path
	failed  []key                       // tests and packages, in order of failure
	skipped []key
	closing []string // go test's closing line of each package
	passed  int
	fails   int // tests that failed
	events  int
	broken  bool // a package or build failed
}

func (s *summary) out(k key) *strings.Builder {
	b := s.output[k]
	if b == nil {
		b = &strings.Builder{}
		s.output[k] = b
	}
	return b
}

// summarize reads go test -json from r and writes the summary to w. ok is
// false when anything failed.
func summarize(r io.Reader, w io.Writer) (ok bool, err error) {
	s := &summary{output: map[key]*strings.Builder{}, build: map[string]*strings.Builder{}}
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 0, 64*1024), 16*1024*1024)
	for sc.Scan() {
		line := sc.Bytes()
		var e event
		if len(line) == 0 || line[0] != '{' || json.Unmarshal(line, &e) != nil {
			// Not an event: go test's own messages (a package that
			// cannot be loaded) are passed on as they are.
			fmt.Fprintf(w, "%s\n", line)
			continue
		}
		s.add(e)
	}
	if err := sc.Err(); err != nil {
		return false, fmt.Errorf("read go test -json: %w", err)
	}
	s.write(w)
	if s.events == 0 {
		fmt.Fprintln(w, "testsummary: no test events read: did go test -json run?")
		return false, nil
	}
	return s.fails == 0 && !s.broken, nil
}

func (s *summary) add(e event) {
	switch e.Action {
	case "build-output":
		b := s.build[e.ImportPath]
		if b == nil {
			b = &strings.Builder{}
			s.build[e.ImportPath] = b
		}
		b.WriteString(e.Output)
		return
	case "build-fail":
		s.broken = true
		s.failed = append(s.failed, key{pkg: e.ImportPath, test: "(build)"})
		return
	}
	s.events++
	k := key{e.Package, e.Test}
	switch e.Action {
	case "output":
		if e.Test == "" && isClosingLine(e.Output) {
			s.closing = append(s.closing, strings.TrimRight(e.Output, "\n"))
			return
		}
		s.out(k).WriteString(e.Output)
	case "pass":
		if e.Test != "" {
			s.passed++
		}
	case "fail":
		if e.Test != "" {
			s.fails++
		} else {
			s.broken = true
		}
		s.failed = append(s.failed, k)
	case "skip":
		if e.Test != "" {
			s.skipped = append(s.skipped, k)
		}
	}
}

// isClosingLine tells go test's line that closes a package: "ok", "FAIL"
// or "?" (no test files), then the import path.
func isClosingLine(out string) bool {
	for _, p := range []string{"ok  \t", "FAIL\t", "?   \t"} {
		if strings.HasPrefix(out, p) {
			return true
		}
	}
	return false
}

func (s *summary) write(w io.Writer) {
	if len(s.failed) > 0 {
		fmt.Fprintln(w, "\n=== failures")
		for _, k := range s.failed {
			switch {
			case k.test == "(build)":
				fmt.Fprintf(w, "--- build of %s failed:\n%s", k.pkg, indent(s.build[k.pkg]))
			case k.test == "":
				// A package that failed outside its tests (a panic, a
				// TestMain, a timeout) shows its own output.
				if b := packageOutput(s.output[k]); b.Len() > 0 {
					fmt.Fprintf(w, "--- %s:\n%s", k.pkg, indent(b))
				}
			default:
				fmt.Fprintf(w, "--- %s %s:\n%s", k.pkg, k.test, indent(s.output[k]))
			}
		}
	}
	if len(s.skipped) > 0 {
		sort.Slice(s.skipped, func(i, j int) bool {
			a, b := s.skipped[i], s.skipped[j]
			return a.pkg < b.pkg || (a.pkg == b.pkg && a.test < b.test)
		})
		fmt.Fprintf(w, "\n=== skipped tests (%d)\n", len(s.skipped))
		for _, k := range s.skipped {
			fmt.Fprintf(w, "%s %s: %s\n", k.pkg, k.test, skipReason(s.output[k]))
		}
	}
	fmt.Fprintln(w)
	for _, l := range s.closing {
		fmt.Fprintln(w, l)
	}
	fmt.Fprintf(w, "%d passed, %d failed, %d skipped\n", s.passed, s.fails, len(s.skipped))
}

// skipReason is the message a skipped test gave, without go test's own
// "=== RUN" and "--- SKIP" lines and the file:line prefix kept.
func skipReason(b *strings.Builder) string {
	if b == nil {
		return "(no message)"
	}
	var lines []string
	for _, l := range strings.Split(b.String(), "\n") {
		t := strings.TrimSpace(l)
		if t == "" || strings.HasPrefix(t, "=== ") || strings.HasPrefix(t, "--- SKIP") {
			continue
		}
		lines = append(lines, t)
	}
	if len(lines) == 0 {
		return "(no message)"
	}
	return strings.Join(lines, " / ")
}

// indent indents the lines of b, ending with a newline.
func indent(b *strings.Builder) string {
	if b == nil || b.Len() == 0 {
		return "    (no output)\n"
	}
	var out strings.Builder
	for _, l := range strings.Split(strings.TrimRight(b.String(), "\n"), "\n") {
		out.WriteString("    " + l + "\n")
	}
	return out.String()
}

// packageOutput is a package's own output without go test's bare "PASS"
// and "FAIL" lines, which say nothing the closing line does not.
func packageOutput(b *strings.Builder) *strings.Builder {
	out := &strings.Builder{}
	if b == nil {
		return out
	}
	for _, l := range strings.SplitAfter(b.String(), "\n") {
		if t := strings.TrimSpace(l); t != "" && t != "PASS" && t != "FAIL" {
			out.WriteString(l)
		}
	}
	return out
}
