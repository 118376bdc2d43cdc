package main

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

func TestReportWritesPDF(t *testing.T) {
	dir := t.TempDir()
	out := filepath.Join(dir, "putin.pdf")
	args := []string{"report", "--data", "testdata/small.jsonl", "--type", "individual", "--names", "vladimir putinn", "--fuzzy", "1", "--time", "2026-11-22T09:30:00Z", "--out", out}
	code, stdout, stderr := runCLI(t, args...)
	if code != exitOK {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	if !strings.Contains(stdout, "wrote "+out) || !strings.Contains(stdout, "1 hit") || !strings.Contains(stdout, "AMLR-") {
		t.Errorf("stdout %q", stdout)
	}
	first, err := os.ReadFile(out)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.HasPrefix(first, []byte("%PDF-")) {
		t.Fatalf("%s is not a PDF", out)
	}
	// Same flags and time: same bytes, also on standard output.
	code, again, stderr := runCLI(t, append(args[:len(args)-1], "-")...)
	if code != exitOK || again != string(first) {
		t.Errorf("a second run (exit %d, %s) gave different bytes", code, stderr)
	}
	if _, err := exec.LookPath("pdftotext"); err != nil {
		t.Skip("pdftotext not installed (Debian: apt-get install poppler-utils); skipping content check")
	}
	text, err := exec.Command("pdftotext", out, "-").Output()
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"vladimir putinn", "P1", "Vladimir Vladimirovich PUTIN", "Владимир Владимирович Путин", "putinn → putin (1 edit)", "22 November 2026"} {
		if !strings.Contains(string(text), want) {
			t.Errorf("report lacks %q", want)
		}
	}
}

func TestReportLeavesOutOtherSources(t *testing.T) {
	if _, err := exec.LookPath("pdftotext"); err != nil {
		t.Skip("pdftotext not installed (Debian: apt-get install poppler-utils); skipping")
	}
	out := filepath.Join(t.TempDir(), "acme.pdf")
	// E5 is the only "Acme Shipping" and its source is of type OTHER.
	code, stdout, stderr := runCLI(t, "report", "--data", "testdata/small.jsonl", "--type", "entity", "--names", "acme shipping", "--includes", "ext_leaks,included", "--time", "2026-11-22T09:30:00Z", "--out", out)
	if code != exitOK {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	if !strings.Contains(stdout, "0 hits") {
		t.Errorf("stdout %q", stdout)
	}
	text, err := exec.Command("pdftotext", out, "-").Output()
	if err != nil {
		t.Fatal(err)
	}
	// A whole-word match: the report id (AMLR-xxxx-...) is hex and may hold "E5" inside a group.
	if !strings.Contains(string(text), "No hits") || regexp.MustCompile(`\bE5\b`).MatchString(string(text)) || strings.Contains(string(text), "ext_leaks") {
		t.Errorf("report shows an OTHER record or source:\n%s", text)
	}
}

func TestReportUsageErrors(t *testing.T) {
	dir := t.TempDir()
	out := filepath.Join(dir, "r.pdf")
	tests := []struct {
		args []string
		flag string
	}{
		{[]string{"report", "--names", "x", "--out", out}, "--type"},
		{[]string{"report", "--type", "any", "--names", "x", "--out", out}, "--type"},
		{[]string{"report", "--type", "individual", "--out", out}, "--names"},
		{[]string{"report", "--type", "individual", "--names", "x"}, "--out"},
		{[]string{"report", "--type", "entity", "--names", "x", "--dob", "01/01/1970", "--out", out}, "--dob"},
		{[]string{"report", "--type", "individual", "--names", "x", "--dob", "32/01/2000", "--out", out}, "--dob"},
		{[]string{"report", "--type", "individual", "--names", "x", "--gender", "unknown", "--out", out}, "--gender"},
		{[]string{"report", "--type", "individual", "--names", "x", "--citizenship", "RUS", "--out", out}, "--citizenship"},
		{[]string{"report", "--type", "individual", "--names", "x", "--fuzzy", "3", "--out", out}, "--fuzzy"},
		{[]string{"report", "--type", "individual", "--names", "x", "--time", "yesterday", "--out", out}, "--time"},
		{[]string{"report", "--data", "testdata/small.jsonl", "--type", "individual", "--names", "x", "--includes", "nope_src", "--out", out}, "--includes"},
		{[]string{"report", "--data", "testdata/small.jsonl", "--type", "individual", "--names", "x", "--out", filepath.Join(dir, "missing", "r.pdf")}, "--out"},
	}
	for _, tt := range tests {
		code, _, errs := runCLI(t, tt.args...)
		if code != exitUsage || !strings.Contains(errs, tt.flag) || strings.Count(strings.TrimSpace(errs), "\n") > 0 {
			t.Errorf("%v: exit %d, stderr %q; want exit 2 and one line naming %s", tt.args, code, errs, tt.flag)
		}
	}
	if _, err := os.Stat(out); !os.IsNotExist(err) {
		t.Error("a failed run left a file behind")
	}
}
