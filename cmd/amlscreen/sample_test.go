package main

import (
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/amlscreen/amlscreen/sampledata"
)

// TestSampleOutputsSaySo: a table and a PDF report made from the embedded
// sample say it is no screening, with hits and without; the same outputs
// from a data file do not.
func TestSampleOutputsSaySo(t *testing.T) {
	for _, tt := range []struct {
		name   string
		args   []string
		sample bool
	}{
		{"sample with hits", []string{"--names", "vladimir putin"}, true},
		{"sample without hits", []string{"--names", "zzyzx nobody"}, true},
		{"data file", []string{"--data", "testdata/small.jsonl", "--names", "vladimir putin"}, false},
	} {
		t.Run(tt.name, func(t *testing.T) {
			code, out, errs := runCLI(t, append([]string{"check", "--format", "table"}, tt.args...)...)
			if code != exitOK {
				t.Fatalf("exit %d: %s", code, errs)
			}
			lines := strings.Split(strings.TrimSpace(out), "\n")
			last := lines[len(lines)-1]
			if got := strings.HasPrefix(last, sampledata.Mark); got != tt.sample {
				t.Errorf("table ends with %q; want the sample's mark: %v", last, tt.sample)
			}
			// JSON is the API's answer, unchanged: no line is added.
			code, out, _ = runCLI(t, append([]string{"check", "--format", "json"}, tt.args...)...)
			if code != exitOK || strings.Contains(out, sampledata.Mark) {
				t.Errorf("JSON output: exit %d, %s", code, out)
			}

			pdf := filepath.Join(t.TempDir(), "r.pdf")
			code, _, errs = runCLI(t, append([]string{"report", "--type", "individual", "--out", pdf}, tt.args...)...)
			if code != exitOK {
				t.Fatalf("report: exit %d: %s", code, errs)
			}
			if _, err := exec.LookPath("pdftotext"); err != nil {
				t.Skip("pdftotext not installed (Debian: apt-get install poppler-utils); skipping the report's text")
			}
			text, err := exec.Command("pdftotext", "-enc", "UTF-8", pdf, "-").Output()
			if err != nil {
				t.Fatal(err)
			}
			if got := strings.Contains(string(text), sampledata.Mark); got != tt.sample {
				t.Errorf("report carries the sample's mark: %v, want %v", got, tt.sample)
			}
		})
	}
}
